"""Full-tile self-play: four bots play whole hands through the table's own handlers
(``engine.table.push``), and after every hand the simulator checks the table's invariants.

The simulator is the table around the bots: it rolls the dice (from its seeded RNG), asks
each bot in turn (:mod:`engine.bots`, which see only a player's view), closes each claim
window with ``resolve`` when nobody claims, confirms wins (full-tile mode: the engine reads
the wait) and deals the next hand. Every event it applies can be written to a journal
(JSONL in the docs/design.md vocabulary) that ``xian-table play`` replays to the same state.

Invariants (``engine.invariants``), checked as play goes and after every hand; the first
violation stops the run with :class:`InvariantViolation` naming the seed and the hand:

- tile conservation: every tile is in a hand, a meld, a river or the wall, four of each,
  and each seat holds 13 (a kong counted as three; the winner 14);
- zero-sum settlement: the hand's transfers are positive and their deltas add up to 0;
- the exhaustive draw exactly at the reserve: the head never gives a tile past 2 × R(k)
  stacks, and a hand is drawn only when no head tile is drawable;
- dealer rotation (docs/rules.md §4) and the dealer streak;
- scores = the sum of every hand's deltas.

>>> s = simulate(SimConfig(hands=3, seed=5, bots=("greedy", "greedy", "random", "greedy")))
>>> s.hands, sum(s.final_scores), s.draws + sum(s.wins_by_seat)
(3, 0, 3)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, NoReturn

from engine import invariants
from engine.bots import STRENGTHS, Bot, make_bot, view_of
from engine.errors import RuleError
from engine.events import Bets, ConfirmWin, Event, NewSession, NextHand, Resolve, Roll, Seating
from engine.legal import claimants
from engine.records import WIN_KINDS, Settlement
from engine.rules import Rules
from engine.scoring import KONG_KINDS
from engine.seats import SEAT_RANGE, SEATS, seat_counting
from engine.state import TableState
from engine.table import new_table, push

DEFAULT_BOTS: Final = ("greedy", "greedy", "greedy", "greedy")
# events without fields are plain values: one of each serves every hand
RESOLVE: Final = Resolve()
CONFIRM_WIN: Final = ConfirmWin()
NEXT_HAND: Final = NextHand()


class InvariantViolation(AssertionError):
    """A table invariant failed (or the engine refused a bot's event): ``seed``, ``hand``
    (1-based, counted over the whole run) and what was wrong."""

    def __init__(self, seed: int, hand: int, what: str) -> None:
        super().__init__(f"seed {seed}, hand {hand}: {what}")
        self.seed, self.hand, self.what = seed, hand, what


@dataclass(frozen=True)
class SimConfig:
    """``hands`` to play from ``seed`` with ``bots`` (one strength per seat), rule
    ``rules`` overrides, the ``base``, random ``bets`` before each hand, and
    ``session_hands`` (0: one session; n: a fresh ``new_session`` every n hands)."""

    hands: int
    seed: int = 0
    bots: tuple[str, ...] = DEFAULT_BOTS
    rules: Mapping[str, object] | None = None
    base: int = 1
    bets: bool = False
    session_hands: int = 0

    def __post_init__(self) -> None:
        if type(self.hands) is not int or self.hands < 1:
            raise ValueError(f"hands must be a whole number >= 1, got {self.hands!r}")
        if len(self.bots) != SEATS or any(b not in STRENGTHS for b in self.bots):
            raise ValueError(f"bots must be 4 strengths from {', '.join(STRENGTHS)}, got {list(self.bots)!r}")
        Rules.from_overrides(self.rules)  # raises RulesError for a bad option
        if self.session_hands < 0:
            raise ValueError(f"session_hands must be >= 0, got {self.session_hands!r}")


@dataclass
class Summary:
    """What a run did; :meth:`to_json` for ``--json``, :meth:`text` for people."""

    seed: int
    bots: tuple[str, ...]
    hands: int = 0
    wins_by_seat: list[int] = field(default_factory=lambda: [0] * SEATS)
    wins_by_kind: dict[str, int] = field(default_factory=lambda: dict.fromkeys(WIN_KINDS, 0))
    draws: int = 0
    kongs_by_kind: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KONG_KINDS, 0))
    wait_bonus_wins: int = 0
    discards: int = 0
    events: int = 0
    final_scores: list[int] = field(default_factory=lambda: [0] * SEATS)
    session_scores: list[int] = field(default_factory=lambda: [0] * SEATS)
    seconds: float = 0.0
    invariant_checks: int = 0
    final_state: TableState | None = field(default=None, repr=False)  # the table at the end

    @property
    def wins(self) -> int:
        return sum(self.wins_by_seat)

    @property
    def wait_bonus_share(self) -> float:
        return self.wait_bonus_wins / self.wins if self.wins else 0.0

    @property
    def mean_discards(self) -> float:
        return self.discards / self.hands if self.hands else 0.0

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "bots": list(self.bots),
            "hands": self.hands,
            "wins": self.wins,
            "wins_by_seat": list(self.wins_by_seat),
            "wins_by_kind": dict(self.wins_by_kind),
            "draws": self.draws,
            "kongs_by_kind": dict(self.kongs_by_kind),
            "wait_bonus_share": round(self.wait_bonus_share, 4),
            "mean_discards_per_hand": round(self.mean_discards, 2),
            "mean_events_per_hand": round(self.events / self.hands, 2) if self.hands else 0.0,
            "final_scores": list(self.final_scores),
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands_per_second, 1),
            "invariant_checks": self.invariant_checks,
        }

    def text(self) -> str:
        def pct(n: int, of: int) -> str:
            return f"{n:,} ({100 * n / of:.1f}%)" if of else f"{n:,}"

        h = self.hands
        kinds = ", ".join(f"{k} {pct(v, self.wins)}" for k, v in self.wins_by_kind.items() if v)
        lines = [
            f"{h:,} hands, seed {self.seed}, bots {','.join(self.bots)}",
            f"  wins   {pct(self.wins, h)}; by seat {' / '.join(f'{n:,}' for n in self.wins_by_seat)}",
            f"         by kind: {kinds or 'none'}",
            f"  draws  {pct(self.draws, h)} (荒牌)",
            "  kongs  " + ", ".join(f"{k} {v:,}" for k, v in self.kongs_by_kind.items()),
            f"  wait bonus (夹张/单调) on {pct(self.wait_bonus_wins, self.wins)} of wins",
            f"  mean hand length {self.mean_discards:.1f} discards ({self.events / h if h else 0:.1f} events)",
            f"  final totals {' / '.join(f'{n:+,}' for n in self.final_scores)}",
            (f"  {self.hands_per_second:,.0f} hands/s ({self.seconds:.2f} s); " if self.seconds > 0 else "  ")
            + "invariants checked after every hand: all held",
        ]
        return "\n".join(lines)


Journal = Callable[[dict[str, Any]], None]
Progress = Callable[[int, int, float], None]
OnHand = Callable[[int, Settlement], None]


class _Run:
    """One simulation: the state, the bots, the checks."""

    def __init__(self, config: SimConfig, journal: Journal | None, on_hand: OnHand | None = None) -> None:
        self.config = config
        self.on_hand = on_hand
        self.rng = random.Random(config.seed)
        self.bots: list[Bot] = [make_bot(b, random.Random(self.rng.getrandbits(64))) for b in config.bots]
        self.journal = journal
        self.state = new_table()
        self.summary = Summary(config.seed, tuple(config.bots))
        self.hand_no = 0  # hands finished, over the whole run
        self.events = 0  # applied, over the whole run
        self.session_start_scores = [0] * SEATS

    # --- applying events ----------------------------------------------------------------

    def apply(self, ev: Event) -> None:
        """Push ``ev`` onto the table in place (``engine.table.push``: the handlers ``apply``
        runs, without a copy of the state per event), count it and record it in the journal.
        Every event of the run goes through here."""
        try:
            push(self.state, ev)
        except RuleError as e:
            self.fail(f"the engine refused {ev.to_json()}: {e}")
        self.events += 1
        if self.journal is not None:
            self.journal(ev.to_json())

    def fail(self, what: str) -> NoReturn:
        raise InvariantViolation(self.config.seed, self.hand_no + 1, what)

    def check(self, problem: str | None) -> None:
        """Stop the run if an invariant (``engine.invariants``) found a problem."""
        if problem is not None:
            self.fail(problem)

    def dice(self) -> tuple[int, int]:
        return (self.rng.randint(1, 6), self.rng.randint(1, 6))

    # --- a session and a hand -------------------------------------------------------------

    def new_session(self, number: int) -> None:
        c = self.config
        seed = c.seed if number == 0 else c.seed * 1_000_003 + number
        players = tuple(f"{b}{i}" for i, b in enumerate(c.bots))
        self.apply(NewSession(players, c.base, dict(c.rules) if c.rules else None, seed))  # type: ignore[arg-type]
        self.apply(Seating("A", roller=self.rng.randrange(SEATS), dice=self.dice()))
        self.session_start_scores = list(self.summary.final_scores)

    def play_hand(self) -> None:
        """Bets, the two rolls (the deal), then the bots until the hand is over."""
        c, s = self.config, self.state  # (every event changes the state in place)
        assert s.dealer is not None
        if c.bets:
            self.apply(Bets(tuple(self.rng.choice((0, 0, 0, 1, 2)) for _ in SEAT_RANGE)))  # type: ignore[arg-type]
        first = self.dice()
        self.apply(Roll(first, seat=s.dealer))
        self.apply(Roll(self.dice(), seat=seat_counting(s.dealer, sum(first))))
        while s.phase != "hand_over":
            if s.phase == "turn":
                assert s.turn is not None
                self.apply(self.bots[s.turn].act(view_of(s, s.turn)))
            elif s.phase == "claims":
                self.close_claims()
            elif s.phase == "win_pending":
                self.apply(CONFIRM_WIN)  # full-tile mode: the engine reads the wait itself
            else:
                self.fail(f"unexpected phase {s.phase!r} during a hand")

    def close_claims(self) -> None:
        """Ask each seat that may claim (a seat with nothing to claim is not asked, as a person
        would not press a button), apply the claims, and close the window with ``resolve``.
        When nobody claimed a discard, check the draw that follows against the reserve."""
        s = self.state
        assert s.claims is not None
        kind, head, tail = s.claims["kind"], s.wall.head_taken, s.wall.tail_taken
        claims = [answer for seat in claimants(s) if (answer := self.bots[seat].claim(view_of(s, seat)))]
        for ev in claims:
            if s.phase == "claims":  # (the last seat to answer closes the window itself)
                self.apply(ev)
        if s.phase == "claims":
            self.apply(RESOLVE)
            if kind == "discard" and not claims:
                self.check(invariants.head_draw(s, head, tail))

    # --- after a hand -----------------------------------------------------------------------

    def check_hand(self) -> None:
        """Every invariant of a finished hand (``engine.invariants``), then the summary's counts."""
        s = self.state
        last = s.last_settlement
        if last is None:
            self.fail("the hand is over but there is no settlement")
        winner = last["winner"]
        self.check(invariants.settlement_adds_up(last, s.hand_transfers))
        self.check(invariants.scores_add_up(s.scores, self.summary.session_scores, last["deltas"]))
        self.check(invariants.hand_sizes(s, winner))
        self.check(invariants.tiles_conserved(s))
        if winner is None:
            self.check(invariants.drawn_at_reserve(s))
        self.summary.invariant_checks += 1
        self.count(last)

    def count(self, last: Settlement) -> None:
        """Add the hand to the summary."""
        s, summary = self.state, self.summary
        summary.session_scores = list(s.scores)
        summary.final_scores = [self.session_start_scores[i] + s.scores[i] for i in SEAT_RANGE]
        summary.discards += s.discards_made
        for st in s.seats:
            for m in st.melds:
                if m.kong is not None:
                    summary.kongs_by_kind[m.kong] += 1
        winner, kind = last["winner"], last["kind"]
        if winner is None or kind is None:
            summary.draws += 1
        else:
            summary.wins_by_seat[winner] += 1
            summary.wins_by_kind[kind] += 1
            if last["bonus"]:
                summary.wait_bonus_wins += 1

    def next_hand(self) -> None:
        s = self.state
        assert s.dealer is not None and s.last_settlement is not None
        dealer, streak, passes, winner = s.dealer, s.dealer_streak, s.passes, s.last_settlement["winner"]
        self.apply(NEXT_HAND)
        self.check(invariants.dealer_rotation(dealer, streak, passes, winner, s))

    def run(self, progress: Progress | None, every: int, clock: Callable[[], float] | None) -> Summary:
        c = self.config
        now = clock if clock is not None else _no_clock
        start = now()
        session = 0
        self.new_session(session)
        for n in range(c.hands):
            if n and c.session_hands and n % c.session_hands == 0:
                session += 1
                self.summary.session_scores = [0] * SEATS
                self.new_session(session)
            elif n:
                self.next_hand()
            self.play_hand()
            self.check_hand()
            if self.on_hand is not None:
                assert self.state.last_settlement is not None
                self.on_hand(self.hand_no + 1, self.state.last_settlement)
            self.hand_no += 1
            self.summary.hands = self.hand_no
            if progress is not None and (self.hand_no % every == 0 or self.hand_no == c.hands):
                progress(self.hand_no, c.hands, now() - start)
        self.summary.seconds = now() - start
        self.summary.events = self.events
        return self.summary


def simulate(
    config: SimConfig,
    journal: Journal | None = None,
    progress: Progress | None = None,
    every: int = 100,
    on_hand: OnHand | None = None,
    clock: Callable[[], float] | None = None,
) -> Summary:
    """Play ``config.hands`` hands; the summary. Raises :class:`InvariantViolation` on the
    first broken invariant. ``journal`` gets each applied event as a JSON object;
    ``progress(done, total, seconds)`` is called every ``every`` hands; ``on_hand(n,
    settlement)`` after each hand (n counts from 1) with the table's ``last_settlement``.
    The engine reads no clock: pass ``clock`` (``time.perf_counter``) for seconds and hands/s."""
    run = _Run(config, journal, on_hand)
    summary = run.run(progress, every, clock)
    summary.final_state = run.state
    return summary


def _no_clock() -> float:
    return 0.0


def journal_line(event: Mapping[str, object]) -> str:
    """One journal line: compact, key order as the event gives it, so equal runs write equal bytes."""
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def parse_bots(text: str) -> tuple[str, ...]:
    """``"greedy,random"`` style bot line-ups: 1 name for all four seats, or 4 names.

    >>> parse_bots("greedy"), parse_bots("greedy,greedy,random,greedy")[2]
    (('greedy', 'greedy', 'greedy', 'greedy'), 'random')
    """
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if len(names) == 1:
        names = names * SEATS
    if len(names) != SEATS or any(n not in STRENGTHS for n in names):
        raise ValueError(f"--bots takes 1 or 4 of {', '.join(STRENGTHS)} separated by commas, got {text!r}")
    return names
