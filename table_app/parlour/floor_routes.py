"""The parlour's web pages (``xian-table parlour serve --http [HOST:]PORT``), the owner's only:

- ``/parlour`` — the floor (:file:`table_app/web/floor.html`), live over ``/parlour/events``
  (only the tiles that changed: :class:`table_app.parlour.floor.FloorFeed`), ``/parlour.json``;
- ``/parlour/t/<T>`` — that table's page: the table page itself (:file:`table_app/web/table.html`,
  its own script, served under the table's prefix), its view
  (:func:`table_app.present.table_page.table_view`) from the parlour's fold of the records;
- the reports' routes (helper takings: :mod:`table_app.parlour.report_routes`) when present.

Every path needs the owner's key (:func:`owner_key`: made once, kept in the parlour database,
printed with the URL by ``parlour serve``): ``?key=`` once — answered with a cookie and sent on
to the same page without it — then the cookie. Without it: 403, in both languages. The server is
the table's own (:class:`table_app.web.http.Server`: its intake, places and limits); the
owner's requests (with the key) are its trusted ones, which strangers' load cannot crowd out.
"""

from __future__ import annotations

import hmac
import json
import re
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookies import CookieError, SimpleCookie
from typing import TYPE_CHECKING
from urllib.parse import quote

from table_app.parlour.floor import KEEPALIVE_S, FloorFeed
from table_app.parlour.live import Live
from table_app.present.table_page import table_view
from table_app.present.vocab_floor import FLOOR
from table_app.present.words import tr
from table_app.web.admission import Limits
from table_app.web.http import Answer, Reply, Request, Route, Router, Server, Stream, query_value
from table_app.web.live import sse_view
from table_app.web.routes import page_text

if TYPE_CHECKING:
    from table_app.parlour.db import Database

COOKIE = "xian_owner"
KEY_SETTING = "owner_key"
HTML = "text/html; charset=utf-8"
JSON = "application/json"
TEXT = "text/plain; charset=utf-8"
_KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")
_TABLE = r"([A-Za-z0-9_-]{1,64})"
FLOOR_WORDS = ("lang_button", *FLOOR)
# the owner's few browsers, not a table's phones: at most 40 answering threads, within the unit's TasksMax=64
LIMITS = Limits(requests=16, requests_per_client=4, trusted_requests=8, streams=8, streams_per_client=4,
                trusted_streams=8)


def owner_key(db: Database) -> str:
    """The owner's key, made at the first ``serve --http`` and kept in the parlour database."""
    key = db.setting(KEY_SETTING)
    if key is None or not _KEY.fullmatch(key):
        key = secrets.token_urlsafe(18)
        db.set_setting(KEY_SETTING, key)
    return key


def cookie_key(header: str | None) -> str | None:
    if not header or len(header) > 4096:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header)
    except CookieError:
        return None
    morsel = jar.get(COOKIE)
    return None if morsel is None else morsel.value


