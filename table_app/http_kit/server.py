"""A small HTTP/1.1 server that answers from a route table, and bounds what the network can take.

It knows no paths of its own: a :class:`Router` holds the table (:mod:`table_app.web.routes`),
and every answer about methods derives from it — a path takes the methods of its rows (GET
with HEAD) and OPTIONS; OPTIONS lists them, another method gets 405 with the same ``Allow``.
A path outside the table is read-only like the rest: GET and HEAD get 404, OPTIONS lists GET,
HEAD and OPTIONS, anything else 405. A route's answer is a :class:`Reply` or an event
:class:`Stream`; a POST's body is a JSON body of at most ``MAX_BODY`` bytes (413, 415).

What a phone — or a stranger on the Wi-Fi — can take is bounded, so that the table never pays
for it and no one without a phone's secret can stop the phones (issues 16 and 27; the limits
are :class:`table_app.http_kit.admission.Limits`, their numbers in docs/phones.md):

- one thread, the intake (:mod:`table_app.http_kit.intake`), accepts every connection
  and reads each request whole — line, headers (at most ``HEADER_BYTES``) and body — within
  ``request_timeout_s`` of the first byte waited for, in all: a request sent a byte at a time,
  a slow body, a connection that sends nothing, an idle keep-alive are cut at that deadline.
  Waiting connections hold no thread; they are bounded in all and per address, and beyond,
  the address's oldest still-unfinished one is answered ``503`` (``Retry-After``) to make room;
- a whole request is then given a thread from the places its kind may take
  (:class:`table_app.http_kit.admission.Places`): a bound phone's (``trusted(target, cookie)``,
  told by the server's owner) from its own reserve first, anyone else's from everyone's, at
  most a few at once per address; the event streams likewise. Beyond: ``503`` with
  ``Retry-After``, to that request only, and the connection closed cleanly;
- a reply that cannot be written within ``write_timeout_s`` ends the connection;
- a stream sends from its own thread when the pacer ticks, and only what changed;
- when the process runs out of file descriptors, accepting waits ``ACCEPT_BACKOFF_S``
  before it tries again instead of spinning on a listening socket that stays readable.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import logging
import re
import select
import socket
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any, Generic, Literal, Protocol, TypeVar
from urllib.parse import parse_qsl

from table_app.http_kit.admission import Limits, Places
from table_app.http_kit.intake import ACCEPT_BACKOFF_S, BUSY, HEADER_BYTES, MAX_BODY, Intake, Pending, send_now
from table_app.system.fault_log import FaultLog

__all__ = ["ACCEPT_BACKOFF_S", "HEADER_BYTES", "MAX_BODY", "Limits"]  # (what the server's owners import from here)

log = logging.getLogger(__name__)

REQUEST_QUEUE_SIZE = 128  # connections the kernel keeps until the intake accepts them
METHODS = ("GET", "HEAD", "POST", "OPTIONS")  # the order ``Allow`` lists them in
READ_ONLY = ("GET", "HEAD", "OPTIONS")  # what a path outside the table takes
TEXT = "text/plain; charset=utf-8"
RETRY_AFTER = (("Retry-After", "5"),)
DEFAULT_LIMITS = Limits()

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


def query_value(query: str, name: str) -> str:
    """The (decoded) value of ``name`` in a query string, "" when it has none.

    >>> query_value("lang=en&key=a%2Db", "key"), query_value("lang=en", "key")
    ('a-b', '')
    """
    return next((v for k, v in parse_qsl(query, keep_blank_values=True) if k == name), "")


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
    """What the event streams need of the server's state: their count, and the pace-maker's
    ticks (:class:`table_app.web.live.LiveTable`); their places are :class:`Places`'."""

    def open_stream(self) -> None: ...

    def close_stream(self) -> None: ...

    def wait_tick(self, seen: int, timeout: float) -> tuple[bool, int]: ...


