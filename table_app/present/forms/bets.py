"""The hand's bets (下注, issue 27), written once: while bets are open (``engine.authority.bets_stage``:
before the dealer's first roll) each seat's bet is entered — on the touchscreen by − and + on
its panel, on a phone by that seat's own phone. The form says what it offers (:func:`offer`:
the stage, each seat's bet entered and held, whose are missing, the bound and the step of −
and +), checks one amount (:func:`amount`: whole points 0..MAX_AMOUNT, full-width digits
taken), what − and + do (:func:`step`), and the ``bets`` command: the phones' once all four are
in (:func:`command`), the touchscreen's before the dealer's roll (:func:`before_roll`). A
phone's bet is refused when it is another seat's, bets are closed or the amount is not one.

>>> public = {"phase": "betting", "bets_open": True, "bets": [0, 0, 0, 0], "players": ["A", "B", "C", "D"]}
>>> offer(public, {0: 2, 2: 1})["missing"]
['B', 'D']
>>> entry(1, {"type": "bet", "amount": "３"}, public)
3
>>> entry(1, {"type": "bet", "amount": 3, "seat": 2}, public).words("en")
'A phone bets for its own seat only'
>>> command({0: 2, 1: 3, 2: 1}, public) is None, command({0: 2, 1: 3, 2: 1, 3: 0}, public)
(True, {'type': 'bets', 'bets': [2, 3, 1, 0]})
>>> step(0, up=False), step(4, up=True), before_roll([0, 0, 0, 0], public)
(0, 5, None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, TypedDict

from engine.authority import BetsStage, bets_stage
from engine.fields import MAX_AMOUNT, check_bets
from engine.public import PublicState
from engine.seats import SEATS
from table_app.present.forms.refused import Refused
from table_app.present.forms.typed import whole

STEP: Final = 1
"""What − and + change a bet by (points)."""
FIELDS: Final = frozenset({"type", "amount", "seat"})  # a phone's bet: {"type": "bet", "amount", "seat"?}


class BetsOffer(TypedDict):
    """What the form offers while bets are open: the stage (``open``, or ``in``: all four
    entered, the dealer not rolled yet), the names by seat, each seat's bet as entered (None: not
    yet) and as the table holds it, the names of the seats still to bet, the bound and the step."""

    stage: BetsStage
    names: list[str]
    entered: list[int | None]
    held: list[int]
    missing: list[str]
    max: int
    step: int


def open_now(public: PublicState) -> bool:
    """Whether bets may be entered now: open, or in and the dealer not rolled yet (they may change)."""
    return bets_stage(public) != "closed"


def missing(public: PublicState, entered: Mapping[int, int]) -> list[str]:
    """The names of the seats whose bets are still to come."""
    return [public["players"][s] for s in range(SEATS) if s not in entered]


def offer(public: PublicState, entered: Mapping[int, int]) -> BetsOffer | None:
    """The form with the bets ``entered`` so far (by seat), or None while bets are closed."""
    stage = bets_stage(public)
    if stage == "closed":
        return None
    return {"stage": stage, "names": list(public["players"]), "entered": [entered.get(s) for s in range(SEATS)],
            "held": list(public["bets"]), "missing": missing(public, entered), "max": MAX_AMOUNT, "step": STEP}


def amount(value: object) -> int | Refused:
    """One seat's bet, checked: whole points 0..MAX_AMOUNT (a number, or a text as typed).

    >>> amount("１０"), amount(0)
    (10, 0)
    >>> amount(1.5).words("zh"), amount("-1").words("en")
    ('注是 0 到 1,000,000 的整数', 'A bet is a whole number, 0 to 1,000,000')
    """
    bet = whole(value)
    if bet is None:
        return Refused("sc_bad_bet", "invalid.bet", "malformed", fields={"max": f"{MAX_AMOUNT:,}"})
    return bet


def step(bet: int, up: bool) -> int:
    """A bet after − or + (:data:`STEP`), never below 0 nor above the bound."""
    return min(max(bet + (STEP if up else -STEP), 0), MAX_AMOUNT)


def entry(seat: int, data: Mapping[str, object], public: PublicState) -> int | Refused:
    """A phone's bet for its seat ``seat`` (``{"type": "bet", "amount", "seat"?}``), or why not:
    not a bet, another seat's, bets closed, not an amount."""
    if not set(data) <= FIELDS:
        return Refused("ph_not_step", "invalid", "malformed")
    if "seat" in data and (type(data["seat"]) is not int or data["seat"] != seat):
        return Refused("sc_not_your_bet", "phone.not_your_bet", "not_yours")
    if not open_now(public):
        return Refused("sc_bets_closed", "phone.bets_closed")
    return amount(data.get("amount"))


def command(entered: Mapping[int, int], public: PublicState) -> dict[str, object] | None:
    """The ``bets`` command once every seat's bet is entered: while bets are open (the event
    makes them count), or in and one of them changed (None: nothing to send)."""
    if len(entered) < SEATS or not open_now(public):
        return None
    bets = list(check_bets([entered[s] for s in range(SEATS)], "bets"))  # (the engine's own check)
    if bets_stage(public) == "in" and bets == list(public["bets"]):
        return None
    return {"type": "bets", "bets": bets}


def before_roll(bets: Sequence[int], public: PublicState) -> dict[str, object] | None:
    """The touchscreen's ``bets`` command, sent before the dealer's roll: the bets on its panels
    when they differ from the table's while bets are open (the roll makes them count; None: none)."""
    if not open_now(public) or list(bets) == list(public["bets"]):
        return None
    return {"type": "bets", "bets": list(check_bets(list(bets), "bets"))}


__all__ = ["FIELDS", "STEP", "BetsOffer", "amount", "before_roll", "command", "entry", "missing", "offer",
           "open_now", "step"]
