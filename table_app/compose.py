"""The one composition root of ``serve`` and ``run``: the config, the journal, the service,
the outputs (MQTT, the phones' pages) and the inputs (GPIO buttons, the serial panel).

Every part says how it is doing through one callback, ``on_link(name, state, detail)``:
``mqtt`` (``connecting``, ``online``, ``offline``, ``denied``, ``off``), ``web``
(``listening``, ``off``), ``phones`` (``join``: the detail is the join link, which
the touchscreen shows as a QR code), ``display`` (``link``: the table page with the display key,
which shows the QR code wherever it is opened), ``gpio`` and ``panel`` (``connected``, ``reconnecting``, ``waiting``,
``version_mismatch``, ``warning``). ``serve`` prints them; the touchscreen's Settings shows
them. Kivy is never imported here.
"""

from __future__ import annotations

import logging
import re
import socket
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from table_app.system import sdnotify

if TYPE_CHECKING:
    from table_app.archive import Archive
    from table_app.config.file import Config
    from table_app.core.service import TableService
    from table_app.journal.journal import Journal
    from table_app.present.money import Money
    from table_app.views.table_views import TableViews
    from table_app.web.phones import Phones
    from table_app.web.server import SeatPages
    from table_app.web.taps import Taps

log = logging.getLogger(__name__)

EXIT_USAGE = 2  # a bad option, config or URL
EXIT_JOURNAL = 4  # the journal cannot be used (damaged, foreign, locked): nothing was changed

LinkListener = Callable[[str, str, str], None]


class StartError(Exception):
    """The table cannot start: ``status`` is the exit status, the message says why."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def broker_answers(host: str = "localhost", port: int = 1883, timeout: float = 0.5) -> bool:
    """Whether something listens on the MQTT port (``run --sim`` then publishes there)."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


