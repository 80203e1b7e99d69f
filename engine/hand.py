"""Reading and judging hands: winning hands, waits, splits and the wait kind (docs/rules.md §11, §13).

A hand is tiles (ints), mpsz text, or a 34-long count vector. Exposed melds (chows, pongs,
kongs; a kong counts as one meld of three) are set aside: the concealed part of a winning
hand then has ``14 - 3 * len(melds)`` tiles.

>>> is_winning_hand(parse_tiles("123m456p789s11122z"))
True
>>> format_tiles(winning_tiles("1112345678999m"))
'123456789m'
>>> a = analyse_win("123m13p456s789s11z2p", "2p")
>>> a.wait, a.bonus
('closed', True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from engine.memo import Memo
from engine.records import WAIT_KINDS, WaitKind
from engine.rules import XIAN, Rules
from engine.suit_tables import PAIR_MARK, load
from engine.tiles import (
    ALL_TILES,
    COPIES,
    HAND_TILES,
    HONOURS,
    MAN,
    MELDS,
    NUM_KINDS,
    PIN,
    SEQUENCE_WAITS,
    SEQUENCES,
    SEQUENCES_FROM,
    SOU,
    SUIT_STARTS,
    Tile,
    TileError,
    format_tiles,
    is_tile,
    parse_tile,
    parse_tiles,
    tile_text,
)

COMPLETE: Final = load()
"""The hand table (``engine.suit_tables``): each complete suit pattern's value."""


def _waits_of(pattern: bytes) -> tuple[int, ...]:
    """The ranks whose tile, added, makes a suit ``pattern`` complete (in ``COMPLETE``)."""
    ranks = []
    for r, n in enumerate(pattern):
        if n < COPIES and pattern[:r] + _ONE_MORE[n] + pattern[r + 1 :] in COMPLETE:
            ranks.append(r)
    return tuple(ranks)


_ONE_MORE: Final = tuple(bytes((n + 1,)) for n in range(COPIES))
WAITS: Final = Memo(_waits_of, limit=50_000)
"""The waits of each suit pattern seen, worked out once (``engine.memo``)."""
WINNING_VALUE: Final = HAND_TILES + PAIR_MARK
"""What the four parts of a winning hand's concealed counts add up to in ``COMPLETE``, plus
three for each meld set aside: 14 tiles, one pair."""
_COUNTS_OVER_4: Final = bytes(range(COPIES + 1))  # bytes.translate deletes these: what is left is over 4

HandLike = str | Sequence[int] | bytes
MeldLike = str | Sequence[int]


class HandError(TileError):
    """A hand or meld that cannot be judged (wrong size, impossible tiles)."""


# --- melds ---------------------------------------------------------------------------


def parse_meld(meld: MeldLike) -> tuple[Tile, ...]:
    """A meld as sorted tiles, checked: a sequence of one suit, a triplet or a kong.

    >>> parse_meld("5555z")
    (31, 31, 31, 31)
    >>> parse_meld("135m")
    Traceback (most recent call last):
    ...
    engine.hand.HandError: not a meld: '135m' (melds are a sequence, a triplet or a kong)
    """
    tiles = tuple(sorted(parse_tiles(meld) if isinstance(meld, str) else _as_tiles(meld, "meld")))
    if len(tiles) in (3, 4) and len(set(tiles)) == 1:
        return tiles
    if tiles in SEQUENCES:
        return tiles
    raise HandError(f"not a meld: {meld!r} (melds are a sequence, a triplet or a kong)")


def _as_tiles(values: Iterable[int], what: str) -> list[Tile]:
    tiles = list(values)
    for t in tiles:
        if not is_tile(t):
            raise HandError(f"not a tile in {what} {tiles!r}: {t!r} (tiles are ints 0..33)")
    return tiles


def _parse_melds(melds: Iterable[MeldLike]) -> list[tuple[Tile, ...]]:
    if isinstance(melds, str):
        raise HandError(f"melds must be a list of melds, not one string {melds!r}")
    return [parse_meld(m) for m in melds]


# --- hands ---------------------------------------------------------------------------


def hand_counts(hand: HandLike) -> list[int]:
    """A hand in any accepted form as a fresh 34-long count vector (checked)."""
    if isinstance(hand, str):
        tiles = parse_tiles(hand)
    elif len(hand) == NUM_KINDS:
        counts = list(hand)
        for n in counts:
            if type(n) is not int or not 0 <= n <= COPIES:
                raise HandError(f"bad count vector {counts!r}: counts are whole numbers 0..4")
        return counts
    else:
        tiles = _as_tiles(hand, "hand")
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    for t, n in enumerate(counts):
        if n > COPIES:
            raise HandError(f"{n} copies of {tile_text(t)} in {hand!r}: a set has only 4 of each tile")
    return counts


