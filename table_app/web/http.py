"""A small HTTP/1.1 server that answers from a route table, and bounds what the network can take.

It knows no paths of its own: a :class:`Router` holds the table (:mod:`table_app.web.routes`),
and every answer about methods derives from it — a path takes the methods of its rows (GET
with HEAD) and OPTIONS; OPTIONS lists them, another method gets 405 with the same ``Allow``.
A path outside the table is read-only like the rest: GET and HEAD get 404, OPTIONS lists GET,
HEAD and OPTIONS, anything else 405. A route's answer is a :class:`Reply` or an event
:class:`Stream`; a POST's body is a JSON body of at most ``MAX_BODY`` bytes (413, 415).

What a phone (or anything else on the network) can take is bounded, so that the table never
pays for it (issue 16):

- a request's line and headers must arrive within ``header_timeout_s`` of the first wait
  for it, in total (a request sent a byte at a time is cut off, as is an idle keep-alive),
  and be at most ``HEADER_BYTES`` long (http.server alone would take 100 lines of 64 KiB);
  a reply that cannot be written within ``write_timeout_s`` ends the connection;
- at most ``max_connections`` connections at once; beyond, a short ``503`` with
  ``Retry-After`` (sent without waiting, from the thread that accepts); the event streams
  among them are counted by the :class:`Pacer` (beyond its limit, the same ``503``);
- a stream sends from its own thread when the pacer ticks, and only what changed;
- when the process runs out of file descriptors, accepting waits ``ACCEPT_BACKOFF_S``
  before it tries again instead of spinning on a listening socket that stays readable.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import logging
import re
import select
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Generic, Literal, Protocol, TypeVar

from table_app.fault_log import FaultLog

log = logging.getLogger(__name__)

HEADER_BYTES = 16_384  # the request line and headers, in all (a phone sends well under 2 KiB)
MAX_BODY = 1024  # a POST's JSON body (a join or a press is a few dozen bytes)
ACCEPT_BACKOFF_S = 0.2
METHODS = ("GET", "HEAD", "POST", "OPTIONS")  # the order ``Allow`` lists them in
READ_ONLY = ("GET", "HEAD", "OPTIONS")  # what a path outside the table takes
TEXT = "text/plain; charset=utf-8"
_OUT_OF_FDS = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
         b"Content-Length: 23\r\nRetry-After: 5\r\nConnection: close\r\n\r\nbusy: too many phones\r\n")

S = TypeVar("S")  # what a table's answers read (routes.Site)


@dataclass(frozen=True)
class Reply:
    status: int
    content_type: str
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Stream:
    """Server-Sent Events: ``frame()`` is what to send now (sent only when it differs from the
    last) and whether the stream ends after it; it is asked again at each tick of the pacer,
    or after ``wake_s`` without one (then, with ``keepalive``, a comment line is sent)."""

    frame: Callable[[], tuple[bytes, bool]]
    wake_s: float
    keepalive: bool = True


@dataclass(frozen=True)
class Request:
    """What a route's answer reads of a request: its path's groups, the query string, the
    ``Cookie`` header, the client's address, the (POST's) body and the ``Host`` header."""

    args: tuple[str, ...]
    query: str = ""
    cookie: str | None = None
    client: str = ""
    body: bytes = b""
    host: str = ""


Answer = Reply | Stream


@dataclass(frozen=True)
class Route(Generic[S]):
    """A row of a route table: ``method`` (GET answers HEAD too) and ``path``, a regular
    expression the whole path (without the query) must match, whose groups are the answer's
    ``request.args``; ``answer(site, request)``; ``what`` the route is for."""

    method: Literal["GET", "POST"]
    path: str
    answer: Callable[[S, Request], Answer]
    what: str


class Router:
    """A route table bound to what its answers read (``site``)."""

    def __init__(self, routes: Sequence[Route[S]], site: S) -> None:
        self._rows: tuple[tuple[str, re.Pattern[str], Callable[[Request], Answer]], ...] = tuple(
            (route.method, re.compile(route.path), functools.partial(route.answer, site)) for route in routes)

    def find(self, method: str, path: str) -> tuple[Callable[[Request], Answer], tuple[str, ...]] | None:
        """The answer for ``method`` at ``path`` and the path's groups (None: no such row)."""
        for taken, pattern, answer in self._rows:
            if taken == method and (m := pattern.fullmatch(path)) is not None:
                return answer, m.groups()
        return None

    def methods(self, path: str) -> tuple[str, ...]:
        """What ``path`` takes, in ``Allow``'s order; () for a path outside the table."""
        taken = {method for method, pattern, _ in self._rows if pattern.fullmatch(path) is not None}
        if not taken:
            return ()
        if "GET" in taken:
            taken.add("HEAD")
        return tuple(m for m in METHODS if m in taken or m == "OPTIONS")


