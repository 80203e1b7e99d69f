"""The public state (docs/design.md "Public state"): what every display and dashboard reads, typed.

:func:`public_state` is a pure function of a :class:`~engine.state.TableState`: schema 1 of
the design, plus the keys added since (``actions``, ``claims.answers``, ``settle_up`` …).
Concealed tiles are only counted — it is published to every seat. The types below are the
contract every front end is checked against (``table_app/present`` reads them); JSON is made
of them only at the edges (the journal, MQTT, HTTP).

Besides the first release's keys the engine answers here what the displays would otherwise
work out themselves (docs/design.md lists them): ``bets_open`` (bets may still change),
``step`` (the table's own step that moves it on when no seat's button does), ``claims.next``
(the discarder's 下家 while its TURN means "I drew and discarded": nobody has claimed),
``claims.held`` (that 下家 once it has pressed, while it waits for the others: issue 28).

>>> from engine.table import replay
>>> p = public_state(replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
...                          {"type": "seating", "method": "C", "east": 2}]))
>>> p["phase"], p["winds"], p["bets_open"], p["step"], p["actions"][2]
('betting', ['W', 'N', 'E', 'S'], True, None, ['roll'])
"""

from __future__ import annotations

from typing import Final, Literal, TypedDict

from engine.claims import prevailing_claim
from engine.fees import BillJSON, FeeJSON, bill
from engine.legal import actions
from engine.records import (
    Action,
    Answer,
    ClaimKind,
    HandResult,
    KongKind,
    MeldKind,
    Payment,
    Phase,
    Settlement,
    Wind,
    WinKind,
)
from engine.rules import RuleValue
from engine.scoring import settle_up
from engine.seats import SEAT_RANGE, next_seat
from engine.state import SCHEMA, Meld, SeatState, TableState
from engine.table import dealer_after
from engine.tiles import format_tiles, tile_text

Mode = Literal["full", "tracked"]
Step = Literal["new_session", "seating", "confirm_win", "next_hand"]

TABLE_STEPS: Final[dict[Phase, Step]] = {"idle": "new_session", "seating": "seating", "win_pending": "confirm_win",
                                         "hand_over": "next_hand"}
"""The table's own step in each phase where no seat's button moves it on: the event the table
(its screen, a phone's table steps) sends. In every other phase a seat acts (its ``actions``),
and a session that has ended waits for a new one (``new_session``, offered with the results)."""

MeldPublic = TypedDict("MeldPublic", {"kind": MeldKind, "tiles": str | None, "kong": KongKind, "from": int},
                       total=False)
"""An exposed meld (or a concealed kong): ``kind`` and ``tiles`` always; ``kong`` for a kong,
``from`` for a claimed meld."""


class SeatPublic(TypedDict):
    """One seat's tiles as everyone may see them: how many concealed, the melds, the river."""

    concealed: int
    melds: list[MeldPublic]
    discards: list[str | None]


class DicePublic(TypedDict):
    dealer: list[int] | None
    owner: list[int] | None


class BreakPublic(TypedDict):
    """Where the wall is broken (docs/rules.md §6): the owner, k = t1 + t2, the tail stack's wall and number."""

    owner: int
    count: int
    wall: int
    stack: int


class Where(TypedDict):
    wall: int
    stack: int


class WallPublic(TypedDict):
    remaining: int
    head_taken: int
    tail_taken: int
    kongs: int
    reserve_stacks: int
    drawable: int
    head: Where | None  # where the next head draw comes from
    tail: Where | None  # where the next replacement comes from


ClaimsPublic = TypedDict("ClaimsPublic", {
    "kind": ClaimKind,
    "from": int,  # the discarder (or the added kong's declarer)
    "tile": str | None,  # None: not known (tracked mode)
    "waiting": list[int],  # the seats that have not answered yet
    "answers": list[Answer | None],  # per seat; the discarder's stays None
    "next": int | None,  # the discarder's 下家 while its TURN is "I drew and discarded": a discard, no claim pending
    "held": int | None,  # (issue 28) the 下家 that has pressed TURN and waits for the others; its draw when none claims
})

PendingWinPublic = TypedDict("PendingWinPublic", {"seat": int, "kind": WinKind, "from": int | None})

PublicState = TypedDict("PublicState", {
    "schema": int,
    "phase": Phase,
    "players": list[str],
    "winds": list[Wind | None],
    "dealer": int | None,
    "hand": int,
    "round": int,
    "dealer_streak": int,
    "bets": list[int],
    "dice": DicePublic,
    "break": BreakPublic | None,
    "wall": WallPublic,
    "turn": int | None,
    "scores": list[int],
    "last_settlement": Settlement | None,
    # added since the first release (schema 1 stays)
    "mode": Mode,
    "base": int,
    "rules": dict[str, RuleValue],
    "seats": list[SeatPublic] | None,
    "claims": ClaimsPublic | None,
    "pending_win": PendingWinPublic | None,
    "next_dealer": int | None,
    "actions": list[list[Action]],
    "settle_up": list[Payment] | None,
    "results": list[HandResult],
    "bets_open": bool,
    "step": Step | None,
    "player_ids": list[int | None],  # (issue 28) each seat's player in the table's roster; None: not in it
    # (issue 31) the session's fee setting and, once it has ended, the house's bill; what a fee so far counts
    "fee": FeeJSON | None,
    "house": BillJSON | None,
    "session_hands": int,
    "session_rounds": int,
})
"""docs/design.md "Public state", every key typed."""


