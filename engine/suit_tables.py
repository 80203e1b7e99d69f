"""The hand table: every complete pattern of one suit (docs/rules.md §11). Generated once, at build
time, into ``suit_tables.bin`` (``make tables`` writes it; a test checks it against
:func:`generate`), and read when ``engine.hand`` is imported: a few milliseconds and
about 2 MB, where building it took a sixth of a second.

A suit's part of a hand is its 9 counts (7 for the honours) as ``bytes``. ``COMPLETE[p]``
is ``tiles + PAIR_MARK * pairs`` for every pattern ``p`` that splits into melds (sequences
and triplets, at most four) and at most one pair. A hand of ``14 - 3k`` concealed tiles wins
exactly when its four parts are all in ``COMPLETE`` and their values add up to
``14 - 3k + PAIR_MARK`` (so exactly one pair overall). Only counts up to 4 appear. Keys of
the suits (9 long) and of the honours (7 long) cannot collide: one dict serves both.

>>> COMPLETE = load()
>>> COMPLETE[bytes([1, 1, 1, 0, 0, 0, 0, 0, 2])], COMPLETE[bytes(7)]   # 123 + 99: a meld and a pair
(105, 0)
"""

from __future__ import annotations

import os
import zlib
from itertools import combinations_with_replacement
from typing import Final

from engine.tiles import COPIES, HONOURS, MELDS, NUM_KINDS, RANKS, SEQUENCES, SUIT_ENDS, SUIT_STARTS

PAIR_MARK: Final = 100
FILE: Final = os.path.join(os.path.dirname(__file__), "suit_tables.bin")  # (not pathlib: 8 ms more to import)
MAGIC: Final = b"xian-table suit tables 2\n"

Pattern = bytes


# --- the generator (build time) ----------------------------------------------------------


def _melds(first: int) -> list[tuple[int, ...]]:
    """Each meld of the suit starting at tile ``first`` as a count vector of its ranks:
    the triplets, then the sequences (``engine.tiles.SEQUENCES``: none among the honours)."""
    width = SUIT_ENDS[SUIT_STARTS.index(first)] - first
    shapes = [tuple(3 if r == rank else 0 for r in range(width)) for rank in range(width)]
    for seq in SEQUENCES:
        if first <= seq[0] < first + width:
            shapes.append(tuple(seq.count(first + r) for r in range(width)))
    return shapes


def _complete(first: int) -> dict[Pattern, int]:
    width = SUIT_ENDS[SUIT_STARTS.index(first)] - first
    melds = _melds(first)
    out: dict[Pattern, int] = {}
    for n in range(MELDS + 1):
        for combo in combinations_with_replacement(melds, n):
            base = [sum(col) for col in zip(*combo, strict=True)] if combo else [0] * width
            if max(base, default=0) > COPIES:
                continue
            out.setdefault(bytes(base), 3 * n)
            for r in range(width):
                if base[r] <= COPIES - 2:
                    with_pair = list(base)
                    with_pair[r] += 2
                    out.setdefault(bytes(with_pair), 3 * n + 2 + PAIR_MARK)
    return out


def generate() -> dict[Pattern, int]:
    """``COMPLETE`` computed from the melds, as the module docstring defines it."""
    complete: dict[Pattern, int] = {}
    for first in SUIT_STARTS:
        complete.update(_complete(first))
    return complete


# --- the file ------------------------------------------------------------------------------
# MAGIC, then zlib of two sections, the suits' patterns and the honours': each is its key
# count (4 bytes), the keys (sorted, 9 or 7 bytes each), then their values (a byte each).

_WIDTHS: Final = (RANKS, NUM_KINDS - HONOURS)


def encode(complete: dict[Pattern, int]) -> bytes:
    """The file's bytes for the table."""
    parts = []
    for width in _WIDTHS:
        keys = sorted(k for k in complete if len(k) == width)
        parts += [len(keys).to_bytes(4, "little"), *keys, bytes(complete[k] for k in keys)]
    return MAGIC + zlib.compress(b"".join(parts), 9)


def decode(data: bytes) -> dict[Pattern, int]:
    """The table from the file's bytes."""
    if not data.startswith(MAGIC):
        raise ValueError(f"not a suit tables file (it should start with {MAGIC!r})")
    raw = zlib.decompress(data[len(MAGIC) :])
    complete: dict[Pattern, int] = {}
    at = 0
    for width in _WIDTHS:
        n = int.from_bytes(raw[at : at + 4], "little")
        at += 4
        keys = [raw[i : i + width] for i in range(at, at + n * width, width)]
        at += n * width
        complete.update(zip(keys, raw[at : at + n], strict=True))
        at += n
    if at != len(raw):
        raise ValueError("the suit tables file has bytes left over")
    return complete


def load() -> dict[Pattern, int]:
    """``COMPLETE``, from the file generated at build time — or, where that file is missing
    or of another version (say, while ``make tables`` makes it), from
    :func:`generate` itself: the same table, a sixth of a second later."""
    try:
        with open(FILE, "rb") as f:
            return decode(f.read())
    except (OSError, ValueError):
        return generate()


def write(path: str = FILE) -> None:
    """Write the file (``make tables``) after a change to the melds or to this format."""
    with open(path, "wb") as f:
        f.write(encode(generate()))
