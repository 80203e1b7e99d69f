"""The parlour's web pages (``xian-table parlour serve --http [HOST:]PORT``), the owner's only:

- ``/parlour`` — the floor (:file:`table_app/web/floor.html`), live over ``/parlour/events``
  (only the tiles that changed: :class:`parlour.floor.FloorFeed`), ``/parlour.json``;
- ``/parlour/t/<T>`` — that table's page: the table page itself (:file:`table_app/web/table.html`,
  its own script, served under the table's prefix), its view
  (:func:`table_app.present.table_page.table_view`) from the parlour's fold of the records;
- the reports' routes (the takings and the leaderboards: :mod:`parlour.report_routes`).

Every path needs the owner's key (:mod:`parlour.owner_site`: made once, kept in the parlour database,
printed with the URL by ``parlour serve``): ``?key=`` once — answered with a cookie and sent on
to the same page without it — then the cookie. Without it: 403, in both languages. The server is
the table's own (:class:`table_app.http_kit.server.Server`: its intake, places and limits); the
owner's requests (with the key) are its trusted ones, which strangers' load cannot crowd out.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable

from parlour import report_routes
from parlour.floor import KEEPALIVE_S, FloorFeed
from parlour.live import Live
from parlour.owner_site import FloorSite, owner_only, refused
from table_app.http_kit.admission import Limits
from table_app.http_kit.server import Answer, Reply, Request, Route, Router, Server, Stream, query_value
from table_app.present.vocab_floor import FLOOR
from table_app.present.words import tr
from table_app.web.routes import page_text

HTML = "text/html; charset=utf-8"
JSON = "application/json"
TEXT = "text/plain; charset=utf-8"
_TABLE = r"([A-Za-z0-9_-]{1,64})"
FLOOR_WORDS = ("lang_button", *FLOOR)
# the owner's few browsers, not a table's phones: at most 40 answering threads, within the unit's TasksMax=64
LIMITS = Limits(requests=16, requests_per_client=4, trusted_requests=8, streams=8, streams_per_client=4,
                trusted_streams=8)


def _words() -> str:
    words = {k: [tr(k, "zh"), tr(k, "en")] for k in FLOOR_WORDS}
    return json.dumps(words, ensure_ascii=False).replace("</", "<\\/")


def _lang(request: Request) -> str:
    return "en" if query_value(request.query, "lang") == "en" else "zh"


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
        return refused("fl_no_table", 404)
    text = page_text("table.html", table, base=f"/parlour/t/{table}")
    back = f'<header><a id="floorlink" href="/parlour">{tr("fl_back", "zh")} · {tr("fl_back", "en")}</a>'
    hide = ("<style>#showhistory, #showrecords, #showjoin, #newcode { display: none !important; }\n"
            "  #floorlink { color: inherit; font-size: .95rem; }</style>\n</head>")
    text = text.replace("<header>", back, 1).replace("</head>", hide, 1)
    return Reply(200, HTML, text.encode(), (("Cache-Control", "no-store"),))


def table_json(site: FloorSite, request: Request) -> Reply:
    made = site.table_frame(request.args[0], _lang(request))
    if made is None:
        return refused("fl_no_table", 404)
    data = made[1].split(b"data: ", 1)[1].rstrip()
    return Reply(200, JSON, data, (("Cache-Control", "no-store"),))


def table_events(site: FloorSite, request: Request) -> Answer:
    table, lang = request.args[0], _lang(request)
    if site.table_frame(table, lang) is None:
        return refused("fl_no_table", 404)

    def frame() -> tuple[bytes, bool]:
        made = site.table_frame(table, lang)
        return (b"" if made is None else made[1]), False

    return Stream(frame, KEEPALIVE_S)


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
    return [Route(r.method, r.path, owner_only(r.answer, PAGES.get(r.answer)), r.what)
            for r in ROUTES + report_routes.ROUTES]


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
