"""Every path the web server answers: :data:`ROUTES`, one row each, and the answers.

The seat pages (read-only) and the table page (issue 20; ``?lang=en``, zh by default) are for
anyone on the table's network, except the join code, which only a browser on this machine
gets (a screen at the table). Phones that join the table (issue 18,
:mod:`table_app.web.phone_routes`) have the only writes: joining, and a bound phone's
presses, the table's own steps and leaving. What a path takes — and so what OPTIONS says and
what gets 405 — comes from this table only (:class:`table_app.http_kit.server.Router`).
"""

from __future__ import annotations

import functools
import html
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources

from table_app.http_kit.replies import json_object, refused
from table_app.http_kit.server import Reply, Request, Route, Stream, query_value, sse_view
from table_app.present.page_words import page_words
from table_app.present.qr import qr_svg
from table_app.present.seat import seat_labels
from table_app.present.words import pair
from table_app.system.bounded import json_line
from table_app.web import phone_join
from table_app.web.history_routes import History
from table_app.web.live import KEEPALIVE_S, LiveTable
from table_app.web.phone_routes import PhoneRoutes, PhoneView, phone_secret

PHONE_WAKE_S = 1.0  # a phone's stream looks at its binding at least this often
HTML = "text/html; charset=utf-8"
JSON = "application/json"

WORDS = page_words("phone.html")  # (the phone page's own words: the same for every view, made once)


@dataclass(frozen=True)
class Site:
    """What the answers read: the live table, the phones, the table's name, its join link now,
    the history (the archive's reads: :mod:`table_app.web.history_routes`)."""

    live: LiveTable
    phones: PhoneRoutes
    table: str
    join_url: Callable[[], str]
    history: History

    def page(self, name: str) -> str:
        return page_text(name, self.table)


def page_text(name: str, table: str, base: str = "") -> str:
    """A page file's text, the table's name filled in, and the page's own words from the word
    table: as JSON for its script where it asks for ``{{WORDS}}``
    (:func:`table_app.present.page_words.page_words`), and one word in its HTML where it says
    ``{{W:key}}`` ("中文 · English"), ``{{ZH:key}}`` or ``{{EN:key}}``; ``{{BASE}}``: the
    prefix of the table's paths (the parlour serves a table's page under ``/parlour/t/<T>``)."""
    folder = resources.files("table_app.web")
    text = folder.joinpath(name).read_text(encoding="utf-8")
    # a page's script parts, each its own file (``{{INCLUDE:phone_score.js}}``), put in whole
    text = _INCLUDE.sub(lambda m: folder.joinpath(m.group(1)).read_text(encoding="utf-8"), text)
    text = _WORD.sub(_word, text)
    return (text.replace("{{TABLE}}", html.escape(table)).replace("{{WORDS}}", _page_words(name))
            .replace("{{BASE}}", base))


@functools.cache
def _page_words(name: str) -> str:
    """The page's words as JSON inside its <script> (made once a page)."""
    return json.dumps(page_words(name), ensure_ascii=False).replace("</", "<\\/")


_INCLUDE = re.compile(r"\{\{INCLUDE:([a-z_]+\.js)\}\}")
_WORD = re.compile(r"\{\{(W|ZH|EN):(\w+)\}\}")


def _word(m: re.Match[str]) -> str:
    """A word of the page's HTML in the language it asks for ("W": both, as the pages write them)."""
    zh, en = pair(m.group(2))
    return html.escape({"ZH": zh, "EN": en}.get(m.group(1)) or (zh if zh == en else f"{zh} · {en}"))


def _json(data: object, status: int = 200) -> Reply:
    return Reply(status, JSON, json_line(data, separators=(", ", ": ")).encode())


def _loopback(address: str) -> bool:
    return address.startswith("127.") or address in ("::1", "::ffff:127.0.0.1")


_LOCAL_HOST = re.compile(r"(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(:\d{1,5})?", re.IGNORECASE)


def _local_host(host: str) -> bool:
    """Whether a ``Host`` header names this machine by a loopback name. A page of another site
    whose name an attacker points at 127.0.0.1 (DNS rebinding) is asked for with that name, so
    it is refused even though the request comes from this machine.

    >>> [_local_host(h) for h in ("localhost:8081", "127.0.0.1", "[::1]:80", "evil.example:8081", "")]
    [True, True, True, False, False]
    """
    return _LOCAL_HOST.fullmatch(host) is not None


# -- the seats' pages (read-only) -------------------------------------------------------------------

def index(site: Site, request: Request) -> Reply:
    public = site.live.snapshot()[2]  # (each seat by its wind, or its place before the winds: never a number)
    rows = "".join(f'<li><a href="/seat/{s}"><span class="where">{html.escape(label["zh"])} · '
                   f'{html.escape(label["en"])}</span> <span class="who">{html.escape(name or "—")}</span></a></li>'
                   for s, (name, label) in enumerate(zip(public["players"], seat_labels(public), strict=True)))
    return Reply(200, HTML, site.page("index.html").replace("{{SEATS}}", rows).encode())


