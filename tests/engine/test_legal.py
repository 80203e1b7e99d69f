"""The engine agrees with itself: at every reachable state, in both modes, every move
``legal_moves`` lists (and so every action in ``actions``) is accepted by the table, and
no event of an action that is not listed is.

The states come from the property walk of ``test_table_props`` (its own, independent idea
of what to play next); at each one every candidate event of every kind, for every seat, is
tried on a copy: each discard and kong of each tile (and of none), each call, each chow
with each pair of tiles, a pass, a roll naming the seat.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.events import Claim, Discard, Event, Kong, Pass, Roll, Win
from engine.legal import ACTIONS, action_of, actions, claimants, legal_moves, roller
from engine.seats import OTHERS
from engine.simulate import SimConfig, journal_line, simulate
from engine.state import TableState
from engine.table import apply, new_table, push
from engine.tiles import CHOW_PAIRS
from tests.engine.test_table_props import PLAYERS, legal_events, pick

_PAIRS = sorted({pair for pairs in CHOW_PAIRS for pair in pairs})


def candidates(seat: int) -> dict[str, list[Event]]:
    """Every event of each action a seat could try."""
    tiles: list[int | None] = [None, *range(34)]
    return {
        "discard": [Discard(seat, t) for t in tiles],
        "kong": [Kong(seat, kind, t) for kind in ("concealed", "added") for t in tiles],
        "win": [Win(seat)],
        "claim:win": [Claim(seat, "win")],
        "claim:kong": [Claim(seat, "kong")],
        "claim:pong": [Claim(seat, "pong")],
        "claim:chow": [Claim(seat, "chow"), *(Claim(seat, "chow", p) for p in _PAIRS)],
        "pass": [Pass(seat)],
        "roll": [Roll((3, 4), seat)],
    }


def accepted(s: TableState, ev: Event) -> bool:
    try:
        apply(s, ev)
    except RuleError:
        return False
    return True


def check_agreement(s: TableState) -> int:
    """Assert the agreement at ``s``; the number of events tried."""
    listed = actions(s)
    tried = 0
    for seat in range(4):
        moves = legal_moves(s, seat)
        assert [a for a in ACTIONS if a in {action_of(m) for m in moves} | ({"roll"} if roller(s) == seat else set())] \
            == listed[seat]
        for m in moves:
            assert accepted(s, m), f"{s.phase}: seat {seat}'s legal move {m} was refused"
        for action, events in candidates(seat).items():
            ok = [ev for ev in events if accepted(s, ev)]
            tried += len(events)
            if action not in listed[seat]:
                assert not ok, f"{s.phase}: seat {seat} may not {action} (actions {listed[seat]}) but {ok[0]} passed"
            elif s.full and action != "roll":
                # every tile known: the table accepts exactly the listed moves (a chow that names
                # no tiles too, where only one pair could make it)
                chows = [m for m in moves if isinstance(m, Claim) and m.call == "chow"]
                extra = [ev for ev in ok if ev not in moves
                         and not (ev == Claim(seat, "chow") and len(chows) == 1)]
                assert not extra, f"{s.phase}: seat {seat}: {extra[0]} was accepted but is not among {moves}"
    if s.phase == "claims":  # (the seats that may claim: a seat that has claimed may not say it again, §17)
        answers = s.claims["answers"]  # type: ignore[index]
        assert claimants(s) == [x for x in OTHERS[s.claims["from"]]  # type: ignore[index]
                                if any(not isinstance(m, Pass) for m in legal_moves(s, x))
                                or answers[x] not in (None, "pass")]
    return tried


def walk(seed: int, mode: str, rules: dict[str, Any], steps: int) -> list[TableState]:
    rng = random.Random(seed)
    s = new_table()
    ev0: dict[str, Any] = {"type": "new_session", "players": PLAYERS, "base": 1, "rules": rules}
    if mode == "full":
        ev0["wall_seed"] = seed
    push(s, ev0)
    out = []
    for _ in range(steps):
        ev = pick(legal_events(s, rng), rng)
        if ev["type"] == "new_session":
            ev = ev0
        push(s, ev)
        out.append(s.copy())
    return out


RULES = st.fixed_dictionaries({}, optional={
    "added_kong": st.booleans(),
    "seven_pairs": st.booleans(),
    "kong_reserve": st.sampled_from([[13, 7, 8, 13], [3, 1, 1, 2]]),
})


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(["full", "tracked"]), rules=RULES)
def test_legal_moves_are_exactly_what_the_table_accepts(seed: int, mode: str, rules: dict[str, Any]) -> None:
    for s in walk(seed, mode, rules, 160)[::2]:
        check_agreement(s)


def bot_states(hands: int, seed: int) -> list[TableState]:
    """The states greedy bots pass through (full-tile mode): they win by themselves far more
    often than the walk does."""
    events: list[dict[str, Any]] = []
    simulate(SimConfig(hands=hands, seed=seed, bots=("greedy", "random", "greedy", "random")),
             journal=lambda ev: events.append(json.loads(journal_line(ev))))
    s, out = new_table(), []
    for ev in events:
        push(s, ev)
        out.append(s.copy())
    return out


def test_bot_games_agree_too() -> None:
    states = bot_states(12, seed=3)
    wins = [s for s in states if s.phase == "turn" and s.turn is not None and "win" in actions(s)[s.turn]]
    assert wins  # self-drawn wins are among them
    for s in [*states[::9], *wins]:
        check_agreement(s)


def test_the_walk_reaches_every_action_in_both_modes() -> None:
    """Not vacuous: fixed seeds reach each action, and states where a kong is not allowed
    right after a pong (docs/rules.md §17), in both modes."""
    for mode in ("full", "tracked"):
        seen: set[str] = set()
        after_pong = 0
        states = [s for seed in range(6) for s in walk(seed, mode, {}, 400)]
        if mode == "full":
            states += bot_states(12, seed=3)
        for s in states:
            for acts in actions(s):
                seen.update(acts)
            if s.phase == "turn" and s.drawn is None:
                after_pong += 1
                check_agreement(s)
        assert seen == set(ACTIONS), (mode, set(ACTIONS) - seen)
        assert after_pong > 3, mode
