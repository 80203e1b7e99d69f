"""The hand table's file (``engine/suit_tables.bin``) is what the generator makes, and the
table and the waits read from it mean what they say: checked here against a plain split of
each pattern."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import product
from pathlib import Path

import pytest

from engine import suit_tables
from engine.hand import COMPLETE, WAITS
from engine.suit_tables import PAIR_MARK, decode, encode, generate


def test_the_file_is_what_the_generator_makes() -> None:
    """If this fails, the generator changed: run ``make tables`` and commit the new
    ``engine/suit_tables.bin``."""
    made = encode(generate())
    assert Path(suit_tables.FILE).read_bytes() == made
    assert decode(made) == generate() == COMPLETE


def test_without_its_file_the_table_is_made_afresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = Path(suit_tables.FILE).read_bytes()
    monkeypatch.setattr(suit_tables, "FILE", str(tmp_path / "gone.bin"))
    assert suit_tables.load() == COMPLETE
    (tmp_path / "gone.bin").write_bytes(b"another version")
    assert suit_tables.load() == COMPLETE
    suit_tables.write(str(tmp_path / "made.bin"))
    assert (tmp_path / "made.bin").read_bytes() == real
    with pytest.raises(ValueError, match="not a suit tables file"):
        decode(b"something else")


def _splits(counts: list[int], sequences: bool) -> set[tuple[int, int]]:
    """(melds, pairs) of every way to split one suit's counts into melds and at most one
    pair, the long way."""
    first = next((r for r, n in enumerate(counts) if n), None)
    if first is None:
        return {(0, 0)}
    out = set()
    rest = list(counts)
    if rest[first] >= 3:
        rest[first] -= 3
        out |= {(m + 1, p) for m, p in _splits(rest, sequences)}
        rest[first] += 3
    if rest[first] >= 2:
        rest[first] -= 2
        out |= {(m, p + 1) for m, p in _splits(rest, sequences) if p == 0}
        rest[first] += 2
    if sequences and first + 2 < len(counts) and rest[first + 1] and rest[first + 2]:
        for r in (first, first + 1, first + 2):
            rest[r] -= 1
        out |= {(m + 1, p) for m, p in _splits(rest, sequences)}
    return out


def _patterns(width: int) -> Iterator[tuple[int, ...]]:
    """Every pattern of one suit of up to 8 tiles, and 30,000 seeded ones of 9 to 14."""
    yield from (c for c in product(range(5), repeat=width) if sum(c) <= 8)
    rng = random.Random(width)
    for _ in range(30_000):
        counts = [0] * width
        for _ in range(rng.randint(9, 14)):
            r = rng.randrange(width)
            if counts[r] < 4:
                counts[r] += 1
        yield tuple(counts)


@pytest.mark.parametrize("width", [9, 7])
def test_patterns_are_in_the_tables_exactly_when_they_split(width: int) -> None:
    """A suit pattern is in ``COMPLETE`` (with its tiles and pair) exactly when it splits into
    at most four melds and one pair; its ``WAITS`` are the ranks that make it so."""
    small: set[bytes] = set()
    for counts in _patterns(width):
        tiles = sum(counts)
        key = bytes(counts)
        found = {(m, p) for m, p in _splits(list(counts), width == 9) if m <= 4}
        if found:
            if tiles <= 8:
                small.add(key)
            (_, pairs), *_ = found
            assert COMPLETE[key] == tiles + PAIR_MARK * pairs
        else:
            assert key not in COMPLETE
        waits = tuple(r for r in range(width) if counts[r] < 4 and key[:r] + bytes([counts[r] + 1]) + key[r + 1 :]
                      in COMPLETE)
        assert WAITS[key] == waits, counts
    assert small == {k for k in COMPLETE if len(k) == width and sum(k) <= 8}
