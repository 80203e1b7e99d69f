"""A hand scored without play (score-only mode): ``score_hand``.

A table without buttons, or people who only want a scorer, enter each hand's result once it
is over: who won and how (自摸, or 点炮/抢杠 by whom), the wait, the kongs declared and the
bets. The engine pays it with the same functions as a played hand (``engine.scoring``: the
kongs as declared, the win and the bets; the wait kind earns the bonus as ``Rules.earns_bonus``
says; ``engine.claims.exhaustive_draw`` for a drawn hand) and the table goes on exactly as after a
played hand: phase ``hand_over``, then ``next_hand`` with the dealer rotation of RULES §4.

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
from typing import Any, ClassVar, Final, Literal, get_args

from engine.errors import IllegalEventError, InvalidEventError
from engine.event_base import Event
from engine.fields import check_bets, check_seat
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
    """One kong of a scored hand: who declared it, which kind, and (exposed) whose discard."""

    seat: int
    kind: KongKind
    discarder: int | None = None

    @classmethod
    def from_json(cls, d: object) -> ScoredKong:
        if isinstance(d, ScoredKong):
            return d
        if not isinstance(d, Mapping) or not set(d) <= {"seat", "kind", "discarder"} or "seat" not in d:
            raise _bad("each of 'kongs' is {'seat', 'kind', 'discarder'?}", d)
        seat = check_seat(d["seat"], "kongs: seat", "score_hand", d)
        kind = d.get("kind")
        if kind not in KONG_KINDS:
            raise _bad(f"a kong's 'kind' is one of {', '.join(KONG_KINDS)}, got {kind!r}", d)
        frm = d.get("discarder")
        if frm is not None:
            frm = check_seat(frm, "kongs: discarder", "score_hand", d)
            if kind != "exposed" or frm == seat:
                raise _bad("only an exposed kong has a discarder, another seat than its declarer", d)
        return cls(seat, kind, frm)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seat": self.seat, "kind": self.kind}
        if self.discarder is not None:
            d["discarder"] = self.discarder
        return d


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
                raise _bad(f"'how' must be one of {', '.join(WIN_HOWS)}, got {self.how!r}", src)
            if self.how == "self_drawn":
                if self.discarder is not None:
                    raise _bad("a self-drawn win has no 'discarder'", src)
            else:
                if self.discarder is None:
                    raise _bad(f"a {self.how} win needs the 'discarder' who pays it", src)
                check_seat(self.discarder, "discarder", "score_hand", src)
                if self.discarder == self.winner:
                    raise _bad("the winner cannot pay its own win", src)
        if self.wait is not None and self.wait not in WAIT_KINDS:
            raise _bad(f"'wait' must be one of {', '.join(WAIT_KINDS)}, got {self.wait!r}", src)
        k = self.kongs
        if isinstance(k, str | bytes) or not isinstance(k, list | tuple) or len(k) > MAX_KONGS:
            raise _bad(f"'kongs' must be a list of at most {MAX_KONGS} kongs", src)
        object.__setattr__(self, "kongs", tuple(ScoredKong.from_json(x) for x in k))
        if self.bets is not None:  # (bounded as the bets event's are: settlements stay short to print)
            object.__setattr__(self, "bets", check_bets(self.bets, "score_hand", src))
        for name in ("kong_bloom", "heavenly"):
            if type(getattr(self, name)) is not bool:
                raise _bad(f"{name!r} must be true or false", src)
        if (self.kong_bloom or self.heavenly) and self.how != "self_drawn":
            raise _bad("杠后开花 (kong_bloom) and 天胡 (heavenly) are self-drawn wins", src)
        if self.kong_bloom and self.heavenly:
            raise _bad("杠后开花 and 天胡 cannot both apply", src)
        if self.kong_bloom and not any(x.seat == self.winner for x in self.kongs):
            raise _bad("杠后开花 (kong_bloom) needs a kong of the winner's in 'kongs'", src)
        if self.heavenly and self.kongs:
            raise _bad("天胡 (heavenly) is won on the dealt tiles, before anyone could declare a kong", src)
        for seat in range(SEATS):
            if sum(1 for x in self.kongs if x.seat == seat) > KONGS_PER_SEAT:
                raise _bad(f"seat {seat} has more than {KONGS_PER_SEAT} kongs: a hand holds four melds", src)

    def to_json_unchecked(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v not in (None, False, ())}

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.TYPE}
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

Extra = Literal["kong_bloom", "heavenly", "robbed_kong"]
EXTRAS: Final[tuple[Extra, ...]] = get_args(Extra)


def extras(winner: int | None, how: WinHow | None, kong_seats: Sequence[int], dealer: int | None = None
           ) -> tuple[Extra, ...]:
    """The special wins a scored hand may still be (RULES §12): 杠后开花 is self-drawn after one
    of the winner's own kongs, 天胡 the dealer's self-drawn win before any kong (``dealer``
    None: not known here), 抢杠 a win on another seat's added kong (paid like a discard, by
    its declarer).

    >>> extras(1, "self_drawn", [1], dealer=0), extras(0, "self_drawn", [], dealer=0), extras(2, "discard", [])
    (('kong_bloom',), ('heavenly',), ('robbed_kong',))
    """
    if winner is None or how is None:
        return ()
    if how != "self_drawn":
        return ("robbed_kong",)
    out: list[Extra] = []
    if winner in kong_seats:
        out.append("kong_bloom")
    if dealer in (None, winner) and not kong_seats:
        out.append("heavenly")
    return tuple(out)


def score_hand(winner: int | None, how: WinHow | None = None, discarder: int | None = None,
               wait: WaitKind = "plain", extra: Extra | None = None, kongs: Sequence[ScoredKong] = (),
               bets: Sequence[int] | None = None) -> ScoreHand:
    """The ``score_hand`` event of an entered result: the winner (None: a drawn hand), how it
    was won (a robbed kong is the ``discard`` its declarer fed with ``extra`` robbed_kong), the
    wait, the special win. Checked as the event is; an extra the win cannot be is refused.

    >>> score_hand(2, "discard", 0, extra="robbed_kong").to_json()
    {'type': 'score_hand', 'winner': 2, 'how': 'robbed_kong', 'discarder': 0}
    """
    if winner is None:
        return ScoreHand(kongs=tuple(kongs), bets=None if bets is None else tuple(bets))  # type: ignore[arg-type]
    if extra is not None and extra not in extras(winner, how, [k.seat for k in kongs]):
        raise InvalidEventError(f"score_hand: a {how} win by seat {winner} cannot be {extra}")
    return ScoreHand(winner, "robbed_kong" if extra == "robbed_kong" else how, discarder,
                     None if wait == "plain" else wait, tuple(kongs),
                     None if bets is None else tuple(bets),  # type: ignore[arg-type]
                     kong_bloom=extra == "kong_bloom", heavenly=extra == "heavenly")


@dataclass(frozen=True)
class ScoredPay:
    """What a scored hand pays: its kongs (paid as declared), the win with the bets, the wait."""

    kongs: list[Transfer]
    wins: list[Transfer]
    wait: WaitKind | None
    bonus: bool


def check_scored(ev: ScoreHand, dealer: int | None, rules: Rules) -> None:
    """What only the table knows: 天胡 is the dealer's; an exposed kong names its discarder
    when only the discarder pays it. :class:`IllegalEventError` (without the phase) if not."""
    if ev.heavenly and ev.winner != dealer:
        raise IllegalEventError(f"cannot win 天胡: it is the dealer's, seat {dealer}'s", "score.heavenly_dealer",
                                seat=ev.winner, dealer=dealer)
    if rules.exposed_kong_payers == "discarder":
        for x in ev.kongs:
            if x.kind == "exposed" and x.discarder is None:
                raise IllegalEventError("cannot score an exposed kong without its discarder "
                                        "(exposed_kong_payers=discarder)", "score.kong_discarder", seat=x.seat)


def pay_scored(ev: ScoreHand, *, base: int, rules: Rules, bets: Sequence[int], bonus: bool | None = None) -> ScoredPay:
    """The payments of a scored hand, with the functions a played hand is paid with
    (``engine.scoring``). ``bonus``: the wait bonus when the whole hand was read (``xian-table
    score --hand``); else the wait kind earns it as the rules say (RULES §13).

    >>> pay = pay_scored(ScoreHand(2, "self_drawn", wait="closed"), base=1, rules=Rules(), bets=[0, 0, 0, 0])
    >>> [t.amount for t in pay.wins], pay.bonus
    ([3, 3, 3], True)
    """
    kongs = [t for x in ev.kongs for t in kong_transfers(x.seat, x.kind, base=base, rules=rules, discarder=x.discarder)]
    if ev.winner is None or ev.how is None:
        return ScoredPay(kongs, [], None, False)
    wait: WaitKind = ev.wait or "plain"
    earned = rules.earns_bonus(wait) if bonus is None else bonus
    wins = win_transfers(ev.winner, ev.how, base=base, rules=rules, wait_bonus=earned, discarder=ev.discarder,
                         after_kong=ev.kong_bloom, heavenly=ev.heavenly, bets=bets)
    return ScoredPay(kongs, wins, wait, earned)
