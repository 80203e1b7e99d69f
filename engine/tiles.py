"""Tiles as small ints, the mpsz text form, and tile names in Chinese and English.

A tile is an int 0..33: 0..8 are 1m..9m (万), 9..17 are 1p..9p (筒), 18..26 are 1s..9s (条),
27..33 are the honours 1z..7z (东 南 西 北 中 发 白). A hand where speed matters is a
34-long vector of counts.

>>> parse_tiles("123m11z")
[0, 1, 2, 27, 27]
>>> format_tiles([27, 0, 1, 2, 27])
'123m11z'
>>> tile_name(parse_tile("5p")), tile_name(parse_tile("5p"), "en")
('五筒', '5 Dots')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, TypeGuard

Tile = int

NUM_KINDS: Final = 34
"""Tile kinds: 0..33."""
COPIES: Final = 4
"""Copies of each kind in the set."""
SUITS: Final = "mpsz"
RANKS: Final = 9
"""Ranks of a suit (1..9); the honours have 7."""
MAN: Final = 0
PIN: Final = 9
SOU: Final = 18
HONOURS: Final = 27
"""The first tile of each suit; tiles from ``HONOURS`` on are honours."""
SUIT_STARTS: Final = (MAN, PIN, SOU, HONOURS)
SUIT_ENDS: Final = (PIN, SOU, HONOURS, NUM_KINDS)
MELDS: Final = 4
"""Melds of a winning hand (docs/rules.md §11): four melds and a pair."""
HAND_TILES: Final = 3 * MELDS + 2
"""Tiles of a winning hand, a kong counted as three (14); a seat holds one fewer between turns."""

EAST, SOUTH, WEST, NORTH, RED, GREEN, WHITE = range(HONOURS, NUM_KINDS)

_ZH_DIGITS: Final = "一二三四五六七八九"
_ZH_SUIT: Final = ("万", "筒", "条")
_EN_SUIT: Final = ("Characters", "Dots", "Bamboo")
_ZH_HONOURS: Final = ("东", "南", "西", "北", "中", "发", "白")
_EN_HONOURS: Final = ("East", "South", "West", "North", "Red", "Green", "White")


class TileError(ValueError):
    """Text or values that do not describe valid tiles."""


def is_tile(value: object) -> TypeGuard[Tile]:
    """Whether ``value`` is a tile: an int 0..33."""
    return type(value) is int and 0 <= value < NUM_KINDS


def _check_tile(tile: object) -> Tile:
    if not is_tile(tile):
        raise TileError(f"not a tile: {tile!r} (tiles are ints 0..33)")
    return tile


def suit_of(tile: Tile) -> int:
    """0..3: 万 筒 条, then the honours."""
    return tile // RANKS


def rank_of(tile: Tile) -> int:
    """0..8 within its suit (rank 1 is 0)."""
    return tile % RANKS


def tile_text(tile: Tile) -> str:
    """The mpsz text of one tile: ``tile_text(27) == '1z'``."""
    _check_tile(tile)
    return f"{rank_of(tile) + 1}{SUITS[suit_of(tile)]}"


def tile_name(tile: Tile, lang: str = "zh") -> str:
    """The tile's name: ``'五筒'`` or ``'5 Dots'``; honours ``'东'`` / ``'East'``."""
    _check_tile(tile)
    if lang not in ("zh", "en"):
        raise ValueError(f"unknown language {lang!r}: use 'zh' or 'en'")
    suit, rank = suit_of(tile), rank_of(tile)
    if is_honour(tile):
        return (_ZH_HONOURS if lang == "zh" else _EN_HONOURS)[rank]
    if lang == "zh":
        return _ZH_DIGITS[rank] + _ZH_SUIT[suit]
    return f"{rank + 1} {_EN_SUIT[suit]}"


def is_honour(tile: Tile) -> bool:
    return tile >= HONOURS


def parse_tiles(text: str, *, max_copies: int = COPIES) -> list[Tile]:
    """Parse mpsz text (``"123m456p11z"``) into tiles, in the order written.

    Spaces are ignored. Digits 1-9 go with the suit letter that follows them; honours are
    1z..7z. A fifth copy of a tile is an error.

    >>> parse_tiles("19m 19p 19s 1234567z")[:4]
    [0, 8, 9, 17]
    >>> parse_tiles("8z")
    Traceback (most recent call last):
    ...
    engine.tiles.TileError: bad tile text '8z': honours are 1z..7z, there is no 8z
    """
    if not isinstance(text, str):
        raise TileError(f"tile text must be a string, not {text!r}")
    tiles: list[Tile] = []
    pending: list[int] = []
    for ch in text:
        if ch.isspace():
            continue
        if "1" <= ch <= "9" and ch.isascii():
            pending.append(int(ch))
            continue
        if ch == "0":
            raise TileError(f"bad tile text {text!r}: 0 is not a tile rank (ranks are 1..9)")
        if ch in SUITS:
            if not pending:
                raise TileError(f"bad tile text {text!r}: suit letter {ch!r} has no digits before it")
            suit = SUITS.index(ch)
            for rank in pending:
                if suit == 3 and rank > 7:
                    raise TileError(f"bad tile text {text!r}: honours are 1z..7z, there is no {rank}z")
                tiles.append(SUIT_STARTS[suit] + rank - 1)
            pending = []
            continue
        raise TileError(f"bad tile text {text!r}: unexpected {ch!r} (use digits 1-9 and the letters m p s z)")
    if pending:
        raise TileError(f"bad tile text {text!r}: digits {''.join(map(str, pending))!r} have no suit letter after them")
    check_copies(tiles, text, max_copies=max_copies)
    return tiles


