"""The full-tile simulator: thousands of seeded hands with every invariant, reproducible
journals that replay to the same table, and checks that really catch a broken table."""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine.simulate as sim
from engine.simulate import InvariantViolation, SimConfig, journal_line, parse_bots, simulate
from engine.table import apply, replay

# 2,000 hands in all, across bot line-ups and rule options (CI).
CI_RUNS = [
    SimConfig(hands=600, seed=2026, bots=("greedy",) * 4),
    SimConfig(hands=600, seed=7, bots=("random",) * 4, bets=True),
    SimConfig(
        hands=400, seed=11, bots=("greedy", "greedy", "random", "greedy"),
        rules={"seven_pairs": True, "exposed_kong_payers": "discarder", "kong_paid_on_draw": False,
               "wait_bonus": "only_wait"},
    ),
    SimConfig(
        hands=400, seed=12, bots=("random", "greedy", "random", "greedy"), bets=True, base=2,
        rules={"added_kong": False, "discard_win_payers": "all", "edge_wait_bonus": True,
               "kong_reserve": [10, 5, 6, 10], "bet_unit": 3, "multipliers_on_bets": True,
               "wall_direction": "clockwise"},
    ),
]  # fmt: skip


@pytest.mark.parametrize("config", CI_RUNS, ids=lambda c: f"{','.join(c.bots)}-{c.seed}")
def test_seeded_hands_keep_every_invariant(config: SimConfig) -> None:
    s = simulate(config)
    assert s.hands == config.hands and s.invariant_checks == config.hands
    assert s.wins + s.draws == config.hands
    assert sum(s.wins_by_kind.values()) == s.wins
    assert sum(s.final_scores) == 0
    assert s.final_state is not None and s.final_state.phase == "hand_over"
    assert s.final_scores == s.final_state.scores  # one session: the table's totals are the run's
    if "greedy" in config.bots:
        assert s.wins > s.hands // 2  # greedy bots finish most hands
    assert s.mean_discards > 10


def test_all_random_bots_mostly_draw_but_do_win_and_kong() -> None:
    s = simulate(SimConfig(hands=300, seed=3, bots=("random",) * 4))
    assert s.draws > s.wins > 0
    assert sum(s.kongs_by_kind.values()) > 0


def test_the_summary_counts_what_the_journal_shows() -> None:
    """Discards, kongs by kind and events, counted from the table at each hand's end, agree
    with a replay of the journal through ``apply`` and its effects."""
    config = SimConfig(hands=120, seed=17, bots=("random", "greedy", "random", "greedy"), session_hands=50)
    lines: list[str] = []
    s = simulate(config, journal=lambda ev: lines.append(journal_line(ev)))
    state = replay([])
    kongs = dict.fromkeys(sim.KONG_KINDS, 0)
    for line in lines:
        state, effects = apply(state, json.loads(line))
        for eff in effects:
            if eff.what == "kong":
                kongs[eff.data] += 1
    assert s.events == len(lines)
    assert s.discards == sum(1 for line in lines if line.startswith('{"type":"discard"'))
    assert s.kongs_by_kind == kongs and kongs["concealed"] and kongs["exposed"] and kongs["added"]


def test_sessions_restart_and_totals_add_up() -> None:
    s = simulate(SimConfig(hands=30, seed=5, bots=("greedy",) * 4, session_hands=10))
    assert s.hands == 30 and sum(s.final_scores) == 0
    assert s.final_state is not None and s.final_state.hand == 10  # the third session's tenth hand


def _journal(config: SimConfig) -> list[str]:
    lines: list[str] = []
    simulate(config, journal=lambda ev: lines.append(journal_line(ev)))
    return lines


def test_same_seed_same_journal_bytes() -> None:
    config = SimConfig(hands=40, seed=99, bots=("greedy", "random", "greedy", "random"), bets=True)
    a, b = _journal(config), _journal(config)
    assert "\n".join(a).encode() == "\n".join(b).encode()
    assert a != _journal(SimConfig(hands=40, seed=100, bots=config.bots, bets=True))
    assert json.loads(a[0]) == {
        "type": "new_session", "players": ["greedy0", "random1", "greedy2", "random3"], "base": 1, "wall_seed": 99,
    }  # fmt: skip


def test_the_journal_replays_to_the_final_state() -> None:
    config = SimConfig(hands=60, seed=31, bots=("greedy", "greedy", "random", "greedy"), session_hands=25)
    lines: list[str] = []
    s = simulate(config, journal=lambda ev: lines.append(journal_line(ev)))
    assert s.final_state is not None
    again = replay(json.loads(line) for line in lines)
    assert again.to_json() == s.final_state.to_json()
    assert sum(1 for line in lines if '"next_hand"' in line) == 60 - 3  # 3 sessions of 25, 25, 10 hands


def test_progress_is_reported() -> None:
    seen: list[tuple[int, int]] = []
    simulate(SimConfig(hands=5, seed=1), progress=lambda done, total, secs: seen.append((done, total)), every=2)
    assert seen == [(2, 5), (4, 5), (5, 5)]


def test_config_and_bot_line_ups_are_checked() -> None:
    assert parse_bots("random") == ("random",) * 4
    with pytest.raises(ValueError, match="--bots takes 1 or 4"):
        parse_bots("greedy,random")
    with pytest.raises(ValueError, match="bots must be 4 strengths"):
        SimConfig(hands=1, bots=("greedy", "greedy", "greedy", "smart"))
    with pytest.raises(ValueError, match="hands must be"):
        SimConfig(hands=0)
    with pytest.raises(ValueError, match="unknown rule option 'seven_pair'"):
        SimConfig(hands=1, rules={"seven_pair": True})


