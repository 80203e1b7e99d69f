"""The greedy bot's arithmetic: the shanten of a hand, and of every hand one tile away
(after each discard; the 受入 tie-break of tiles that would lower it), read from the suits'
profiles (``engine.shanten.suit_profile``: each suit's vector, and which tiles added or
taken away move which of its entries) instead of computing each hand afresh.

The shanten of the whole hand is ``finish`` of the four suits' vectors combined. Taking a
tile away from suit ``s`` changes only ``s``'s vector: the other three, combined once
(``others``), meet the new vector of ``s``. The profile's masks say which ranks are spare
at the entries where the best is reached (taking one keeps it) and which ranks some best
hand wants one more of (drawing one raises it), so most answers are bit tests.

>>> from engine.tiles import parse_tiles, to_counts
>>> hand = to_counts(parse_tiles("123m456p789s1122z5z"))
>>> e = Evaluation(hand, [], seven_pairs=False)
>>> e.shanten(hand), e.after_discard(hand, [31, 27])  # discarding 5z keeps it tenpai
(0, {31: 0, 27: 1})
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from functools import reduce
from itertools import compress
from operator import add, or_
from typing import Final

from engine.memo import Memo
from engine.shanten import (
    Masks,
    Profile,
    Vector,
    caps_of,
    combine,
    finish,
    seven_pairs_overlap,
    suit_codes,
    suit_profile,
)
from engine.tiles import ALL_TILES, COPIES, HAND_TILES, HONOURS, MELDS, RANKS, SUIT_ENDS, SUIT_STARTS, Tile, suit_of

Vectors = tuple[Vector, Vector, Vector, Vector]
_SUITS: Final = range(len(SUIT_STARTS))
_HONOURS: Final = suit_of(HONOURS)  # the honours' suit: no sequences
_SUIT: Final = tuple(suit_of(t) for t in ALL_TILES)
_READY: Final = HAND_TILES - 1  # shanten = (14 - 3k) - 1 - (the most tiles shared with a winning hand)


def _others(vecs: Vectors) -> Vectors:
    """Per suit, the other three suits' vectors combined (combining is associative and commutative)."""
    v0, v1, v2, v3 = vecs
    low, high = combine(v0, v1), combine(v2, v3)
    return combine(v1, high), combine(v0, high), combine(low, v3), combine(low, v2)


_OTHERS: Final = Memo(_others, limit=20_000)


def _less(key: tuple[Vector, int]) -> Vector:
    """A suit's vector less one tile of a rank held: one less wherever the profile says that
    rank is not spare (``drops``, the entries it lowers, a bit each)."""
    vec, lower = key
    return tuple(x - (lower >> i & 1) for i, x in enumerate(vec))


_LESS: Final = Memo(_less, limit=50_000)


def less(p: Profile, r: int) -> Vector:
    """The vector of a suit with profile ``p`` less one tile of rank ``r`` (held)."""
    return _LESS[p[0], p[4][r]]


