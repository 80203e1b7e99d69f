"""Result-only entry (只记分) from a phone (issue 27): what the phone's form may offer now, and the
``score_hand`` command of what it filled in — the touchscreen's form
(``table_app/ui/screens/entry.py``) in a phone's words. The engine builds and checks the event
(``engine.scored.score_hand``, ``check_scored``); the special wins offered are the ones
``engine.scored.extras`` allows; the bets are the table's (the hand's ``bets``). A second seat
confirms it (:mod:`table_app.web.phone_decide`).

>>> from engine.table import replay
>>> from engine.public import public_state
>>> pub = public_state(replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
...                            {"type": "seating", "method": "C", "east": 0}]))
>>> offer = entry_offer(pub)
>>> offer["extras"]["0:self_drawn:none"], offer["extras"]["1:self_drawn:own"], offer["extras"]["2:discard:none"]
(['heavenly'], ['kong_bloom'], ['robbed_kong'])
>>> entry_command({"type": "score_hand", "winner": 2, "how": "discard", "discarder": 0, "wait": "closed"}, pub)
{'type': 'score_hand', 'winner': 2, 'how': 'discard', 'discarder': 0, 'wait': 'closed'}
>>> entry_command({"type": "score_hand", "winner": 2, "how": "discard", "discarder": 2}, pub)[:40]
'seat 2 cannot win on its own discard: th'
"""

from __future__ import annotations

from typing import Final, TypedDict

from engine.errors import RuleError
from engine.public import PublicState
from engine.records import WAIT_KINDS
from engine.rules import Rules
from engine.scored import EXTRAS, ScoredKong, check_scored, extras, kong_discarder_needed, score_hand
from engine.seats import SEATS
from engine.table import accepts

FIELDS: Final = frozenset({"type", "winner", "how", "discarder", "wait", "extra", "kongs"})
KONG_STATES: Final = ("none", "own", "other")  # the winner's kongs: none at all, its own, only others'
MAX_KONGS: Final = 16


class EntryOffer(TypedDict):
    """What a phone's result-only form offers now: the waits, and the special wins the engine
    allows for each winner, way and kongs (key ``"<winner>:<how>:<none|own|other>"``); whether
    an exposed kong must name its discarder (the session's rules)."""

    waits: list[str]
    extras: dict[str, list[str]]
    kong_discarder: bool


def entry_offer(public: PublicState) -> EntryOffer | None:
    """The form's choices, or None when no result can be entered now (a hand is being played:
    ``score_hand`` is taken before a hand's first roll)."""
    if "score_hand" not in accepts(public["phase"]):
        return None
    dealer = public["dealer"]
    table: dict[str, list[str]] = {}
    for winner in range(SEATS):
        other = (winner + 1) % SEATS
        for how in ("self_drawn", "discard"):
            for state, kongs in zip(KONG_STATES, ([], [winner], [other]), strict=True):
                table[f"{winner}:{how}:{state}"] = list(extras(winner, how, kongs, dealer))
    return {"waits": list(WAIT_KINDS), "extras": table,
            "kong_discarder": kong_discarder_needed(Rules.from_overrides(public["rules"]))}


def entry_command(data: dict[str, object], public: PublicState) -> dict[str, object] | str:
    """The ``score_hand`` command of a phone's form, or why not (the engine's words, English:
    the page shows them under its own heading)."""
    if not set(data) <= FIELDS:
        return f"unknown fields {sorted(set(data) - FIELDS)}"
    kongs_in = data.get("kongs", [])
    if not isinstance(kongs_in, list) or len(kongs_in) > MAX_KONGS:
        return f"'kongs' is a list of at most {MAX_KONGS}"
    extra = data.get("extra")
    if extra is not None and extra not in EXTRAS:
        return f"'extra' is one of {', '.join(EXTRAS)}"
    winner = data.get("winner")
    wait = data.get("wait") if winner is not None else None  # (a drawn hand has no wait)
    try:
        kongs = [ScoredKong.from_json(k) for k in kongs_in]
        ev = score_hand(winner, data.get("how"), data.get("discarder"),  # type: ignore[arg-type]
                        wait, extra, kongs)  # type: ignore[arg-type]
        check_scored(ev, public["dealer"], Rules.from_overrides(public["rules"]))
    except RuleError as e:
        return _reason(e)
    return ev.to_json()


def _reason(e: RuleError) -> str:
    """The engine's reason without its head and its quote of the input (the form's own fields)."""
    text = str(e).removeprefix("score_hand: ")
    cut = text.rfind(" in {")
    return text[:cut] if cut > 0 else text


__all__ = ["EntryOffer", "entry_command", "entry_offer"]
