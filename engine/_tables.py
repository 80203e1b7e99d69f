"""Precomputed tables of decomposable suit patterns (built once, at import).

A suit's part of a hand is its 9 counts (7 for the honours) as ``bytes``. ``COMPLETE`` maps
every pattern that splits into melds (and at most one pair) to ``tiles + 100 * pairs``;
a hand of ``14 - 3k`` concealed tiles wins exactly when its four parts are all in
``COMPLETE`` and their values add up to ``114 - 3k`` (so exactly one pair overall).
``WAIT_MELDS[p]`` / ``WAIT_PAIR[p]`` are the ranks that turn pattern ``p`` into a
melds-only / melds-and-a-pair pattern. Keys of the suit (length 9) and honour (length 7)
tables can never collide, so one dict serves both.

Only counts up to 4 appear, so a tile whose four copies are already held is never a wait.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Final

MAX_MELDS: Final = 4
PAIR_MARK: Final = 100


def _melds(width: int, sequences: bool) -> list[tuple[int, ...]]:
    """Each possible meld of one suit as a count vector."""
    shapes: list[tuple[int, ...]] = []
    for r in range(width):
        v = [0] * width
        v[r] = 3
        shapes.append(tuple(v))
    if sequences:
        for r in range(width - 2):
            v = [0] * width
            v[r] = v[r + 1] = v[r + 2] = 1
            shapes.append(tuple(v))
    return shapes


def _complete_patterns(width: int, sequences: bool) -> dict[bytes, int]:
    melds = _melds(width, sequences)
    out: dict[bytes, int] = {}
    for n in range(MAX_MELDS + 1):
        for combo in combinations_with_replacement(melds, n):
            base = [sum(col) for col in zip(*combo, strict=True)] if combo else [0] * width
            if max(base, default=0) > 4:
                continue
            out.setdefault(bytes(base), 3 * n)
            for r in range(width):
                if base[r] <= 2:
                    with_pair = list(base)
                    with_pair[r] += 2
                    out.setdefault(bytes(with_pair), 3 * n + 2 + PAIR_MARK)
    return out


def _wait_tables(complete: dict[bytes, int]) -> tuple[dict[bytes, tuple[int, ...]], dict[bytes, tuple[int, ...]]]:
    melds_only: dict[bytes, set[int]] = {}
    with_pair: dict[bytes, set[int]] = {}
    for key, value in complete.items():
        target = with_pair if value >= PAIR_MARK else melds_only
        counts = bytearray(key)
        for r, n in enumerate(key):
            if n:
                counts[r] -= 1
                target.setdefault(bytes(counts), set()).add(r)
                counts[r] += 1
    return (
        {k: tuple(sorted(v)) for k, v in melds_only.items()},
        {k: tuple(sorted(v)) for k, v in with_pair.items()},
    )


COMPLETE: Final = _complete_patterns(9, True) | _complete_patterns(7, False)
WAIT_MELDS, WAIT_PAIR = _wait_tables(COMPLETE)