class Evaluation:
    """Shanten of one hand and of the hands one tile away, from the suits' profiles
    (``engine.shanten.suit_profile``: each suit's vector, and which tiles added or taken away
    move which of its entries)."""

    __slots__ = ("caps", "codes", "k", "melds_needed", "profiles", "seven", "vecs")

    def __init__(self, hand: Sequence[int], melds: Sequence[Sequence[Tile]], seven_pairs: bool) -> None:
        self.k = len(melds)
        self.melds_needed = MELDS - self.k
        self.caps = caps_of(melds)
        self.codes = codes = suit_codes(hand, self.caps)
        self.profiles = p = (
            suit_profile(codes[0]),
            suit_profile(codes[1]),
            suit_profile(codes[2]),
            suit_profile(codes[3], seq=False),  # the honours
        )
        self.vecs = (p[0][0], p[1][0], p[2][0], p[3][0])
        self.seven = seven_pairs and self.k == 0

    def _others(self) -> Vectors:
        """Per suit, the other three suits' vectors combined."""
        return _OTHERS[self.vecs]

    def shanten(self, hand: Sequence[int]) -> int:
        v = self.vecs
        best = finish(combine(v[0], v[1]), combine(v[2], v[3]), self.melds_needed)
        if self.seven:
            best = max(best, seven_pairs_overlap(hand))
        return _READY - 3 * self.k - best

    def after_discard(self, hand: MutableSequence[int], tiles: Sequence[Tile]) -> dict[Tile, int]:
        """The shanten after discarding each of ``tiles`` (held).

        Per suit, the most the hand shares is ``top``, at some entries; a discard from the
        suit keeps it if the tile is spare at one of them and loses one otherwise."""
        out: dict[Tile, int] = {}
        m = 2 * self.melds_needed + 1
        others = self._others()
        base = _READY - 3 * self.k
        seven = self.seven
        keep: list[tuple[int, int] | None] = [None, None, None, None]
        for t in tiles:
            s = _SUIT[t]
            r = t - SUIT_STARTS[s]
            ks = keep[s]
            if ks is None:
                vec, _, spare, _, _ = self.profiles[s]
                rev = others[s][m::-1]  # finish(a, b) is max(map(add, a, b[m::-1]))
                top = max(map(add, vec, rev))
                if top >= 0:
                    ks = keep[s] = (top, _union(spare, vec, rev, top))
            if ks is not None:
                best = ks[0] if ks[1] >> r & 1 else ks[0] - 1
            else:  # nothing fits (not in play): the vector less the tile, as it is
                best = max(map(add, less(self.profiles[s], r), others[s][m::-1]))
            if seven:
                hand[t] -= 1
                best = max(best, seven_pairs_overlap(hand))
                hand[t] += 1
            out[t] = base - best
        return out

    def _improving(self, x: Tile, target: int, free: tuple[bytes, bytes, bytes, bytes]) -> list[int]:
        """Per suit, the ranks (bits) whose tile, added after discarding ``x``, makes the hand
        share more than ``target`` tiles (as ``useful`` reads it)."""
        m = 2 * self.melds_needed + 1
        v = self.vecs
        s0 = _SUIT[x]
        r0 = x - SUIT_STARTS[s0]
        vx = less(self.profiles[s0], r0)
        out = [0] * len(SUIT_STARTS)
        for s in _SUITS:
            if s == s0:
                mine = bytearray(free[s0])
                mine[r0] -= 1
                p = suit_profile(bytes(mine), s0 != _HONOURS)
                rev = self._others()[s0][m::-1]
            else:
                p = suit_profile(free[s], s != _HONOURS)
                a, b = (v[i] for i in _REST2[s][s0])
                rev = combine(combine(a, b), vx)[m::-1]
            out[s] = _raising(p, rev, target)
        return out

    def useful(self, hand: MutableSequence[int], ties: Sequence[Tile], unseen: Sequence[int], now: int) -> list[int]:
        """受入 after each of the discards ``ties``: the unseen copies of the tiles that would
        lower shanten ``now``.

        A tie-break, so the added tile's own suit is read without the exposed melds' copy
        limits (the other suits keep them): with them, every meld shape would multiply the
        suit patterns the tables must learn, for a rare difference. Discards that leave their
        suit with the same vector share the work on the other suits.
        """
        target = _READY - 3 * self.k - now  # the overlap to beat
        m = 2 * self.melds_needed + 1
        v = self.vecs
        codes = self.codes
        free = suit_codes(hand) if self.caps is not None else codes
        counted = [u if u > 0 else 0 for u in unseen]
        out = []
        if self.seven:
            for x in ties:
                improving = self._improving(x, target, free)
                more = {SUIT_STARTS[s] + r for s in _SUITS for r in range(RANKS) if improving[s] >> r & 1}
                hand[x] -= 1
                for t in ALL_TILES:
                    if hand[t] and hand[t] < COPIES:
                        hand[t] += 1
                        if seven_pairs_overlap(hand) > target:
                            more.add(t)
                        hand[t] -= 1
                hand[x] += 1
                out.append(sum(counted[t] for t in more))
            return out
        profiles = self.profiles
        frees = profiles if free is codes else [suit_profile(free[s], s != _HONOURS) for s in _SUITS]
        rests = [o[m::-1] for o in self._others()]  # finish(a, b) is max(map(add, a, b[m::-1]))
        weights = [counted[first:end] for first, end in zip(SUIT_STARTS, SUIT_ENDS, strict=True)]
        pairs: dict[tuple[int, ...], Vector] = {}
        elsewhere: dict[tuple[int, int], int] = {}
        for x in ties:
            s0 = _SUIT[x]
            r0 = x - SUIT_STARTS[s0]
            p0 = profiles[s0]
            key = (s0, p0[4][r0])  # the entries the discard lowers: they make its suit's vector
            total = elsewhere.get(key)
            if total is None:
                total = 0
                vx = less(p0, r0)
                for s in _REST[s0]:
                    vec, want, _, room, _ = frees[s]
                    ab = _REST2[s][s0]
                    pair = pairs.get(ab)
                    if pair is None:
                        pair = pairs[ab] = combine(v[ab[0]], v[ab[1]])
                    total += _lifting(list(map(add, vec, combine(pair, vx)[m::-1])), want, room, target, weights[s])
                elsewhere[key] = total
            mine = bytearray(free[s0])
            mine[r0] -= 1
            vec, want, _, room, _ = suit_profile(bytes(mine), s0 != _HONOURS)
            out.append(total + _lifting(list(map(add, vec, rests[s0])), want, room, target, weights[s0]))
        return out


