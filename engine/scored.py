"""A hand scored without play (score-only mode): ``score_hand``.

A table without buttons, or people who only want a scorer, enter each hand's result once it
is over: who won and how (自摸, or 点炮/抢杠 by whom), the wait, the kongs declared and the
bets. The engine pays it with the same functions as a played hand (``engine.scoring``: the
kongs as declared, the win and the bets; the wait kind earns the bonus as ``Rules.earns_bonus``
says; ``engine.claims.exhaustive_draw`` for a drawn hand) and the table goes on exactly as after a
played hand: phase ``hand_over``, then ``next_hand`` with the dealer rotation of docs/rules.md §4.

``score_hand`` is taken in phase ``betting`` (before the hand's first roll). Its JSON:

- ``winner``: the winning seat, or null/absent for a drawn hand (荒牌);
- ``how``: ``self_drawn``, ``discard`` or ``robbed_kong`` (with a winner);
- ``discarder``: the seat that paid the discard win (the robbed kong's declarer for 抢杠);
- ``wait``: ``closed``, ``single``, ``edge`` or ``plain`` (absent: plain);
- ``kongs``: ``[{"seat", "kind": "concealed"|"exposed"|"added", "discarder"?}]`` (the
  exposed kong's discarder, needed when ``exposed_kong_payers`` is ``discarder``);
- ``bets``: the 4 bets of the hand (absent: the bets the table holds);
- ``kong_bloom`` (杠后开花, a self-drawn win after one of the winner's kongs) and
  ``heavenly`` (天胡, the dealer's self-drawn win on the deal): true when they apply.

>>> from engine.table import replay
>>> s = replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
...             {"type": "seating", "method": "C", "east": 0},
...             {"type": "score_hand", "winner": 2, "how": "self_drawn", "wait": "closed"}])
>>> s.phase, s.last_settlement["deltas"], s.scores
('hand_over', [-3, -3, 9, -3], [-3, -3, 9, -3])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Literal, get_args

from engine.errors import IllegalEventError, InvalidEventError
from engine.event_base import Event
from engine.fields import MAX_AMOUNT, amount_text, check_bets, check_seat
from engine.records import WAIT_KINDS, KongKind, WaitKind, WinKind
from engine.rules import Rules
from engine.scoring import KONG_KINDS, WIN_HOWS, Transfer, WinHow, kong_transfers, win_transfers
from engine.seats import SEATS

KONGS_PER_SEAT: Final = 4  # a hand's four melds
MAX_KONGS: Final = KONGS_PER_SEAT * SEATS


def _bad(what: str, src: object) -> InvalidEventError:
    return InvalidEventError(f"score_hand: {what} in {src!r}")


@dataclass(frozen=True)
class ScoredKong:
    """One kong of a scored hand: who declared it, which kind, and (exposed) whose discard.
    Checked however it is made (from JSON or in Python).

    >>> ScoredKong(2, "exposed", 0).to_json()
    {'seat': 2, 'kind': 'exposed', 'discarder': 0}
    """

    seat: int
    kind: KongKind
    discarder: int | None = None

    def __post_init__(self) -> None:
        src = self.to_json()
        check_seat(self.seat, "kongs: seat", "score_hand", src)
        if self.kind not in KONG_KINDS:
            raise _bad(f"a kong's 'kind' is one of {', '.join(KONG_KINDS)}, got {self.kind!r}", src)
        if self.discarder is not None:
            check_seat(self.discarder, "kongs: discarder", "score_hand", src)
            if self.kind != "exposed" or self.discarder == self.seat:
                raise _bad("only an exposed kong has a discarder, another seat than its declarer", src)

    @classmethod
    def from_json(cls, d: object) -> ScoredKong:
        if isinstance(d, ScoredKong):
            return d
        if not isinstance(d, Mapping) or not set(d) <= {"seat", "kind", "discarder"} or "seat" not in d:
            raise _bad("each of 'kongs' is {'seat', 'kind', 'discarder'?}", d)
        return cls(d["seat"], d.get("kind"), d.get("discarder"))  # type: ignore[arg-type]  # (checked there)

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"seat": self.seat, "kind": self.kind}
        if self.discarder is not None:
            d["discarder"] = self.discarder
        return d


# --- the special wins (docs/rules.md §12): which a scored win may be, and why not -------------------

Extra = Literal["kong_bloom", "heavenly", "robbed_kong"]
EXTRAS: Final[tuple[Extra, ...]] = get_args(Extra)
SELF_DRAWN_EXTRAS: Final[tuple[Extra, ...]] = ("kong_bloom", "heavenly")
_EXTRA_NAMES: Final[dict[Extra, str]] = {
    "kong_bloom": "杠后开花 (kong_bloom)", "heavenly": "天胡 (heavenly)", "robbed_kong": "抢杠 (robbed_kong)"}


ExtraBar = Literal["drawn", "how", "self_drawn", "not_self_drawn", "no_own_kong", "kong_before", "not_dealer"]
"""Why a scored hand cannot be a special win: a drawn hand; how it was won not said; 抢杠
self-drawn; 杠后开花 or 天胡 not self-drawn; 杠后开花 with no kong of the winner's; 天胡 after a
kong; 天胡 of a seat not the dealer."""


def extra_bar(extra: Extra, winner: int | None, how: WinHow | None, kong_seats: Sequence[int],
              dealer: int | None = None) -> ExtraBar | None:
    """What bars a scored hand from being the special win ``extra``, or None when it may be
    (the one place these rules live: :func:`extras` offers what this allows, a form shows the
    bar's words beside what it does not offer, :class:`ScoreHand` refuses it with
    :func:`why_not_extra`). 杠后开花 is self-drawn after one of the winner's own kongs; 天胡
    the dealer's self-drawn win before any kong (``dealer`` None: not known here); 抢杠 a win
    on another seat's added kong, paid like a discard by its declarer.

    >>> extra_bar("heavenly", 1, "self_drawn", [], dealer=0), extra_bar("kong_bloom", 1, "self_drawn", [2])
    ('not_dealer', 'no_own_kong')
    >>> extra_bar("robbed_kong", 1, "discard", []) is None
    True
    """
    if winner is None:
        return "drawn"
    if how is None:
        return "how"
    if extra == "robbed_kong":
        return "self_drawn" if how == "self_drawn" else None
    if how != "self_drawn":
        return "not_self_drawn"
    if extra == "kong_bloom":
        return None if winner in kong_seats else "no_own_kong"
    if kong_seats:
        return "kong_before"
    if dealer is not None and dealer != winner:
        return "not_dealer"
    return None


def why_not_extra(extra: Extra, winner: int | None, how: WinHow | None, kong_seats: Sequence[int],
                  dealer: int | None = None) -> str | None:
    """:func:`extra_bar` in words (English, for a refusal), or None when ``extra`` may be.

    >>> why_not_extra("kong_bloom", 1, "self_drawn", [2])
    '杠后开花 (kong_bloom) needs a kong declared by the winner, seat 1'
    >>> why_not_extra("heavenly", 1, "self_drawn", [], dealer=0)
    "天胡 (heavenly) is the dealer's: seat 1 is not the dealer (0)"
    >>> why_not_extra("robbed_kong", 1, "discard", []) is None
    True
    """
    bar = extra_bar(extra, winner, how, kong_seats, dealer)
    if bar is None:
        return None
    name = _EXTRA_NAMES[extra]
    return {
        "drawn": f"a drawn hand has no winner: it cannot be {name}",
        "how": f"say how the hand was won ('how') before {name}",
        "self_drawn": f"{name} is won on another seat's kong, paid by its declarer: not self-drawn",
        "not_self_drawn": f"{name} is a self-drawn win: not won on a discard or a robbed kong",
        "no_own_kong": f"{name} needs a kong declared by the winner, seat {winner}",
        "kong_before": f"{name} is won on the dealt tiles, before anyone could declare a kong",
        "not_dealer": f"{name} is the dealer's: seat {winner} is not the dealer ({dealer})",
    }[bar]


def extras(winner: int | None, how: WinHow | None, kong_seats: Sequence[int], dealer: int | None = None
           ) -> tuple[Extra, ...]:
    """The special wins a scored hand may be now (those :func:`extra_bar` allows): what a
    score-only form offers.

    >>> extras(1, "self_drawn", [1], dealer=0), extras(0, "self_drawn", [], dealer=0), extras(2, "discard", [])
    (('kong_bloom',), ('heavenly',), ('robbed_kong',))
    >>> extras(1, "self_drawn", [], dealer=0), extras(None, None, [])
    ((), ())
    """
    return tuple(x for x in EXTRAS if extra_bar(x, winner, how, kong_seats, dealer) is None)


@dataclass(frozen=True)
class ScoreHand(Event):
    """A whole hand's result entered at once (score-only mode); see the module doc."""

    TYPE: ClassVar[str] = "score_hand"
    winner: int | None = None
    how: WinHow | None = None
    discarder: int | None = None
    wait: WaitKind | None = None
    kongs: tuple[ScoredKong, ...] = ()
    bets: tuple[int, int, int, int] | None = None
    kong_bloom: bool = False
    heavenly: bool = False

    def __post_init__(self) -> None:
        src = self.to_json_unchecked()
        if self.winner is None:
            if self.how is not None or self.discarder is not None or self.wait is not None \
                    or self.kong_bloom or self.heavenly:
                raise _bad("a drawn hand (no 'winner') has no 'how', 'discarder', 'wait', 'kong_bloom' or "
                           "'heavenly'", src)
        else:
            check_seat(self.winner, "winner", "score_hand", src)
            if self.how not in WIN_HOWS:
                raise _bad(f"say how the hand was won: 'how' is one of {', '.join(WIN_HOWS)}, got {self.how!r}", src)
            if self.how == "self_drawn":
                if self.discarder is not None:
                    raise _bad("a self-drawn win has no 'discarder'", src)
            else:
                if self.discarder is None:
                    raise _bad(f"a {self.how} win needs the 'discarder' who pays it", src)
                check_seat(self.discarder, "discarder", "score_hand", src)
                if self.discarder == self.winner:
                    fed = "discard" if self.how == "discard" else "kong"
                    raise _bad(f"seat {self.winner} cannot win on its own {fed}: the winner never pays its own win",
                               src)
        if self.wait is not None and self.wait not in WAIT_KINDS:
            raise _bad(f"'wait' must be one of {', '.join(WAIT_KINDS)}, got {self.wait!r}", src)
        k = self.kongs
        if isinstance(k, str | bytes) or not isinstance(k, list | tuple) or len(k) > MAX_KONGS:
            raise _bad(f"'kongs' must be a list of at most {MAX_KONGS} kongs", src)
        object.__setattr__(self, "kongs", tuple(ScoredKong.from_json(x) for x in k))
        if self.bets is not None:  # (bounded as the bets event's are: settlements stay short to print)
            object.__setattr__(self, "bets", check_bets(self.bets, "score_hand", src))
        for seat in range(SEATS):
            if sum(1 for x in self.kongs if x.seat == seat) > KONGS_PER_SEAT:
                raise _bad(f"seat {seat} has more than {KONGS_PER_SEAT} kongs: a hand holds four melds", src)
        self._check_extras(src)

    def _check_extras(self, src: object) -> None:
        """杠后开花 and 天胡 as :func:`why_not_extra` allows them (the dealer: ``check_scored``)."""
        for name in SELF_DRAWN_EXTRAS:
            if type(getattr(self, name)) is not bool:
                raise _bad(f"{name!r} must be true or false", src)
        if self.kong_bloom and self.heavenly:
            raise _bad("杠后开花 and 天胡 cannot both apply", src)
        for name in SELF_DRAWN_EXTRAS:
            why = why_not_extra(name, self.winner, self.how, [x.seat for x in self.kongs]) \
                if getattr(self, name) else None
            if why is not None:
                raise _bad(why, src)

    def to_json_unchecked(self) -> dict[str, object]:
        """The fields as given, for an error's quote (seat 0 kept; the kongs and bets as JSON shows them).

        >>> ScoreHand(0, "self_drawn", kongs=(ScoredKong(0, "concealed"),)).to_json_unchecked()
        {'winner': 0, 'how': 'self_drawn', 'kongs': [{'seat': 0, 'kind': 'concealed'}]}
        """
        d = {k: v for k, v in self.__dict__.items() if v is not None and v is not False and v != ()}
        if isinstance(d.get("kongs"), tuple | list):
            d["kongs"] = [x.to_json() if isinstance(x, ScoredKong) else x for x in d["kongs"]]
        if isinstance(d.get("bets"), tuple):
            d["bets"] = list(d["bets"])
        return d

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"type": self.TYPE}
        for name in ("winner", "how", "discarder", "wait"):
            if getattr(self, name) is not None:
                d[name] = getattr(self, name)
        if self.kongs:
            d["kongs"] = [x.to_json() for x in self.kongs]
        if self.bets is not None:
            d["bets"] = list(self.bets)
        for name in ("kong_bloom", "heavenly"):
            if getattr(self, name):
                d[name] = True
        return d

    @property
    def kind(self) -> WinKind | None:
        """The way it was won, as a played hand's settlement names it."""
        if self.winner is None or self.how is None:
            return None
        return "kong_bloom" if self.kong_bloom else "heavenly" if self.heavenly else self.how