def held_counts(counts: Sequence[int], melds: Iterable[Sequence[Tile]]) -> list[int]:
    """Every copy a player holds: the concealed counts plus the tiles of the melds."""
    total = list(counts)
    for m in melds:
        for t in m:
            total[t] += 1
    return total


def _combined(counts: list[int], melds: list[tuple[Tile, ...]], hand: object) -> None:
    """Reject a hand whose tiles and melds together hold a fifth copy of a tile."""
    for t, n in enumerate(held_counts(counts, melds)):
        if n > COPIES:
            raise HandError(f"{n} copies of {tile_text(t)} in hand {hand!r} with its melds: a set has only 4")


def _prepare(hand: HandLike, melds: Iterable[MeldLike], concealed: int) -> tuple[list[int], list[tuple[Tile, ...]]]:
    """Checked counts and melds for a hand that should hold ``concealed - 3 * melds`` tiles."""
    counts = hand_counts(hand)
    meld_list = _parse_melds(melds)
    if len(meld_list) > MELDS:
        raise HandError(f"{len(meld_list)} melds given: a hand has at most {MELDS}")
    _combined(counts, meld_list, hand)
    want = concealed - 3 * len(meld_list)
    have = sum(counts)
    if have != want:
        raise HandError(
            f"hand {hand!r} has {have} tiles; with {len(meld_list)} exposed meld(s) it should have {want}"
            f" ({concealed} in all, a kong counted as three)"
        )
    return counts, meld_list


def _fast_counts(hand: HandLike) -> bytes | None:
    """A count vector as bytes for the table lookups, or None when ``hand`` is not one.

    ``bytes`` vectors are used as they are (the fastest form); lists and tuples are
    converted, which also rejects values outside 0..255 and non-integers.
    """
    if type(hand) is bytes:
        return hand if len(hand) == NUM_KINDS else None
    if isinstance(hand, str) or len(hand) != NUM_KINDS:
        return None
    try:
        return bytes(hand)
    except (ValueError, TypeError):
        hand_counts(hand)  # raises the clear error
        raise


def _holds(b: bytes, tiles: int) -> bool:
    """Whether count vector ``b`` is a hand of ``tiles`` tiles, none more than 4 times.
    (With every count under 255, ``int.from_bytes(b) % 255`` is their sum, as 256 is 1 mod
    255: half the cost of ``sum(b)``.)"""
    return not b.translate(None, _COUNTS_OVER_4) and int.from_bytes(b, "little") % 255 == tiles


def is_seven_pairs(counts: Sequence[int]) -> bool:
    """Seven pairs (七对, docs/rules.md §11 option ``seven_pairs``): 14 tiles in pairs, four alike
    counting as two pairs."""
    return sum(counts) == HAND_TILES and all(n in (0, 2, 4) for n in counts)


def is_complete(counts: bytes | bytearray | Sequence[int], melds: int, seven_pairs: bool = False) -> bool:
    """Whether concealed ``counts`` (34 of them) with ``melds`` melds set aside make a winning
    hand (docs/rules.md §11): the one test of "is this complete" that the table, its legal moves, the
    bots and :func:`is_winning_hand` ask.

    The hand's four suits are looked up in ``COMPLETE``: it wins when all four are there and
    their values add up to one pair and ``14 - 3 * melds`` tiles; or, with ``seven_pairs``
    and no melds, when it is seven pairs. No checks: ``counts`` must be a hand the table
    holds (0..4 each); :func:`is_winning_hand` is the checked form for hands typed in.

    >>> from engine.tiles import to_counts
    >>> is_complete(bytes(to_counts(parse_tiles("11123m"))), 3)
    True
    >>> is_complete(bytes(to_counts(parse_tiles("1133557799m1155p"))), 0, seven_pairs=True)
    True
    """
    b = counts if type(counts) is bytes else bytes(counts)
    get = COMPLETE.get
    v = get(b[MAN:PIN])  # most hands fail on the first suit that is not melds and a pair
    if v is not None:
        w = get(b[PIN:SOU])
        if w is not None:
            x = get(b[SOU:HONOURS])
            if x is not None:
                y = get(b[HONOURS:])
                if y is not None and v + w + x + y == WINNING_VALUE - 3 * melds:
                    return True
    return seven_pairs and melds == 0 and is_seven_pairs(b)


