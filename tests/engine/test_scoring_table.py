"""Scoring through the table (engine.table + engine.scoring): docs/rules.md §13–§16 as event scripts,
and properties of whole random sessions in both modes.

The golden scripts are ``tests/golden/scoring/*.jsonl`` (written by ``make_scripts.py`` in
that folder, amounts worked by hand from docs/rules.md); they are played through ``apply`` with
every ``#expect`` checkpoint checked, and through the real ``xian-table play`` for the last
one. The properties check every settlement against the rules' formulas written out again
here (not through ``engine.scoring``), running totals against the hands' deltas, and undo by
replaying the journal without a hand's events.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.public import public_state
from engine.simulate import SimConfig, simulate
from engine.table import Effect, TableState, apply, new_table, replay

# The random walk through legal events (both modes, bots that play for a win in full-tile mode)
# is the table's own test driver; reusing it keeps one definition of "a legal next event".
from tests.engine.test_table_props import legal_events, pick

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "scoring"
SCRIPTS = sorted(p.stem for p in GOLDEN.glob("*.jsonl"))
SELF_DRAWN_KINDS = {"self_drawn": 1, "kong_bloom": 2, "heavenly": 3}  # kind -> multiplier (§14)


# --- golden scripts ---------------------------------------------------------------------------


def _transfer_key(t: dict[str, Any]) -> tuple[int, int, int, str]:
    return (t["from"], t["to"], t["amount"], t["reason"])


def assert_subset(expected: Any, actual: Any, where: str) -> None:
    """``expected`` is contained in ``actual``; a ``transfers`` list is compared as a multiset."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{where}: missing key {key!r}"
            if key == "transfers":
                got = sorted(_transfer_key(t) for t in actual[key])
                assert got == sorted(_transfer_key(t) for t in value), f"{where}.transfers: got {actual[key]!r}"
            else:
                assert_subset(value, actual[key], f"{where}.{key}")
    else:
        assert actual == expected, f"{where}: expected {expected!r}, got {actual!r}"


def script_lines(name: str) -> list[tuple[int, str]]:
    text = (GOLDEN / f"{name}.jsonl").read_text(encoding="utf-8")
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]


def test_the_scoring_scripts_are_all_there() -> None:
    assert {
        "s16_self_drawn_plain", "s16_self_drawn_closed", "s16_discard_single", "s16_concealed_kong",
        "s16_exposed_kong", "s16_after_kong", "s16_heavenly", "s16_bets", "robbed_kong", "session_totals",
        "opt_discard_win_payers_all", "opt_kong_not_paid_on_draw", "opt_exposed_kong_payers_discarder",
        "opt_added_kong_under_discarder_payers", "added_kong_bloom",
    } <= set(SCRIPTS)  # fmt: skip


@pytest.mark.parametrize("name", SCRIPTS)
def test_golden_script_through_apply(name: str) -> None:
    state = new_table()
    checkpoints = 0
    for lineno, line in script_lines(name):
        if line.startswith("#expect "):
            assert_subset(json.loads(line[len("#expect ") :]), public_state(state), f"{name}.jsonl:{lineno}")
            checkpoints += 1
        elif not line.startswith("#"):
            state, _ = apply(state, json.loads(line))
            assert sum(state.scores) == 0, f"{name}.jsonl:{lineno}: scores {state.scores} do not sum to zero"
    assert checkpoints >= 1
    assert state.phase == "hand_over"


@pytest.mark.parametrize("name", SCRIPTS)
def test_golden_script_through_xian_table_play(cli: Any, name: str) -> None:
    proc = cli("play", "--json", str(GOLDEN / f"{name}.jsonl"))
    assert proc.returncode == 0, proc.stderr
    final = [line for _, line in script_lines(name) if line.startswith("#expect ")][-1]
    assert_subset(json.loads(final[len("#expect ") :]), json.loads(proc.stdout), f"{name} (play --json)")


def test_play_shows_the_settlement_to_people(cli: Any) -> None:
    proc = cli("play", str(GOLDEN / "s16_bets.jsonl"))
    assert proc.returncode == 0, proc.stderr
    assert "[-6, -8, -6, 20]" in proc.stdout


# --- the rules' formulas, written out again (docs/rules.md §14, §15) ---------------------------------


def expected_kong(before: TableState, effect: Effect) -> list[int]:
    """Score changes of one kong, settled when declared."""
    seat, kind, b = effect.seat, effect.data, before.base
    assert seat is not None
    d = [0, 0, 0, 0]
    if kind == "exposed" and before.rules.exposed_kong_payers == "discarder":
        assert before.claims is not None
        d[before.claims["from"]] -= 3 * b
        d[seat] += 3 * b
        return d
    each = 2 * b if kind == "concealed" else b  # an added kong is paid like an exposed one, by all
    for s in range(4):
        if s != seat:
            d[s] -= each
            d[seat] += each
    return d


