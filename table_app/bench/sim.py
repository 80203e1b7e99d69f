"""Self-play speed (issue 5): complete hands per second through the engine (``push``), one core.

Each run plays seeded hands with invariant checks on (as ``xian-table simulate`` does), in
sessions of 100 hands. Each strength has its own warm-up (a few random-bot hands; for the
greedy bots, enough hands to fill the shanten tables they share), so every run measures the
same steady state; the random bots go first, before those tables grow the heap.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.corpus import near_misses
from engine.shanten import shanten
from engine.simulate import SimConfig, simulate
from table_app.bench import Result, rate, result

NAME = "sim"
DESCRIPTION = "self-play hands/s (full-tile, invariants on, sessions of 100 hands), random and greedy bots; shanten"

# Lowered from 2,000 / 200 (issues 15 and 19): the bots ask the engine's one answer to "what
# may this seat do" instead of a second copy of the rules written for speed.
RANDOM_TARGET = 1_000
GREEDY_TARGET = 150
SESSION = 100
RLCARD_NOTE = "RLCard's mahjong env, random agents: 22-45 hands/s on this machine (docs/simulation.md)"


def _hands_per_second(bots: str, hands: int, runs: int, seed: int) -> list[float]:
    out = []
    for i in range(runs):
        config = SimConfig(hands=hands, seed=seed + i, bots=(bots,) * 4, session_hands=SESSION)
        s = simulate(config, clock=time.perf_counter)
        out.append(s.hands_per_second)
    return out


def run(runs: int, progress: Callable[[str], None]) -> list[Result]:
    out = []
    # random first: the greedy bots' shanten tables (filled by their warm-up) are of no use to
    # random bots, and a heap grown by them makes every later allocation a little dearer
    progress("warm-up: 100 random hands")
    simulate(SimConfig(hands=100, seed=2, bots=("random",) * 4, session_hands=SESSION))
    progress("random bots: 1,000 hands per run")
    out.append(result(NAME, "simulate, 4 random bots", _hands_per_second("random", 1_000, runs, 100), "hands/s",
                      target=RANDOM_TARGET, note=RLCARD_NOTE))
    progress("warm-up: 300 greedy hands")
    simulate(SimConfig(hands=300, seed=1, session_hands=SESSION))
    progress("greedy bots: 200 hands per run")
    out.append(result(NAME, "simulate, 4 greedy bots", _hands_per_second("greedy", 200, runs, 200), "hands/s",
                      target=GREEDY_TARGET))
    progress("shanten of 20,000 14-tile near-miss hands")
    hands = [bytes(h) for h in near_misses(20_000, seed=5)]
    for h in hands:
        shanten(h)
    out.append(result(NAME, "shanten (14 tiles, tables warm)", rate(shanten, hands, runs), "hands/s"))
    return out


# --- the plot and the RLCard comparison in docs/simulation.md (not part of `xian-table bench`) ---

LINE_UPS: tuple[tuple[str, ...], ...] = (
    ("random", "random", "random", "random"),
    ("greedy", "greedy", "greedy", "greedy"),
    ("greedy", "greedy", "random", "greedy"),
    ("greedy", "random", "greedy", "random"),
)


def spread_data(hands: int = 10_000, seed: int = 2026) -> dict[str, dict[str, object]]:
    """Each line-up's per-hand deltas over ``hands`` hands (seeds ``seed``, ``seed + 1``, …)."""
    out: dict[str, dict[str, object]] = {}
    for i, bots in enumerate(LINE_UPS):
        deltas: list[list[int]] = []
        s = simulate(SimConfig(hands=hands, seed=seed + i, bots=bots, session_hands=SESSION),
                     on_hand=lambda n, st, d=deltas: d.append(st["deltas"]),  # type: ignore[misc]
                     clock=time.perf_counter)
        out[",".join(bots)] = {"deltas": deltas, "summary": s.to_json(), "text": s.text()}
    return out


def plot_spread(data: dict[str, dict[str, object]], path: str) -> None:
    """Cumulative score per seat (left) and each seat's per-hand deltas (right), per line-up.
    Needs matplotlib (the ``bench`` extra)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = len(data)
    fig, axes = plt.subplots(rows, 2, figsize=(11, 2.6 * rows), gridspec_kw={"width_ratios": [3, 2]})
    colours = ["#c0392b", "#2471a3", "#229954", "#7d3c98"]
    for row, (name, d) in enumerate(data.items()):
        deltas: list[list[int]] = d["deltas"]  # type: ignore[assignment]
        bots = name.split(",")
        left, right = axes[row][0], axes[row][1]
        for seat in range(4):
            total, line = 0, []
            for hand in deltas:
                total += hand[seat]
                line.append(total)
            left.plot(range(1, len(line) + 1), line, color=colours[seat], linewidth=1,
                      label=f"seat {seat} {bots[seat]}")
        left.axhline(0, color="#999", linewidth=0.5)
        left.set_title(f"{name}: running score over {len(deltas):,} hands", fontsize=9)
        left.set_xlabel("hand", fontsize=8)
        left.set_ylabel("score (base 1)", fontsize=8)
        left.legend(fontsize=7, loc="upper left", ncol=2)
        left.tick_params(labelsize=7)
        per_seat = [[h[seat] for h in deltas if h[seat] != 0] for seat in range(4)]
        right.boxplot(per_seat, showfliers=True, flierprops={"markersize": 2})
        right.set_xticks(range(1, 5), [f"{s}\n{bots[s]}" for s in range(4)], fontsize=7)
        right.set_title("non-zero deltas per hand, by seat", fontsize=9)
        right.tick_params(labelsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def rlcard_rate(seconds: float = 30.0) -> float:
    """RLCard's mahjong environment with 4 random agents, hands per second (wall clock).
    Only for the comparison: RLCard is installed in a throwaway venv, never a dependency."""
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("mahjong", config={"seed": 0})
    np.random.seed(0)
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    env.run(is_training=False)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.run(is_training=False)
        n += 1
    return n / (time.perf_counter() - start)


def compare(seconds: float = 30.0) -> dict[str, float]:
    """RLCard and this simulator, random bots, one after the other in the same process."""
    rl = rlcard_rate(seconds)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        s = simulate(SimConfig(hands=100, seed=n, bots=("random",) * 4, session_hands=SESSION))
        n += s.hands
    return {"rlcard_hands_per_s": round(rl, 1), "xian_table_hands_per_s": round(n / (time.perf_counter() - start), 1)}


def main(argv: list[str] | None = None) -> int:
    import argparse
    import json

    p = argparse.ArgumentParser(prog="python -m table_app.bench.sim",
                                description="the simulation plot and the RLCard comparison of docs/simulation.md")
    p.add_argument("--plot", metavar="PNG", help="play 10,000 hands per line-up and plot the score spread")
    p.add_argument("--hands", type=int, default=10_000)
    p.add_argument("--data", metavar="JSON", help="save (or, with --plot and an existing file, reuse) the deltas")
    p.add_argument("--compare", action="store_true", help="RLCard vs this simulator, random bots (needs rlcard)")
    p.add_argument("--seconds", type=float, default=30.0)
    args = p.parse_args(argv)
    if args.plot:
        import os

        if args.data and os.path.exists(args.data):
            with open(args.data, encoding="utf-8") as f:
                data = json.load(f)
        else:
            data = spread_data(args.hands)
            if args.data:
                with open(args.data, "w", encoding="utf-8") as f:
                    json.dump(data, f)
        for d in data.values():
            print(d["text"])
        plot_spread(data, args.plot)
    if args.compare:
        print(json.dumps(compare(args.seconds)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