def refusal(methods: Sequence[str]) -> bytes:
    """A 405's text: ``read-only: GET, HEAD or OPTIONS only``.

    >>> refusal(("POST", "OPTIONS"))
    b'POST or OPTIONS only\\n'
    """
    text = f"{', '.join(methods[:-1])} or {methods[-1]} only\n"
    return (text if "POST" in methods else "read-only: " + text).encode()


class Pacer(Protocol):
    """What the event streams need of the server's state: a place among the streams, and the
    pace-maker's ticks (:class:`table_app.web.live.LiveTable`)."""

    def open_stream(self) -> bool: ...

    def close_stream(self) -> None: ...

    def wait_tick(self, seen: int, timeout: float) -> tuple[bool, int]: ...


class Server(ThreadingHTTPServer):
    """A thread per connection, at most ``max_connections`` of them; accepting never spins.
    ``heartbeat`` (systemd's watchdog) is beaten on each round of ``serve_forever``."""

    daemon_threads = True
    request_queue_size = 64

    def __init__(self, address: tuple[str, int], router: Router, pacer: Pacer, *, max_connections: int,
                 header_timeout_s: float, write_timeout_s: float,
                 heartbeat: Callable[[], None] | None = None) -> None:
        self.faults = FaultLog()  # requests that failed (a bug), by kind: a traceback once, then counts
        super().__init__(address, Handler)  # (which calls server_close() if it cannot bind)
        self.router = router
        self.pacer = pacer
        self.header_timeout_s = header_timeout_s
        self.write_timeout_s = write_timeout_s
        self.heartbeat = heartbeat
        self.max_connections = max_connections
        self.active = 0
        self.refused = 0
        self.accept_failures = 0
        self._count = threading.Lock()

    def service_actions(self) -> None:
        if self.heartbeat is not None:  # serve_forever's every round (at most every half second)
            self.heartbeat()

    def get_request(self) -> tuple[socket.socket, Any]:
        try:
            return super().get_request()
        except OSError as e:
            if e.errno in _OUT_OF_FDS:
                # The listening socket stays readable while the connection waits: without a
                # pause serve_forever's select() would hand it back at once, forever.
                self.accept_failures += 1
                if self.accept_failures == 1 or self.accept_failures % 100 == 0:
                    log.warning("web: cannot accept a connection (%s); waiting %.1f s between tries (%d so far)",
                                e.strerror, ACCEPT_BACKOFF_S, self.accept_failures)
                time.sleep(ACCEPT_BACKOFF_S)
            raise

    def process_request(self, request: socket.socket, client_address: object) -> None:  # type: ignore[override]
        with self._count:
            full = self.active >= self.max_connections
            if not full:
                self.active += 1
        if full:
            self.refused += 1
            turn_away(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:  # no thread started (none left): give the place back
            self._release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._release()

    def _release(self) -> None:
        with self._count:
            self.active -= 1

    def handle_error(self, request: object, client_address: object) -> None:
        """A phone that went away mid-answer is normal: one debug line, not a traceback on stderr.
        A request that failed otherwise is logged in :attr:`faults`: its traceback once per kind
        (the exception and where it was raised), then a count at most once a minute — a flood of
        bad requests never becomes a flood of writes on the SD card (``table_app/fault_log.py``)."""
        error = sys.exc_info()[1]
        if isinstance(error, OSError):
            log.debug("web: %s went away: %s", client_address, error)
            return
        if error is not None:
            self.faults.log(log, "web: a request failed", error)

    def server_close(self) -> None:
        super().server_close()
        self.faults.flush()


def turn_away(sock: socket.socket) -> None:
    """A 503 without waiting for anything: on the accepting thread, nothing may block."""
    with contextlib.suppress(OSError):
        sock.setblocking(False)
        with contextlib.suppress(OSError):
            sock.recv(65536)  # what has arrived, so that closing sends FIN rather than RST
        sock.send(_BUSY)
        sock.shutdown(socket.SHUT_WR)
    sock.close()


class DeadlineReader(io.RawIOBase):
    """The request's socket as read by the handler: every wait for bytes ends at the
    request's deadline, however slowly the bytes trickle in."""

    def __init__(self, sock: socket.socket, handler: Handler) -> None:
        self._sock = sock
        self._handler = handler

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        handler = self._handler
        deadline = handler.deadline
        left = deadline - time.monotonic() if deadline is not None else handler.server.write_timeout_s
        if left <= 0:
            raise TimeoutError("the request did not arrive in time")
        if deadline is not None and handler.header_bytes >= HEADER_BYTES:
            raise ConnectionAbortedError(f"request headers over {HEADER_BYTES} bytes")
        self._sock.settimeout(left)
        with memoryview(buffer) as view:  # never more than the headers may still take
            n = self._sock.recv_into(view[:HEADER_BYTES] if deadline is not None else view)
        if deadline is not None:
            handler.header_bytes += n
        return n


class Handler(BaseHTTPRequestHandler):
    """A connection's requests, each answered from the server's route table."""

    server: Server
    server_version = "xian-table"
    protocol_version = "HTTP/1.1"
    deadline: float | None = None
    header_bytes = 0

    # -- reading a request within its deadline ------------------------------------------------

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.write_timeout_s)
        self.rfile.close()
        self.rfile = io.BufferedReader(DeadlineReader(self.connection, self))

    def handle_one_request(self) -> None:
        self.deadline = time.monotonic() + self.server.header_timeout_s  # the line and the headers, in all
        self.header_bytes = 0
        super().handle_one_request()

    def parse_request(self) -> bool:
        ok = super().parse_request()
        self.deadline = None  # headers in: from here on only writes wait, each up to write_timeout_s
        self.connection.settimeout(self.server.write_timeout_s)
        return ok

    def log_message(self, format: str, *args: object) -> None:
        log.debug("web: %s " + format, self.address_string(), *args)

    # -- answering from the table ---------------------------------------------------------------

    def do_GET(self) -> None:
        self._answer("GET")

    def do_HEAD(self) -> None:
        self._answer("HEAD")

    def do_POST(self) -> None:
        self._answer("POST")

    def do_PUT(self) -> None:
        self._answer("PUT")

    def do_DELETE(self) -> None:
        self._answer("DELETE")

    def do_PATCH(self) -> None:
        self._answer("PATCH")

    def do_OPTIONS(self) -> None:
        path = self.path.split("?", 1)[0]
        self.send_response(204)
        self.send_header("Allow", ", ".join(self.server.router.methods(path) or READ_ONLY))
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _answer(self, method: str) -> None:
        path, _, query = self.path.partition("?")
        found = self.server.router.find("GET" if method == "HEAD" else method, path)
        if found is None:
            self._refuse(method, path)
            return
        answer, args = found
        body = b""
        if method == "POST":
            read = self._read_body()
            if read is None:
                return
            body = read
        request = Request(args, query, self.headers.get("Cookie"), str(self.client_address[0]), body,
                          self.headers.get("Host") or "")
        reply = answer(request)
        if isinstance(reply, Stream):
            self._stream(reply, method != "HEAD")
        else:
            self._reply(reply, method != "HEAD")

    def _refuse(self, method: str, path: str) -> None:
        methods = self.server.router.methods(path)
        if not methods and method in ("GET", "HEAD"):
            self._reply(Reply(404, TEXT, b"not found\n"), method == "GET")
            return
        methods = methods or READ_ONLY
        self.close_connection = True  # a body we do not read must not be taken for the next request
        self._reply(Reply(405, TEXT, refusal(methods), (("Allow", ", ".join(methods)),)), method != "HEAD")

    def _read_body(self) -> bytes | None:
        """A POST's JSON body of at most MAX_BODY bytes (None: refused, the refusal sent)."""
        length = self.headers.get("Content-Length", "")
        ctype = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if not length.isdigit() or int(length) > MAX_BODY:
            self.close_connection = True  # a body we do not read must not be taken for the next request
            self._reply(Reply(413, TEXT, b"a JSON body of at most 1 KiB\n"))
            return None
        content = self.rfile.read(int(length))
        if ctype != "application/json":  # (a form on another site cannot send this without asking first)
            self._reply(Reply(415, TEXT, b"application/json only\n"))
            return None
        return content

    def _reply(self, reply: Reply, body: bool = True) -> None:
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(reply.body)))
        self.send_header("Cache-Control", "no-store")
        for k, v in reply.headers:
            self.send_header(k, v)
        self.end_headers()
        if body:
            self.wfile.write(reply.body)

    # -- event streams ----------------------------------------------------------------------------

    def _stream_headers(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Accel-Buffering", "no")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def _stream(self, stream: Stream, body: bool) -> None:
        """The stream's frame now and at each tick of the pacer, while the client stays."""
        if not body:
            self._stream_headers()
            return
        pacer = self.server.pacer
        if not pacer.open_stream():
            self.close_connection = True
            self._reply(Reply(503, TEXT, b"busy: too many event streams\n", (("Retry-After", "5"),)))
            return
        try:
            self._stream_headers()
            _, tick = pacer.wait_tick(-1, 0)
            last = b""
            while True:
                frame, end = stream.frame()
                if frame != last:  # a view that did not change is not sent again
                    last = frame
                    self.wfile.write(frame)
                    self.wfile.flush()
                if end:
                    return
                closing, newer = pacer.wait_tick(tick, stream.wake_s)
                if closing or self._peer_gone():
                    return
                if stream.keepalive and newer == tick:
                    self.wfile.write(b": keepalive\n\n")
                    self.wfile.flush()
                tick = newer
        except OSError:  # gone, reset, or too slow to read (the write timed out)
            return
        finally:
            pacer.close_stream()

    def _peer_gone(self) -> bool:
        """An event stream's client sends nothing after its request: readable means closed
        (found at each change rather than at the next failed write, so its place frees sooner)."""
        try:
            ready, _, _ = select.select([self.connection], [], [], 0)
            return bool(ready) and self.connection.recv(4096, socket.MSG_DONTWAIT) == b""
        except (OSError, ValueError):
            return True
