"""The seat pages for phones: plain HTTP and Server-Sent Events from the service itself.

Read-only: GET ``/`` (the four seats), ``/seat/<n>`` (the page), ``/seat/<n>/events`` (an
SSE stream: the seat's view now, then after every change) and ``/seat/<n>.json``. The views
are :func:`table_app.seat_view.seat_view` — the same as MQTT ``seat/<n>`` — built from the
service's notices, so the page needs no broker (Debian's mosquitto has no websockets).

The observer only stores the latest state and wakes the streams; each stream builds its
view on its own thread, so a slow phone never slows the table.
"""

from __future__ import annotations

import html
import json
import logging
import re
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import TYPE_CHECKING, Any

from table_app.seat_view import SEATS, seat_view

if TYPE_CHECKING:
    from table_app.service import Notice, TableService

log = logging.getLogger(__name__)

KEEPALIVE_S = 15.0


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

    def __init__(self, service: TableService, host: str = "", port: int = 0, *, table: str = "table") -> None:
        self.service = service
        self.table = table
        self._cond = threading.Condition()
        self._public: dict[str, Any] = service.public
        self._seq: int = service.seq
        self._claim_window: tuple[float, float] | None = None  # (seconds left, time.monotonic() then)
        self._version = 0
        self._closing = False
        self._unsubscribe: Callable[[], None] | None = None
        self._server = ThreadingHTTPServer((host, port), _handler(self))
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None
        self.streams = 0  # open event streams (for logs and tests)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        host = str(self._server.server_address[0])
        shown = socket.gethostname() if host in ("", "0.0.0.0", "::") else host  # what a phone can reach
        return f"http://{shown}:{self.port}/"

    def start(self) -> SeatPages:
        self._unsubscribe = self.service.subscribe(self)
        with self._cond:  # a change between construction and subscription is not lost
            self._public, self._seq = self.service.public, self.service.seq
        self._thread = threading.Thread(target=self._server.serve_forever, name="seat-pages", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        with self._cond:
            self._closing = True
            self._cond.notify_all()
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
            left = notice.claim_left
            self._claim_window = None if left is None else (left, time.monotonic())
            self._version += 1
            self._cond.notify_all()

    def snapshot(self) -> tuple[int, int, dict[str, Any]]:
        with self._cond:
            return self._version, self._seq, self._public

    def view(self, seat: int) -> dict[str, Any]:
        _, seq, public = self.snapshot()
        with self._cond:
            window = self._claim_window
        left = None if window is None else max(0.0, window[0] - (time.monotonic() - window[1]))
        return {**seat_view(public, seat, left), "seq": seq}

    def wait_change(self, version: int, timeout: float) -> tuple[bool, int]:
        """Wait for a version after ``version``; (closing, the current version)."""
        with self._cond:
            self._cond.wait_for(lambda: self._version != version or self._closing, timeout)
            return self._closing, self._version


def _page(name: str) -> str:
    return resources.files("table_app.web").joinpath(name).read_text(encoding="utf-8")


def _handler(pages: SeatPages) -> type[BaseHTTPRequestHandler]:
    seat_re = re.compile(r"/seat/([0-3])(/events|\.json)?/?")

    class Handler(BaseHTTPRequestHandler):
        server_version = "xian-table"
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            log.debug("web: %s " + format, self.address_string(), *args)

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            if path == "/":
                _, _, public = pages.snapshot()
                rows = "".join(
                    f'<li><a href="/seat/{s}">{s} · {html.escape(seat_view(public, s)["name"] or "—")}</a></li>'
                    for s in range(SEATS))
                body = _page("index.html").replace("{{TABLE}}", html.escape(pages.table)).replace("{{SEATS}}", rows)
                self._send(200, "text/html; charset=utf-8", body.encode())
                return
            m = seat_re.fullmatch(path)
            if m is None:
                self._send(404, "text/plain; charset=utf-8", b"not found\n")
                return
            seat, kind = int(m.group(1)), m.group(2)
            if kind is None:
                body = _page("seat.html").replace("{{TABLE}}", html.escape(pages.table))
                self._send(200, "text/html; charset=utf-8", body.encode())
            elif kind == ".json":
                self._send(200, "application/json", json.dumps(pages.view(seat), ensure_ascii=False).encode())
            else:
                self._stream(seat)

        def _refuse(self) -> None:
            self._send(405, "text/plain; charset=utf-8", b"read-only: GET only\n", allow="GET")

        do_POST = do_PUT = do_DELETE = do_PATCH = _refuse

        def _send(self, status: int, ctype: str, body: bytes, **headers: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            for k, v in headers.items():
                self.send_header(k.title(), v)
            self.end_headers()
            self.wfile.write(body)

        def _stream(self, seat: int) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Accel-Buffering", "no")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            with pages._cond:
                pages.streams += 1
            try:
                version = -1
                last = None
                while True:
                    now, _, _ = pages.snapshot()
                    if now != version:
                        version = now
                        view = pages.view(seat)
                        data = json.dumps(view, ensure_ascii=False)
                        if data != last:  # a view that did not change is not sent again
                            last = data
                            self.wfile.write(f"id: {view['seq']}\nevent: view\ndata: {data}\n\n".encode())
                            self.wfile.flush()
                    closing, newer = pages.wait_change(version, KEEPALIVE_S)
                    if closing:
                        return
                    if newer == version:
                        self.wfile.write(b": keepalive\n\n")
                        self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError, OSError):
                return
            finally:
                with pages._cond:
                    pages.streams -= 1
                    pages._cond.notify_all()

    return Handler
