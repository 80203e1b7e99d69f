"""Shanten (向听数): how far a hand is from winning, exactly, for 13- and 14-tile hands.

A winning hand (docs/rules.md §11) is four melds and a pair, exposed melds set aside (and seven
pairs when that option is on). The shanten of a hand with ``k`` exposed melds is

    (14 - 3k) - 1 - (the most tiles it shares with any winning hand)

so ``-1`` is a winning 14-tile hand, ``0`` a 13-tile hand one tile from winning (tenpai),
and in general it is one less than the number of tiles still to draw. "Any winning hand"
means one the set can make: with the hand's own exposed melds, at most four of a tile.
That is what makes this exact where the usual melds/partial-melds count is not: ``1111p``
plus three melds waits on nothing (the fifth 1p does not exist), so it is not tenpai.

One dynamic programme does the work: for each suit's counts (and how many of each tile the
exposed melds leave), its *profile* (:func:`suit_profile`) — the most tiles it can share
with ``j`` melds and ``q`` pairs of that suit, ``j`` 0..4, ``q`` 0..1 (its *vector*), and
which tiles, added or taken away, move which entry — computed rank by rank from the suit's
end, each suffix once (memoised). Shanten combines the four suits' vectors with exactly
``4 - k`` melds and one pair in all; the greedy bot (``engine.bots.evaluation``) reads the
same profiles for the shanten after each discard.

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
from functools import partial
from operator import add
from typing import Final

from engine.memo import Memo, same
from engine.tiles import COPIES, HAND_TILES, HONOURS, MAN, MELDS, NUM_KINDS, PIN, RANKS, SOU

Vector = tuple[int, ...]
"""Ten entries, index ``2 * j + q``: the most tiles shared with ``j`` melds and ``q`` pairs (NEG: impossible)."""
Masks = tuple[int, ...]
Profile = tuple[Vector, Masks, Masks, int, Masks]
"""A suit's vector with, per entry, the ranks (bit ``r``) that some best-sharing hand of that
entry wants one more of than is held (adding the tile raises the entry by one), and the held
ranks that some such hand holds a spare of (taking one away leaves the entry); then the ranks
with a copy left to draw, and per rank the entries (bit ``i``) that taking one away lowers."""

NEG: Final = -1000
_WIDTH: Final = 10
_CAP_SHIFT: Final = 5  # a rank's code is count + 5 * cap (cap = copies the winning hand may hold)
_NO_CAP: Final = bytes((n + _CAP_SHIFT * COPIES) % 256 for n in range(256))  # bytes.translate: count -> code
_NONE_VEC: Final[Vector] = (NEG,) * _WIDTH
_MIRROR: Final = tuple(sum(1 << (RANKS - 1 - r) for r in range(RANKS) if m >> r & 1) for m in range(1 << RANKS))

Entries = bytes
"""A suffix's profile as its possible entries ``(i, most shared, wanted << 1, spare << 1)``,
``i`` rising, packed by ``_ENTRY`` (a tenth of the memory of tuples): the masks shifted for
the rank before, which reads them."""
_ENTRY: Final = struct.Struct("<BBHH")


def _suffix(seq: bool, mkey: bytes) -> Entries:
    """The profile entries of the ranks ``mkey[1:]`` (codes) of a suit (``seq``: with
    sequences) when ``s1`` sequences started one rank before (they need this rank and the
    next) and ``s2`` two before (they need this one), ``mkey[0] == 5 * s1 + s2``.

    At this rank the suit may start ``n`` more sequences, hold a triplet (``t``) and the
    pair; each choice is folded onto the best entries of the rest, keeping per entry the
    union of the wanted and spare ranks of the choices that tie."""
    s1, s2 = divmod(mkey[0], 5)
    key = mkey[1:]
    pending = s1 + s2
    if not key:
        return _ENTRY.pack(0, 0, 0, 0) if pending == 0 else b""
    code = key[0]
    have, cap = code % _CAP_SHIFT, code // _CAP_SHIFT
    if pending > cap or (len(key) < 2 and s1):
        return b""
    rest = key[1:]
    out = [-1] * _WIDTH
    want = [0] * _WIDTH
    spare = [0] * _WIDTH
    starts = MELDS - pending if seq and len(key) >= 3 else 0
    for n in range(starts + 1):
        if pending + n > cap:  # no room at this rank for more sequences
            break
        entries = _SUFFIXES[seq][bytes((5 * n + s1,)) + rest]
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
    return b"".join([pack(k, x, want[k] << 1, spare[k] << 1) for k, x in enumerate(out) if x >= 0])


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


def _profile(seq: bool, codes: bytes) -> Profile:
    room = sum(1 << r for r, code in enumerate(codes) if code % _CAP_SHIFT < code // _CAP_SHIFT)
    mirror = _PROFILES[seq].get(codes[::-1]) if seq else None  # a suit read backwards: the ranks mirrored
    if mirror is not None:
        vec, want, spare = mirror[0], tuple(_MIRROR[m] for m in mirror[1]), tuple(_MIRROR[m] for m in mirror[2])
    else:
        vec_l, want_l, spare_l = list(_NONE_VEC), [0] * _WIDTH, [0] * _WIDTH
        for k, x, w, s in _ENTRY.iter_unpack(_SUFFIXES[seq][b"\0" + codes]):
            vec_l[k], want_l[k], spare_l[k] = x, w >> 1, s >> 1
        vec, want, spare = tuple(vec_l), tuple(want_l), tuple(spare_l)
    drops = tuple(
        sum(1 << i for i, x in enumerate(vec) if x >= 0 and not spare[i] >> r & 1) if code % _CAP_SHIFT else 0
        for r, code in enumerate(codes)
    )
    return _VECTORS[vec], _SHARED[want], _SHARED[spare], room, _SHARED[drops]


# The memos (``engine.memo``): bounded so that a long run on a Raspberry Pi stays in tens of MB.
_SUFFIXES: Final[dict[bool, Memo[bytes, Entries]]] = {
    seq: Memo(partial(_suffix, seq), limit=300_000) for seq in (False, True)
}
_PROFILES: Final[dict[bool, Memo[bytes, Profile]]] = {
    seq: Memo(partial(_profile, seq), limit=100_000) for seq in (False, True)
}
_VECTORS: Final[Memo[Vector, Vector]] = Memo(same, limit=100_000)  # a few thousand distinct vectors: shared
_SHARED: Final[Memo[Masks, Masks]] = Memo(same, limit=100_000)  # the mask tuples, shared likewise


def suit_profile(codes: bytes, seq: bool = True) -> Profile:
    """The :data:`Profile` of one suit given as codes (``count + 5 * cap`` per rank;
    ``seq``: a suit with sequences, not the honours): its vector, and what one tile more or
    less does to it — for a rank ``r`` held, the vector less that tile is the vector less one
    wherever ``r`` is not spare; for a rank with a copy left, the vector plus one where it
    is wanted. A suit read backwards is looked up as its mirror.

    >>> vec, want, spare, room, drops = suit_profile(bytes([21, 20, 21, 20, 20, 20, 20, 20, 21]))  # 139m
    >>> vec[2], bin(want[2]), bin(spare[2])  # one meld: 123m wants 2m, and 9m is spare
    (2, '0b10', '0b100000000')
    """
    return _PROFILES[seq][codes]


def suit_vector(codes: bytes, seq: bool = True) -> Vector:
    """The best-overlap vector of one suit given as codes: its profile's vector."""
    return _PROFILES[seq][codes][0]


