"""The table page's view (issue 20): the touchscreen's table screen as JSON for any browser —
built from the same words (:mod:`table_app.present.seat`, :mod:`table_app.present.table`, the
wall model), so a TV or a laptop beside the table reads exactly what the touchscreen says.

>>> from engine.public import public_state
>>> from engine.table import new_table
>>> v = table_view(public_state(new_table()), "en")
>>> v["status"], v["seats"][0]["place"], v["settlement"], v["final"]
('start a session', 'bottom', None, None)
"""

from __future__ import annotations

from typing import Final, TypedDict

from engine.public import PublicState
from engine.records import Phase
from engine.scoring import ranking
from table_app.present.buttons import roller
from table_app.present.fees import house_lines, next_change, so_far_line
from table_app.present.money import Money
from table_app.present.seat import SeatLines, seat_lines
from table_app.present.table import (
    PLACES,
    info_lines,
    settle_lines,
    settlement_head,
    settlement_rows,
    status_line,
    transfer_lines,
    wall_line,
)
from table_app.present.wall import screen_index, wall_view
from table_app.present.words import Both, tr, tr_n

# the words the page shows beside the view's own lines (headings, the legend)
WORDS: Final = ("settlement", "col_win", "col_kong", "col_bet", "col_hand", "col_total", "transfers", "final",
                "settle_up", "wall_legend", "wall_unbroken", "lang_button", "nav_join", "join_steps", "score",
                "seconds_left", "close", "page_next_hint", "page_new_hint", "ph_live", "ph_offline", "ar_history",
                "ar_records", "fe_house")


class SeatPanel(SeatLines):
    """A seat's panel on the page: its lines, where it sits and how it is marked."""

    seat: int
    place: str
    turn: bool
    roller: bool
    discarder: bool
    awaited: bool


class Stack(TypedDict):
    u: str  # the upper tile: in, head (drawn), tail (a kong replacement)
    l: str  # noqa: E741  (the lower tile)
    r: bool  # kept back (the reserve)


class WallPage(TypedDict):
    walls: list[list[Stack]]
    broken: bool
    line: str
    head: list[int] | None
    tail: list[int] | None
    next: list[int] | None


class Row(TypedDict):
    seat: int
    name: str
    win: int
    kong: int
    bet: int
    hand: int
    total: int


class SettlementPage(TypedDict):
    head: str
    rows: list[Row]
    transfers: list[str]


class Ranked(TypedDict):
    rank: str
    name: str
    score: int
    seat: int


class FinalPage(TypedDict):
    ranking: list[Ranked]
    hands: str
    settle: list[str]
    house: list[str]  # the house's lines (台费, 茶水) beside the settle-up; [] without a fee


class FeeNow(TypedDict):
    """The fee so far while a session is played; in hour mode also the line it becomes
    ``next_s`` seconds from now (the page shows it then, without a new view)."""

    line: str
    next_s: int | None
    next: str


class TableView(TypedDict):
    lang: str
    phase: Phase
    status: str
    info: list[str]
    countdown: dict[str, float | int | None] | None
    seats: list[SeatPanel]
    wall: WallPage
    settlement: SettlementPage | None
    final: FinalPage | None
    fee: FeeNow | None  # the fee so far (None: no fee, or the session has ended: its settle-up says it)
    words: dict[str, str]
    seq: int | None
    undone: str | None  # what the last undo took back, until the next step ("撤销了：阿明 出牌")