def expected_win_and_bets(state: TableState, last: dict[str, Any]) -> tuple[list[int], list[int]]:
    """Per-seat win payments and bet payments of a won hand."""
    rules, b, w, kind = state.rules, state.base, last["winner"], last["kind"]
    wait, bonus = last["wait"], last["bonus"]
    assert bonus == (wait in ("closed", "single") or (wait == "edge" and rules.edge_wait_bonus))
    others = [s for s in range(4) if s != w]
    win, bets = [0, 0, 0, 0], [0, 0, 0, 0]
    if kind in SELF_DRAWN_KINDS:
        mult = SELF_DRAWN_KINDS[kind]
        amount, payers = (3 if bonus else 2) * b * mult, others
        bet_factor = 2 * (mult if rules.multipliers_on_bets else 1)
    else:
        assert kind in ("discard", "robbed_kong") and last["from"] in others
        amount = (2 if bonus else 1) * b
        payers = others if rules.discard_win_payers == "all" else [last["from"]]
        bet_factor = 1
    for s in payers:
        win[s] -= amount
        win[w] += amount
    u = rules.bet_unit or b
    for s in others:
        owed = (state.bets[w] + state.bets[s]) * u * bet_factor
        bets[s] -= owed
        bets[w] += owed
    return win, bets


def by_reason(transfers: list[dict[str, Any]], reason: str) -> list[int]:
    d = [0, 0, 0, 0]
    for t in transfers:
        if t["reason"] == reason:
            d[t["from"]] -= t["amount"]
            d[t["to"]] += t["amount"]
    return d


def add(a: list[int], b: list[int], sign: int = 1) -> list[int]:
    return [x + sign * y for x, y in zip(a, b, strict=True)]


# --- random whole sessions -------------------------------------------------------------------

SCORING_RULES = st.fixed_dictionaries(
    {},
    optional={
        "discard_win_payers": st.sampled_from(["discarder", "all"]),
        "exposed_kong_payers": st.sampled_from(["all", "discarder"]),
        "kong_paid_on_draw": st.booleans(),
        "bet_unit": st.integers(1, 3),
        "multipliers_on_bets": st.booleans(),
        "edge_wait_bonus": st.booleans(),
        "wait_bonus": st.sampled_from(["any_split", "only_wait"]),
        "kong_reserve": st.sampled_from([[13, 7, 8, 13], [3, 1, 1, 2]]),
    },
)


class Ledger:
    """Applies a session's events one by one, checking every score change as it happens.

    ``journal[:i + 1]`` leaves the totals ``history[i]``; ``hands`` lists each settled hand
    with the journal slice of its events and its deltas."""

    def __init__(self, first: dict[str, Any]) -> None:
        self.state, _ = apply(new_table(), first)
        self.journal: list[dict[str, Any]] = [first]
        self.history = [list(self.state.scores)]
        self.hands: list[dict[str, Any]] = []
        self._new_hand()

    def _new_hand(self) -> None:
        self.hand_start = len(self.journal)  # where the current hand's events begin
        self.hand_kongs = [0, 0, 0, 0]
        self.totals_at_hand_start = list(self.state.scores)

    def step(self, ev: dict[str, Any]) -> None:
        before = self.state
        state, effects = apply(before, ev)
        self.state = state
        self.journal.append(ev)
        self.history.append(list(state.scores))
        assert sum(state.scores) == 0
        change = add(state.scores, before.scores, -1)
        kongs = [0, 0, 0, 0]
        for e in effects:
            if e.what == "kong":
                kongs = add(kongs, expected_kong(before, e))
        self.hand_kongs = add(self.hand_kongs, kongs)
        if ev["type"] == "new_session":
            self._new_hand()
        elif state.phase == "hand_over" and before.phase != "hand_over":
            self._settled(state, change, kongs)
        else:
            assert change == kongs, f"{ev!r} changed the scores by {change}, its kongs pay {kongs}"
        if ev["type"] == "next_hand":
            self._new_hand()

    def _settled(self, state: TableState, change: list[int], kongs: list[int]) -> None:
        last = state.last_settlement
        assert last is not None
        transfers = last["transfers"]
        assert all(t["amount"] > 0 and t["from"] != t["to"] for t in transfers)
        assert {t["reason"] for t in transfers} <= {"win", "kong", "bet"}
        assert sum(last["deltas"]) == 0
        parts = [by_reason(transfers, r) for r in ("win", "kong", "bet")]
        assert last["deltas"] == add(parts[0], add(parts[1], parts[2]))
        assert last["deltas"] == add(state.scores, self.totals_at_hand_start, -1), "the hand's deltas are its change"
        if last["result"] == "win":
            win, bets = expected_win_and_bets(state, last)
            assert change == add(kongs, add(win, bets))
            assert parts == [win, self.hand_kongs, bets]
        else:
            assert parts[0] == parts[2] == [0, 0, 0, 0]
            if state.rules.kong_paid_on_draw:
                assert change == [0, 0, 0, 0] and last["deltas"] == self.hand_kongs
            else:
                assert change == [-x for x in self.hand_kongs] and last["deltas"] == [0, 0, 0, 0]
        self.hands.append({"start": self.hand_start, "end": len(self.journal), "deltas": last["deltas"]})


