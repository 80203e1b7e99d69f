"""Seeded corpora of hands for benchmarks and tests: winning hands and near-misses.

>>> hands = winning_hands(3, seed=1)
>>> all(is_winning_hand(h) for h in hands)
True
"""

from __future__ import annotations

import random

from engine.hand import is_winning_hand
from engine.tiles import HONOURS, MELDS, NUM_KINDS, RANKS, SEQUENCES_FROM, rank_of


def _random_winner(rng: random.Random) -> list[int]:
    while True:
        counts = [0] * NUM_KINDS
        pair = rng.randrange(NUM_KINDS)
        counts[pair] = 2
        ok = True
        for _ in range(MELDS):
            if rng.random() < 0.5:  # the sequence of a random suited tile's suit nearest it
                t = rng.randrange(HONOURS)
                tiles = SEQUENCES_FROM[t - rank_of(t) + min(rank_of(t), RANKS - 3)][0]
            else:
                t = rng.randrange(NUM_KINDS)
                tiles = (t, t, t)
            for u in tiles:
                counts[u] += 1
            if any(counts[u] > 4 for u in tiles):
                ok = False
                break
        if ok:
            return counts


def winning_hands(n: int, seed: int = 0) -> list[list[int]]:
    """``n`` random complete 14-tile hands as count vectors."""
    rng = random.Random(seed)
    return [_random_winner(rng) for _ in range(n)]


def near_misses(n: int, seed: int = 0) -> list[list[int]]:
    """``n`` 14-tile hands one tile away from a winning hand, none of them winning."""
    rng = random.Random(seed)
    out: list[list[int]] = []
    while len(out) < n:
        counts = _random_winner(rng)
        held = [t for t in range(NUM_KINDS) if counts[t]]
        old = rng.choice(held)
        new = rng.randrange(NUM_KINDS)
        if new == old or counts[new] >= 4:
            continue
        counts[old] -= 1
        counts[new] += 1
        if not is_winning_hand(counts):
            out.append(counts)
    return out


def tenpai_hands(n: int, seed: int = 0) -> list[list[int]]:
    """``n`` 13-tile hands: a winning hand with one random tile taken out."""
    rng = random.Random(seed)
    out = []
    for counts in winning_hands(n, seed=rng.randrange(1 << 30)):
        held = [t for t in range(NUM_KINDS) if counts[t]]
        counts[rng.choice(held)] -= 1
        out.append(counts)
    return out


def benchmark_corpus(n: int = 100_000, seed: int = 2026) -> list[list[int]]:
    """Half winning hands, half near-misses, shuffled with a fixed seed."""
    hands = winning_hands(n // 2, seed) + near_misses(n - n // 2, seed + 1)
    random.Random(seed + 2).shuffle(hands)
    return hands