SCORED_FIELDS: Final = ("winner", "how", "discarder", "wait", "kongs", "bets", "kong_bloom", "heavenly")
"""``score_hand``'s JSON fields for ``engine.events.parse_event`` (none required)."""


# --- what a scored hand pays (the handler in engine.wins, and ``xian-table score``) ----------

def score_hand(winner: int | None, how: WinHow | None = None, discarder: int | None = None,
               wait: WaitKind | None = None, extra: Extra | None = None, kongs: Sequence[ScoredKong] = (),
               bets: Sequence[int] | None = None) -> ScoreHand:
    """The ``score_hand`` event of an entered result (the touchscreen's form, the ``score``
    command's options): the winner (None: a drawn hand), how it was won, the wait (plain:
    none said), the special win. A robbed kong is the ``discard`` its declarer fed with
    ``extra`` robbed_kong (or ``how`` robbed_kong); 杠后开花 and 天胡 are self-drawn, so they
    say how when ``how`` is None. Checked as the event is; an extra the win cannot be is refused
    with :func:`why_not_extra`'s reason.

    >>> score_hand(2, "discard", 0, extra="robbed_kong").to_json()
    {'type': 'score_hand', 'winner': 2, 'how': 'robbed_kong', 'discarder': 0}
    >>> score_hand(0, extra="heavenly", wait="plain").to_json()
    {'type': 'score_hand', 'winner': 0, 'how': 'self_drawn', 'heavenly': True}
    >>> score_hand(None, kongs=[ScoredKong(1, "concealed")]).to_json()
    {'type': 'score_hand', 'kongs': [{'seat': 1, 'kind': 'concealed'}]}
    >>> score_hand(1, "discard", 2, extra="kong_bloom")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidEventError: score_hand: 杠后开花 (kong_bloom) is a self-drawn win: not won on a discard \
or a robbed kong in {'winner': 1, 'how': 'discard', 'discarder': 2, 'extra': 'kong_bloom'}
    """
    if how is None and extra in SELF_DRAWN_EXTRAS:
        how = "self_drawn"
    if extra is not None:
        why = why_not_extra(extra, winner, how, [k.seat for k in kongs])
        if why is not None:
            choices = {"winner": winner, "how": how, "discarder": discarder, "extra": extra}
            raise _bad(why, {k: v for k, v in choices.items() if v is not None})
        if extra == "robbed_kong":
            how = "robbed_kong"
    if winner is not None and wait == "plain":
        wait = None  # (a plain wait is the event's default)
    return ScoreHand(winner, how, discarder, wait, tuple(kongs),
                     None if bets is None else tuple(bets),  # type: ignore[arg-type]  # (checked there)
                     kong_bloom=extra == "kong_bloom", heavenly=extra == "heavenly")