def seat_page(site: Site, request: Request) -> Reply:
    return Reply(200, HTML, site.page("seat.html").encode())


def seat_json(site: Site, request: Request) -> Reply:
    return _json(site.live.view(int(request.args[0])))


def seat_events(site: Site, request: Request) -> Stream:
    seat = int(request.args[0])
    return Stream(lambda: (site.live.frame(seat)[1], False), KEEPALIVE_S)


# -- the table page -----------------------------------------------------------------------------------

def _lang(request: Request) -> str:
    return "en" if query_value(request.query, "lang") == "en" else "zh"


def table_page(site: Site, request: Request) -> Reply:
    return Reply(200, HTML, site.page("table.html").encode())


def table_json(site: Site, request: Request) -> Reply:
    return _json(site.live.table_view(_lang(request)))


def table_events(site: Site, request: Request) -> Stream:
    lang = _lang(request)
    return Stream(lambda: (site.live.frame(lang)[1], False), KEEPALIVE_S)


def _the_table(site: Site, request: Request, key: str) -> bool:
    """Whether a request comes from the table: a page opened with the display key (the link the
    table prints), or a browser on this machine — never from one elsewhere on the network
    without the key, nor from another site's page this browser shows (its Host)."""
    if site.phones.phones.key_ok(key):
        return True
    return _loopback(request.client) and _local_host(request.host)


def join_code(site: Site, request: Request) -> Reply:
    """The join link and its QR code, for the table's pages only (:func:`_the_table`)."""
    if not _the_table(site, request, query_value(request.query, "key")):
        return Reply(403, JSON, b'{"error": "the join code is shown on the table only"}')
    url = site.join_url()
    return Reply(200, JSON, json.dumps({"url": url, "svg": _qr(url), "code": site.phones.phones.code_tag()}).encode())


@functools.lru_cache(maxsize=4)
def _qr(url: str) -> str:
    return qr_svg(url)


def new_code(site: Site, request: Request) -> Reply:
    """A new join code on demand (换二维码), from a table's page: an old one photographed stops
    working; the seats stay."""
    body = json_object(request.body)
    key = body.get("key") if body is not None else None
    if not _the_table(site, request, key if isinstance(key, str) else ""):
        return Reply(403, JSON, b'{"ok": false, "error": "a new code is made on the table only"}')
    site.phones.phones.new_code()
    if site.phones.on_new_token is not None:
        site.phones.on_new_token()
    return _json({"ok": True, "code": site.phones.phones.code_tag()})


def table_phones(site: Site, request: Request) -> Reply:
    return _json(phone_join.table_phones(site.phones))


# -- the history: sessions, a hand step by step, records (table_app/web/history_routes.py) ----------------

def history_sessions(site: Site, request: Request) -> Reply:
    return site.history.sessions(request.query)


def history_session(site: Site, request: Request) -> Reply:
    return site.history.session(request.args[0], request.query)


def history_step(site: Site, request: Request) -> Reply:
    return site.history.step(request.args[0], request.args[1], request.query)


def history_records(site: Site, request: Request) -> Reply:
    return site.history.records(request.query)


def history_player(site: Site, request: Request) -> Reply:
    return site.history.player(request.args[0], request.query)


def phone_history(site: Site, request: Request) -> Reply:
    """A bound phone's player: the sessions it played, its record (401 for any other browser)."""
    seat = int(request.args[0])
    if site.phones.phones.seat_of(phone_secret(request.cookie)) != seat:
        return refused(401, "ph_no_seat", "phone.unbound")
    return site.history.phone(seat, request.query)


def phone_listed(site: Site, request: Request) -> Reply:
    """A bound phone's player: shown on the parlour's leaderboards or not (401 for any other browser)."""
    seat = int(request.args[0])
    if site.phones.phones.seat_of(phone_secret(request.cookie)) != seat:
        return refused(401, "ph_no_seat", "phone.unbound")
    return site.history.set_listed(seat, request.body)


# -- phones that join -----------------------------------------------------------------------------------

def join_page(site: Site, request: Request) -> Reply:
    return site.phones.join_page(request.args[0])


def join_seats(site: Site, request: Request) -> Reply:
    return site.phones.join_seats(request.args[0])


def join(site: Site, request: Request) -> Reply:
    return site.phones.join(request.args[0], request.body, request.client)


def join_ask(site: Site, request: Request) -> Reply:
    return site.phones.join(request.args[0], request.body, request.client, asking=True)


def takeover(site: Site, request: Request) -> Reply:
    return phone_join.answer_takeover(site.phones, int(request.args[0]), request.body, request.cookie)


def phone_page(site: Site, request: Request) -> Reply:
    return site.phones.phone_page(request.args[0], request.cookie)


