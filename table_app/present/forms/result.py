"""The score-only result form (只记分): a hand's result entered after it was played without
buttons — who won (or nobody: 荒牌), how (自摸, or who fed it), the wait, a special win; the
kongs and the bets — written once for the touchscreen's entry screen
(``table_app/ui/screens/entry.py``) and the phones' result-only form (``phone_consent.js``,
through ``table_app/web/phone_decide.py``).

One form value (:class:`ResultForm`): the touchscreen's taps change it (:func:`pick`,
:func:`count_kong`, :func:`kong_from`, :func:`count_bet`), a phone's JSON becomes it
(:func:`from_json`); both reach the same ``score_hand`` command through the same checks
(:func:`check`: the engine builds and checks the event, ``engine.scored.score_hand`` and
``check_scored``). What the form offers — the waits, the special wins the engine allows
(``engine.scored.extras``) and why not (``present.extras``), whether an exposed kong names its
discarder, the bets' bound — comes from :func:`offered` and :func:`why_not`, and for a phone
(which draws the form itself) from :func:`offer`, which asks them for every winner, way and kongs.

>>> from engine.table import replay
>>> from engine.public import public_state
>>> pub = public_state(replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
...                            {"type": "seating", "method": "C", "east": 0}]))
>>> f = blank()
>>> pick(f, "winner", 2); pick(f, "fed", 0); pick(f, "wait", "closed")
>>> command(f, pub)
{'type': 'score_hand', 'winner': 2, 'how': 'discard', 'discarder': 0, 'wait': 'closed'}
>>> command(from_json({"type": "score_hand", "winner": 2, "how": "discard", "discarder": 0, "wait": "closed"}), pub)
{'type': 'score_hand', 'winner': 2, 'how': 'discard', 'discarder': 0, 'wait': 'closed'}
>>> command(from_json({"type": "score_hand", "winner": 2, "how": "discard", "discarder": 2}), pub).fields["why"][:40]
'seat 2 cannot win on its own discard: th'
>>> o = offer(pub, [5, 0, 2, 0])
>>> o["extras"]["0:self_drawn:none"], o["extras"]["1:self_drawn:own"], o["extras"]["2:discard:none"]
(['heavenly'], ['kong_bloom'], ['robbed_kong'])
>>> o["why"]["1:self_drawn:none"]["heavenly"]["en"], o["why"]["0:self_drawn:other"]["kong_bloom"]["zh"]
('heavenly: only the dealer, A', '杠后开花：要A自己开过杠')
>>> o["bets"], o["bets_max"]
([5, 0, 2, 0], 1000000)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, Literal, TypedDict

from engine.errors import InvalidEventError, RuleError
from engine.fields import MAX_AMOUNT, check_bets
from engine.public import PublicState
from engine.records import WAIT_KINDS, KongKind, WaitKind
from engine.rules import Rules
from engine.scored import (
    EXTRAS,
    MAX_KONGS,
    Extra,
    ScoredKong,
    ScoreHand,
    check_scored,
    extras,
    kong_discarder_needed,
    score_hand,
)
from engine.scoring import WinHow
from engine.seats import SEATS
from engine.table import accepts
from table_app.present.extras import bars_line, extra_bars
from table_app.present.forms.refused import Refused
from table_app.present.words import Both, tr

WAITS: Final[tuple[WaitKind, ...]] = ("plain", *(w for w in WAIT_KINDS if w != "plain"))  # (plain first: the default)
COUNTED: Final[tuple[KongKind, ...]] = ("concealed", "exposed")  # the kongs the form counts
CYCLE: Final = 5  # a counter goes 0 → 4 and back to 0 (a kong count, a bet, by taps)
FIELDS: Final = frozenset({"type", "winner", "how", "discarder", "wait", "extra", "kongs", "bets"})
KONG_STATES: Final = ("none", "own", "other")  # the kongs as the special wins see them: none, the winner's, others'

Winner = int | Literal["nobody"] | None


class ResultForm(TypedDict):
    """The form's value: the winner (a seat; "nobody": a drawn hand; None: not chosen yet), how,
    who fed it, the wait, the special win; the kongs declared (an exposed one with its discarder
    where it was said); the hand's bets (None: the bets the table holds)."""

    winner: Winner
    how: WinHow | None
    discarder: int | None
    wait: WaitKind
    extra: Extra | None
    kongs: list[ScoredKong]
    bets: list[int] | None


