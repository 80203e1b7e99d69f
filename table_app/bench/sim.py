"""Self-play speed (issue 5): complete hands per second through ``engine.apply``, one core.

Each run plays seeded hands with invariant checks on (as ``xian-table simulate`` does), in
sessions of 100 hands; a warm-up first fills the shanten tables the greedy bots share.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.corpus import near_misses
from engine.shanten import shanten
from engine.simulate import SimConfig, simulate
from table_app.bench import Result, rate, result

NAME = "sim"
DESCRIPTION = "self-play hands/s (full-tile, invariants on, sessions of 100 hands), random and greedy bots; shanten"

RANDOM_TARGET = 2_000
GREEDY_TARGET = 200
SESSION = 100
RLCARD_NOTE = "RLCard's mahjong env, random agents: about 22 hands/s on this machine (issue 5)"


def _hands_per_second(bots: str, hands: int, runs: int, seed: int) -> list[float]:
    out = []
    for i in range(runs):
        s = simulate(SimConfig(hands=hands, seed=seed + i, bots=(bots,) * 4, session_hands=SESSION))
        out.append(s.hands_per_second)
    return out


def run(runs: int, progress: Callable[[str], None]) -> list[Result]:
    out = []
    progress("warm-up: 300 greedy hands")
    simulate(SimConfig(hands=300, seed=1, session_hands=SESSION))
    progress("random bots: 500 hands per run")
    out.append(result(NAME, "simulate, 4 random bots", _hands_per_second("random", 500, runs, 100), "hands/s",
                      target=RANDOM_TARGET, note=RLCARD_NOTE))
    progress("greedy bots: 200 hands per run")
    out.append(result(NAME, "simulate, 4 greedy bots", _hands_per_second("greedy", 200, runs, 200), "hands/s",
                      target=GREEDY_TARGET))
    progress("shanten of 20,000 14-tile near-miss hands")
    hands = [bytes(h) for h in near_misses(20_000, seed=5)]
    for h in hands:
        shanten(h)
    out.append(result(NAME, "shanten (14 tiles, tables warm)", rate(shanten, hands, runs), "hands/s"))
    return out
