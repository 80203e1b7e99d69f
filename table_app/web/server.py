"""The seat pages for phones: plain HTTP and Server-Sent Events from the service itself.

Read-only: GET (and HEAD) ``/`` (the four seats), ``/seat/<n>`` (the page),
``/seat/<n>/events`` (an SSE stream: the seat's view now, then after changes) and
``/seat/<n>.json``; the table page ``/table`` with ``/table/events`` and ``/table.json``
(``?lang=en``; :mod:`table_app.web.table_view`, the touchscreen's table screen) and, for a
browser on this machine only, ``/table/join.json`` (the join link and its QR code); OPTIONS
says so. Phones that join the table (issue 18, :mod:`table_app.web.phone_routes`) have
``/join/<token>`` (the page, ``seats.json``, and a POST to join), ``/phone/<n>`` and
``/phone/<n>/events`` (the bound phone's page and its stream) and the only other writes,
``POST /phone/<n>/press``, ``/phone/<n>/table`` (the table's own steps, for a table without
a screen) and ``/phone/<n>/leave``: a JSON body of at most
1 KiB; every other method and path gets 405. The views are
:func:`table_app.seat_view.seat_view` — the same as MQTT ``seat/<n>`` — built from the
service's notices, so the page needs no broker (Debian's mosquitto has no websockets).

The observer only stores the latest state and wakes the streams; each stream sends from its
own thread, so a slow phone never slows the table. What a phone (or anything else on the
network) can take is bounded, so that the table never pays for it (issue 16):

- a request's line and headers must arrive within ``header_timeout_s`` of the first wait
  for it, in total (a request sent a byte at a time is cut off, as is an idle keep-alive),
  and be at most ``HEADER_BYTES`` long (http.server alone would take 100 lines of 64 KiB);
  a reply that cannot be written within ``write_timeout_s`` ends the connection;
- at most ``max_connections`` connections at once and ``max_streams`` event streams among
  them; beyond, a short ``503`` with ``Retry-After`` (sent without waiting, from the thread
  that accepts);
- the streams move together, on a pace-maker thread's ticks: a change is sent at once, a
  burst of changes at most every ``STREAM_INTERVAL_S`` (it shows its end), and each seat's
  view is built once per tick for all its streams — the table's own thread only stores the
  state and wakes the pace-maker, however many phones watch;
- when the process runs out of file descriptors, accepting waits ``ACCEPT_BACKOFF_S``
  before it tries again instead of spinning on a listening socket that stays readable.
"""

from __future__ import annotations

import contextlib
import errno
import html
import io
import json
import logging
import re
import select
import socket
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import TYPE_CHECKING, Any

from table_app.seat_view import SEATS, seat_view
from table_app.web.phone_routes import MAX_BODY, PhoneRoutes, Reply
from table_app.web.qr import lan_address, qr_svg
from table_app.web.table_view import table_view

if TYPE_CHECKING:
    from table_app.service import Notice, TableService

log = logging.getLogger(__name__)

