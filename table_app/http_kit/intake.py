"""The web server's intake: one thread accepts every connection and reads each request whole —
its line, headers and body — before any thread is spent on it.

A connection waits here, in a selector, until its request has arrived or its deadline has
passed: ``request_timeout_s`` from the first byte waited for (at accepting it, or after the
previous answer on a kept-alive connection) for the line, the headers (at most
``HEADER_BYTES``) and the body (at most ``MAX_BODY``, framed by ``Content-Length``), in all.
A request sent a byte at a time, a body trickling in, a connection that sends nothing: each is
cut at its deadline (``408`` if something had come). Waiting costs a socket and a buffer, not
a thread, so it is bounded generously, in all and per address (``waiting``,
``waiting_per_client``); beyond, room is made rather than the newcomer refused: the oldest
waiting connection of that address (of the address holding the most, when all are taken) is
read once more and, if its request is still not whole, answered ``503`` with ``Retry-After``
and closed. A phone's request arrives with its connection, so it is whole before anything can
push it out, even when a stranger shares its address.

A whole request goes to ``answer`` with ``trusted(target, cookie)`` — whether it is a bound
phone's — which gives it a thread from the places its kind may take
(:mod:`table_app.http_kit.admission`); a connection kept alive after its answer comes back here.
When the process is out of file descriptors, accepting pauses ``ACCEPT_BACKOFF_S`` instead of
spinning on a listening socket that stays readable.
"""

from __future__ import annotations

import contextlib
import errno
import http.client
import io
import logging
import queue
import re
import selectors
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from table_app.http_kit.admission import Limits, Pool, client_key
from table_app.system.fault_log import FaultLog

log = logging.getLogger("table_app.http_kit.server")

HEADER_BYTES = 16_384  # the request line and headers, in all (a phone sends well under 2 KiB)
MAX_BODY = 1024  # a request's body (a join or a press is a few dozen bytes); beyond, the answer is 413
ACCEPT_BACKOFF_S = 0.2
ACCEPTS_PER_ROUND = 32  # then the waiting connections' bytes are read before more are taken in
POLL_S = 0.5  # the loop's longest sleep (the heartbeat's pace when idle)
_OUT_OF_FDS = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
_END = re.compile(rb"\r?\n\r?\n")
_CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"
_LATE = (b"HTTP/1.1 408 Request Timeout\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 22\r\n"
         b"Connection: close\r\n\r\nthe request came late\n")
_TOO_BIG = (b"HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\n"
            b"Content-Length: 31\r\nConnection: close\r\n\r\nrequest headers over 16384 bytes")
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Content-Length: 23\r\nRetry-After: 5\r\nConnection: close\r\n\r\nbusy: too many phones\r\n")


@dataclass(eq=False)
class Pending:
    """A connection and its request, read whole: what an answering thread is given."""

    sock: socket.socket
    client: str  # the peer's address
    key: str  # whom the per-address limits count (:func:`client_key`)
    data: bytes  # the request: line, headers and (framed by Content-Length) body
    trusted: bool  # a bound phone's (the server's predicate said so, from the headers)
    leftover: bytes = b""  # what came after it (a pipelined request)
    close_after: bool = False  # its body was not framed (too big, chunked): never kept alive
    place: Pool | None = None  # the request's place while it holds one
    keep_alive: bool = False  # the answer left the connection open for another request


@dataclass(frozen=True)
class _Head:
    length: int  # of the whole request (line, headers and body)
    target: str
    cookie: str | None
    close_after: bool
    expects_continue: bool


@dataclass(eq=False)
class _Conn:
    sock: socket.socket
    client: str
    key: str
    deadline: float
    buffer: bytearray = field(default_factory=bytearray)
    trusted: bool = False  # its last request was a bound phone's (pushed out last)
    head: _Head | None = None
    scanned: int = 0  # where to look for the end of the headers next (a byte at a time costs no more)
    continued: bool = False


def read_head(buffer: bytes | bytearray, start: int = 0) -> _Head | None:
    """The request's head once its headers are whole (None: not yet), parsed as http.server
    does (``http.client.parse_headers``); raises ``ValueError`` for headers over HEADER_BYTES.
    The end of the headers is looked for from ``start`` on (what came before was looked at).

    >>> h = read_head(b"POST /phone/1/press HTTP/1.1\\r\\nCookie: a=b\\r\\nContent-Length: 2\\r\\n\\r\\n{}")
    >>> h.length, h.target, h.cookie, h.close_after
    (66, '/phone/1/press', 'a=b', False)
    """
    end = _END.search(buffer, start, HEADER_BYTES + 4)
    if end is None:
        if len(buffer) > HEADER_BYTES:
            raise ValueError("request headers too long")
        return None
    line, _, rest = bytes(buffer[:end.end()]).partition(b"\n")
    words = line.decode("latin-1").split()
    target = words[1] if len(words) >= 2 else ""
    try:
        headers = http.client.parse_headers(io.BytesIO(rest))
    except (http.client.HTTPException, ValueError):  # over 100 lines: http.server answers 431
        return _Head(end.end(), target, None, True, False)
    length = headers.get("Content-Length")
    framed = headers.get("Transfer-Encoding") is None and (
        length is None or (length.isdigit() and int(length) <= MAX_BODY))
    body = int(length) if framed and length is not None else 0
    return _Head(end.end() + body, target, headers.get("Cookie"), not framed,
                 (headers.get("Expect") or "").lower() == "100-continue")


