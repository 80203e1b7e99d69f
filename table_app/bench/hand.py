"""Hand analysis throughput: ``is_winning_hand`` and ``winning_tiles`` (issue 2 targets)."""

from __future__ import annotations

from collections.abc import Callable

from engine.corpus import benchmark_corpus, tenpai_hands
from engine.hand import WAITS, is_winning_hand, winning_tiles
from table_app.bench import Result, rate, result

NAME = "hand"
DESCRIPTION = "is_winning_hand on 100,000 seeded 14-tile hands (half winning, half near-misses); winning_tiles on 13"

WIN_TARGET = 1_500_000
WAITS_TARGET = 300_000


def run(runs: int, progress: Callable[[str], None]) -> list[Result]:
    progress("building the seeded corpus of 100,000 hands")
    hands = benchmark_corpus(100_000, seed=2026)
    as_bytes = [bytes(h) for h in hands]
    tenpai = tenpai_hands(50_000, seed=2027)
    tenpai_bytes = [bytes(h) for h in tenpai]
    wins = sum(map(is_winning_hand, as_bytes))
    if wins != 50_000:
        raise RuntimeError(f"benchmark corpus is wrong: {wins} winning hands, expected 50,000")
    out = []
    progress("is_winning_hand, count vectors as bytes")
    out.append(result(NAME, "is_winning_hand (bytes counts)", rate(is_winning_hand, as_bytes, runs), "checks/s",
                      target=WIN_TARGET))
    progress("is_winning_hand, count vectors as lists")
    out.append(result(NAME, "is_winning_hand (list counts)", rate(is_winning_hand, hands, runs), "checks/s",
                      note="a list is converted to bytes first (about 260 ns of each call)"))
    progress("winning_tiles, count vectors as bytes, every suit pattern new")
    cold = []
    for _ in range(runs):
        WAITS.clear()  # the waits of each suit pattern are worked out the first time it is seen
        cold += rate(winning_tiles, tenpai_bytes, 1)
    out.append(result(NAME, "winning_tiles (bytes, patterns new)", cold, "hands/s",
                      note="each suit pattern's waits worked out when first seen, then remembered"))
    progress("winning_tiles, count vectors as bytes")
    out.append(result(NAME, "winning_tiles (bytes counts)", rate(winning_tiles, tenpai_bytes, runs), "hands/s",
                      target=WAITS_TARGET))
    progress("winning_tiles, count vectors as lists")
    out.append(result(NAME, "winning_tiles (list counts)", rate(winning_tiles, tenpai, runs), "hands/s"))
    return out
