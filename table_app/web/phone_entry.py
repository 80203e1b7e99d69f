"""Result-only entry (只记分) from a phone (issue 27): what the phone's form may offer now, and the
``score_hand`` command of what it filled in — the touchscreen's form
(``table_app/ui/screens/entry.py``) in a phone's words. The engine builds and checks the event
(``engine.scored.score_hand``, ``check_scored``); the special wins offered are the ones
``engine.scored.extras`` allows. The form carries the hand's bets (four amounts, bounded as the
``bets`` event's: ``engine.fields.check_bets``), prefilled with the bets the phones have entered
for this hand so far; sent without them, the engine takes the bets the table holds. A second
seat confirms it (:mod:`table_app.web.phone_decide`).

The engine takes ``score_hand`` only before a hand's first roll in phase ``betting``: once the
four phones' bets are in (one ``bets`` event, phase ``rolling``, no roll yet), the engine's
:func:`engine.authority.bets_stage` says so and the form offers to take them back (an undo of the ``bets`` event) first.

>>> from engine.table import replay
>>> from engine.public import public_state
>>> pub = public_state(replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
...                            {"type": "seating", "method": "C", "east": 0}]))
>>> offer = entry_offer(pub, [5, 0, 2, 0])
>>> offer["extras"]["0:self_drawn:none"], offer["extras"]["1:self_drawn:own"], offer["extras"]["2:discard:none"]
(['heavenly'], ['kong_bloom'], ['robbed_kong'])
>>> offer["why"]["1:self_drawn:none"]["heavenly"]["en"], offer["why"]["0:self_drawn:other"]["kong_bloom"]["zh"]
('heavenly: only the dealer, A', '杠后开花：要A自己开过杠')
>>> offer["bets"]
[5, 0, 2, 0]
>>> entry_command({"type": "score_hand", "winner": 2, "how": "self_drawn", "bets": [5, 0, 2, 0]}, pub)
{'type': 'score_hand', 'winner': 2, 'how': 'self_drawn', 'bets': [5, 0, 2, 0]}
>>> bad_bets({"bets": [5, -1, 0, 0]}), bad_bets({"bets": [5, 0, 0]}), bad_bets({}), bad_bets({"bets": [0] * 4})
(True, True, False, False)
>>> entry_command({"type": "score_hand", "winner": 2, "how": "discard", "discarder": 0, "wait": "closed"}, pub)
{'type': 'score_hand', 'winner': 2, 'how': 'discard', 'discarder': 0, 'wait': 'closed'}
>>> entry_command({"type": "score_hand", "winner": 2, "how": "discard", "discarder": 2}, pub)[:40]
'seat 2 cannot win on its own discard: th'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, TypedDict

from engine.errors import InvalidEventError, RuleError
from engine.fields import MAX_AMOUNT, check_bets
from engine.public import PublicState
from engine.records import WAIT_KINDS
from engine.rules import Rules
from engine.scored import EXTRAS, ScoredKong, check_scored, extras, kong_discarder_needed, score_hand
from engine.seats import SEATS
from engine.table import accepts
from table_app.present.extras import extra_bars
from table_app.present.words import Both

FIELDS: Final = frozenset({"type", "winner", "how", "discarder", "wait", "extra", "kongs", "bets"})
KONG_STATES: Final = ("none", "own", "other")  # the winner's kongs: none at all, its own, only others'
MAX_KONGS: Final = 16


class EntryOffer(TypedDict):
    """What a phone's result-only form offers now: the waits, and the special wins the engine
    allows for each winner, way and kongs (key ``"<winner>:<how>:<none|own|other>"``) and why
    the others are not (``engine.scored.extra_bar`` in words: ``present.extras``); whether
    an exposed kong must name its discarder (the session's rules); the bets row's first values
    and their bound."""

    waits: list[str]
    extras: dict[str, list[str]]
    why: dict[str, dict[str, Both]]  # (the same keys) why each special win not offered is not, in words
    kong_discarder: bool
    bets: list[int]
    bets_max: int


def entry_offer(public: PublicState, bets: Sequence[int] = (0,) * SEATS) -> EntryOffer | None:
    """The form's choices, its bets row prefilled with ``bets``, or None when no result can be
    entered now (``score_hand`` is taken in phase ``betting``, before a hand's first roll)."""
    if "score_hand" not in accepts(public["phase"]):
        return None
    dealer = public["dealer"]
    table: dict[str, list[str]] = {}
    why: dict[str, dict[str, Both]] = {}
    for winner in range(SEATS):
        other = (winner + 1) % SEATS
        for how in ("self_drawn", "discard"):
            for state, kongs in zip(KONG_STATES, ([], [winner], [other]), strict=True):
                table[f"{winner}:{how}:{state}"] = list(extras(winner, how, kongs, dealer))
                bars = extra_bars(winner, how, kongs, dealer, public["players"])
                why[f"{winner}:{how}:{state}"] = {str(x): b for x, b in bars.items()}
    return {"waits": list(WAIT_KINDS), "extras": table, "why": why,
            "kong_discarder": kong_discarder_needed(Rules.from_overrides(public["rules"])),
            "bets": list(bets), "bets_max": MAX_AMOUNT}


def bad_bets(data: Mapping[str, object]) -> bool:
    """Whether the form's ``bets`` (when given) are not four amounts the engine takes."""
    if data.get("bets") is None:
        return False
    try:
        check_bets(data["bets"], "score_hand")
    except InvalidEventError:
        return True
    return False


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
                        wait, extra, kongs, data.get("bets"))  # type: ignore[arg-type]
        check_scored(ev, public["dealer"], Rules.from_overrides(public["rules"]))
    except RuleError as e:
        return _reason(e)
    return ev.to_json()


def _reason(e: RuleError) -> str:
    """The engine's reason without its head and its quote of the input (the form's own fields)."""
    text = str(e).removeprefix("score_hand: ")
    cut = text.rfind(" in {")
    return text[:cut] if cut > 0 else text


__all__ = ["EntryOffer", "bad_bets", "entry_command", "entry_offer"]
