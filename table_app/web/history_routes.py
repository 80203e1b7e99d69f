"""The history on the web (issue 29): the table page's History, a hand's Replay step by step,
the Records and the leaderboard, and a phone's own sessions and record — JSON read from the
archive (:class:`table_app.archive.Archive`), worded by ``table_app/present/history_view.py``
(the lines every screen shows) and the page's own words (``present/vocab_history_page.py``).

Bounded, and never in the table's way:

- the archive reads on a read-only connection of its own to the journal, inside one read
  transaction (WAL: the service never waits for it), on the request's own thread — never the
  service's;
- one read at a time: a request that cannot have the archive within :data:`READ_WAIT_S` is
  answered 503 with ``Retry-After`` (the server's places bound the requests per address too);
- paged: :data:`PER_PAGE` sessions and :data:`HANDS_PER_PAGE` hands an answer; a replay is
  read a step per request, the last :data:`REPLAYS_KEPT` replays kept (each for the table as it
  was: a new record makes them again, so an undo is never missed);
- every number in a path or a query is checked (the routes' own digits, then its range) before
  the archive is asked; a bad one gets a short refusal in both languages (400, 404).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, TypeVar

from engine.public import PublicState
from table_app.http_kit.replies import json_reply, json_value, refused
from table_app.http_kit.server import Reply, query_value
from table_app.present import history_view
from table_app.present.money import Money, points_text
from table_app.present.table_page import table_view
from table_app.present.vocab_history_page import HISTORY_PAGE
from table_app.present.words import LANGS, tr

if TYPE_CHECKING:
    from table_app.archive import Archive, HandSummary, Page, RecordRow, Replay, SessionSummary

PER_PAGE: Final = 10  # sessions an answer (the table page's history, a phone's)
HANDS_PER_PAGE: Final = 50  # a session's hands an answer
REPLAYS_KEPT: Final = 4  # replays kept for their next steps
READ_WAIT_S: Final = 2.0  # a request waits at most this long for the archive, then 503
PERIODS: Final = ("day", "week", "month")
MAX_NUMBER: Final = 10**9  # a session's, a player's number beyond any table's (the path takes 9 digits)

PHONE_WORDS: Final = {key: {lang: tr(key, lang) for lang in LANGS} for key in (
    "hp_my_record", "hp_my_sessions", "hp_no_player", "hp_none", "hp_prev_page", "hp_next_page", "hp_page",
    "ro_listed", "ro_listed_on", "ro_listed_off")}
T = TypeVar("T")


# the archive's words the pages show as headings and buttons (present/vocab_history.py), and the table's
SHARED_WORDS: Final = ("ar_history", "ar_records", "ar_leaderboard", "ar_replay", "ar_step", "ar_undone",
                       "ar_all_time", "ar_period_day", "ar_period_week", "ar_period_month", "ar_no_record", "close")


def page_words(lang: str) -> dict[str, str]:
    """The page's words in ``lang`` (sent with each answer: the page decides no word)."""
    return {key: tr(key, lang) for key in (*HISTORY_PAGE, *SHARED_WORDS)}