def is_winning_hand(hand: HandLike, melds: Iterable[MeldLike] = (), *, seven_pairs: bool = False) -> bool:
    """Whether the hand is complete (:func:`is_complete`), exposed ``melds`` set aside.

    Anything impossible (a count over 4, the wrong number of tiles) raises
    :class:`HandError` rather than answering ``False``.

    >>> is_winning_hand("11122233344455z")
    True
    >>> is_winning_hand("12345m", melds=["777z", "888p", "999s"])
    False
    >>> is_winning_hand("11123m", melds=["777z", "888p", "999s"])
    True
    """
    if not melds:
        b = _fast_counts(hand)
        if b is not None:  # a count vector: judged first, checked only if it does not win
            if is_complete(b, 0, seven_pairs):
                return True  # (found in the tables, or seven pairs: at most 4 of a kind, 14 tiles)
            if not _holds(b, HAND_TILES):
                _prepare(hand, (), HAND_TILES)  # raises the clear error for an impossible hand
            return False
    counts, meld_list = _prepare(hand, melds, HAND_TILES)
    return is_complete(counts, len(meld_list), seven_pairs)


def winning_tiles(hand13: HandLike, melds: Iterable[MeldLike] = (), *, seven_pairs: bool = False) -> list[Tile]:
    """The tiles that would complete the hand (its waits), sorted.

    A tile whose four copies are all in the hand and its melds is never a wait.

    >>> format_tiles(winning_tiles("1113m", melds=["777z", "888p", "999s"]))
    '23m'
    >>> winning_tiles("1111m", melds=["777z", "888p", "999s"])
    []
    >>> format_tiles(winning_tiles("1133557799m115p", seven_pairs=True))
    '5p'
    """
    if not melds and not seven_pairs:
        b = _fast_counts(hand13)
        if b is not None:
            if not _holds(b, HAND_TILES - 1):
                _prepare(hand13, (), HAND_TILES - 1)  # raises
            return _waits(b)
    counts, meld_list = _prepare(hand13, melds, HAND_TILES - 1)
    if seven_pairs and not meld_list:  # rare: every tile is tried with the one test
        after = bytearray(counts)
        waits = []
        for t in ALL_TILES:
            if counts[t] < COPIES:
                after[t] += 1
                if is_complete(after, 0, seven_pairs=True):
                    waits.append(t)
                after[t] -= 1
        return waits
    held = held_counts(counts, meld_list)
    return [t for t in _waits(bytes(counts)) if held[t] < COPIES]


def _waits(b: bytes) -> list[Tile]:
    """Waits of a hand with ``13 - 3k`` tiles given as bytes counts (checked by the caller).

    The tile must complete the one suit that is not complete; when all four are (two of them
    with a pair), it completes one of the two with a pair. ``WAITS`` has what completes a
    suit's pattern; the tile count of the pattern decides whether it gains a meld or a pair
    (with 13 - 3k tiles in all, one short of a meld where the others hold the pair, one short
    of the pair where they hold none).
    """
    get = COMPLETE.get
    keys = (b[MAN:PIN], b[PIN:SOU], b[SOU:HONOURS], b[HONOURS:])
    values = [get(key) for key in keys]
    missing = values.count(None)
    if missing > 1:
        return []
    pairs = sum(1 for v in values if v is not None and v >= PAIR_MARK)
    out: list[Tile] = []
    for suit, v in enumerate(values):
        if missing and v is not None:
            continue  # the one incomplete suit must take the tile
        if pairs - (1 if v is not None and v >= PAIR_MARK else 0) > 1:
            continue  # two pairs elsewhere: no tile here completes the hand
        first = SUIT_STARTS[suit]
        out.extend(first + r for r in WAITS[keys[suit]])
    return out


# --- splits and the wait kind --------------------------------------------------------


@dataclass(frozen=True)
class Split:
    """One way to read a winning hand: the pair and the concealed melds (sorted)."""

    pair: Tile
    melds: tuple[tuple[Tile, ...], ...]
    seven_pairs: bool = False

    def text(self) -> str:
        if self.seven_pairs:
            return " ".join(format_tiles(m) for m in self.melds)
        return " ".join([format_tiles([self.pair, self.pair]), *(format_tiles(m) for m in self.melds)])


@dataclass(frozen=True)
class WinAnalysis:
    """What :func:`analyse_win` found: every split, each reading of the winning tile, the
    wait kind that counts under the rules and whether it earns the wait bonus."""

    winning: bool
    win_tile: Tile
    splits: tuple[Split, ...]
    readings: tuple[tuple[int, WaitKind], ...]  # (index into splits, kind)
    wait: WaitKind | None
    bonus: bool
    waits: tuple[Tile, ...]  # every tile the hand was waiting on before the winning tile
    melds: tuple[tuple[Tile, ...], ...] = field(default=())

    def to_json(self) -> dict[str, object]:
        return {
            "winning": self.winning,
            "win_tile": tile_text(self.win_tile),
            "wait": self.wait,
            "bonus": self.bonus,
            "waited_on": format_tiles(self.waits),
            "melds": [format_tiles(m) for m in self.melds],
            "splits": [
                {"split": s.text(), "kinds": sorted({k for i, k in self.readings if i == n}, key=WAIT_KINDS.index)}
                for n, s in enumerate(self.splits)
            ],
        }