def _lifting(sums: list[int], want: Masks, room: int, target: int, weights: list[int]) -> int:
    """The unseen copies of one suit's tiles that, drawn, lift the hand past ``target``: ``sums``
    are the hand's best overlaps through each entry of the suit's profile (``want``, ``room``)."""
    top = max(sums)
    if top > target:  # already past it: any tile with a copy left
        ranks = room
    elif top == target:  # the ranks some best entry wants one more of
        ranks = reduce(or_, compress(want, map(target.__eq__, sums)), 0)
    else:
        return 0
    return sum(compress(weights, _BITS_OF[ranks])) if ranks else 0


_BITS_OF: Final = tuple(tuple(m >> r & 1 for r in range(RANKS)) for m in range(1 << RANKS))
_REST: Final = tuple(tuple(i for i in _SUITS if i != s) for s in _SUITS)
_REST2: Final = tuple(tuple(tuple(i for i in _SUITS if i not in (s, s0)) for s0 in _SUITS) for s in _SUITS)


def _union(masks: Masks, vec: Vector, rev: Vector, top: int) -> int:
    """The union of ``masks`` over the entries where ``vec`` meets the rest (``rev``) at ``top``."""
    return reduce(or_, compress(masks, map(top.__eq__, map(add, vec, rev))), 0)


def _raising(p: Profile, rev: Vector, target: int) -> int:
    """The ranks (bits) of the suit whose tile, added, makes it share more than ``target`` with
    the rest (``rev``): any with a copy left if it already does, else those wanted at an entry
    where it meets ``target``."""
    vec, want, _, room, _ = p
    top = max(map(add, vec, rev))
    if top > target:
        return room
    if top < target:
        return 0
    return _union(want, vec, rev, target)


def shanten_of(hand: Sequence[int], melds: Sequence[Sequence[Tile]], seven_pairs: bool) -> int:
    """The shanten of ``hand`` beside ``melds`` (``engine.shanten.shanten``, through the profiles)."""
    return Evaluation(hand, melds, seven_pairs).shanten(hand)