def parse_tile(text: str) -> Tile:
    """Parse exactly one tile: ``parse_tile("5z") == 31``."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise TileError(f"bad tile text {text!r}: expected exactly one tile, got {len(tiles)}")
    return tiles[0]


def check_copies(tiles: Iterable[Tile], source: object = None, *, max_copies: int = COPIES) -> None:
    """Raise :class:`TileError` if any tile appears more than ``max_copies`` times."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[_check_tile(t)] += 1
    for t, n in enumerate(counts):
        if n > max_copies:
            where = f" in {source!r}" if source is not None else ""
            raise TileError(f"{n} copies of {tile_text(t)}{where}: a set has only {max_copies} of each tile")


def format_tiles(tiles: Iterable[Tile]) -> str:
    """The compact mpsz text of tiles, sorted: ``format_tiles([28, 0, 1]) == '12m2z'``."""
    by_suit: list[list[str]] = [[], [], [], []]
    for t in sorted(_check_tile(t) for t in tiles):
        by_suit[suit_of(t)].append(str(rank_of(t) + 1))
    return "".join("".join(ranks) + SUITS[i] for i, ranks in enumerate(by_suit) if ranks)


def names(tiles: Iterable[Tile], lang: str = "zh") -> str:
    """Space-separated names of tiles in the order given."""
    sep = " " if lang == "zh" else ", "
    return sep.join(tile_name(t, lang) for t in tiles)


def to_counts(tiles: Iterable[Tile]) -> list[int]:
    """A 34-long count vector from tiles."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[_check_tile(t)] += 1
    return counts


def from_counts(counts: Sequence[int]) -> list[Tile]:
    """Tiles, sorted, from a 34-long count vector."""
    if len(counts) != NUM_KINDS:
        raise TileError(f"a count vector has {NUM_KINDS} entries, got {len(counts)}")
    return [t for t, n in enumerate(counts) for _ in range(n)]


ALL_TILES: Final = tuple(range(NUM_KINDS))

CHOW_PAIRS: Final[tuple[tuple[tuple[Tile, Tile], ...], ...]] = tuple(
    tuple(
        (t + a, t + b)
        for a, b in ((-2, -1), (-1, 1), (1, 2))
        if not is_honour(t) and rank_of(t) + a >= 0 and rank_of(t) + b < RANKS
    )
    for t in ALL_TILES
)
"""For each tile, the pairs of tiles that make a sequence (顺子) with it, lowest pair first;
none for an honour. The one place the shape of a chow is written: the tables below, and
every other reading of sequences, are made from it.

>>> [format_tiles(p) for p in CHOW_PAIRS[parse_tile("3m")]]
['12m', '24m', '45m']
>>> CHOW_PAIRS[parse_tile("1z")]
()
"""

SEQUENCES: Final[tuple[tuple[Tile, Tile, Tile], ...]] = tuple(
    sorted({(t, a, b) for t in ALL_TILES for a, b in CHOW_PAIRS[t] if t < a})
)
"""Every sequence as its three tiles, lowest first: 123m, 234m, ... 789s.

>>> len(SEQUENCES), format_tiles(SEQUENCES[0]), format_tiles(SEQUENCES[-1])
(21, '123m', '789s')
"""

SEQUENCES_FROM: Final[tuple[tuple[tuple[Tile, Tile, Tile], ...], ...]] = tuple(
    tuple(seq for seq in SEQUENCES if seq[0] == t) for t in ALL_TILES
)
"""For each tile, the sequences it is the lowest tile of (none for 8, 9 and the honours)."""


def _sequence_waits() -> dict[tuple[Tile, Tile], tuple[Tile, ...]]:
    waits: dict[tuple[Tile, Tile], list[Tile]] = {}
    for t in ALL_TILES:
        for pair in CHOW_PAIRS[t]:
            waits.setdefault(pair, []).append(t)
    return {pair: tuple(tiles) for pair, tiles in waits.items()}


SEQUENCE_WAITS: Final = _sequence_waits()
"""For two tiles that are part of a sequence, the tiles that complete it: ``12m`` waits on
``3m`` alone (边张 edge), ``23m`` on ``1m`` and ``4m``, ``13m`` on ``2m`` (夹张 closed).

>>> [format_tiles(SEQUENCE_WAITS[tuple(parse_tiles(p))]) for p in ("12m", "23m", "13m", "89s")]
['3m', '14m', '2m', '7s']
"""
