"""The seat pages for phones: plain HTTP and Server-Sent Events from the service itself.

Read-only for anyone on the table's network: ``/`` (the four seats), ``/seat/<n>`` (the page),
``/seat/<n>/events`` (an SSE stream: the seat's view now, then after changes) and
``/seat/<n>.json``; the table page ``/table`` with ``/table/events`` and ``/table.json``; the
join code ``/table/join.json`` for a browser on this machine only. Phones that join the table
(issue 18) have the only writes: joining, a bound phone's presses, the table's own steps and
leaving, each a JSON body of at most 1 KiB. Every path, and what it takes, is one row of
:data:`table_app.web.routes.ROUTES`. The views are :func:`table_app.present.seat.seat_view` —
the same as MQTT ``seat/<n>`` — built from the service's notices, so the page needs no broker
(Debian's mosquitto has no websockets).

:class:`SeatPages` puts three parts together: :class:`table_app.web.live.LiveTable` (the
latest state, the views built once per change and the pace-maker that moves the streams),
:class:`table_app.web.phone_routes.PhoneRoutes` (the phones that join), and
:class:`table_app.http_kit.server.Server` (the intake reading each request whole without a thread,
then a thread per request or stream from the places its kind may take; bounded in time, bytes,
connections, requests and streams, in all and per address, so that the table never pays for a
phone). The server knows nothing of phones: it is told which requests are a **bound phone's**
(:meth:`SeatPages.trusted`: a page of ``/phone/<seat>/`` with the cookie of the phone bound to
that seat), and those have a reserve of their own that no load without a phone's secret can
take (issue 27; the limits are :data:`LIMITS`, explained in docs/phones.md).
"""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from table_app.http_kit.admission import Limits
from table_app.http_kit.server import Router, Server, query_value
from table_app.present.money import Money
from table_app.present.seat import SeatView
from table_app.views.table_views import TableViews
from table_app.web.history_routes import History
from table_app.web.live import LiveTable
from table_app.web.phone_routes import PhoneRoutes, phone_secret
from table_app.web.phones import Phones
from table_app.web.routes import ROUTES, Site, page_text
from table_app.web.taps import Taps

if TYPE_CHECKING:
    from table_app.archive import Archive
    from table_app.core.service import TableService

LIMITS = Limits()  # the request deadline, the places in all and per address, bound phones' reserve
MAX_STREAMS = LIMITS.streams  # anyone's event streams (bound phones' have their own reserve besides)
_PHONE_PAGE = re.compile(r"/phone/([0-3])(?:[/?]|$)")


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
    """``SeatPages(service, "", 8080).start()``; ``.url``; ``.stop()``. ``views``: the table's one
    view per change, shared with MQTT and the touchscreen (None: one of its own, with ``money``)."""

    def __init__(self, service: TableService, host: str = "", port: int = 0, *, table: str = "table",
                 limits: Limits = LIMITS, heartbeat: Callable[[], None] | None = None, phones: Phones | None = None,
                 taps: Taps | None = None, money: Money | None = None,
                 archive: Callable[[], Archive] | None = None, views: TableViews | None = None) -> None:
        self.service = service
        self.table = table
        self._archive = archive  # opens the history's archive (None: one on a reader of the service's journal)
        self.limits = limits
        self.live = LiveTable(service, views, money)  # (how many streams, and whose: the server's places)
        self.phones = PhoneRoutes(service, self.page, phones or Phones(), taps=taps or Taps())  # (kept: phone_store)
        self.live.undone = self.phones.decide.undone  # (the table page says what an undo took back)
        money = self.live.money  # (the settle-ups' money: config money.*, as the views have it)
        self.phones.score.money = money
        self.history = History(self._open_archive, lambda: self.live.snapshot()[1], lambda: self.live.snapshot()[2])
        self.history.money = money
        site = Site(self.live, self.phones, table, lambda: self.join_url, self.history)
        self._server = Server((host, port), Router(ROUTES, site), self.live, limits, trusted=self.trusted,
                              heartbeat=heartbeat)
        self._thread: threading.Thread | None = None
        self._unsubscribe_phones: Callable[[], None] | None = None

    def trusted(self, target: str, cookie: str | None) -> bool:
        """Whether a request is a bound phone's: for a page of ``/phone/<seat>`` (``target``, the
        request line's, query and all) with the cookie of the phone bound to that seat; or the
        table page's, opened with the display key (``/table…?…key=<key>``). Asked by
        the server's intake once the request's headers are in, before it is given a thread."""
        page = _PHONE_PAGE.match(target)
        if page is None:  # the table page opened with the display key (the table's own screen) is the table's too
            path, _, query = target.partition("?")
            return path.startswith("/table") and self.phones.phones.key_ok(query_value(query, "key"))
        return self.phones.phones.seat_of(phone_secret(cookie)) == int(page.group(1))

    def _open_archive(self) -> Archive:
        """The history's archive (at its first read): a reader of its own on the journal."""
        from table_app.archive import Archive

        if self._archive is not None:
            return self._archive()
        reader = self.service.journal_reader()  # (its path: the archive opens its own connection)
        try:
            return Archive(reader, self.service.roster)
        finally:
            reader.close()

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def connections(self) -> int:
        return self._server.active

    @property
    def streams(self) -> int:
        """Open event streams (for logs and tests)."""
        return self.live.streams

    @property
    def refused(self) -> int:
        """Connections, requests and event streams answered 503 (for logs, tests and the benchmark)."""
        return self._server.refused

    @property
    def cut(self) -> int:
        """Requests cut at their deadline (for logs, tests and the benchmark)."""
        return self._server.intake.cut

    def view(self, seat: int) -> SeatView:
        return self.live.view(seat)

    def page(self, name: str) -> str:
        return page_text(name, self.table)

    @property
    def join_url(self) -> str:
        """Where a phone on the table's Wi-Fi joins (the QR code's text): this session's token."""
        host = str(self._server.server_address[0])
        if host in ("", "0.0.0.0", "::"):
            host = lan_address() or socket.gethostname()
        return f"http://{host}:{self.port}/join/{self.phones.phones.token}"

    @property
    def table_url(self) -> str:
        """The table page that shows the join code wherever it is opened: it carries the display key."""
        return self.join_url.split("/join/", 1)[0] + f"/table?key={self.phones.phones.key}"

    @property
    def url(self) -> str:
        host = str(self._server.server_address[0])
        shown = socket.gethostname() if host in ("", "0.0.0.0", "::") else host  # what a phone can reach
        return f"http://{shown}:{self.port}/"

    def start(self) -> SeatPages:
        self._unsubscribe_phones = self.service.subscribe(self.phones)
        self.live.start()
        self._thread = threading.Thread(target=self._server.serve_forever, name="seat-pages", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.live.unsubscribe()
        if self._unsubscribe_phones is not None:
            self._unsubscribe_phones()
            self._unsubscribe_phones = None
        self.live.stop()
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join(5)
            self._thread = None
        self._server.server_close()
        self.history.close()


def lan_address() -> str | None:
    """This machine's address on the local network (what a phone on the table's Wi-Fi reaches),
    found by asking the kernel which address it would send from; nothing is sent."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            address = str(s.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") else address