# --- the checks catch a broken table ---------------------------------------------------------


def _broken(monkeypatch: pytest.MonkeyPatch, spoil: Any) -> None:
    """Make the engine's push spoil the state after some events (as a buggy engine would)."""
    real = sim.push

    def push(state: Any, ev: Any) -> Any:
        effects = real(state, ev)
        spoil(state, ev)
        return effects

    monkeypatch.setattr(sim, "push", push)


def _at_hand(n: int, then: Any) -> Any:
    def spoil(state: Any, ev: Any) -> None:
        if state.phase == "hand_over" and state.hand == n and ev.TYPE in ("confirm_win", "resolve"):
            then(state)

    return spoil


def test_a_score_that_is_not_the_sum_of_deltas_stops_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    _broken(monkeypatch, _at_hand(3, lambda s: s.scores.__setitem__(0, s.scores[0] + 1)))
    with pytest.raises(InvariantViolation, match=r"seed 8, hand 3: scores .* are not the sum") as e:
        simulate(SimConfig(hands=10, seed=8))
    assert (e.value.seed, e.value.hand) == (8, 3)


def test_a_lost_tile_stops_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    def lose(state: Any) -> None:
        st = state.seats[1]
        t = next(t for t in range(34) if st.concealed[t])
        st.concealed[t] -= 1
        st.count -= 1
        st.discards.append(t)  # the size check passes only for the winner; conservation must catch it

    _broken(monkeypatch, _at_hand(2, lose))
    with pytest.raises(InvariantViolation, match=r"seed 4, hand 2: seat 1 holds"):
        simulate(SimConfig(hands=5, seed=4))


def test_a_settlement_that_is_not_zero_sum_stops_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    def skew(state: Any) -> None:
        state.last_settlement = {**state.last_settlement, "deltas": [1, 0, 0, 0]}

    _broken(monkeypatch, _at_hand(4, skew))
    with pytest.raises(InvariantViolation, match=r"hand 4: the settlement does not sum to zero"):
        simulate(SimConfig(hands=6, seed=2))


def test_a_wrong_dealer_stops_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    def rotate(state: Any, ev: Any) -> None:
        if ev.TYPE == "next_hand" and state.hand == 3:
            state.dealer = (state.dealer + 2) % 4

    _broken(monkeypatch, rotate)
    with pytest.raises(InvariantViolation, match=r"hand 3: dealer rotation"):
        simulate(SimConfig(hands=6, seed=2))


def test_a_hand_drawn_too_early_stops_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_reserve(
        monkeypatch, lambda state: state.hand == 2 and state.wall.remaining < 60 and state.drawable > 0, [30] * 4
    )
    with pytest.raises(InvariantViolation, match=r"hand 2: the hand ended drawn with \d+ head tile"):
        simulate(SimConfig(hands=4, seed=6, bots=("random",) * 4))


def test_a_head_draw_from_the_reserve_stops_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    # a table that thinks there is no reserve: the head gives tiles the rules keep back
    _with_reserve(monkeypatch, lambda state: state.hand == 3, [0, 0, 0, 0])
    with pytest.raises(InvariantViolation, match=r"hand 3: the head gave a tile past the reserve: \d+ tiles left"):
        simulate(SimConfig(hands=5, seed=6, bots=("random",) * 4))


def _with_reserve(monkeypatch: pytest.MonkeyPatch, when: Any, reserve: list[int]) -> None:
    """Make the engine resolve claims with another kong reserve than the rules' ``when(state)``."""
    from engine.rules import Rules

    real = sim.push

    def push(state: Any, ev: Any) -> Any:
        if ev.TYPE == "resolve" and when(state):
            rules = state.rules
            state.rules = Rules.from_overrides({"kong_reserve": reserve}, base=rules)
            try:
                return real(state, ev)
            finally:
                state.rules = rules
        return real(state, ev)

    monkeypatch.setattr(sim, "push", push)


def test_an_engine_refusal_names_the_seed_and_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.bots import GreedyBot
    from engine.events import Discard

    real_act = GreedyBot.act

    def act(self: GreedyBot, view: Any) -> Any:
        ev = real_act(self, view)
        if isinstance(ev, Discard) and view.seat == 2:
            return Discard(2, next(t for t in range(34) if not view.hand[t]))  # a tile it does not hold
        return ev

    monkeypatch.setattr(GreedyBot, "act", act)
    with pytest.raises(InvariantViolation, match=r"seed 1, hand 1: the engine refused"):
        simulate(SimConfig(hands=3, seed=1))


@pytest.mark.soak
@pytest.mark.timeout(7200)  # about 15-30 minutes on one core
def test_soak_100_000_hands() -> None:
    line_ups = [("random",) * 4, ("greedy",) * 4, ("greedy", "random", "greedy", "random")]
    total = 0
    for i, bots in enumerate(line_ups):
        hands = 100_000 // 3 + (1 if i < 100_000 % 3 else 0)
        s = simulate(SimConfig(hands=hands, seed=1000 + i, bots=bots, bets=i == 2, session_hands=100))
        assert s.invariant_checks == hands and sum(s.final_scores) == 0
        total += s.hands
    assert total == 100_000


def test_each_hand_is_reported_and_adds_up_to_the_totals() -> None:
    seen: list[tuple[int, list[int]]] = []
    s = simulate(SimConfig(hands=8, seed=12, bets=True), on_hand=lambda n, st: seen.append((n, st["deltas"])))
    assert [n for n, _ in seen] == list(range(1, 9))
    assert [sum(d[i] for _, d in seen) for i in range(4)] == s.final_scores