@dataclass(frozen=True)
class ScoredPay:
    """What a scored hand pays: its kongs (paid as declared), the win with the bets, the wait;
    ``kongs_stand``: false on a drawn hand when ``kong_paid_on_draw`` is off (the table pays the
    kongs and gives them back, as after a played hand: ``engine.claims.exhaustive_draw``)."""

    kongs: list[Transfer]
    wins: list[Transfer]
    wait: WaitKind | None
    bonus: bool
    kongs_stand: bool = True

    @property
    def transfers(self) -> list[Transfer]:
        """Every payment that stands at the end of the hand: the kongs that stand, the win and the bets."""
        return (self.kongs if self.kongs_stand else []) + self.wins


def kong_discarder_needed(rules: Rules) -> bool:
    """Whether an exposed kong must name whose discard it claimed: when that seat alone pays it
    (``exposed_kong_payers`` discarder); else every other seat pays it and nobody need say."""
    return rules.exposed_kong_payers == "discarder"


def check_scored(ev: ScoreHand, dealer: int | None, rules: Rules) -> None:
    """What only the table knows: 天胡 is the dealer's; an exposed kong names its discarder
    when only the discarder pays it. :class:`IllegalEventError` if not, worded after its seat
    (``seat 1 cannot win …``) without the phase, as ``engine.moves.refuse`` words it.

    >>> check_scored(ScoreHand(1, "self_drawn", heavenly=True), 0, Rules())
    Traceback (most recent call last):
    ...
    engine.errors.IllegalEventError: cannot win 天胡 (heavenly): it is the dealer's, and the dealer is seat 0
    """
    if ev.heavenly and why_not_extra("heavenly", ev.winner, ev.how, [], dealer) is not None:
        raise IllegalEventError(f"cannot win 天胡 (heavenly): it is the dealer's, and the dealer is seat {dealer}",
                                "score.heavenly_dealer", seat=ev.winner, dealer=dealer)
    if kong_discarder_needed(rules):
        for x in ev.kongs:
            if x.kind == "exposed" and x.discarder is None:
                raise IllegalEventError("declared an exposed kong: say whose discard it claimed "
                                        "(exposed_kong_payers=discarder: that seat alone pays it)",
                                        "score.kong_discarder", seat=x.seat)