def blank() -> ResultForm:
    return {"winner": None, "how": None, "discarder": None, "wait": "plain", "extra": None, "kongs": [],
            "bets": None}


# --- what the form offers -------------------------------------------------------------------------

def kong_seats(form: ResultForm) -> list[int]:
    return [k.seat for k in form["kongs"]]


def offered(form: ResultForm, dealer: int | None) -> tuple[Extra, ...]:
    """The special wins (杠后开花, 天胡, 抢杠) the engine allows the form now
    (``engine.scored.extras``): none before the winner and the way are chosen.

    >>> f = blank(); f.update(winner=1, how="self_drawn")
    >>> offered(f, dealer=0), offered(f, dealer=1)
    ((), ('heavenly',))
    >>> count_kong(f, 1, "concealed"), offered(f, dealer=1)
    (1, ('kong_bloom',))
    """
    winner = form["winner"]
    if not isinstance(winner, int):
        return ()
    return extras(winner, form["how"], kong_seats(form), dealer)


def why_not(form: ResultForm, dealer: int | None, names: Sequence[str]) -> dict[Extra, Both]:
    """Why each special win not offered is not (the engine's bars, ``present.extras``), once the
    winner and the way are chosen."""
    winner = form["winner"]
    if not isinstance(winner, int) or form["how"] is None:
        return {}
    return extra_bars(winner, form["how"], kong_seats(form), dealer, names)


def why_not_line(form: ResultForm, dealer: int | None, names: Sequence[str], lang: str) -> str:
    """:func:`why_not` on one line, or what to say first (how it was won).

    >>> f = blank(); f.update(winner=1)
    >>> why_not_line(f, 0, ["A", "B", "C", "D"], "en")
    'say how it was won first'
    >>> f.update(how="self_drawn")
    >>> why_not_line(f, 0, ["A", "B", "C", "D"], "zh")
    '杠后开花：要B自己开过杠 · 天胡：只有庄家A才有 · 抢杠：是胡别人补的杠，不是自摸'
    """
    if not isinstance(form["winner"], int):
        return ""
    if form["how"] is None:
        return tr("xb_how", lang)
    return bars_line(why_not(form, dealer, names), lang)


class ResultOffer(TypedDict):
    """What the form offers now, for a front end that draws it itself (a phone): the waits, and
    the special wins allowed for each winner, way and kongs (key ``"<winner>:<how>:<none|own|other>"``)
    with why the others are not; whether an exposed kong must name its discarder (the session's
    rules); the bets row's first values and their bound."""

    waits: list[str]
    extras: dict[str, list[str]]
    why: dict[str, dict[str, Both]]
    kong_discarder: bool
    bets: list[int]
    bets_max: int


def open_now(public: PublicState) -> bool:
    """Whether a result may be entered now (``score_hand``: phase ``betting``, before a hand's first roll)."""
    return "score_hand" in accepts(public["phase"])


def kong_discarder(public: PublicState) -> bool:
    """Whether an exposed kong names whose discard it claimed (the session's rules)."""
    return kong_discarder_needed(Rules.from_overrides(public["rules"]))


