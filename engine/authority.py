"""Who decides what, when the seats speak for themselves (docs/phones.md "Each seat decides its
own"): one pure policy that every remote input asks — the phones now, a touchscreen that knows
who touched it later — and the table's own steps every front end offers by the same rules
(below: when a session starts, is replaced or ends; when a hand's bets are in).

A seat decides its own: the winner's seat confirms its win (with its wait) and takes back its
own false win; the seat that made the last step takes it back. What concerns another seat's
result needs a second seat: 诈胡 called on another seat's win stands when the winner agrees or
a second seat does; an undo of another seat's step, when two seats agree; a hand's result
entered whole (只记分) always needs a second seat's confirmation.

>>> facts = Facts(winner=2, last_seat=1)
>>> ruling("confirm_win", 2, facts), ruling("confirm_win", 0, facts)
('decide', 'refuse')
>>> ruling("reject_win", 2, facts), ruling("reject_win", 0, facts)
('decide', 'propose')
>>> stands("reject_win", {0, 2}, facts), stands("reject_win", {0, 3}, facts)
(True, True)
>>> ruling("undo", 1, facts), ruling("undo", 3, facts), stands("undo", {3, 0}, facts)
('decide', 'propose', True)
>>> ruling("score_hand", 0, facts), stands("score_hand", {0}, facts), stands("score_hand", {0, 1}, facts)
('propose', False, True)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Final, Literal

from engine.public import PublicState

Decision = Literal["confirm_win", "reject_win", "undo", "score_hand"]
DECISIONS: Final[tuple[Decision, ...]] = ("confirm_win", "reject_win", "undo", "score_hand")
Ruling = Literal["decide", "propose", "refuse"]

SECOND_SEAT: Final[frozenset[Decision]] = frozenset({"reject_win", "undo", "score_hand"})
"""The decisions two seats agreeing make, whoever they are (a confirmed win is the winner's alone)."""


@dataclass(frozen=True)
class Facts:
    """What the policy reads of the table: the declared win's seat (None: no win declared) and
    the seat that made the last step in effect (None: nobody's, or not known)."""

    winner: int | None = None
    last_seat: int | None = None


def own_seat(kind: Decision, facts: Facts) -> int | None:
    """The seat that decides ``kind`` alone: the winner for its win, the last step's seat for
    its undo; None for a result entered whole (always two seats)."""
    if kind in ("confirm_win", "reject_win"):
        return facts.winner
    if kind == "undo":
        return facts.last_seat
    return None


def stands(kind: Decision, agreeing: Collection[int], facts: Facts) -> bool:
    """Whether the seats ``agreeing`` make the decision ``kind``: its own seat among them, or
    (where a second seat may) two seats."""
    own = own_seat(kind, facts)
    seats = set(agreeing)
    return (own is not None and own in seats) or (kind in SECOND_SEAT and len(seats) >= 2)


def ruling(kind: Decision, seat: int, facts: Facts) -> Ruling:
    """What one seat asking for ``kind`` gets: it decides alone, it proposes (a second seat may
    agree), or it is refused (a win confirmed by another than the winner)."""
    if stands(kind, (seat,), facts):
        return "decide"
    return "propose" if kind in SECOND_SEAT else "refuse"


def step_seat(event_seat: int | None, source_seat: int | None) -> int | None:
    """The seat that made a step: its event's seat (a discard, a claim), else the seat whose
    phone sent it (``next_hand`` from phone 2), else None (the table's own: the claim window's
    ``resolve``, the touchscreen).

    >>> step_seat(1, 3), step_seat(None, 3), step_seat(None, None)
    (1, 3, None)
    """
    return event_seat if event_seat is not None else source_seat


# --- the table's own steps ------------------------------------------------------------

NewSessionWay = Literal["start", "replace", "over"]
BetsStage = Literal["open", "in", "closed"]
FREE_PHASES: Final = ("idle", "ended")
"""Where a new session starts without leaving one behind: no session yet, or the last one ended."""
BETWEEN_HANDS: Final = ("betting", "hand_over")
"""Where a session may be ended (结束牌局): between hands, never in the middle of one."""


def unplayed(public: Mapping[str, object]) -> bool:
    """A session whose first hand nobody has begun: choosing the seats, or its first bets
    before the dealer rolled. A new session replaces it rather than following it.

    >>> unplayed({"phase": "seating"}), unplayed({"phase": "betting", "hand": 1, "results": [], "dice": {}})
    (True, True)
    >>> unplayed({"phase": "betting", "hand": 1, "results": [], "dice": {"dealer": [3, 4]}})
    False
    """
    phase, hand, results, dice = public.get("phase"), public.get("hand"), public.get("results"), public.get("dice")
    if phase == "seating":
        return True
    rolled = isinstance(dice, Mapping) and dice.get("dealer") is not None
    return phase == "betting" and hand == 1 and not results and not rolled


def new_session_way(public: Mapping[str, object]) -> NewSessionWay:
    """How a new session begins now: ``start`` (idle or ended), ``replace`` (the session is
    :func:`unplayed`: it is taken back first, not followed — nothing is lost) or ``over`` (a
    session is being played: starting over leaves it behind — the touchscreen asks first, a
    phone never does).

    >>> [new_session_way({"phase": p}) for p in ("idle", "ended", "seating", "turn")]
    ['start', 'start', 'replace', 'over']
    """
    if public.get("phase") in FREE_PHASES:
        return "start"
    return "replace" if unplayed(public) else "over"


def may_end_session(phase: str) -> bool:
    """Whether the session may be ended now: between hands (:data:`BETWEEN_HANDS`).

    >>> may_end_session("hand_over"), may_end_session("betting"), may_end_session("turn")
    (True, True, False)
    """
    return phase in BETWEEN_HANDS


def bets_stage(public: PublicState) -> BetsStage:
    """Where the hand's bets stand: ``open`` (phase ``betting``: not entered yet — a result
    may still be entered whole, 只记分), ``in`` (all four entered and the dealer has not rolled:
    phase ``rolling`` with bets open — taken back, they open again) or ``closed`` (rolled, or
    no hand to bet on).

    >>> [bets_stage({"phase": p, "bets_open": o}) for p, o in  # type: ignore[typeddict-item]
    ...  (("betting", True), ("rolling", True), ("rolling", False), ("turn", False))]
    ['open', 'in', 'closed', 'closed']
    """
    if public["phase"] == "betting" and public["bets_open"]:
        return "open"
    return "in" if public["phase"] == "rolling" and public["bets_open"] else "closed"


__all__ = ["BETWEEN_HANDS", "DECISIONS", "FREE_PHASES", "SECOND_SEAT", "BetsStage", "Decision", "Facts",
           "NewSessionWay", "Ruling", "bets_stage", "may_end_session", "new_session_way", "own_seat", "ruling",
           "stands", "step_seat", "unplayed"]
