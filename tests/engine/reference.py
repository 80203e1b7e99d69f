"""A deliberately simple reference checker, written apart from engine.hand's tables.

Tiles are sorted lists of ints; every split is found by plain recursion on the first tile.
It is slow and obviously right, which is what a cross-check needs.
"""

from __future__ import annotations

from functools import cache


def _groups_of(tiles: tuple[int, ...], need_pair: bool) -> list[list[tuple[int, ...]]]:
    """Every way to cut sorted tiles into melds (and one pair if need_pair)."""
    if not tiles:
        return [] if need_pair else [[]]
    first = tiles[0]
    rest = list(tiles[1:])
    out: list[list[tuple[int, ...]]] = []
    # the first tile in a pair
    if need_pair and rest and rest[0] == first:
        for tail in _groups_of(tuple(rest[1:]), False):
            out.append([(first, first), *tail])
    # in a triplet
    if len(rest) >= 2 and rest[0] == first and rest[1] == first:
        for tail in _groups_of(tuple(rest[2:]), need_pair):
            out.append([(first, first, first), *tail])
    # at the start of a sequence: suited, same suit, not wrapping past 9
    if first < 27 and first % 9 <= 6 and first + 1 in rest and first + 2 in rest:
        r = list(rest)
        r.remove(first + 1)
        r.remove(first + 2)
        for tail in _groups_of(tuple(r), need_pair):
            out.append([(first, first + 1, first + 2), *tail])
    return out


@cache
def all_splits(tiles: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Distinct splits (as sorted tuples of groups) of a sorted concealed hand."""
    found = {tuple(sorted(split)) for split in _groups_of(tuple(sorted(tiles)), True)}
    return tuple(sorted(found))


def is_win(tiles: list[int], n_melds: int = 0) -> bool:
    assert len(tiles) + 3 * n_melds == 14
    return bool(all_splits(tuple(sorted(tiles))))


def waits(tiles: list[int], held_elsewhere: list[int] | None = None, n_melds: int = 0) -> list[int]:
    """Tiles t (with a fifth copy impossible) for which tiles + t wins."""
    out = []
    for t in range(34):
        copies = tiles.count(t) + (held_elsewhere or []).count(t)
        if copies >= 4:
            continue
        if is_win([*tiles, t], n_melds):
            out.append(t)
    return out


def wait_kinds(tiles14: list[int], win: int) -> set[str]:
    """Every wait kind the winning tile can have, over every split (docs/rules.md §13)."""
    kinds: set[str] = set()
    for split in all_splits(tuple(sorted(tiles14))):
        for g in split:
            if win not in g:
                continue
            if len(g) == 2:
                kinds.add("single")
            elif g[0] == g[1]:
                kinds.add("plain")
            elif g[1] == win:
                kinds.add("closed")
            elif (g[2] == win and g[0] % 9 == 0) or (g[0] == win and g[2] % 9 == 8):
                kinds.add("edge")
            else:
                kinds.add("plain")
    return kinds


def best_kind(kinds: set[str]) -> str:
    for k in ("closed", "single", "edge", "plain"):
        if k in kinds:
            return k
    raise ValueError("no kinds")