def play_session(seed: int, full: bool, rules: dict[str, Any], hands: int) -> Ledger:
    """A random walk through legal events (the table's own test driver), checked step by step."""
    rng = random.Random(seed)
    first: dict[str, Any] = {"type": "new_session", "players": ["A", "B", "C", "D"], "base": rng.randint(1, 3)}
    if rules:
        first["rules"] = rules
    if full:
        first["wall_seed"] = rng.randrange(10**6)
    ledger = Ledger(first)
    while ledger.state.phase != "ended" and ledger.state.hand <= hands:
        options = legal_events(ledger.state, rng)
        wins = [e for _, e in options if e["type"] == "win"]
        # more self-drawn wins than the table's walk makes (its tracked bots rarely declare one)
        ev = wins[0] if wins and rng.random() < (0.5 if full else 0.03) else pick(options, rng)
        ledger.step(ev)
        assert len(ledger.journal) < 20_000
    return ledger


def check_totals_and_undo(run: Ledger, rng: random.Random) -> None:
    state, journal, history, hands = run.state, run.journal, run.history, run.hands
    # the running totals are the sum of the settled hands' deltas
    assert state.scores == [sum(h["deltas"][s] for h in hands) for s in range(4)]
    # undoing a hand (replaying the journal without its events) restores the totals before it
    for h in hands:
        undone = replay(journal[: h["start"]])
        assert undone.scores == add(history[h["end"] - 1], h["deltas"], -1)
        assert undone.scores == history[h["start"] - 1]
    # undo any number of last events: the totals are exactly those at that point
    for cut in rng.sample(range(1, len(journal) + 1), min(4, len(journal))):
        assert replay(journal[:cut]).scores == history[cut - 1]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), rules=SCORING_RULES)
def test_tracked_sessions_settle_by_the_rules(seed: int, rules: dict[str, Any]) -> None:
    run = play_session(seed, full=False, rules=rules, hands=3)
    check_totals_and_undo(run, random.Random(seed))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), rules=SCORING_RULES)
def test_full_tile_sessions_settle_by_the_rules(seed: int, rules: dict[str, Any]) -> None:
    run = play_session(seed, full=True, rules=rules, hands=2)
    check_totals_and_undo(run, random.Random(seed))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), rules=SCORING_RULES, base=st.integers(1, 4))
def test_greedy_bot_sessions_settle_by_the_rules(seed: int, rules: dict[str, Any], base: int) -> None:
    """Full-tile mode with the greedy bots (engine.simulate): real hands, real waits, bets."""
    journal: list[dict[str, Any]] = []
    summary = simulate(SimConfig(hands=3, seed=seed, rules=rules, base=base, bets=True), journal=journal.append)
    ledger = Ledger(journal[0])
    for ev in journal[1:]:
        ledger.step(ev)
    assert len(ledger.hands) == summary.hands == 3
    assert ledger.state.scores == summary.final_scores
    check_totals_and_undo(ledger, random.Random(seed))


def test_the_sessions_reach_every_kind_of_settlement() -> None:
    """Not vacuous: fixed seeds reach draws, every kind of win, kongs of each kind and bets."""
    kinds: set[str] = set()
    reasons: set[str] = set()
    for seed in range(6):
        for full in (False, True):
            run = play_session(seed, full, {}, hands=3)
            state, journal = run.state, run.journal
            for ev in journal:
                if ev["type"] == "kong":
                    kinds.add(f"kong:{ev['kind']}")
                if ev["type"] == "claim" and ev["call"] == "kong":
                    kinds.add("kong:exposed")
            s = new_table()
            for ev in journal:
                s, _ = apply(s, ev)
                if s.phase == "hand_over" and s.last_settlement is not None:
                    kinds.add(s.last_settlement["kind"] or "draw")
                    reasons |= {t["reason"] for t in s.last_settlement["transfers"]}
            check_totals_and_undo(run, random.Random(seed))
            assert state.scores == s.scores
    assert {"draw", "discard", "self_drawn", "kong_bloom", "robbed_kong"} <= kinds, kinds
    assert {"kong:concealed", "kong:exposed", "kong:added"} <= kinds, kinds
    assert reasons == {"win", "kong", "bet"}
