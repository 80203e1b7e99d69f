"""Shanten (向听数): how far a hand is from winning, exactly, for 13- and 14-tile hands.

A winning hand (RULES §11) is four melds and a pair, exposed melds set aside (and seven
pairs when that option is on). The shanten of a hand with ``k`` exposed melds is

    (14 - 3k) - 1 - (the most tiles it shares with any winning hand)

so ``-1`` is a winning 14-tile hand, ``0`` a 13-tile hand one tile from winning (tenpai),
and in general it is one less than the number of tiles still to draw. "Any winning hand"
means one the set can make: with the hand's own exposed melds, at most four of a tile.
That is what makes this exact where the usual melds/partial-melds count is not: ``1111p``
plus three melds waits on nothing (the fifth 1p does not exist), so it is not tenpai.

The fast path is table-driven like ``engine._tables``: for each suit's counts (and how many
of each tile the exposed melds leave), the most tiles it can share with ``j`` melds and
``q`` pairs of that suit, ``j`` 0..4, ``q`` 0..1, computed once per pattern (memoised, built
from shared suffixes), then the four suits are combined with exactly ``4 - k`` melds and
one pair in all.

>>> from engine.tiles import parse_tiles, to_counts
>>> shanten(to_counts(parse_tiles("123m456p789s11122z")))
-1
>>> shanten(to_counts(parse_tiles("123m456p789s1112z")))
0
>>> shanten(to_counts(parse_tiles("123456789m1111p")))    # the fifth 1p does not exist
1
>>> shanten(to_counts(parse_tiles("19m19p19s1234567z")))  # thirteen orphans: far off here
8
>>> shanten(to_counts(parse_tiles("1133557799m1144z")), seven_pairs=True)
-1
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from operator import add
from typing import Final

from engine.tiles import COPIES, NUM_KINDS

Vector = tuple[int, ...]
"""Ten entries, index ``2 * j + q``: the most tiles shared with ``j`` melds and ``q`` pairs (NEG: impossible)."""

NEG: Final = -1000
_WIDTH: Final = 10
_CAP_SHIFT: Final = 5  # a rank's code is count + 5 * cap (cap = copies the winning hand may hold)
_NO_CAP: Final = bytes((n + _CAP_SHIFT * COPIES) % 256 for n in range(256))  # bytes.translate: count -> code
_EMPTY_VEC: Final[Vector] = (0,) + (NEG,) * (_WIDTH - 1)
_NONE_VEC: Final[Vector] = (NEG,) * _WIDTH

# memo tables: suffix results per (s1, s2) + suffix codes; whole-suit results per codes
_SUFFIX: Final[tuple[dict[bytes, Vector], dict[bytes, Vector]]] = ({}, {})
_STARTED: Final = tuple(tuple(bytes((s1 * 5 + s2,)) for s2 in range(5)) for s1 in range(5))
_SUIT: Final[tuple[dict[bytes, Vector], dict[bytes, Vector]]] = ({}, {})
_PAIRS: Final[dict[tuple[Vector, Vector], Vector]] = {}
_VECTORS: Final[dict[Vector, Vector]] = {}
# Bounds on the memo tables (entries), so a long run on a Raspberry Pi stays in tens of MB;
# a full table is emptied and refilled as patterns come back.
SUFFIX_LIMIT: Final = 300_000
SUIT_LIMIT: Final = 150_000
PAIRS_LIMIT: Final = 50_000


def _suffix(key: bytes, s1: int, s2: int, seq: int) -> Vector:
    """The best overlaps of the ranks in ``key`` (codes) with ``s1`` sequences started one rank
    before (they need this rank and the next) and ``s2`` started two before (need this one)."""
    memo = _SUFFIX[seq]
    mkey = _STARTED[s1][s2] + key  # one small bytes object: half the memory of a tuple key
    found = memo.get(mkey)
    if found is not None:
        return found
    pending = s1 + s2
    if not key:
        result = _EMPTY_VEC if pending == 0 else _NONE_VEC
        memo[mkey] = result
        return result
    code = key[0]
    have, cap = code % _CAP_SHIFT, code // _CAP_SHIFT
    if pending > cap or (len(key) < 2 and s1):
        memo[mkey] = _NONE_VEC
        return _NONE_VEC
    rest = key[1:]
    out = list(_NONE_VEC)
    starts = 4 - pending if seq and len(key) >= 3 else 0
    for n in range(starts + 1):
        valid = [(i, x) for i, x in enumerate(_suffix(rest, n, s1, seq)) if x >= 0]
        if not valid:
            continue
        for t in (0, 1):
            shift = 2 * (n + t)
            w = pending + n + 3 * t
            if w > cap or shift >= _WIDTH:
                break
            gain = w if w < have else have
            for i, x in valid:  # no pair at this rank: (j, q) from the rest's (j - n - t, q)
                k = i + shift
                if k < _WIDTH and x + gain > out[k]:
                    out[k] = x + gain
            if w + 2 <= cap:  # the pair at this rank: (j, 1) from the rest's (j - n - t, 0)
                gain = w + 2 if w + 2 < have else have
                for i, x in valid:
                    k = i + shift + 1
                    if not i & 1 and k < _WIDTH and x + gain > out[k]:
                        out[k] = x + gain
    vec = tuple(x if x >= 0 else NEG for x in out)
    result = _VECTORS.setdefault(vec, vec)  # a few thousand distinct vectors: share them
    memo[mkey] = result
    return result


def suit_vector(codes: bytes, seq: bool = True) -> Vector:
    """The best-overlap vector of one suit given as codes (``count + 5 * cap`` per rank).

    A suit read backwards has the same vector (a sequence backwards is one), and honours in
    any order (they make no sequences): a new pattern first looks for its mirror, or its
    sorted honours, in the table.
    """
    memo = _SUIT[seq]
    v = memo.get(codes)
    if v is None:
        key = codes[::-1] if seq else bytes(sorted(codes))
        v = memo.get(key)
        if len(memo) > SUIT_LIMIT:
            memo.clear()
        if v is None:
            suffixes = _SUFFIX[int(seq)]
            if len(suffixes) > SUFFIX_LIMIT:  # only a help for new patterns: start it afresh
                suffixes.clear()
            v = _suffix(key if not seq else codes, 0, 0, int(seq))
            if not seq:
                memo[key] = v
        memo[codes] = v
    return v


def combine(a: Vector, b: Vector) -> Vector:
    """Two suits' vectors as one (max-plus: the melds and pairs of both add up)."""
    key = (a, b)
    found = _PAIRS.get(key)
    if found is not None:
        return found
    out = [NEG] * _WIDTH
    for i in range(_WIDTH):
        x = a[i]
        if x < 0:
            continue
        j1, q1 = divmod(i, 2)
        for k in range(_WIDTH - 2 * j1):
            y = b[k]
            if y < 0:
                continue
            q = q1 + k % 2
            if q > 1:
                continue
            idx = 2 * (j1 + k // 2) + q
            if x + y > out[idx]:
                out[idx] = x + y
    result = tuple(out)
    if len(_PAIRS) > PAIRS_LIMIT:
        _PAIRS.clear()
    _PAIRS[key] = result
    return result


def finish(a: Vector, b: Vector, melds_needed: int) -> int:
    """The most tiles shared with a winning hand: ``melds_needed`` melds and one pair from the
    two (combined) halves ``a`` and ``b`` (negative: impossible)."""
    best: int = max(map(add, a, b[2 * melds_needed + 1 :: -1]))
    return best


Masks = tuple[int, ...]
Profile = tuple[Vector, Masks, Masks, int, Masks]
"""A suit's vector with, per entry, the ranks (bit ``r``) that some best-sharing hand of that
entry wants one more of than is held (adding the tile raises the entry by one), and the held
ranks that some such hand holds a spare of (taking one away leaves the entry); then the ranks
with a copy left to draw, and per rank the entries (bit ``i``) that taking one away lowers."""

Entries = bytes
"""A suffix's profile as its possible entries ``(i, most shared, wanted << 1, spare << 1)``,
``i`` rising, packed by ``_ENTRY`` (a tenth of the memory of tuples): the masks shifted for
the rank before, which reads them."""
_ENTRY: Final = struct.Struct("<BBHH")

_PROFILE_SUFFIX: Final[tuple[dict[bytes, Entries], dict[bytes, Entries]]] = ({}, {})
_PROFILE: Final[tuple[dict[bytes, Profile], dict[bytes, Profile]]] = ({}, {})
_MASKS: Final[dict[Masks, Masks]] = {}
_MIRROR: Final = tuple(sum(1 << (8 - r) for r in range(9) if m >> r & 1) for m in range(512))
# bounds, as above (the mask tuples are shared through the last)
PROFILE_SUFFIX_LIMIT: Final = 300_000
PROFILE_LIMIT: Final = 100_000
SHARED_LIMIT: Final = 100_000


def _profile(key: bytes, s1: int, s2: int, seq: int) -> Entries:
    """``_suffix`` with the wanted and spare ranks of its best hands (bit 0: the rank before
    ``key``, bit 1 its first): the same recursion, keeping, per entry, the union over the
    choices that tie."""
    memo = _PROFILE_SUFFIX[seq]
    mkey = _STARTED[s1][s2] + key
    found = memo.get(mkey)
    if found is not None:
        return found
    pending = s1 + s2
    if not key:
        result = _ENTRY.pack(0, 0, 0, 0) if pending == 0 else b""
        memo[mkey] = result
        return result
    code = key[0]
    have, cap = code % _CAP_SHIFT, code // _CAP_SHIFT
    if pending > cap or (len(key) < 2 and s1):
        memo[mkey] = b""
        return b""
    rest = key[1:]
    out = [-1] * _WIDTH
    want = [0] * _WIDTH
    spare = [0] * _WIDTH
    starts = 4 - pending if seq and len(key) >= 3 else 0
    for n in range(starts + 1):
        if pending + n > cap:  # no room at this rank for more sequences
            break
        entries = _profile(rest, n, s1, seq)
        if not entries:
            continue
        for t in (0, 1):
            shift = 2 * (n + t)
            w = pending + n + 3 * t
            if w > cap or shift >= _WIDTH:
                break
            _fold(entries, shift, w, have, False, out, want, spare)  # no pair at this rank
            if w + 2 <= cap:  # the pair at this rank
                _fold(entries, shift + 1, w + 2, have, True, out, want, spare)
    pack = _ENTRY.pack
    result = b"".join([pack(k, x, want[k] << 1, spare[k] << 1) for k, x in enumerate(out) if x >= 0])
    memo[mkey] = result
    return result


def _fold(
    entries: bytes, shift: int, w: int, have: int, pair: bool, out: list[int], want: list[int], spare: list[int]
) -> None:
    """Fold the rest of the suit's ``entries`` into this rank's ``out``/``want``/``spare``, with
    ``w`` tiles of this rank in melds (and the pair, if ``pair``: only entries without one
    take it) of which ``have`` are held; ``shift`` moves an entry to its index here."""
    gain = w if w < have else have
    wb = 1 if w > have else 0  # the groups want one more of this rank
    sb = 1 if w < have else 0  # a held copy is spare
    for i, x, wi, si in _ENTRY.iter_unpack(entries):
        if pair and i & 1:
            continue
        k = i + shift
        if k >= _WIDTH:
            break
        y = x + gain
        if y > out[k]:
            out[k], want[k], spare[k] = y, wi | wb, si | sb
        elif y == out[k]:
            want[k] |= wi | wb
            spare[k] |= si | sb


def _fresh_profile(codes: bytes, seq: bool) -> tuple[Vector, Masks, Masks]:
    """The vector, wanted and spare masks of ``codes``, computed (through the suffix table)."""
    suffixes = _PROFILE_SUFFIX[int(seq)]
    if len(suffixes) > PROFILE_SUFFIX_LIMIT:
        suffixes.clear()
    vec = list(_NONE_VEC)
    want = [0] * _WIDTH
    spare = [0] * _WIDTH
    for k, x, w, s in _ENTRY.iter_unpack(_profile(codes, 0, 0, int(seq))):
        vec[k], want[k], spare[k] = x, w >> 1, s >> 1
    if len(_MASKS) > SHARED_LIMIT:
        _MASKS.clear()
    v, w_t, s_t = tuple(vec), tuple(want), tuple(spare)
    return _VECTORS.setdefault(v, v), _MASKS.setdefault(w_t, w_t), _MASKS.setdefault(s_t, s_t)


def suit_profile(codes: bytes, seq: bool = True) -> Profile:
    """``suit_vector(codes, seq)`` with what one tile more or less does to it (``Profile``):
    for a rank ``r`` held, ``suit_vector`` less that tile is the vector less one wherever
    ``r`` is not spare; for a rank with a copy left, the vector plus one where it is wanted.

    >>> vec, want, spare, room, drops = suit_profile(bytes([21, 20, 21, 20, 20, 20, 20, 20, 21]))  # 139m
    >>> vec[2], bin(want[2]), bin(spare[2])  # one meld: 123m wants 2m, and 9m is spare
    (2, '0b10', '0b100000000')
    """
    memo = _PROFILE[seq]
    found = memo.get(codes)
    if found is not None:
        return found
    if len(memo) > PROFILE_LIMIT:
        memo.clear()
    room = sum(1 << r for r, code in enumerate(codes) if code % _CAP_SHIFT < code // _CAP_SHIFT)
    mirror = memo.get(codes[::-1]) if seq else None  # a suit read backwards: the ranks mirrored
    if mirror is not None and len(codes) == 9:
        vec, want, spare = mirror[0], tuple(_MIRROR[m] for m in mirror[1]), tuple(_MIRROR[m] for m in mirror[2])
    else:
        vec, want, spare = _fresh_profile(codes, seq)
    held = [r for r, code in enumerate(codes) if code % _CAP_SHIFT]
    drops = tuple(
        sum(1 << i for i, x in enumerate(vec) if x >= 0 and not spare[i] >> r & 1) if r in held else 0
        for r in range(len(codes))
    )
    result = (vec, want, spare, room, drops)
    memo[codes] = result
    return result


def suit_codes(counts: Sequence[int], caps: Sequence[int] | None = None) -> tuple[bytes, bytes, bytes, bytes]:
    """The four suits' codes of a 34-long count vector; ``caps`` the copies of each tile the
    winning hand may hold (4 less the exposed melds' copies), default 4 everywhere."""
    if caps is None:
        b = bytes(counts).translate(_NO_CAP)
    else:
        if len(counts) != len(caps):
            raise ValueError("counts and caps differ in length")
        b = bytes(map(add, counts, map(_CAP_SHIFT.__mul__, caps)))
    return b[0:9], b[9:18], b[18:27], b[27:34]


def caps_of(melds: Iterable[Sequence[int]]) -> list[int] | None:
    """How many of each tile a winning hand may still hold beside exposed ``melds``; None when
    no meld is exposed (4 everywhere)."""
    caps: list[int] | None = None
    for m in melds:
        if caps is None:
            caps = [COPIES] * NUM_KINDS
        for t in m:
            caps[t] -= 1
    return caps


def standard_overlap(counts: Sequence[int], melds_needed: int = 4, caps: Sequence[int] | None = None) -> int:
    """The most tiles of ``counts`` that one standard winning hand can share."""
    m, p, s, z = suit_codes(counts, caps)
    return finish(combine(suit_vector(m), suit_vector(p)), combine(suit_vector(s), suit_vector(z, False)), melds_needed)


def seven_pairs_overlap(counts: Sequence[int]) -> int:
    """The most tiles of ``counts`` that a seven-pairs hand (four alike = two pairs) can share."""
    gains: list[int] = []
    for n in counts:
        if n:
            gains.append(2 if n >= 2 else 1)
            if n > 2:
                gains.append(n - 2)
    gains.sort(reverse=True)
    return sum(gains[:7])


def shanten(
    counts: Sequence[int] | bytes, melds: Iterable[Sequence[int]] = (), *, seven_pairs: bool = False
) -> int:
    """The shanten of a hand of ``14 - 3k`` or ``13 - 3k`` concealed tiles (a count vector)
    beside ``k`` exposed ``melds`` (their tiles, a kong as four).

    ``-1`` wins, ``0`` is tenpai; seven pairs counts only with ``seven_pairs`` and no melds.

    >>> from engine.tiles import parse_tiles, to_counts
    >>> shanten(to_counts(parse_tiles("1113m")), melds=[(31, 31, 31), (13, 13, 13), (26, 26, 26)])
    0
    >>> shanten(to_counts(parse_tiles("1111m")), melds=[(31, 31, 31), (13, 13, 13), (26, 26, 26)])
    1
    """
    meld_list = [tuple(m) for m in melds]
    k = len(meld_list)
    caps = caps_of(meld_list)
    best = standard_overlap(counts, 4 - k, caps)
    if seven_pairs and k == 0:
        seven = seven_pairs_overlap(counts)
        if seven > best:
            best = seven
    return 13 - 3 * k - best