def send_now(sock: socket.socket, data: bytes) -> None:
    """A short answer without waiting, then the connection closed cleanly (FIN, not RST)."""
    with contextlib.suppress(OSError):
        sock.setblocking(False)
        with contextlib.suppress(OSError):
            while sock.recv(65536):  # what has arrived, so that closing sends FIN rather than RST
                pass
        sock.send(data)
        sock.shutdown(socket.SHUT_WR)
    sock.close()


class Intake:
    """``Intake(listener, limits, trusted, answer, faults).run()`` on its own thread; ``stop()``."""

    def __init__(self, listener: socket.socket, limits: Limits, trusted: Callable[[str, str | None], bool],
                 answer: Callable[[Pending], None], faults: FaultLog) -> None:
        self.limits = limits
        self._listener = listener
        self._trusted = trusted
        self._answer = answer
        self._faults = faults
        self._selector = selectors.DefaultSelector()
        self._conns: dict[int, _Conn] = {}  # by fd, in the order of their deadlines
        self._by_client: dict[str, dict[int, _Conn]] = {}
        self._back: queue.SimpleQueue[Pending] = queue.SimpleQueue()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._stopping = threading.Event()
        self._stopped = threading.Event()
        self._running = False
        self._paused_until: float | None = None
        self.evicted = 0  # waiting connections answered 503 to make room
        self.cut = 0  # requests cut at their deadline
        self.accept_failures = 0

    @property
    def waiting(self) -> int:
        return len(self._conns)

    # -- the loop ------------------------------------------------------------------------------

    def run(self, heartbeat: Callable[[], None] | None = None) -> None:
        self._running = True
        self._listener.setblocking(False)
        self._selector.register(self._listener, selectors.EVENT_READ, "listen")
        self._selector.register(self._wake_r, selectors.EVENT_READ, "wake")
        try:
            while not self._stopping.is_set():
                self._round()
                if heartbeat is not None:
                    heartbeat()
        finally:
            self._stopped.set()

    def _round(self) -> None:
        now = time.monotonic()
        timeout = POLL_S
        if self._conns:
            timeout = min(timeout, max(0.0, next(iter(self._conns.values())).deadline - now))
        if self._paused_until is not None:
            timeout = min(timeout, max(0.0, self._paused_until - now))
        events = self._selector.select(timeout)
        accept = False
        for key, _ in events:  # the waiting connections first, then the newcomers
            if isinstance(key.data, _Conn):
                self._guarded(self._read, key.data)
            elif key.data == "listen":
                accept = True
            else:
                self._take_back()
        if accept:
            self._accept()
        now = time.monotonic()
        if self._paused_until is not None and now >= self._paused_until:
            self._paused_until = None
            self._selector.register(self._listener, selectors.EVENT_READ, "listen")
        self._expire(now)

    def _guarded(self, read: Callable[[_Conn], None], conn: _Conn) -> None:
        """A connection's trouble (a bug met by some request) ends that connection, never the intake."""
        try:
            read(conn)
        except Exception as e:
            self._faults.log(log, "web: reading a request failed", e)
            self._forget(conn)
            conn.sock.close()

    def stop(self) -> None:
        self._stopping.set()
        self._wake()
        if self._running:
            self._stopped.wait()

    def close(self) -> None:
        for conn in list(self._conns.values()):
            self._forget(conn)
            conn.sock.close()
        while not self._back.empty():
            self._back.get().sock.close()
        self._selector.close()
        self._wake_r.close()
        self._wake_w.close()

    def give_back(self, pending: Pending) -> None:
        """A connection kept alive after its answer (from the answering thread): its next
        request is waited for here, with a new deadline."""
        if self._stopping.is_set():
            pending.sock.close()
            return
        self._back.put(pending)
        self._wake()

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            self._wake_w.send(b"\0")

    # -- taking connections in --------------------------------------------------------------------

    def _accept(self) -> None:
        for _ in range(ACCEPTS_PER_ROUND):
            try:
                sock, address = self._listener.accept()
            except BlockingIOError:
                return
            except OSError as e:
                if e.errno in _OUT_OF_FDS:
                    self._pause(e)
                return
            client = str(address[0])
            self._add(sock, client, client_key(client), b"", trusted=False)

    def _pause(self, error: OSError) -> None:
        # The listening socket stays readable while the connection waits: without a pause the
        # selector would hand it back at once, forever.
        self.accept_failures += 1
        if self.accept_failures == 1 or self.accept_failures % 100 == 0:
            log.warning("web: cannot accept a connection (%s); waiting %.1f s between tries (%d so far)",
                        error.strerror, ACCEPT_BACKOFF_S, self.accept_failures)
        self._selector.unregister(self._listener)
        self._paused_until = time.monotonic() + ACCEPT_BACKOFF_S

    def _take_back(self) -> None:
        with contextlib.suppress(OSError):
            while self._wake_r.recv(4096):
                pass
        while not self._back.empty():
            p = self._back.get()
            if self._stopping.is_set():
                p.sock.close()
                continue
            self._add(p.sock, p.client, p.key, p.leftover, p.trusted)

    def _add(self, sock: socket.socket, client: str, key: str, data: bytes, trusted: bool) -> None:
        try:
            self._wait_for_request(sock, client, key, data, trusted)
        except Exception as e:  # (a bug met by some request: that connection ends, never the intake)
            self._faults.log(log, "web: taking a connection in failed", e)
            conn = self._conns.get(sock.fileno())
            if conn is not None and conn.sock is sock:
                self._forget(conn)
            sock.close()

    def _wait_for_request(self, sock: socket.socket, client: str, key: str, data: bytes, trusted: bool) -> None:
        with contextlib.suppress(OSError):
            sock.setblocking(False)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # (an answer's head and body: no Nagle wait)
        self._make_room(key)
        conn = _Conn(sock, client, key, time.monotonic() + self.limits.request_timeout_s, bytearray(data), trusted)
        self._conns[sock.fileno()] = conn
        self._by_client.setdefault(key, {})[sock.fileno()] = conn
        self._selector.register(sock, selectors.EVENT_READ, conn)
        if data:
            self._frame(conn)
        else:
            self._read(conn)  # what came with the connection (a phone's request, usually)

    def _make_room(self, key: str) -> None:
        mine = self._by_client.get(key)
        if mine is not None and len(mine) >= self.limits.waiting_per_client:
            self._evict(mine)
        if len(self._conns) >= self.limits.waiting:
            self._evict(max(self._by_client.values(), key=len))

    def _evict(self, conns: dict[int, _Conn]) -> None:
        """Free a place among ``conns``: their oldest (not a bound phone's, if there is one),
        read once more; still not whole, it is answered 503."""
        victim = next((c for c in conns.values() if not c.trusted), None) or next(iter(conns.values()))
        self._read(victim)
        if victim.sock.fileno() in self._conns and self._conns[victim.sock.fileno()] is victim:
            self.evicted += 1
            self._forget(victim)
            send_now(victim.sock, BUSY)

    # -- reading requests ---------------------------------------------------------------------------

    def _read(self, conn: _Conn) -> None:
        try:
            chunk = conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if not chunk:  # the client went away
            self._forget(conn)
            conn.sock.close()
            return
        conn.buffer += chunk
        self._frame(conn)

    def _frame(self, conn: _Conn) -> None:
        try:
            head = conn.head or read_head(conn.buffer, conn.scanned)
        except ValueError:
            self._forget(conn)
            send_now(conn.sock, _TOO_BIG)
            return
        if head is None:
            conn.scanned = max(0, len(conn.buffer) - 3)
            return
        conn.head = head
        if len(conn.buffer) < head.length:
            if head.expects_continue and not conn.continued:
                conn.continued = True
                with contextlib.suppress(OSError):
                    conn.sock.send(_CONTINUE)
            return
        self._forget(conn)
        data, leftover = bytes(conn.buffer[:head.length]), bytes(conn.buffer[head.length:])
        self._answer(Pending(conn.sock, conn.client, conn.key, data, self._is_trusted(head), leftover,
                             head.close_after))

    def _is_trusted(self, head: _Head) -> bool:
        try:
            return self._trusted(head.target, head.cookie)
        except Exception as e:  # (a bug: the request is treated as anyone's, never the loop stopped)
            self._faults.log(log, "web: the server's trusted() failed", e)
            return False

    def _expire(self, now: float) -> None:
        while self._conns:
            conn = next(iter(self._conns.values()))
            if conn.deadline > now:
                return
            self.cut += 1
            self._forget(conn)
            if conn.buffer:
                send_now(conn.sock, _LATE)
            else:  # an idle keep-alive, or a connection that never sent anything
                conn.sock.close()

    def _forget(self, conn: _Conn) -> None:
        fd = conn.sock.fileno()
        if self._conns.get(fd) is not conn:
            return
        del self._conns[fd]
        mine = self._by_client[conn.key]
        del mine[fd]
        if not mine:
            del self._by_client[conn.key]
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(conn.sock)