class Server:
    """The listening socket, the intake that reads each request whole without a thread
    (:mod:`table_app.http_kit.intake`), and a thread for each request given a place
    (:mod:`table_app.http_kit.admission`). ``serve_forever()`` on its own thread, ``shutdown()``,
    ``server_close()``; ``heartbeat`` (systemd's watchdog) is beaten on each round of the intake.
    ``trusted(target, cookie)`` says whether a request is a bound phone's (its reserve)."""

    def __init__(self, address: tuple[str, int], router: Router, pacer: Pacer, limits: Limits = DEFAULT_LIMITS, *,
                 trusted: Callable[[str, str | None], bool] | None = None,
                 heartbeat: Callable[[], None] | None = None) -> None:
        self.faults = FaultLog()  # requests that failed (a bug), by kind: a traceback once, then counts
        family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self.socket = socket.create_server(address, family=family, backlog=REQUEST_QUEUE_SIZE)
        self.server_address = self.socket.getsockname()
        self.router = router
        self.pacer = pacer
        self.limits = limits
        self.places = Places(limits)
        self.heartbeat = heartbeat
        self.intake = Intake(self.socket, limits, trusted or (lambda target, cookie: False), self._dispatch,
                             self.faults)

    @property
    def active(self) -> int:
        """Connections held: waiting for their request, being answered, streaming."""
        return self.intake.waiting + sum(self.places.used(pool, streams) for pool in ("reserve", "open")
                                         for streams in (False, True))

    @property
    def refused(self) -> int:
        """Answered 503: a waiting connection pushed out, or no place for a request or a stream."""
        return self.intake.evicted + self.places.refused_requests + self.places.refused_streams

    def serve_forever(self) -> None:
        self.intake.run(self.heartbeat)

    def shutdown(self) -> None:
        self.intake.stop()

    def server_close(self) -> None:
        self.intake.close()
        self.socket.close()
        self.faults.flush()

    def _dispatch(self, pending: Pending) -> None:
        """A whole request (on the intake's thread: nothing may block): a thread for it, from
        the places its kind may take, or a 503 with Retry-After."""
        pending.place = self.places.take_request(pending.key, pending.trusted)
        if pending.place is None:
            send_now(pending.sock, BUSY)
            return
        try:
            threading.Thread(target=self._answer, args=(pending,), name="web-answer", daemon=True).start()
        except RuntimeError:  # no thread left
            self.places.give_request(pending.place, pending.key)
            send_now(pending.sock, BUSY)

    def _answer(self, pending: Pending) -> None:
        try:
            pending.sock.settimeout(self.limits.write_timeout_s)
            # (BaseRequestHandler is given the request read whole and this server, not socketserver's)
            Handler(pending, (pending.client, 0), self)  # type: ignore[arg-type]
        except Exception:
            pending.keep_alive = False
            self.handle_error(pending, pending.client)
        finally:
            if pending.place is not None:  # (a stream gave its request's place back already)
                self.places.give_request(pending.place, pending.key)
                pending.place = None
        if pending.keep_alive and not pending.close_after:
            self.intake.give_back(pending)
        else:
            with contextlib.suppress(OSError):
                pending.sock.shutdown(socket.SHUT_WR)
            pending.sock.close()

    def handle_error(self, request: object, client_address: object) -> None:
        """A phone that went away mid-answer is normal: one debug line, not a traceback on stderr.
        A request that failed otherwise is logged in :attr:`faults`: its traceback once per kind
        (the exception and where it was raised), then a count at most once a minute — a flood of
        bad requests never becomes a flood of writes on the SD card (``table_app/system/fault_log.py``)."""
        error = sys.exc_info()[1]
        if isinstance(error, OSError):
            log.debug("web: %s went away: %s", client_address, error)
            return
        if error is not None:
            self.faults.log(log, "web: a request failed", error)


class _Writer(io.BufferedIOBase):
    """The answer's bytes, each write sent whole (within the socket's write timeout)."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        self._sock.sendall(b)
        with memoryview(b) as view:
            return view.nbytes


class Handler(BaseHTTPRequestHandler):
    """A request, read whole by the intake, answered from the server's route table."""

    server: Server  # type: ignore[assignment]
    request: Pending
    server_version = "xian-table"
    protocol_version = "HTTP/1.1"

    def setup(self) -> None:
        self.connection = self.request.sock
        self.rfile = io.BytesIO(self.request.data)
        self.wfile = _Writer(self.connection)

    def handle(self) -> None:
        """One request; a connection kept alive goes back to the intake for the next."""
        self.handle_one_request()
        self.request.keep_alive = not self.close_connection

    def handle_expect_100(self) -> bool:
        return True  # (the intake said 100 Continue, if the body had not come with the headers)

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
        if self.close_connection:  # (a refusal that ends the connection says so: the client opens a new one)
            self.send_header("Connection", "close")
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
        pacer, places, pending = self.server.pacer, self.server.places, self.request
        place = places.take_stream(pending.key, pending.trusted)
        if place is None:
            self.close_connection = True
            self._reply(Reply(503, TEXT, b"busy: too many event streams\n", RETRY_AFTER))
            return
        pacer.open_stream()
        if pending.place is not None:  # the thread is the stream's now: the request's place is free
            places.give_request(pending.place, pending.key)
            pending.place = None
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
            places.give_stream(place, pending.key)

    def _peer_gone(self) -> bool:
        """An event stream's client sends nothing after its request: readable means closed
        (found at each change rather than at the next failed write, so its place frees sooner)."""
        try:
            ready, _, _ = select.select([self.connection], [], [], 0)
            return bool(ready) and self.connection.recv(4096, socket.MSG_DONTWAIT) == b""
        except (OSError, ValueError):
            return True


def sse_view(view: Mapping[str, object]) -> bytes:
    """A view as one Server-Sent Event: ``id`` its ``seq``, ``event: view``, ``data`` its JSON."""
    data = json.dumps(view, ensure_ascii=False)
    return f"id: {view['seq']}\nevent: view\ndata: {data}\n\n".encode()