def _combine(key: tuple[Vector, Vector]) -> Vector:
    a, b = key
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
    return tuple(out)


_COMBINED: Final = Memo(_combine, limit=50_000)


def combine(a: Vector, b: Vector) -> Vector:
    """Two suits' vectors as one (max-plus: the melds and pairs of both add up)."""
    return _COMBINED[a, b]


def finish(a: Vector, b: Vector, melds_needed: int) -> int:
    """The most tiles shared with a winning hand: ``melds_needed`` melds and one pair from the
    two (combined) halves ``a`` and ``b`` (negative: impossible)."""
    best: int = max(map(add, a, b[2 * melds_needed + 1 :: -1]))
    return best


def suit_codes(counts: Sequence[int], caps: Sequence[int] | None = None) -> tuple[bytes, bytes, bytes, bytes]:
    """The four suits' codes of a 34-long count vector; ``caps`` the copies of each tile the
    winning hand may hold (4 less the exposed melds' copies), default 4 everywhere."""
    if caps is None:
        b = bytes(counts).translate(_NO_CAP)
    else:
        if len(counts) != len(caps):
            raise ValueError("counts and caps differ in length")
        b = bytes(map(add, counts, map(_CAP_SHIFT.__mul__, caps)))
    return b[MAN:PIN], b[PIN:SOU], b[SOU:HONOURS], b[HONOURS:]


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


def standard_overlap(counts: Sequence[int], melds_needed: int = MELDS, caps: Sequence[int] | None = None) -> int:
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
    best = standard_overlap(counts, MELDS - k, caps)
    if seven_pairs and k == 0:
        seven = seven_pairs_overlap(counts)
        if seven > best:
            best = seven
    return HAND_TILES - 3 * k - 1 - best