def offer(public: PublicState, bets: Sequence[int] = (0,) * SEATS) -> ResultOffer | None:
    """The form's choices, its bets row prefilled with ``bets``, or None when no result can be
    entered now (:func:`open_now`): :func:`offered` and :func:`why_not` of every winner, way and kongs."""
    if not open_now(public):
        return None
    table: dict[str, list[str]] = {}
    why: dict[str, dict[str, Both]] = {}
    for winner in range(SEATS):
        for how in ("self_drawn", "discard"):
            for state, seat in zip(KONG_STATES, (None, winner, (winner + 1) % SEATS), strict=True):
                f = blank()
                f["winner"], f["how"] = winner, how
                f["kongs"] = [] if seat is None else [ScoredKong(seat, "concealed")]
                table[f"{winner}:{how}:{state}"] = list(offered(f, public["dealer"]))
                why[f"{winner}:{how}:{state}"] = {str(x): b for x, b in why_not(f, public["dealer"],
                                                                                 public["players"]).items()}
    return {"waits": list(WAIT_KINDS), "extras": table, "why": why, "kong_discarder": kong_discarder(public),
            "bets": list(bets), "bets_max": MAX_AMOUNT}


# --- the touchscreen's taps -----------------------------------------------------------------------

def pick(form: ResultForm, what: str, value: object) -> None:
    """A choice tapped: the winner (a seat it fed drops the way), self-drawn, fed by a seat, the
    wait, a special win (tapped again: none)."""
    if what == "winner":
        form["winner"] = value  # type: ignore[typeddict-item]  # (a seat or "nobody": the form's toggles)
        if form["discarder"] == value:
            form["how"], form["discarder"] = None, None
    elif what == "how":
        form["how"], form["discarder"] = value, None  # type: ignore[typeddict-item]
    elif what == "fed":
        form["how"], form["discarder"] = "discard", value  # type: ignore[typeddict-item]
    elif what == "wait":
        form["wait"] = value  # type: ignore[typeddict-item]
    elif what == "extra":
        form["extra"] = None if form["extra"] == value else value  # type: ignore[typeddict-item]


def kong_count(form: ResultForm, seat: int, kind: KongKind) -> int:
    return sum(1 for k in form["kongs"] if k.seat == seat and k.kind == kind)


def count_kong(form: ResultForm, seat: int, kind: KongKind) -> int:
    """One more kong of ``kind`` for ``seat`` (after 4: none); the new count. An exposed kong
    keeps the discarder the seat's others were said to be from.

    >>> f = blank()
    >>> [count_kong(f, 2, "exposed") for _ in range(5)]
    [1, 2, 3, 4, 0]
    """
    n = (kong_count(form, seat, kind) + 1) % CYCLE
    others = [k for k in form["kongs"] if not (k.seat == seat and k.kind == kind)]
    frm = next((k.discarder for k in form["kongs"] if k.seat == seat and k.kind == kind), None)
    form["kongs"] = others + [ScoredKong(seat, kind, frm)] * n
    return n


def kong_from(form: ResultForm, seat: int, discarder: int) -> None:
    """Whose discard ``seat``'s exposed kongs claimed."""
    form["kongs"] = [ScoredKong(k.seat, k.kind, discarder) if k.seat == seat and k.kind == "exposed" else k
                     for k in form["kongs"]]


def shown_bets(form: ResultForm, table_bets: Sequence[int]) -> list[int]:
    """The bets the form shows: its own once entered, else the table's."""
    return list(table_bets) if form["bets"] is None else list(form["bets"])


def count_bet(form: ResultForm, seat: int, table_bets: Sequence[int]) -> int:
    """One more for ``seat``'s bet (after 4: none), from the bets shown; the new bet."""
    bets = shown_bets(form, table_bets)
    bets[seat] = (bets[seat] + 1) % CYCLE
    form["bets"] = bets
    return bets[seat]


def fit(form: ResultForm, dealer: int | None) -> None:
    """Drop a special win the engine no longer allows (a kong taken back, another winner)."""
    if form["extra"] not in offered(form, dealer):
        form["extra"] = None


# --- what was entered: checked, and the command ---------------------------------------------------

def ready(form: ResultForm) -> bool:
    """Whether the form may be sent: the winner chosen, and the way unless nobody won (what the
    engine refuses is said when it is sent)."""
    return form["winner"] == "nobody" or (form["winner"] is not None and form["how"] is not None)