@dataclass
class FloorSite:
    """What the answers read: the fold, the feed, the owner's key; the table pages' views, built
    once per change of a table and language."""

    live: Live
    feed: FloorFeed
    key: str
    _views: dict[tuple[str, str], tuple[int, bytes]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def owner(self, request: Request) -> bool:
        return self.key_ok(query_value(request.query, "key")) or self.key_ok(cookie_key(request.cookie))

    def key_ok(self, given: str | None) -> bool:
        return bool(given) and hmac.compare_digest(str(given).encode(), self.key.encode())

    def trusted(self, target: str, cookie: str | None) -> bool:
        """The owner's requests (the key in the query or the cookie) take the server's reserve."""
        return self.key_ok(query_value(target.partition("?")[2], "key")) or self.key_ok(cookie_key(cookie))

    def table_frame(self, table: str, lang: str) -> tuple[int, bytes] | None:
        version, pub, seq = self.live.public(table)
        if pub is None:
            return None
        with self._lock:
            cached = self._views.get((table, lang))
            if cached is not None and cached[0] == version:
                return cached
        fee = pub.get("fee")
        seconds = self.live.seconds(table) if fee is not None and fee.get("mode") == "hour" else None
        made = (version, sse_view(table_view(pub, lang, None, None, seq, seconds=seconds)))
        with self._lock:
            self._views[(table, lang)] = made
        return made


def _words() -> str:
    words = {k: [tr(k, "zh"), tr(k, "en")] for k in FLOOR_WORDS}
    return json.dumps(words, ensure_ascii=False).replace("</", "<\\/")


def _refused(key: str, status: int = 403) -> Reply:
    return Reply(status, TEXT, f"{tr(key, 'zh')} · {tr(key, 'en')}\n".encode())


def _lang(request: Request) -> str:
    return "en" if query_value(request.query, "lang") == "en" else "zh"


def owner_only(answer: Callable[[FloorSite, Request], Answer], page: Callable[[Request], str] | None = None
               ) -> Callable[[FloorSite, Request], Answer]:
    """The answer for the owner; a refusal for anyone else. A ``page`` (its path) opened with
    ``?key=`` is sent on to itself without it, the key kept in a cookie (not in the address bar)."""

    def guarded(site: FloorSite, request: Request) -> Answer:
        if not site.owner(request):
            return _refused("fl_owner_only")
        if page is not None and query_value(request.query, "key"):
            rest = "&".join(p for p in request.query.split("&") if not p.startswith("key="))
            cookie = f"{COOKIE}={site.key}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000"
            return Reply(303, TEXT, b"", (("Location", quote(page(request)) + ("?" + rest if rest else "")),
                                          ("Set-Cookie", cookie), ("Cache-Control", "no-store")))
        return answer(site, request)

    return guarded


def floor_page(site: FloorSite, request: Request) -> Reply:
    text = page_text("floor.html", "").replace("{{FLOOR_WORDS}}", _words())
    return Reply(200, HTML, text.encode(), (("Cache-Control", "no-store"),))


def floor_json(site: FloorSite, request: Request) -> Reply:
    tiles, (cols, rows) = site.feed.tiles()
    body = b'{"cols": %d, "rows": %d, "tiles": [' % (cols, rows) + b", ".join(tiles.values()) + b"]}"
    return Reply(200, JSON, body, (("Cache-Control", "no-store"),))


def floor_events(site: FloorSite, request: Request) -> Stream:
    sent: dict[str, bytes] = {}
    last = [b""]

    def frame() -> tuple[bytes, bool]:
        made = site.feed.diff(sent)
        if made is not None:
            last[0] = made
        return last[0], False

    return Stream(frame, KEEPALIVE_S)


def table_page(site: FloorSite, request: Request) -> Reply:
    table = request.args[0]
    if table not in site.live.tables():
        return _refused("fl_no_table", 404)
    text = page_text("table.html", table, base=f"/parlour/t/{table}")
    back = f'<header><a id="floorlink" href="/parlour">{tr("fl_back", "zh")} · {tr("fl_back", "en")}</a>'
    hide = ("<style>#showhistory, #showrecords, #showjoin, #newcode { display: none !important; }\n"
            "  #floorlink { color: inherit; font-size: .95rem; }</style>\n</head>")
    text = text.replace("<header>", back, 1).replace("</head>", hide, 1)
    return Reply(200, HTML, text.encode(), (("Cache-Control", "no-store"),))


def table_json(site: FloorSite, request: Request) -> Reply:
    made = site.table_frame(request.args[0], _lang(request))
    if made is None:
        return _refused("fl_no_table", 404)
    data = made[1].split(b"data: ", 1)[1].rstrip()
    return Reply(200, JSON, data, (("Cache-Control", "no-store"),))


def table_events(site: FloorSite, request: Request) -> Answer:
    table, lang = request.args[0], _lang(request)
    if site.table_frame(table, lang) is None:
        return _refused("fl_no_table", 404)

    def frame() -> tuple[bytes, bool]:
        made = site.table_frame(table, lang)
        return (b"" if made is None else made[1]), False

    return Stream(frame, KEEPALIVE_S)


def _reports() -> list[Route[FloorSite]]:
    """The takings' and leaderboards' routes (:mod:`table_app.parlour.report_routes`), the owner's too."""
    from table_app.parlour import report_routes

    return list(report_routes.ROUTES)


ROUTES: list[Route[FloorSite]] = [
    Route("GET", r"/parlour/?", floor_page, "the floor: a tile per table"),
    Route("GET", r"/parlour\.json", floor_json, "every table's tile now"),
    Route("GET", r"/parlour/events", floor_events, "the tiles now, then those that changed"),
    Route("GET", rf"/parlour/t/{_TABLE}/?", table_page, "a table's page (the table page, from the parlour's copy)"),
    Route("GET", rf"/parlour/t/{_TABLE}/table\.json", table_json, "the table page's view (?lang=en)"),
    Route("GET", rf"/parlour/t/{_TABLE}/table/events", table_events, "the table page's view now and after each change"),
]


PAGES: dict[Callable[[FloorSite, Request], Answer], Callable[[Request], str]] = {
    floor_page: lambda r: "/parlour", table_page: lambda r: f"/parlour/t/{r.args[0]}"}


def routes() -> list[Route[FloorSite]]:
    return [Route(r.method, r.path, owner_only(r.answer, PAGES.get(r.answer)), r.what) for r in ROUTES + _reports()]


class FloorServer:
    """``FloorServer(live, db_open, key, ("", 8090)).start()``; ``.url``; ``.stop()``."""

    def __init__(self, live: Live, plan: Callable[[], dict[str, tuple[int, int]]], key: str,
                 address: tuple[str, int], limits: Limits | None = None) -> None:
        self.feed = FloorFeed(live, plan)
        self.site = FloorSite(live, self.feed, key)
        self.server = Server(address, Router(routes(), self.site), self.feed, limits or LIMITS,
                             trusted=self.site.trusted)
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])

    def url(self, host: str) -> str:
        return f"http://{host}:{self.port}/parlour?key={self.site.key}"

    def start(self) -> FloorServer:
        self.feed.start()
        self._thread = threading.Thread(target=self.server.serve_forever, name="parlour-web", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.feed.stop()
        if self._thread is not None:
            self.server.shutdown()
            self._thread.join(5)
            self._thread = None
        self.server.server_close()