class History:
    """The answers of the history's routes. ``open_archive`` opens the archive at the first
    read (its own reader); ``seq`` is the table's last record (what a kept replay is for)."""

    def __init__(self, open_archive: Callable[[], Archive], seq: Callable[[], int],
                 public: Callable[[], PublicState]) -> None:
        self._open = open_archive
        self._archive: Archive | None = None
        self._seq = seq
        self._public = public
        self._lock = threading.Lock()
        self.money: Money | None = None  # a point's value, beside the points in the settle-ups (config money.*)
        self._replays: OrderedDict[tuple[int, int, int], tuple[Replay, dict[str, list[str]]]] = OrderedDict()

    def close(self) -> None:
        with self._lock:
            archive, self._archive = self._archive, None
            self._replays.clear()
        close = getattr(archive, "close", None)
        if close is not None:
            close()

    def _read(self, read: Callable[[Archive], T]) -> T | Reply:
        """``read(archive)`` under the one read's lock; 503 if it is not had in time, 404 for
        a session, hand or player the archive does not know (its ``KeyError``)."""
        if not self._lock.acquire(timeout=READ_WAIT_S):
            return json_reply(503, {"ok": False, "code": "history.busy", "error": tr("hp_busy", "en"),
                                    **{lang: tr("hp_busy", lang) for lang in LANGS}}, ("Retry-After", "1"))
        try:
            if self._archive is None:
                self._archive = self._open()
            return read(self._archive)
        except KeyError:
            return refused(404, "hp_no_session", "history.unknown")
        finally:
            self._lock.release()

    def _step(self, archive: Archive, session: int, hand: int, i: int, lang: str) -> dict[str, object] | None:
        """Step ``i`` of a hand's replay (None: no such step): the replay and its captions kept
        for the next steps (its captions read in order: a claim says whose tile it was)."""
        key = (session, hand, self._seq())
        kept = self._replays.get(key)
        if kept is None:
            kept = archive.replay(session, hand), {}
            self._replays[key] = kept
            while len(self._replays) > REPLAYS_KEPT:
                self._replays.popitem(last=False)
        self._replays.move_to_end(key)
        replay, captions = kept
        steps = replay.steps
        if not 0 <= i < len(steps):
            return None
        if lang not in captions:
            captions[lang] = history_view.step_captions(steps, replay.final(), lang)
        step = steps[i]
        return {"ok": True, "session": replay.session, "hand": replay.hand, "step": i, "steps": len(steps),
                "seq": step.seq, "undone": step.undone, "caption": captions[lang][i],
                "undone_steps": [k for k, s in enumerate(steps) if s.undone],
                "title": tr("hp_replay_of", lang, session=replay.session, hand=replay.hand),
                "view": table_view(replay.state_at(i), lang, seq=step.seq)}

    # -- the table page ---------------------------------------------------------------------

    def sessions(self, query: str) -> Reply:
        """``/history/sessions.json?page=&lang=``: the sessions, newest first, a page of them."""
        lang, page = _lang(query), _number(query, "page", 0)
        if page is None:
            return refused(400, "hp_bad_page", "history.page")
        got = self._read(lambda a: a.sessions(page, PER_PAGE))
        if isinstance(got, Reply):
            return got
        if page and page >= got.pages:
            return refused(404, "hp_bad_page", "history.page")
        items = [session_item(s, lang, self.money) for s in got.items]
        return json_reply(200, {"ok": True, **_paged(got), "sessions": items, "words": page_words(lang)})

    def session(self, number: str, query: str) -> Reply:
        """``/history/<session>.json?page=&lang=``: a session and its hands (a page of them)."""
        lang, n, page = _lang(query), _bounded(number), _number(query, "page", 0)
        if n is None:
            return refused(404, "hp_no_session", "history.unknown")
        if page is None:
            return refused(400, "hp_bad_page", "history.page")
        got = self._read(lambda a: (a.session(n), a.hands(n)))
        if isinstance(got, Reply):
            return got
        summary, hands = got
        pages = max(1, -(-len(hands) // HANDS_PER_PAGE))
        if page >= pages:
            return refused(404, "hp_bad_page", "history.page")
        shown = hands[page * HANDS_PER_PAGE:(page + 1) * HANDS_PER_PAGE]
        return json_reply(200, {"ok": True, "session": session_item(summary, lang, self.money), "page": page,
                                "pages": pages, "hands": [hand_item(h, lang) for h in shown],
                                "words": page_words(lang)})

    def step(self, number: str, hand_text: str, query: str) -> Reply:
        """``/history/<session>/<hand>.json?step=&lang=``: a hand's replay at one step — the
        table page's own view of the public state after it (drawn by the live table's code),
        its caption, and which steps were undone (marked, they change nothing)."""
        lang, n, hand, i = _lang(query), _bounded(number), _bounded(hand_text), _number(query, "step", 0)
        if n is None or hand is None:
            return refused(404, "hp_no_hand", "history.unknown")
        if i is None:
            return refused(400, "hp_bad_step", "history.step")
        got = self._read(lambda a: self._step(a, n, hand, i, lang))
        if isinstance(got, Reply):
            return refused(404, "hp_no_hand", "history.unknown") if got.status == 404 else got
        if got is None:
            return refused(404, "hp_bad_step", "history.step")
        return json_reply(200, {**got, "words": page_words(lang)})

    def records(self, query: str) -> Reply:
        """``/history/records.json?period=&lang=``: the leaderboard (all time, or by day, week
        or month: the current one)."""
        lang, period = _lang(query), query_value(query, "period") or None
        if period is not None and period not in PERIODS:
            return refused(400, "hp_bad_period", "history.period")
        got = self._read(lambda a: a.leaderboard(period))
        if isinstance(got, Reply):
            return got
        return json_reply(200, {"ok": True, "period": period, "rows": [row_item(r) for r in got],
                                "words": page_words(lang)})

    def player(self, pid_text: str, query: str) -> Reply:
        """``/history/player/<id>.json?period=&lang=``: a roster player's record, by period."""
        lang, pid, period = _lang(query), _bounded(pid_text), query_value(query, "period") or None
        if pid is None:
            return refused(404, "hp_no_player_id", "history.unknown")
        if period is not None and period not in PERIODS:
            return refused(400, "hp_bad_period", "history.period")
        got = self._read(lambda a: a.record(pid, period))
        if isinstance(got, Reply):
            return got
        if not got.name:  # (neither the roster nor a session knows the player)
            return refused(404, "hp_no_player_id", "history.unknown")
        return json_reply(200, {"ok": True, "player_id": got.player_id, "name": got.name, "period": period,
                                "rows": [row_item(r) for r in got.periods],
                                "lines": history_view.record_lines(got, lang), "words": page_words(lang)})

    # -- a phone: the sessions its player played, and its player's record -------------------------

    def phone(self, seat: int, query: str) -> Reply:
        """``/phone/<seat>/history.json?page=`` (a bound phone's only): in both languages."""
        page = _number(query, "page", 0)
        if page is None:
            return refused(400, "hp_bad_page", "history.page")
        pid = self._public()["player_ids"][seat]
        if pid is None:
            return json_reply(200, {"ok": True, "player": None, "sessions": [], "page": 0, "pages": 0, "total": 0,
                                    "record": None, "words": PHONE_WORDS})
        got = self._read(lambda a: (a.sessions(page, PER_PAGE, player_id=pid), a.record(pid), _listed(a, pid)))
        if isinstance(got, Reply):
            return got
        sessions, record, listed = got
        if page and page >= sessions.pages:
            return refused(404, "hp_bad_page", "history.page")
        return json_reply(200, {
            "ok": True, "player": {"id": pid, "name": record.name}, **_paged(sessions),
            "sessions": [{"number": s.number, "seat": _seat_of(s, pid),
                          **{lang: session_item(s, lang, self.money) for lang in LANGS}} for s in sessions.items],
            "record": {lang: history_view.record_lines(record, lang) for lang in LANGS},
            "rows": [row_item(r) for r in record.periods], "listed": listed, "words": PHONE_WORDS})

    def set_listed(self, seat: int, body: bytes) -> Reply:
        """``POST /phone/<seat>/listed`` ``{"listed": false}`` (a bound phone's only): its player
        shown on the parlour's leaderboards or not (the roster's ``listed``: issue 31)."""
        data = json_value(body)
        if not isinstance(data, dict) or set(data) != {"listed"} or not isinstance(data["listed"], bool):
            return refused(400, "hp_bad_listed", "invalid")
        pid = self._public()["player_ids"][seat]
        if pid is None:
            return refused(404, "hp_no_player_id", "history.unknown")
        got = self._read(lambda a: _set_listed(a, pid, bool(data["listed"])))
        if isinstance(got, Reply):
            return got
        if got is None:
            return refused(409, "hp_roster_off", "roster.off")
        return json_reply(200, {"ok": True, "player_id": pid, "listed": got})


# -- the answers' parts ---------------------------------------------------------------------------------

def session_item(s: SessionSummary, lang: str, money: Money | None = None) -> dict[str, object]:
    """A session as the pages list it: its title (its number), its line (when, hands, base, each
    player's total best first: ``history_view.session_line``) and, once it is over, the settle-up
    (with the money beside the points when a point has a value, as the live settle-up)."""
    settle = history_view.settle_lines(s, lang) if money is None or not s.settle_up else [
        tr("settle_pay", lang, frm=s.players[p["from"]], to=s.players[p["to"]],
           amount=points_text(p["amount"], money, lang)) for p in s.settle_up]
    if not s.finished:
        settle = []  # (a session in play: no settle-up yet)
    return {"number": s.number, "started": s.started, "ended": s.ended, "finished": s.finished,
            "players": s.players, "player_ids": s.player_ids, "base": s.base, "hands": s.hands, "totals": s.totals,
            "ranking": s.ranking, "title": tr("ar_session_title", lang, number=s.number),
            "line": history_view.session_line(s, lang), "settle": settle}


def hand_item(h: HandSummary, lang: str) -> dict[str, object]:
    """A hand as the session's list shows it: its line (who won how, 荒牌, who gained or lost
    what) and every transfer with its reason."""
    return {"hand": h.hand, "result": h.result, "drawn": h.result == "drawn", "line": history_view.hand_line(h, lang),
            "deltas": h.deltas, "totals": h.totals, "transfers": history_view.transfer_lines(h, lang)}


def row_item(r: RecordRow) -> dict[str, object]:
    return {"player_id": r.player_id, "name": r.name, "period": r.period, "sessions": r.sessions, "hands": r.hands,
            "wins": r.wins, "self_draws": r.self_draws, "kongs": r.kongs, "net": r.net}


def _listed(a: Archive, pid: int) -> bool | None:
    """Whether the player is shown on the parlour's leaderboards (None: no roster to say)."""
    player = a.roster.get(pid) if a.roster is not None else None
    return None if player is None else player.listed


def _set_listed(a: Archive, pid: int, listed: bool) -> bool | None:
    from table_app.core.roster import RosterError

    if a.roster is None:
        return None
    try:
        return a.roster.set_listed(pid, listed).listed
    except RosterError:
        return None


def _paged(page: Page[SessionSummary]) -> dict[str, int]:
    return {"page": page.page, "pages": page.pages, "total": page.total}


def _seat_of(s: SessionSummary, pid: int) -> int | None:
    return s.player_ids.index(pid) if pid in s.player_ids else None


def _lang(query: str) -> str:
    return "en" if query_value(query, "lang") == "en" else "zh"


def _bounded(text: str) -> int | None:
    """A path's number (its route takes digits only) within what any table holds."""
    return int(text) if text.isdigit() and len(text) <= 9 and 0 < int(text) < MAX_NUMBER else None


def _number(query: str, name: str, default: int) -> int | None:
    """A query's whole number 0–9999 (``default`` when it has none; None: not one)."""
    text = query_value(query, name)
    if not text:
        return default
    return int(text) if text.isdigit() and len(text) <= 4 else None