KEEPALIVE_S = 15.0
HEADER_TIMEOUT_S = 10.0  # the whole request line and headers, and an idle keep-alive between requests
HEADER_BYTES = 16_384  # the request line and headers, in all (a phone sends well under 2 KiB)
WRITE_TIMEOUT_S = 10.0  # a phone that stops reading is let go after this
MAX_CONNECTIONS = 128  # each is a thread; the unit's TasksMax leaves room for them
MAX_STREAMS = 64  # a table has four seats; dashboards and spare phones fit easily
# the streams' fastest pace in a burst (a press of two events, the quick 下家's, is sent as one)
STREAM_INTERVAL_S = 0.05
ACCEPT_BACKOFF_S = 0.2
ALLOW = "GET, HEAD, OPTIONS"
ALLOW_POST = "POST, OPTIONS"  # /join/<token>, /phone/<n>/press, /phone/<n>/table, /phone/<n>/leave
PHONE_WAKE_S = 1.0  # a phone's stream looks at its binding at least this often
_OUT_OF_FDS = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
         b"Content-Length: 23\r\nRetry-After: 5\r\nConnection: close\r\n\r\nbusy: too many phones\r\n")


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` or ``:PORT`` (all interfaces).

    >>> parse_listen(":8080"), parse_listen("127.0.0.1:0")
    (('', 8080), ('127.0.0.1', 0))
    """
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"expected HOST:PORT or :PORT for the web page, got {text!r}")
    return host.strip("[]"), int(port)


class SeatPages:
    """``SeatPages(service, "", 8080).start()``; ``.url``; ``.stop()``."""

    def __init__(self, service: TableService, host: str = "", port: int = 0, *, table: str = "table",
                 max_connections: int = MAX_CONNECTIONS, max_streams: int = MAX_STREAMS,
                 header_timeout_s: float = HEADER_TIMEOUT_S, write_timeout_s: float = WRITE_TIMEOUT_S,
                 heartbeat: Callable[[], None] | None = None) -> None:
        if max_connections < 1 or not 0 <= max_streams <= max_connections:
            raise ValueError("need 1 <= max_connections and 0 <= max_streams <= max_connections")
        self.service = service
        self.table = table
        self.max_streams = max_streams
        self.header_timeout_s = header_timeout_s
        self.write_timeout_s = write_timeout_s
        self._cond = threading.Condition()
        self._public: dict[str, Any] = service.public
        self._seq: int = service.seq
        self._claim_window: tuple[float, float] | None = None  # (seconds left, time.monotonic() then)
        self._settled = True
        self._version = 0
        self._closing = False
        self._closed = threading.Event()
        self._tick = 0  # the pace-maker's count: the streams wake when it moves
        self._tick_cond = threading.Condition()
        self._pacer: threading.Thread | None = None
        self._views: dict[int | str, tuple[int, bytes]] = {}  # seat or table language → (version, SSE frame)
        self._views_lock = threading.Lock()
        self._unsubscribe: Callable[[], None] | None = None
        self.phones = PhoneRoutes(service, self.page)
        self._server = _Server((host, port), _handler(self), max_connections, heartbeat)
        self._thread: threading.Thread | None = None
        self.streams = 0  # open event streams (for logs and tests)
        self.refused = 0  # connections and streams answered 503 (for logs, tests and the benchmark)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def connections(self) -> int:
        return self._server.active

    def page(self, name: str) -> str:
        return _page(name).replace("{{TABLE}}", html.escape(self.table))

    @property
    def join_url(self) -> str:
        """Where a phone on the table's Wi-Fi joins (the QR code's text): this session's token."""
        host = str(self._server.server_address[0])
        if host in ("", "0.0.0.0", "::"):
            host = lan_address() or socket.gethostname()
        return f"http://{host}:{self.port}/join/{self.phones.phones.token}"

    @property
    def url(self) -> str:
        host = str(self._server.server_address[0])
        shown = socket.gethostname() if host in ("", "0.0.0.0", "::") else host  # what a phone can reach
        return f"http://{shown}:{self.port}/"

    def start(self) -> SeatPages:
        unsubscribe_phones = self.service.subscribe(self.phones)
        unsubscribe_pages = self.service.subscribe(self)

        def unsubscribe() -> None:
            unsubscribe_pages()
            unsubscribe_phones()

        self._unsubscribe = unsubscribe
        with self._cond:  # a change between construction and subscription is not lost
            self._public, self._seq = self.service.public, self.service.seq
            self._version += 1
        self._thread = threading.Thread(target=self._server.serve_forever, name="seat-pages", daemon=True)
        self._thread.start()
        self._pacer = threading.Thread(target=self._pace, name="seat-pages-pacer", daemon=True)
        self._pacer.start()
        return self

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._closed.set()
        with self._tick_cond:
            self._tick_cond.notify_all()
        if self._pacer is not None:
            self._pacer.join(5)
            self._pacer = None
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join(5)
            self._thread = None
        self._server.server_close()

    def __call__(self, notice: Notice) -> None:
        """The service observer: keep the latest state, wake the streams."""
        if not notice.changed:
            return
        with self._cond:
            self._public, self._seq = notice.state, notice.seq
            self._settled = notice.final  # a press's first event of two: its second comes at once
            left = notice.claim_left
            self._claim_window = None if left is None else (left, time.monotonic())
            self._version += 1
            self._cond.notify_all()

    def snapshot(self) -> tuple[int, int, dict[str, Any]]:
        with self._cond:
            return self._version, self._seq, self._public

    def view(self, seat: int) -> dict[str, Any]:
        _, seq, public = self.snapshot()
        return {**seat_view(public, seat, self.claim_left()), "seq": seq}

    def claim_left(self) -> float | None:
        """The claim window's seconds left now (None: no window open)."""
        with self._cond:
            window = self._claim_window
        return None if window is None else max(0.0, window[0] - (time.monotonic() - window[1]))

    def table_view(self, lang: str) -> dict[str, Any]:
        """The table page's view in ``lang`` (``zh`` or ``en``): the touchscreen's table screen."""
        _, seq, public = self.snapshot()
        return {**table_view(public, lang, self.claim_left(), self.service.claim_window_s), "seq": seq}

    def frame(self, seat: int | str) -> tuple[int, bytes]:
        """``(version, the SSE frame of the seat's current view)`` — or of the table page's in a
        language, for ``seat`` ``"zh"`` or ``"en"`` —, built once per change."""
        version = self.snapshot()[0]
        with self._views_lock:
            cached = self._views.get(seat)
            if cached is not None and cached[0] == version:
                return cached
        view = self.view(seat) if isinstance(seat, int) else self.table_view(seat)  # (the seconds left now)
        data = json.dumps(view, ensure_ascii=False)
        made = (version, f"id: {view['seq']}\nevent: view\ndata: {data}\n\n".encode())
        with self._views_lock:
            self._views[seat] = made
        return made

    def wait_change(self, version: int, timeout: float) -> tuple[bool, int]:
        """Wait for a version after ``version``; (closing, the current version)."""
        with self._cond:
            self._cond.wait_for(lambda: self._version != version or self._closing, timeout)
            return self._closing, self._version

    def wait_tick(self, seen: int, timeout: float) -> tuple[bool, int]:
        """Wait for the pace-maker's next tick after ``seen``; (closing, the current tick)."""
        with self._tick_cond:
            self._tick_cond.wait_for(lambda: self._tick != seen or self._closed.is_set(), timeout)
            return self._closed.is_set(), self._tick

    def _pace(self) -> None:
        """Tick when the state changes, at most every STREAM_INTERVAL_S: the streams' one clock."""
        version = -1
        while not self._closed.is_set():
            closing, newer = self.wait_change(version, KEEPALIVE_S)
            if closing:
                return
            with self._cond:  # the rest of a press (its second event) before the streams are woken
                self._cond.wait_for(lambda: self._settled or self._closing, STREAM_INTERVAL_S)
                newer = self._version
            if newer != version:
                version = newer
                with self._tick_cond:
                    self._tick += 1
                    self._tick_cond.notify_all()
            if self._closed.wait(STREAM_INTERVAL_S):
                return

    def open_stream(self) -> bool:
        with self._cond:
            if self.streams >= self.max_streams:
                self.refused += 1
                return False
            self.streams += 1
            return True

    def close_stream(self) -> None:
        with self._cond:
            self.streams -= 1
            self._cond.notify_all()


class _Server(ThreadingHTTPServer):
    """A thread per connection, at most ``max_connections`` of them; accepting never spins.
    ``heartbeat`` (systemd's watchdog) is beaten on each round of ``serve_forever``."""

    daemon_threads = True
    request_queue_size = 64

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler], max_connections: int,
                 heartbeat: Callable[[], None] | None = None) -> None:
        super().__init__(address, handler)
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

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._count:
            full = self.active >= self.max_connections
            if not full:
                self.active += 1
        if full:
            self.refused += 1
            _turn_away(request)
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

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A phone that went away mid-answer is normal: one debug line, not a traceback on stderr."""
        if isinstance(sys.exc_info()[1], OSError):
            log.debug("web: %s went away: %s", client_address, sys.exc_info()[1])
        else:
            log.exception("web: a request from %s failed", client_address)


def _turn_away(sock: socket.socket) -> None:
    """A 503 without waiting for anything: on the accepting thread, nothing may block."""
    with contextlib.suppress(OSError):
        sock.setblocking(False)
        with contextlib.suppress(OSError):
            sock.recv(65536)  # what has arrived, so that closing sends FIN rather than RST
        sock.send(_BUSY)
        sock.shutdown(socket.SHUT_WR)
    sock.close()


class _DeadlineReader(io.RawIOBase):
    """The request's socket as read by the handler: every wait for bytes ends at the
    request's deadline, however slowly the bytes trickle in."""

    def __init__(self, sock: socket.socket, handler: Any) -> None:
        self._sock = sock
        self._handler = handler

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        handler = self._handler
        deadline = handler.deadline
        left = deadline - time.monotonic() if deadline is not None else handler.pages.write_timeout_s
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


def _loopback(address: str) -> bool:
    return address.startswith("127.") or address in ("::1", "::ffff:127.0.0.1")


def _page(name: str) -> str:
    return resources.files("table_app.web").joinpath(name).read_text(encoding="utf-8")


def _handler(pages: SeatPages) -> type[BaseHTTPRequestHandler]:
    seat_re = re.compile(r"/seat/([0-3])(/events|\.json)?/?")
    phone_events_re = re.compile(r"/phone/([0-3])/events")

    class Handler(BaseHTTPRequestHandler):
        server_version = "xian-table"
        protocol_version = "HTTP/1.1"
        timeout = pages.write_timeout_s
        deadline: float | None = None
        header_bytes = 0

        def setup(self) -> None:
            super().setup()
            self.pages = pages
            self.rfile.close()
            self.rfile = io.BufferedReader(_DeadlineReader(self.connection, self))

        def handle_one_request(self) -> None:
            self.deadline = time.monotonic() + pages.header_timeout_s  # the line and the headers, in all
            self.header_bytes = 0
            super().handle_one_request()

        def parse_request(self) -> bool:
            ok = super().parse_request()
            self.deadline = None  # headers in: from here on only writes wait, each up to write_timeout_s
            self.connection.settimeout(pages.write_timeout_s)
            return ok

        def log_message(self, format: str, *args: Any) -> None:
            log.debug("web: %s " + format, self.address_string(), *args)

        def do_GET(self) -> None:
            self._get(body=True)

        def do_HEAD(self) -> None:
            self._get(body=False)

        def do_OPTIONS(self) -> None:
            self.send_response(204)
            self.send_header("Allow", ALLOW_POST if self._posts_here() else ALLOW)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def _posts_here(self) -> bool:
            parts = self.path.split("?", 1)[0].strip("/").split("/")
            return (parts[0] == "join" and len(parts) == 2) or (
                len(parts) == 3 and parts[0] == "phone" and parts[1] in ("0", "1", "2", "3")
                and parts[2] in ("press", "table", "leave"))

        def do_POST(self) -> None:
            """Joining and a bound phone's presses: a small JSON body, nothing else."""
            if not self._posts_here():
                self._refuse()
                return
            length = self.headers.get("Content-Length", "")
            ctype = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
            if not length.isdigit() or int(length) > MAX_BODY:
                self.close_connection = True  # a body we do not read must not be taken for the next request
                self._send(413, "text/plain; charset=utf-8", b"a JSON body of at most 1 KiB\n")
                return
            content = self.rfile.read(int(length))
            if ctype != "application/json":  # (a form on another site cannot send this without asking first)
                self._send(415, "text/plain; charset=utf-8", b"application/json only\n")
                return
            client = str(self.client_address[0])
            reply = pages.phones.post(self.path.split("?", 1)[0], content, self.headers.get("Cookie"), client)
            if reply is None:
                self._refuse()
                return
            self._reply(reply, True)

        def _reply(self, reply: Reply, body: bool) -> None:
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(reply.body)))
            self.send_header("Cache-Control", "no-store")
            for k, v in reply.headers:
                self.send_header(k, v)
            self.end_headers()
            if body:
                self.wfile.write(reply.body)

        def _get(self, body: bool) -> None:
            path = self.path.split("?", 1)[0]
            m = phone_events_re.fullmatch(path)
            if m is not None:
                if not body:
                    self._stream_headers()
                else:
                    self._phone_stream(int(m.group(1)))
                return
            reply = pages.phones.get(path, self.headers.get("Cookie"))
            if reply is not None:
                self._reply(reply, body)
                return
            if path in ("/table", "/table.json", "/table/events", "/table/join.json"):
                self._table_page(path, body)
                return
            if path == "/":
                _, _, public = pages.snapshot()
                rows = "".join(
                    f'<li><a href="/seat/{s}">{s} · {html.escape(seat_view(public, s)["name"] or "—")}</a></li>'
                    for s in range(SEATS))
                text = _page("index.html").replace("{{TABLE}}", html.escape(pages.table)).replace("{{SEATS}}", rows)
                self._send(200, "text/html; charset=utf-8", text.encode(), body)
                return
            m = seat_re.fullmatch(path)
            if m is None:
                self._send(404, "text/plain; charset=utf-8", b"not found\n", body)
                return
            seat, kind = int(m.group(1)), m.group(2)
            if kind is None:
                text = _page("seat.html").replace("{{TABLE}}", html.escape(pages.table))
                self._send(200, "text/html; charset=utf-8", text.encode(), body)
            elif kind == ".json":
                self._send(200, "application/json", json.dumps(pages.view(seat), ensure_ascii=False).encode(), body)
            elif not body:
                self._stream_headers()
            else:
                self._stream(seat)

        def _table_page(self, path: str, body: bool) -> None:
            """The table page (issue 20), its view in a language (``?lang=en``; default zh) and its
            stream; the join link's QR code only for a browser on this machine (a screen at the
            table), never for one elsewhere on the network."""
            query = self.path.split("?", 1)[1] if "?" in self.path else ""
            lang = "en" if "lang=en" in query.split("&") else "zh"
            if path == "/table":
                self._send(200, "text/html; charset=utf-8", pages.page("table.html").encode(), body)
            elif path == "/table.json":
                data = json.dumps(pages.table_view(lang), ensure_ascii=False).encode()
                self._send(200, "application/json", data, body)
            elif path == "/table/join.json":
                if not _loopback(str(self.client_address[0])):
                    self._send(403, "application/json", b'{"error": "the join code is shown on the table only"}',
                               body)
                    return
                url = pages.join_url
                data = json.dumps({"url": url, "svg": qr_svg(url)}).encode()
                self._send(200, "application/json", data, body)
            elif not body:
                self._stream_headers()
            else:
                self._stream(lang)

        def _refuse(self) -> None:
            self.close_connection = True  # a body we do not read must not be taken for the next request
            self._send(405, "text/plain; charset=utf-8", b"read-only: GET, HEAD or OPTIONS only\n", allow=ALLOW)

        do_PUT = do_DELETE = do_PATCH = _refuse

        def _send(self, status: int, ctype: str, content: bytes, body: bool = True, **headers: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(content)))
            self.send_header("Cache-Control", "no-store")
            for k, v in headers.items():
                self.send_header(k.title(), v)
            self.end_headers()
            if body:
                self.wfile.write(content)

        def _stream_headers(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Accel-Buffering", "no")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True

        def _stream(self, seat: int | str) -> None:
            if not pages.open_stream():
                self.close_connection = True
                self._send(503, "text/plain; charset=utf-8", b"busy: too many event streams\n", retry_after="5")
                return
            try:
                self._stream_headers()
                _, tick = pages.wait_tick(-1, 0)
                last = b""
                while True:
                    _, frame = pages.frame(seat)
                    if frame != last:  # a view that did not change is not sent again
                        last = frame
                        self.wfile.write(frame)
                        self.wfile.flush()
                    closing, newer = pages.wait_tick(tick, KEEPALIVE_S)
                    if closing or self._peer_gone():
                        return
                    if newer == tick:
                        self.wfile.write(b": keepalive\n\n")
                        self.wfile.flush()
                    tick = newer
            except OSError:  # gone, reset, or too slow to read (the write timed out)
                return
            finally:
                pages.close_stream()

        def _phone_stream(self, bound: int) -> None:
            """The bound phone's view (its seat's, and a name waiting to be set) now and after every
            change; ``unbound`` when it loses its seat (another phone took it, it left, a new session)."""
            if not pages.open_stream():
                self.close_connection = True
                self._send(503, "text/plain; charset=utf-8", b"busy: too many event streams\n", retry_after="5")
                return
            cookie = self.headers.get("Cookie")
            try:
                self._stream_headers()
                _, tick = pages.wait_tick(-1, 0)
                last = ""
                while True:
                    seat, why = pages.phones.bound_view(bound, cookie)
                    if seat is None:
                        self.wfile.write(f"event: unbound\ndata: {json.dumps(why, ensure_ascii=False)}\n\n".encode())
                        self.wfile.flush()
                        return
                    view = pages.view(seat)
                    view["name_pending"] = pages.phones.pending_name(seat)
                    view["steps"] = pages.phones.steps(pages.snapshot()[2], seat)
                    data = json.dumps(view, ensure_ascii=False)
                    if data != last:
                        last = data
                        self.wfile.write(f"id: {view['seq']}\nevent: view\ndata: {data}\n\n".encode())
                        self.wfile.flush()
                    closing, tick = pages.wait_tick(tick, PHONE_WAKE_S)
                    if closing or self._peer_gone():
                        return
            except OSError:
                return
            finally:
                pages.close_stream()

        def _peer_gone(self) -> bool:
            """An event stream's client sends nothing after its request: readable means closed
            (found at each change rather than at the next failed write, so its place frees sooner)."""
            try:
                ready, _, _ = select.select([self.connection], [], [], 0)
                return bool(ready) and self.connection.recv(4096, socket.MSG_DONTWAIT) == b""
            except (OSError, ValueError):
                return True

    return Handler
