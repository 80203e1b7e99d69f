"""Full-tile self-play: four bots play whole hands through ``engine.apply`` alone, and after
every hand the simulator checks the table's invariants.

The simulator is the table around the bots: it rolls the dice (from its seeded RNG), asks
each bot in turn (:mod:`engine.bots`, which see only a player's view), closes each claim
window with ``resolve`` when nobody claims, confirms wins (full-tile mode: the engine reads
the wait) and deals the next hand. Every event it applies can be written to a journal
(JSONL in the DESIGN vocabulary) that ``xian-table play`` replays to the same state.

Invariants, checked as play goes and after every hand; the first violation stops the run
with :class:`InvariantViolation` naming the seed and the hand:

- tile conservation: every tile is in a hand, a meld, a river or the wall, four of each,
  and each seat holds 13 (a kong counted as three; the winner 14);
- zero-sum settlement: the hand's transfers are positive and their deltas add up to 0;
- the exhaustive draw exactly at the reserve: the head never gives a tile past 2 × R(k)
  stacks, and a hand is drawn only when no head tile is drawable;
- dealer rotation (RULES §4) and the dealer streak;
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
from functools import cache
from itertools import compress
from typing import Any, Final, cast

from engine.bots import STRENGTHS, Bot, make_bot, view_of
from engine.errors import RuleError
from engine.events import Bets, ConfirmWin, Event, NewSession, NextHand, Resolve, Roll, Seating
from engine.legal import claimants
from engine.rules import Rules
from engine.scoring import deltas as transfer_deltas
from engine.state import TableState
from engine.table import Effect, new_table, push
from engine.tiles import NUM_KINDS
from engine.wall import TILES

SEATS: Final = 4
_NOT_TAKEN: Final = bytes.maketrans(b"\x00\x01", b"\x01\x00")  # WallState.taken: 1 = taken
_FOUR_EACH: Final = [4] * NUM_KINDS  # what a conserved table holds
WIN_KINDS: Final = ("self_drawn", "discard", "kong_bloom", "heavenly", "robbed_kong")
KONG_KINDS: Final = ("concealed", "exposed", "added")
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
    rules: Mapping[str, Any] | None = None
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
OnHand = Callable[[int, dict[str, Any]], None]


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

    def apply(self, ev: Event) -> list[Effect]:
        """Push ``ev`` onto the table in place (``engine.table.push``: the handlers ``apply``
        runs, without a copy of the state per event)."""
        try:
            effects = push(self.state, ev)
        except RuleError as e:
            self.fail(f"the engine refused {ev.to_json()}: {e}")
        self.events += 1
        if self.journal is not None:
            self.journal(ev.to_json())
        return effects

    def fail(self, what: str) -> None:
        raise InvariantViolation(self.config.seed, self.hand_no + 1, what)

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
        c = self.config
        s = self.state
        assert s.dealer is not None
        if c.bets:
            self.apply(Bets(tuple(self.rng.choice((0, 0, 0, 1, 2)) for _ in range(SEATS))))  # type: ignore[arg-type]
        first = self.dice()
        self.apply(_roll(first, s.dealer))
        self.apply(_roll(self.dice(), (s.dealer + sum(first) - 1) % SEATS))
        bots, apply, journal = self.bots, self.apply, self.journal
        s = self.state  # every event changes it in place
        wall = s.wall  # this hand's (a new one comes with the next deal)
        # a head draw with more than this many tiles left cannot touch the reserve, whatever
        # the kongs: check_head_draw asks the rules only nearer the end
        far = 2 * max(s.rules.kong_reserve) + 1
        events = 0  # applied here, added to self.events when the hand is over
        while True:
            phase = s.phase
            if phase == "turn":
                seat = s.turn
                assert seat is not None
                ev = bots[seat].act(view_of(s, seat))
                try:  # what self.apply does, inline for the commonest events
                    push(s, ev)
                except RuleError as e:
                    self.fail(f"the engine refused {ev.to_json()}: {e}")
                events += 1
                if journal is not None:
                    journal(ev.to_json())
                phase = s.phase  # claims after a discard (or an added kong): on at once
            if phase == "claims":
                c_ = s.claims
                assert c_ is not None
                kind = c_["kind"]
                asked = claimants(s)  # a seat with nothing to claim is not asked
                if not asked:  # most discards
                    head, tail = wall.head_taken, wall.tail_taken
                    try:
                        push(s, RESOLVE)
                    except RuleError as e:
                        self.fail(f"the engine refused {RESOLVE.to_json()}: {e}")
                    events += 1
                    if journal is not None:
                        journal(RESOLVE.to_json())
                    if kind == "discard" and (
                        s.drawn != "head"
                        or wall.head_taken != head + 1
                        or wall.tail_taken != tail
                        or TILES - head - tail <= far
                    ):
                        self.check_head_draw(head, tail)  # the whole check, and what is wrong
                    continue
                claims = [answer for seat in asked if (answer := bots[seat].claim(view_of(s, seat)))]
                for ev in claims:
                    if s.phase != "claims":
                        break
                    apply(ev)
                if s.phase == "claims":
                    if claims:
                        apply(RESOLVE)
                    else:  # every seat asked passed
                        head, tail = wall.head_taken, wall.tail_taken
                        apply(RESOLVE)
                        if kind == "discard":
                            self.check_head_draw(head, tail)
            elif phase == "win_pending":
                apply(CONFIRM_WIN)
            elif phase == "hand_over":
                self.events += events
                return
            elif phase != "turn":
                self.fail(f"unexpected phase {phase!r} during a hand")

    def check_head_draw(self, head: int, tail: int) -> None:
        """After a claim window on a discard closed with no claim (the wall's ``head`` and
        ``tail`` counters before): the next seat drew exactly one tile from the head if any
        was drawable, and only then is the hand drawn. The head never gives a tile from the
        reserve, and the exhaustive draw comes exactly at it."""
        s = self.state
        w = s.wall
        left = TILES - head - tail  # before the draw
        if s.phase == "turn":
            if s.drawn != "head" or w.head_taken != head + 1 or w.tail_taken != tail:
                self.fail(
                    f"closing the claims with {left} tiles left did not draw one head tile "
                    f"(phase {s.phase}, drawn {s.drawn}, {w.remaining} left)"
                )
            if left - 1 < 2 * s.reserve_stacks:  # the tile came from the reserve
                self.fail(
                    f"the head gave a tile past the reserve: {left} tiles left, "
                    f"reserve {s.reserve_stacks} stacks after {s.kongs} kong(s), and play went on"
                )
        elif s.phase != "hand_over" or w.head_taken != head or w.tail_taken != tail:
            self.fail(f"closing the claims with {left} tiles left went to phase {s.phase} and took tiles")
        elif s.drawable > 0:
            self.fail(f"the hand ended drawn with {s.drawable} head tile(s) still drawable")

    # --- invariants -------------------------------------------------------------------------

    def check_hand(self) -> None:
        s = self.state
        last = s.last_settlement
        if last is None:
            self.fail("the hand is over but there is no settlement")
            return
        # zero-sum settlement
        transfers = last["transfers"]
        if any(t["amount"] <= 0 or t["from"] == t["to"] for t in transfers):
            self.fail(f"a transfer is not a positive payment between two seats: {transfers}")
        d = last["deltas"]
        if sum(d) != 0:
            self.fail(f"the settlement does not sum to zero: deltas {d}")
        per_seat = [0] * SEATS
        for t in transfers:
            per_seat[t["from"]] -= t["amount"]
            per_seat[t["to"]] += t["amount"]
        if per_seat != d or transfer_deltas(s.hand_transfers) != d:
            self.fail(f"the deltas {d} are not the sum of the transfers {per_seat}")
        # scores = sum of deltas
        expected = [self.summary.session_scores[i] + d[i] for i in range(SEATS)]
        if s.scores != expected:
            self.fail(f"scores {s.scores} are not the sum of the hands' deltas {expected}")
        self.summary.session_scores = expected
        self.summary.final_scores = [self.session_start_scores[i] + expected[i] for i in range(SEATS)]
        # tile conservation and hand sizes
        self.check_tiles(last)
        self.summary.discards += s.discards_made
        for st in s.seats:
            for m in st.melds:
                if m.kong is not None:
                    self.summary.kongs_by_kind[m.kong] += 1
        # the exhaustive draw exactly at the reserve
        if last["result"] == "draw":
            if s.drawable != 0 or s.wall.remaining > 2 * s.reserve_stacks:
                self.fail(f"drawn with {s.wall.remaining} tiles left, reserve {s.reserve_stacks} stacks")
            self.summary.draws += 1
            if any(t["reason"] != "kong" for t in transfers):
                self.fail(f"a drawn hand paid something other than kongs: {transfers}")
        else:
            winner = last["winner"]
            self.summary.wins_by_seat[winner] += 1
            self.summary.wins_by_kind[last["kind"]] += 1
            if last.get("bonus"):
                self.summary.wait_bonus_wins += 1
            if not any(t["reason"] == "win" and t["to"] == winner for t in transfers):
                self.fail(f"seat {winner} won but was paid nothing for it: {transfers}")
        self.summary.invariant_checks += 1

    def check_tiles(self, last: Mapping[str, Any]) -> None:
        s = self.state
        bp = s.breakpoint
        if s.wall_tiles is None or bp is None:
            self.fail("full-tile mode lost its wall")
            return
        tiles = list(compress(s.draw_order(), s.wall.taken.translate(_NOT_TAKEN)))  # the wall's tiles still there
        if len(tiles) != s.wall.remaining:
            self.fail(f"the wall holds {len(tiles)} tiles but counts {s.wall.remaining} remaining")
        winner = last["winner"]
        held = 0  # the concealed counts of all four seats, a byte per tile kind
        for seat, st in enumerate(s.seats):
            conc = st.concealed
            if conc is None:
                self.fail(f"seat {seat}'s tiles are unknown in full-tile mode")
                return
            if sum(conc) != st.count:
                self.fail(f"seat {seat} counts {st.count} concealed tiles but holds {sum(conc)}")
            want = 14 if seat == winner else 13
            if st.size != want:
                self.fail(f"seat {seat} holds {st.size} tiles (a kong as three), not {want}")
            held += int.from_bytes(conc, "little")  # (a byte per kind: 14 tiles at most, checked above, no carries)
            for m in st.melds:
                if m.tiles is None:
                    self.fail(f"seat {seat} has a meld of unknown tiles in full-tile mode")
                    return
                tiles += m.tiles
            if None in st.discards:
                self.fail(f"seat {seat} discarded an unknown tile in full-tile mode")
                return
            tiles += cast(list[int], st.discards)  # (no unknown tile: checked just above)
        counts = list(held.to_bytes(NUM_KINDS, "little"))
        for t in tiles:
            counts[t] += 1
        if counts != _FOUR_EACH:
            bad = ", ".join(f"{counts[t]} of tile {t}" for t in range(NUM_KINDS) if counts[t] != 4)
            self.fail(f"tiles not conserved: {bad} (want 4 each)")

    def next_hand(self) -> None:
        s = self.state
        dealer, streak, passes = s.dealer, s.dealer_streak, s.passes
        assert dealer is not None and s.last_settlement is not None
        winner = s.last_settlement["winner"]
        self.apply(NEXT_HAND)
        n = self.state
        if winner is None or winner == dealer:
            ok = n.dealer == dealer and n.dealer_streak == streak + 1 and n.passes == passes
        else:
            ok = n.dealer == (dealer + 1) % SEATS and n.dealer_streak == 0 and n.passes == passes + 1
        if not ok:
            self.fail(
                f"dealer rotation: dealer {dealer} (streak {streak}), winner {winner} -> "
                f"dealer {n.dealer} (streak {n.dealer_streak}, passes {n.passes})"
            )

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


@cache
def _roll(dice: tuple[int, int], seat: int) -> Roll:
    """The roll of ``dice`` by ``seat``: events are values, one of each serves every hand."""
    return Roll(dice, seat=seat)


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


def journal_line(event: Mapping[str, Any]) -> str:
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