def pay_scored(ev: ScoreHand, *, base: int, rules: Rules, bets: Sequence[int], bonus: bool | None = None) -> ScoredPay:
    """The payments of a scored hand, with the functions a played hand is paid with
    (``engine.scoring``). ``base``: 1..MAX_AMOUNT as a session's. ``bonus``: the wait bonus
    when the whole hand was read (``xian-table score --hand``); else the wait kind earns it as
    the rules say (docs/rules.md §13).

    >>> pay = pay_scored(ScoreHand(2, "self_drawn", wait="closed"), base=1, rules=Rules(), bets=[0, 0, 0, 0])
    >>> [t.amount for t in pay.wins], pay.bonus
    ([3, 3, 3], True)
    >>> drawn = pay_scored(ScoreHand(kongs=(ScoredKong(1, "concealed"),)), base=1,
    ...                    rules=Rules(kong_paid_on_draw=False), bets=[0, 0, 0, 0])
    >>> len(drawn.kongs), drawn.kongs_stand, drawn.transfers
    (3, False, [])
    """
    if type(base) is not int or not 1 <= base <= MAX_AMOUNT:
        raise InvalidEventError(f"score_hand: the base must be a whole number >= 1 (at most {MAX_AMOUNT:,}), "
                                f"got {amount_text(base)}")
    kongs = [t for x in ev.kongs for t in kong_transfers(x.seat, x.kind, base=base, rules=rules, discarder=x.discarder)]
    if ev.winner is None or ev.how is None:
        return ScoredPay(kongs, [], None, False, kongs_stand=rules.kong_paid_on_draw)
    wait: WaitKind = ev.wait or "plain"
    earned = rules.earns_bonus(wait) if bonus is None else bonus
    wins = win_transfers(ev.winner, ev.how, base=base, rules=rules, wait_bonus=earned, discarder=ev.discarder,
                         after_kong=ev.kong_bloom, heavenly=ev.heavenly, bets=bets)
    return ScoredPay(kongs, wins, wait, earned)