def from_json(data: Mapping[str, object]) -> ResultForm | Refused:
    """A phone's form (``{"type": "score_hand", "winner", "how", …, "kongs": [{seat, kind,
    discarder?}], "bets"}``; a null or absent winner: nobody won) as the form's value, or why not.

    >>> from_json({"type": "score_hand", "winner": None, "kongs": [{"seat": 1, "kind": "concealed"}]})["kongs"]
    [ScoredKong(seat=1, kind='concealed', discarder=None)]
    >>> from_json({"type": "score_hand", "colour": "red"}).fields["why"]
    "unknown fields ['colour']"
    """
    if not set(data) <= FIELDS:
        return _bad_entry(f"unknown fields {sorted(set(data) - FIELDS)}")
    kongs = data.get("kongs", [])
    if not isinstance(kongs, list) or len(kongs) > MAX_KONGS:
        return _bad_entry(f"'kongs' is a list of at most {MAX_KONGS}")
    extra = data.get("extra")
    if extra is not None and extra not in EXTRAS:
        return _bad_entry(f"'extra' is one of {', '.join(EXTRAS)}")
    try:
        scored = [ScoredKong.from_json(k) for k in kongs]
    except InvalidEventError as e:
        return _bad_entry(_reason(e), e)
    winner = data.get("winner")
    bets = data.get("bets")
    form: dict[str, object] = {"winner": "nobody" if winner is None else winner, "how": data.get("how"),
                               "discarder": data.get("discarder"), "wait": data.get("wait") or "plain",
                               "extra": extra, "kongs": scored, "bets": bets}
    return form  # type: ignore[return-value]  # (its values as sent: :func:`check` checks them as the engine does)


def check(form: ResultForm, public: PublicState) -> ScoreHand | Refused:
    """The ``score_hand`` event of the form, checked as the engine checks it (with the table's
    dealer and rules), or why not: not now, bets not four amounts, not filled in, or the engine's
    refusal (its reason, English, in ``why``; the error itself in ``rule``)."""
    if not open_now(public):
        return Refused("dc_not_now", "decide.not_now")
    if form["bets"] is not None:
        try:
            check_bets(form["bets"], "score_hand")
        except InvalidEventError:
            return Refused("dc_bad_bets", "decide.bad_bets", "malformed", fields={"max": f"{MAX_AMOUNT:,}"})
    if form["winner"] is None:
        return Refused("entry_pick", "decide.bad_entry", "malformed")
    winner = form["winner"]
    try:
        if winner == "nobody":
            ev = score_hand(None, kongs=form["kongs"], bets=form["bets"])
        else:
            ev = score_hand(winner, form["how"], form["discarder"], form["wait"], form["extra"], form["kongs"],
                            form["bets"])
        check_scored(ev, public["dealer"], Rules.from_overrides(public["rules"]))
    except RuleError as e:
        return _bad_entry(_reason(e), e)
    return ev


def command(form: ResultForm | Refused, public: PublicState) -> dict[str, object] | Refused:
    """The ``score_hand`` command of the form (:func:`check`), or why not (not now before what is
    wrong with the form)."""
    if not open_now(public):
        return Refused("dc_not_now", "decide.not_now")
    if isinstance(form, Refused):
        return form
    ev = check(form, public)
    return ev if isinstance(ev, Refused) else ev.to_json()


def _bad_entry(why: str, rule: RuleError | None = None) -> Refused:
    return Refused("dc_bad_entry", "decide.bad_entry", "malformed", fields={"why": why}, rule=rule)


def _reason(e: RuleError) -> str:
    """The engine's reason without its head and its quote of the input (the form's own fields)."""
    text = str(e).removeprefix("score_hand: ")
    cut = text.rfind(" in {")
    return text[:cut] if cut > 0 else text


__all__ = ["COUNTED", "CYCLE", "WAITS", "ResultForm", "ResultOffer", "blank", "check", "command", "count_bet",
           "count_kong", "fit", "from_json", "kong_count", "kong_discarder", "kong_from", "offer", "offered",
           "open_now", "pick", "ready", "shown_bets", "why_not", "why_not_line"]
