"""A hand scored without play (score-only mode): ``score_hand``.

A table without buttons, or people who only want a scorer, enter each hand's result once it
is over: who won and how (自摸, or 点炮/抢杠 by whom), the wait, the kongs declared and the
bets. The engine pays it with the same functions as a played hand (``engine.scoring``: the
kongs as declared, the win and the bets; ``engine.wins.judge_wait`` for the wait bonus;
``engine.claims.exhaustive_draw`` for a drawn hand) and the table goes on exactly as after a
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

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final

from engine.errors import InvalidEventError
from engine.events import Event
from engine.fields import check_bets, check_seat
from engine.records import WAIT_KINDS, KongKind, WaitKind, WinKind
from engine.scoring import KONG_KINDS, WIN_HOWS, WinHow
from engine.seats import SEATS

if TYPE_CHECKING:
    from engine.moves import Effects
    from engine.state import TableState

MAX_KONGS: Final = 4 * SEATS  # four per seat at the very most


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


def on_score_hand(s: TableState, ev: ScoreHand) -> Effects:
    """Pay the hand as entered, with the functions a played hand is paid with."""
    # (imported here: engine.events imports this module while it is still being built)
    from engine.claims import exhaustive_draw
    from engine.events import ConfirmWin
    from engine.moves import end_hand, refuse, settle_now
    from engine.scoring import kong_transfers, settlement, win_transfers
    from engine.state import SeatState
    from engine.wins import judge_wait

    if ev.heavenly and ev.winner != s.dealer:
        raise refuse(s, ev.winner, f"cannot win 天胡: it is the dealer's, seat {s.dealer}'s",
                     "score.heavenly_dealer", dealer=s.dealer)
    if s.rules.exposed_kong_payers == "discarder":
        for x in ev.kongs:
            if x.kind == "exposed" and x.discarder is None:
                raise refuse(s, x.seat, "cannot score an exposed kong without its discarder "
                                        "(exposed_kong_payers=discarder)", "score.kong_discarder")
    paid = [t for x in ev.kongs
            for t in kong_transfers(x.seat, x.kind, base=s.base, rules=s.rules, discarder=x.discarder)]
    bets = list(ev.bets) if ev.bets is not None else list(s.bets)
    wins = []
    wait, bonus = None, False
    if ev.winner is not None:
        kind = ev.kind
        assert kind is not None and ev.how is not None
        wait, bonus = judge_wait(s, SeatState(), ev.winner, None, kind, ConfirmWin(wait=ev.wait or "plain"))
        wins = win_transfers(ev.winner, ev.how, base=s.base, rules=s.rules, wait_bonus=bonus,
                             discarder=ev.discarder, after_kong=ev.kong_bloom, heavenly=ev.heavenly, bets=bets)
    # everything is worked out: now the table changes
    s.bets, s.kongs, s.hand_transfers = bets, len(ev.kongs), []
    settle_now(s, paid)
    if ev.winner is None:
        return exhaustive_draw(s)
    settle_now(s, wins)
    return end_hand(s, settlement(s.hand_transfers, dealer=s.dealer, hand=s.hand, winner=ev.winner, kind=ev.kind,
                                  wait=wait, bonus=bonus, frm=ev.discarder), ev.winner)