def phone_events(site: Site, request: Request) -> Stream:
    """The bound phone's view (its seat's, a name waiting to be set, the table's steps it
    offers) now and after every change; ``unbound`` when it loses its seat (another phone took
    it, it left, a new session), and the stream ends."""
    bound, cookie, phones = int(request.args[0]), request.cookie, site.phones

    def frame() -> tuple[bytes, bool]:
        seat, why = phones.bound_view(bound, cookie)
        if seat is None:
            return f"event: unbound\ndata: {json.dumps(why, ensure_ascii=False)}\n\n".encode(), True
        _, seq, public = site.live.snapshot()
        view: PhoneView = {**site.live.view(seat), "name_pending": phones.pending_name(seat),
                           "steps": phones.steps(public, seat), "words": WORDS,
                           "keeping": phones.score.view(public, phones.pending_name, seat),
                           "decide": phones.decide.view(seat, public, seq), **phone_join.link_view(phones, seat)}
        return sse_view(view), False

    return Stream(frame, PHONE_WAKE_S, keepalive=False)


def press(site: Site, request: Request) -> Reply:
    return site.phones.press(int(request.args[0]), request.body, request.cookie)


def table_step(site: Site, request: Request) -> Reply:
    return site.phones.step(int(request.args[0]), request.body, request.cookie)


def pick(site: Site, request: Request) -> Reply:
    return site.phones.pick(int(request.args[0]), request.body, request.cookie)


def leave(site: Site, request: Request) -> Reply:
    return site.phones.leave(int(request.args[0]), request.cookie)


ROUTES: tuple[Route[Site], ...] = (
    # method  path (a regex for the whole path)   answer        what it is for
    Route("GET", r"/",                            index,        "the four seats, each a link to its page"),
    Route("GET", r"/seat/([0-3])/?",              seat_page,    "a seat's page"),
    Route("GET", r"/seat/([0-3])\.json/?",        seat_json,    "a seat's view (the same as MQTT seat/<n>)"),
    Route("GET", r"/seat/([0-3])/events/?",       seat_events,  "a seat's view now and after each change (SSE)"),
    Route("GET", r"/table",                       table_page,   "the table page: the touchscreen's table screen"),
    Route("GET", r"/table\.json",                 table_json,   "the table page's view (?lang=en)"),
    Route("GET", r"/table/events",                table_events, "the table page's view now and after each change"),
    Route("GET", r"/table/join\.json",            join_code,    "the join link and QR code (?key=, or this machine)"),
    Route("POST", r"/table/code/*",               new_code,     "a new join code (the display key, or this machine)"),
    Route("GET", r"/table/phones\.json",          table_phones, "which seats have a phone, which changed phone lately"),
    Route("GET", r"/history/sessions\.json",      history_sessions, "the sessions, newest first (?page=, ?lang=)"),
    Route("GET", r"/history/(\d{1,9})\.json",     history_session, "a session and its hands (?page=, ?lang=)"),
    Route("GET", r"/history/(\d{1,9})/(\d{1,9})\.json", history_step, "a hand's replay at a step (?step=, ?lang=)"),
    Route("GET", r"/history/records\.json",       history_records, "the leaderboard (?period=day|week|month)"),
    Route("GET", r"/history/player/(\d{1,9})\.json", history_player, "a roster player's record (?period=)"),
    Route("GET", r"/join/([^/]+)/*",              join_page,    "a phone's page for joining (the QR code's link)"),
    Route("GET", r"/join/([^/]*)/seats\.json/*",  join_seats,   "the seats to join: names, winds, phones"),
    Route("POST", r"/join/([^/]+)/*",             join,         "join: a seat, and a name"),
    Route("POST", r"/join/([^/]+)/ask/*",         join_ask,     "join a taken seat: again, while its phone is asked"),
    Route("GET", r"/phone/([^/]+)/*",             phone_page,   "a bound phone's page (else back to /)"),
    Route("GET", r"/phone/([0-3])/events",        phone_events, "a bound phone's view now and after each change"),
    Route("GET", r"/phone/([0-3])/history\.json", phone_history, "a bound phone's player's sessions and record"),
    Route("POST", r"/phone/([0-3])/listed/*",     phone_listed, "its player on the parlour's boards or not"),
    Route("POST", r"/phone/([0-3])/press/*",      press,        "a bound phone's press for its seat"),
    Route("POST", r"/phone/([0-3])/table/*",      table_step,   "one of the table's own steps, from a bound phone"),
    Route("POST", r"/phone/([0-3])/pick/*",       pick,         "a roster name tapped into the new-session form"),
    Route("POST", r"/phone/([0-3])/leave/*",      leave,        "a bound phone leaves its seat"),
    Route("POST", r"/phone/([0-3])/takeover/*",   takeover,     "a bound phone allows or refuses a takeover"),
)