def splits(counts: Sequence[int], *, seven_pairs: bool = False) -> list[Split]:
    """Every distinct way to split concealed counts into one pair and melds."""
    found: list[Split] = []
    work = list(counts)
    for pair in range(NUM_KINDS):
        if work[pair] >= 2:
            work[pair] -= 2
            for melds in _meld_splits(work, 0):
                found.append(Split(pair, tuple(melds)))
            work[pair] += 2
    if seven_pairs and is_seven_pairs(counts):
        pairs = tuple((t, t) for t, n in enumerate(counts) for _ in range(n // 2))
        found.append(Split(pairs[0][0], pairs, seven_pairs=True))
    return found


def _meld_splits(work: list[int], start: int) -> list[list[tuple[Tile, ...]]]:
    t = start
    while t < NUM_KINDS and work[t] == 0:
        t += 1
    if t == NUM_KINDS:
        return [[]]
    out: list[list[tuple[Tile, ...]]] = []
    if work[t] >= 3:
        work[t] -= 3
        out.extend([(t, t, t), *rest] for rest in _meld_splits(work, t))
        work[t] += 3
    for seq in SEQUENCES_FROM[t]:
        if all(work[u] for u in seq):
            for u in seq:
                work[u] -= 1
            out.extend([seq, *rest] for rest in _meld_splits(work, t))
            for u in seq:
                work[u] += 1
    return out


def _kinds_in(split: Split, win: Tile) -> set[WaitKind]:
    """The wait kinds the winning tile can have in one split."""
    if split.seven_pairs:
        return {"single"}
    kinds: set[WaitKind] = set()
    if split.pair == win:
        kinds.add("single")
    for m in split.melds:
        if win not in m:
            continue
        if m[0] == m[1]:
            kinds.add("plain")  # completes a triplet: a two-pair (shanpon) wait
        elif win == m[1]:
            kinds.add("closed")  # the middle tile of the sequence
        else:
            a, b = (t for t in m if t != win)
            kinds.add("edge" if len(SEQUENCE_WAITS[a, b]) == 1 else "plain")  # 12 waiting on 3 alone
    return kinds


def analyse_win(
    hand14: HandLike,
    win_tile: Tile | str,
    melds: Iterable[MeldLike] = (),
    rules: Rules = XIAN,
) -> WinAnalysis:
    """Every split of a 14-tile hand (winning tile included) and its wait kind (docs/rules.md §13).

    ``wait`` is the reading most favourable to the winner under ``wait_bonus='any_split'``;
    under ``'only_wait'`` a hand that waited on more than one tile counts as ``plain``.
    ``bonus`` says whether the wait bonus is paid (closed, single, and edge when
    ``edge_wait_bonus`` is on).

    >>> analyse_win("23455m123p456p789s", "5m").wait   # 234 + 55: a single wait reading
    'single'
    >>> analyse_win("23455m123p456p789s", "5m", rules=Rules(wait_bonus="only_wait")).wait
    'plain'
    """
    win = parse_tile(win_tile) if isinstance(win_tile, str) else win_tile
    if not is_tile(win):
        raise HandError(f"not a winning tile: {win_tile!r}")
    counts, meld_list = _prepare(hand14, melds, HAND_TILES)
    if counts[win] == 0:
        raise HandError(f"the winning tile {tile_text(win)} is not in the hand {hand14!r}")
    found = splits(counts, seven_pairs=rules.seven_pairs and not meld_list)
    readings = tuple((i, k) for i, s in enumerate(found) for k in sorted(_kinds_in(s, win), key=WAIT_KINDS.index))
    before = list(counts)
    before[win] -= 1
    waits = tuple(winning_tiles(before, meld_list, seven_pairs=rules.seven_pairs))
    if not found:
        return WinAnalysis(False, win, (), (), None, False, waits, tuple(meld_list))
    kinds = {k for _, k in readings}
    wait: WaitKind = next(k for k in WAIT_KINDS if k in kinds)
    if rules.wait_bonus == "only_wait" and len(waits) > 1:
        wait = "plain"
    return WinAnalysis(True, win, tuple(found), readings, wait, rules.earns_bonus(wait), waits, tuple(meld_list))