@dataclass
class Table:
    """A running table: ``Table.open(...)``, then ``attach_outputs``, ``attach_inputs``,
    ``start``; ``close`` stops it all (also as a context manager)."""

    cfg: Config
    journal: Journal
    service: TableService
    views: TableViews  # the one view of the table per change: MQTT, the pages and the touchscreen read it
    links: dict[str, tuple[str, str]] = field(default_factory=dict)
    pages: SeatPages | None = None  # the phones' web pages, when they are on
    _listeners: list[LinkListener] = field(default_factory=list)
    _stops: list[Callable[[], None]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def open(cls, *, config: str | None = None, db: str | None = None, verb: str = "serve",
             service_options: dict[str, Any] | None = None) -> Table:
        """Config, journal and service (not started); :class:`StartError` if one cannot be had."""
        from table_app.config.file import ConfigError, load_config
        from table_app.core.house_fee import HouseFee
        from table_app.core.roster import Roster
        from table_app.core.service import TableService
        from table_app.journal.journal import Journal, JournalError

        try:
            cfg = load_config(config)
        except ConfigError as e:
            raise StartError(f"xian-table {verb}: {e}", EXIT_USAGE) from None
        logging.basicConfig(level=cfg.log_level.upper(), stream=sys.stderr,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        path = db or cfg.journal_file()
        try:
            journal = Journal.open(path)
        except JournalError as e:
            raise StartError(f"xian-table {verb}: {e}", EXIT_JOURNAL) from None
        try:
            service = TableService(journal, claim_window_s=cfg.claim_window_s, roster=Roster.open(journal.path),
                                   **(service_options or {}))
        except Exception as e:
            journal.close()
            raise StartError(f"xian-table {verb}: cannot restore the table from {str(path)!r}: {e}",
                             EXIT_JOURNAL) from None
        service.fees = HouseFee(journal.path, cfg.fee_setting())  # (issue 31: the table's fee default)
        from table_app.present.money import Money
        from table_app.views.table_views import TableViews

        views = TableViews(service, Money.of(cfg.money_per_point, cfg.money_unit_zh, cfg.money_unit_en))
        table = cls(cfg, journal, service, views)
        table.link("journal", "open", str(journal.path))
        return table

    def archive(self) -> Archive:
        """The history's archive of this table's journal (issue 29): its summary kept beside it."""
        from table_app.archive import Archive

        return Archive(self.journal, self.service.roster)

    def money(self) -> Money | None:
        """What a point is worth in the settle-ups every front end shows (config ``money.*``, as the
        views have it; None: points only)."""
        return self.views.money

    # -- link state ----------------------------------------------------------------------

    def add_link_listener(self, fn: LinkListener) -> None:
        """Hear every part's link state from now on (and each part's latest at once)."""
        with self._lock:
            self._listeners.append(fn)
            now = dict(self.links)
        for name, (state, detail) in now.items():
            fn(name, state, detail)

    def link(self, name: str, state: str, detail: str = "") -> None:
        """A part's link state changed (called from that part's thread)."""
        with self._lock:
            if self.links.get(name) == (state, detail):
                return
            self.links[name] = (state, detail)
            listeners = list(self._listeners)
        for fn in listeners:
            try:
                fn(name, state, detail)
            except Exception:
                log.exception("link listener %r failed", fn)

    # -- parts -------------------------------------------------------------------------------

    def start(self) -> Table:
        self.service.start()
        return self

    def attach_outputs(self, *, mqtt_url: str | None = None, table_id: str | None = None,
                       web_listen: str | None = None, local_broker: bool = False, new_code: bool = False) -> None:
        """MQTT when a broker is set (``--mqtt`` over ``mqtt.url``; ``local_broker``: else one on
        localhost:1883 if it answers), the phones' pages when ``--web`` or ``web.listen`` is set —
        the phones' seats and codes as kept beside the journal (``new_code``: a new join code and
        display key, the seats kept).
        A bad URL or listen address raises ValueError; an unreachable broker does not (the
        bridge keeps trying and says so through the link state)."""
        cfg = self.cfg
        if table_id is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", table_id):
            raise ValueError(f"--table must be 1–64 letters, digits, '-' or '_' (an MQTT topic level), "
                             f"got {table_id!r}")
        tid = table_id or cfg.table_id
        url_text = mqtt_url if mqtt_url is not None else cfg.mqtt_url
        if not url_text and local_broker and broker_answers("localhost", 1883):
            url_text = "mqtt://localhost:1883"
        if url_text:
            from table_app.mqtt.bridge import MqttBridge
            from table_app.mqtt.topics import Topics, parse_url

            url = parse_url(url_text)
            bridge = MqttBridge(self.service, url, Topics(cfg.mqtt_prefix, tid),
                                ha_prefix=cfg.mqtt_discovery_prefix or None,
                                heartbeat=sdnotify.part_heartbeat("mqtt"), views=self.views)
            bridge.add_listener(lambda state, detail: self.link("mqtt", state, detail))
            bridge.start()
            self._stops.append(lambda: sdnotify.part_stopped("mqtt"))
            self._stops.append(bridge.stop)  # (the stops run newest first: the bridge, then its watch)
        else:
            self.link("mqtt", "off", "no broker set (mqtt.url or --mqtt): the table runs without MQTT")
        listen = web_listen if web_listen is not None else cfg.web_listen
        if listen:
            from table_app.web.server import SeatPages, parse_listen

            host, port = parse_listen(listen)
            phones, taps = kept_phones(self.journal, new_code=new_code)
            pages = SeatPages(self.service, host, port, table=tid, heartbeat=sdnotify.part_heartbeat("web"),
                              phones=phones, taps=taps, archive=self.archive, views=self.views)
            pages.phones.on_new_token = lambda: self.link("phones", "join", pages.join_url)
            pages.start()
            self.pages = pages
            self._stops.append(lambda: sdnotify.part_stopped("web"))
            self._stops.append(pages.stop)
            self.link("web", "listening", pages.url)
            self.link("phones", "join", pages.join_url)
            self.link("display", "link", pages.table_url)
        else:
            self.link("web", "off", "no web pages (web.listen or --web)")

    def attach_inputs(self, *, pin_factory: Any = None, **given: object) -> None:
        """The table's inputs (``table_app/inputs``): each kind is on when its option is given
        (``panel="/dev/…"`` from ``--panel``, ``gpio=True`` from ``--gpio``) or else its config
        entry is set (``panel.device``, ``gpio.enabled``). A bad pin map, a busy port or no GPIO
        on this machine raises ValueError or OSError."""
        from table_app.inputs.registry import attach_inputs  # (gpiozero, pyserial: only for the kinds that are on)

        self._stops.append(attach_inputs(self.service, self.cfg, given, pin_factory=pin_factory, on_link=self.link))

    def close(self) -> None:
        """Detach the inputs and outputs (newest first), stop the service, close the journal."""
        while self._stops:
            fn = self._stops.pop()
            try:
                fn()
            except Exception:
                log.exception("stopping %r failed", fn)
        self.views.stop()
        self.service.stop()
        if self.service.roster is not None:
            self.service.roster.close()
        if self.service.fees is not None:
            self.service.fees.close()
        self.journal.close()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def kept_phones(journal: Journal, *, new_code: bool = False) -> tuple[Phones, Taps]:
    """The phones as kept beside the journal (``<journal>.phones.json``: the join token, the
    display key, the seats' bindings) and the taps the journal's recent records show applied,
    so that a restart keeps every phone at its seat and a tap sent again is applied once."""
    from table_app.web.phone_store import PhoneStore, store_path
    from table_app.web.phones import Phones
    from table_app.web.taps import Taps, applied_taps

    phones = Phones.kept(PhoneStore(store_path(journal.path)), new_code=new_code)
    taps = Taps()
    taps.restore(applied_taps(journal))
    return phones, taps