def meld_public(m: Meld) -> MeldPublic:
    d: MeldPublic = {"kind": m.kind, "tiles": format_tiles(m.tiles) if m.tiles else None}
    if m.kong is not None:
        d["kong"] = m.kong
    if m.frm is not None:
        d["from"] = m.frm
    return d


def seat_public(st: SeatState) -> SeatPublic:
    return {"concealed": st.count, "melds": [meld_public(m) for m in st.melds],
            "discards": [None if t is None else tile_text(t) for t in st.discards]}


def public_state(s: TableState) -> PublicState:
    """The public state of ``s`` (no concealed tiles)."""
    bp = s.breakpoint
    dealt = s.phase in ("turn", "claims", "win_pending", "hand_over") and bp is not None
    return {
        "schema": SCHEMA,
        "phase": s.phase,
        "players": list(s.players),
        "winds": s.winds(),
        "dealer": s.dealer,
        "hand": s.hand,
        "round": s.round,
        "dealer_streak": s.dealer_streak,
        "bets": list(s.bets),
        "dice": {"dealer": None if s.dice_dealer is None else list(s.dice_dealer),
                 "owner": None if s.dice_owner is None else list(s.dice_owner)},
        "break": _break(s),
        "wall": _wall(s),
        "turn": s.turn if s.phase == "turn" else None,
        "scores": list(s.scores),
        "last_settlement": s.last_settlement,
        "mode": "full" if s.full else "tracked",
        "base": s.base,
        "rules": s.rules.overrides(),
        "seats": [seat_public(st) for st in s.seats] if dealt else None,
        "claims": _claims(s),
        "pending_win": _pending(s),
        "next_dealer": _next_dealer(s),
        "actions": actions(s),
        "settle_up": settle_up(s.scores) if s.phase == "ended" else None,
        "results": list(s.results),
        "bets_open": s.phase in ("betting", "rolling") and s.dice_dealer is None,
        "step": TABLE_STEPS.get(s.phase),
        "player_ids": list(s.player_ids),
        "fee": None if s.fee is None else s.fee.to_json(),
        "house": house_bill(s),
        "session_hands": len(s.results),
        "session_rounds": s.settled_round,
    }


def house_bill(s: TableState) -> BillJSON | None:
    """What the house is owed (``engine.fees.bill``), once the session has ended with a fee set.

    >>> from engine.table import replay
    >>> s = replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1,
    ...              "fee": {"mode": "hour", "rate": 30, "tea": 5}},
    ...             {"type": "seating", "method": "C", "east": 0},
    ...             {"type": "score_hand", "winner": 2, "how": "self_drawn"},
    ...             {"type": "end_session", "seconds": 4000}])
    >>> house_bill(s)
    {'mode': 'hour', 'units': 2, 'fee': 60, 'table': [15, 15, 15, 15], 'tea': [5, 5, 5, 5], 'total': 80}
    """
    if s.phase != "ended" or s.fee is None:
        return None
    return bill(s.fee, hands=len(s.results), rounds=s.settled_round, seconds=s.seconds, scores=s.scores).to_json()


def _break(s: TableState) -> BreakPublic | None:
    bp = s.breakpoint
    if bp is None:
        return None
    return {"owner": bp.owner, "count": bp.count, "wall": bp.wall, "stack": bp.stack}


def _wall(s: TableState) -> WallPublic:
    w = s.wall
    return {"remaining": w.remaining, "head_taken": w.head_taken, "tail_taken": w.tail_taken, "kongs": s.kongs,
            "reserve_stacks": s.reserve_stacks, "drawable": s.drawable,
            "head": _where(s, w.head_slot()), "tail": _where(s, w.tail_slot(0))}


def _where(s: TableState, slot: int | None) -> Where | None:
    bp = s.breakpoint
    if slot is None or bp is None:
        return None
    wall, stack = bp.stack_at(slot // 2)
    return {"wall": wall, "stack": stack}


def _claims(s: TableState) -> ClaimsPublic | None:
    c = s.claims
    if c is None or s.phase != "claims":
        return None
    return {"kind": c["kind"], "from": c["from"], "tile": None if c["tile"] is None else tile_text(c["tile"]),
            "waiting": [seat for seat in SEAT_RANGE if seat != c["from"] and c["answers"][seat] is None],
            "answers": list(c["answers"]),
            "next": next_seat(c["from"]) if c["kind"] == "discard" and prevailing_claim(c) is None
            and c["held"] is None else None,
            "held": c["held"]}


def _pending(s: TableState) -> PendingWinPublic | None:
    p = s.pending
    if p is None or s.phase != "win_pending":
        return None
    return {"seat": p["seat"], "kind": p["kind"], "from": p["from"]}


def _next_dealer(s: TableState) -> int | None:
    """Who deals the next hand (docs/rules.md §4), once a hand is over."""
    if s.phase != "hand_over" or s.last_settlement is None or s.dealer is None:
        return None
    return dealer_after(s.dealer, s.last_settlement)