def table_view(pub: PublicState, lang: str, claim_left: float | None = None,
               claim_window_s: float | None = None, seq: int | None = None,
               undone: Both | None = None, money: Money | None = None, seconds: int | None = None) -> TableView:
    """The whole table screen of ``pub`` (the service's public state) in ``lang``; ``undone``:
    what the last undo took back (the phones' part follows it: ``web.phone_decide``); ``seconds``:
    since the session began (the fee so far in hour mode; None: not known)."""
    phase, claims = pub["phase"], pub["claims"]
    waiting = set(claims["waiting"]) if claims is not None else set()
    rolls = roller(pub)
    seats: list[SeatPanel] = [{**seat_lines(pub, seat, lang), "seat": seat, "place": PLACES[seat],
                               "turn": phase == "turn" and pub["turn"] == seat, "roller": rolls == seat,
                               "discarder": claims is not None and claims["from"] == seat,
                               "awaited": seat in waiting} for seat in range(len(pub["players"]))]
    first, second = info_lines(pub, lang)
    countdown = None
    if claims is not None and claim_left is not None:
        countdown = {"left": round(max(0.0, claim_left), 2), "window": claim_window_s, "from": claims["from"]}
    return {
        "lang": lang,
        "phase": phase,
        "status": status_line(pub, lang),  # (the page counts the seconds down itself: words.seconds_left)
        # (during a hand the wall's own line says where the draw starts; after it, who deals next)
        "info": [first] if phase != "hand_over" and pub["break"] else [x for x in (first, second) if x],
        "countdown": countdown,
        "seats": seats,
        "wall": _wall(pub, lang),
        "settlement": _settlement(pub, lang),
        "final": _final(pub, lang, money) if phase == "ended" else None,
        "fee": fee_now(pub, lang, seconds, money),
        "words": {k: tr(k, lang) for k in WORDS},
        "seq": seq,
        "undone": None if undone is None else undone["en" if lang == "en" else "zh"],
    }


def _wall(pub: PublicState, lang: str) -> WallPage:
    """Each wall's 17 stacks in the screen's counter-clockwise order (wall 0 along the bottom,
    left to right; 1 up the right; 2 along the top, right to left; 3 down the left): each
    stack's upper and lower tile (``in``, ``head``: drawn, ``tail``: a kong replacement) and
    whether it is kept back; the marks as ``[wall, index]``."""
    v = wall_view(pub)
    walls: list[list[Stack]] = [[{"u": "in", "l": "in", "r": False}] * 17 for _ in range(4)]
    for (w, stack), cell in v.cells.items():
        walls[w][screen_index(stack, v.direction)] = {"u": cell.upper, "l": cell.lower, "r": cell.reserve}

    def at(mark: tuple[int, int] | None) -> list[int] | None:
        return None if mark is None else [mark[0], screen_index(mark[1], v.direction)]

    return {"walls": walls, "broken": v.broken, "line": wall_line(pub, lang),
            "head": at(v.head), "tail": at(v.tail), "next": at(v.next_head)}


def _settlement(pub: PublicState, lang: str) -> SettlementPage | None:
    if pub["last_settlement"] is None:
        return None
    rows: list[Row] = [{"seat": seat, "name": name, "win": win, "kong": kong, "bet": bet, "hand": hand,
                        "total": total}
                       for seat, (name, win, kong, bet, hand, total) in enumerate(settlement_rows(pub))]
    return {"head": settlement_head(pub, lang), "rows": rows, "transfers": transfer_lines(pub, lang)}


def _final(pub: PublicState, lang: str, money: Money | None = None) -> FinalPage:
    players, scores = pub["players"], pub["scores"]
    return {"ranking": [{"rank": tr("rank_n", lang, n=rank), "name": players[seat], "score": scores[seat],
                         "seat": seat} for rank, seat in ranking(scores)],
            "hands": tr_n("hands_played", lang, len(pub["results"])),
            "settle": settle_lines(pub, lang, money),
            "house": house_lines(pub.get("fee"), pub.get("house"), players, lang, money)}


def fee_now(pub: PublicState, lang: str, seconds: int | None, money: Money | None = None) -> FeeNow | None:
    """The fee so far (:func:`table_app.present.fees.so_far_line`) and, in hour mode, the line
    it becomes at the next started hour."""
    line = so_far_line(pub, seconds, lang, money)
    if not line:
        return None
    wait = next_change(pub, seconds)
    later = "" if wait is None or seconds is None else so_far_line(pub, seconds + wait, lang, money)
    return {"line": line, "next_s": wait, "next": later}
