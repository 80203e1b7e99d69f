"""engine.shanten against a deliberately simple reference over one-suit hands (a seeded sample of
each size in every run, every hand in the soak run: ``-m soak``),
and hypothesis properties tying it to engine.hand (win ⇔ -1, tenpai ⇔ 0, one tile moves it ≤ 1).

The reference works from the definition: the shanten of a hand with k exposed melds is
``13 - 3k - (the most tiles it shares with a winning hand)``. For a hand of one suit, the
winning hand's part in that suit is some j ≤ 4 - k melds and at most one pair of that suit
(at most four of a tile); the rest of it lies in other suits, which the hand does not touch.
So the reference lists every such part, takes every sub-multiset of them (the tiles a hand
can share with one), and finds the largest one inside the hand by plain recursion.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations_with_replacement, product

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.hand import is_winning_hand, winning_tiles
from engine.shanten import seven_pairs_overlap, shanten
from engine.tiles import parse_tiles, to_counts

# --- the reference ----------------------------------------------------------------------


def _winning_parts(width: int, sequences: bool, max_melds: int) -> set[tuple[int, ...]]:
    """Every one-suit part of a winning hand: up to ``max_melds`` melds and at most one pair."""
    shapes = []
    for r in range(width):
        shapes.append(tuple(3 if i == r else 0 for i in range(width)))
        if sequences and r + 2 < width:
            shapes.append(tuple(1 if r <= i <= r + 2 else 0 for i in range(width)))
    parts = set()
    for j in range(max_melds + 1):
        for combo in combinations_with_replacement(shapes, j):
            base = tuple(sum(col) for col in zip(*combo, strict=True)) if combo else (0,) * width
            if max(base) > 4:
                continue
            parts.add(base)
            for r in range(width):
                if base[r] <= 2:
                    parts.add(tuple(n + 2 if i == r else n for i, n in enumerate(base)))
    return parts


def _shareable(parts: set[tuple[int, ...]]) -> frozenset[tuple[int, ...]]:
    """Every sub-multiset of some part."""
    seen = set(parts)
    todo = list(parts)
    while todo:
        v = todo.pop()
        for r, n in enumerate(v):
            if n:
                w = (*v[:r], n - 1, *v[r + 1 :])
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
    return frozenset(seen)


@cache
def _reference(width: int, sequences: bool, melds: int):
    shareable = _shareable(_winning_parts(width, sequences, 4 - melds))

    @cache
    def most_shared(hand: tuple[int, ...]) -> int:
        if hand in shareable:
            return sum(hand)
        return max(most_shared((*hand[:r], n - 1, *hand[r + 1 :])) for r, n in enumerate(hand) if n)

    return most_shared


def reference_shanten(suit_counts: tuple[int, ...], sequences: bool = True, melds: int = 0) -> int:
    return 13 - 3 * melds - _reference(len(suit_counts), sequences, melds)(suit_counts)


def _as_counts(suit_counts: tuple[int, ...], first: int) -> list[int]:
    counts = [0] * 34
    counts[first : first + len(suit_counts)] = suit_counts
    return counts


def _one_suit_hands(width: int, size: int):
    for v in product(range(5), repeat=width):
        if sum(v) == size:
            yield v


# Exposed melds somewhere in another suit (they take no copies from this one).
_OTHER_MELDS = [(27, 27, 27), (28, 28, 28), (29, 29, 29), (30, 30, 30)]


SAMPLE = 4_000  # one-suit hands per size checked in every run (the whole sweep is the soak run's)


def _check_against_the_reference(melds: int, sample: int | None) -> int:
    """Check ``shanten`` on one-suit hands of every size a hand with ``melds`` exposed melds
    has, against the reference: all of them (``sample`` None) or a seeded sample of each size."""
    exposed = [(31, 31, 31), (32, 32, 32), (33, 33, 33)][:melds]  # honours: another suit
    checked = 0
    for size in (13 - 3 * melds, 14 - 3 * melds):
        hands = list(_one_suit_hands(9, size))
        if sample is not None and sample < len(hands):
            hands = random.Random(f"{melds}/{size}").sample(hands, sample)
        for v in hands:
            want = reference_shanten(v, melds=melds)
            got = shanten(_as_counts(v, 9), exposed)  # in the dots suit
            assert got == want, (v, melds, got, want)
            checked += 1
    return checked


@pytest.mark.parametrize("melds", [0, 1, 2])
def test_a_sample_of_one_suit_hands_matches_the_reference(melds: int) -> None:
    assert _check_against_the_reference(melds, SAMPLE) == 2 * SAMPLE


@pytest.mark.soak
@pytest.mark.parametrize("melds", [0, 1, 2])
def test_every_one_suit_hand_matches_the_reference(melds: int) -> None:
    checked = _check_against_the_reference(melds, None)
    assert checked == (93_600 + 118_800 if melds == 0 else checked) and checked > 1000


def test_every_honour_hand_matches_the_reference() -> None:
    for size in (13, 14):
        for v in _one_suit_hands(7, size):
            assert shanten(_as_counts(v, 27)) == reference_shanten(v, sequences=False), v


def test_the_reference_itself_on_known_hands() -> None:
    assert reference_shanten((3, 1, 1, 1, 1, 1, 1, 1, 3)) == 0  # nine gates
    assert reference_shanten((4, 1, 1, 1, 1, 1, 1, 1, 3)) == -1
    assert reference_shanten((4, 4, 4, 1, 0, 0, 0, 0, 0)) == 0  # 111122223333+4: waits on 1, 4
    assert reference_shanten((4, 0, 0, 0, 0, 0, 0, 0, 0), melds=3) == 1  # 1111: no fifth copy


# --- known hands across suits and with exposed melds ----------------------------------------


def _s(text: str, melds: list[str] = (), **kw: bool) -> int:  # type: ignore[assignment]
    return shanten(to_counts(parse_tiles(text)), [parse_tiles(m) for m in melds], **kw)


@pytest.mark.parametrize(
    ("hand", "melds", "expected"),
    [
        ("123m456p789s11122z", [], -1),
        ("123m456p789s1112z", [], 0),
        ("123m456p789s1234z", [], 2),  # four lone honours: a pair and a meld to make, 3 tiles
        ("19m19p19s1234567z", [], 8),
        ("147m258p369s1234z", [], 8),  # nothing connects: one tile shared per group
        ("1111m", ["555z", "666z", "777z"], 1),  # 1111m waits on nothing
        ("1112m", ["555z", "666z", "777z"], 0),
        ("12m", ["555z", "666z", "777z", "888p"], 0),  # 14 tiles: one swap makes the pair
        ("55m", ["555z", "666z", "777z", "888p"], -1),
        ("5m", ["555z", "666z", "777z", "888p"], 0),
        ("5m", ["555m", "666z", "777z", "888p"], 1),  # the pong holds three 5m: one left, no pair
        ("46m77z", ["5555m", "111p", "999p"], 1),  # 46m waits on 5m, all four in the kong
        ("46m77z", ["5555s", "111p", "999p"], 0),
        ("1133557799m1144z", [], 3),  # seven pairs not allowed: read as melds and a pair
    ],
)
def test_known_hands(hand: str, melds: list[str], expected: int) -> None:
    assert _s(hand, melds) == expected


def test_seven_pairs_only_when_the_option_is_on() -> None:
    assert _s("1133557799m1144z", seven_pairs=True) == -1
    assert _s("113355779m11447z", seven_pairs=True) == 0
    assert _s("1111335577m1144z", seven_pairs=True) == -1  # four alike = two pairs (the rule option seven_pairs)
    assert _s("1133557799m1144z") == 3
    assert seven_pairs_overlap(to_counts(parse_tiles("1112223334445m"))) == 11  # 1111 2222 33 44 55


# --- properties ----------------------------------------------------------------------------


@st.composite
def hands(draw: st.DrawFn, size: int) -> tuple[list[int], list[tuple[int, ...]]]:
    """A hand of ``size - 3k`` concealed tiles and k exposed melds, at most 4 of a tile in all."""
    k = draw(st.integers(0, 4))
    pool = [t for t in range(34) for _ in range(4)]
    melds: list[tuple[int, ...]] = []
    counts = [0] * 34
    for _ in range(k):
        kind = draw(st.sampled_from(["pong", "chow", "kong"]))
        t = draw(st.integers(0, 33))
        m = (t, t + 1, t + 2) if kind == "chow" and t < 27 and t % 9 <= 6 else (t,) * (4 if kind == "kong" else 3)
        if any(counts[x] + m.count(x) > 4 for x in set(m)):
            continue
        for x in m:
            counts[x] += 1
        melds.append(m)
    pool = [t for t in range(34) for _ in range(4 - counts[t])]
    n = size - 3 * len(melds)
    # bias toward connected hands, where the interesting cases are
    base = draw(st.integers(0, 33))
    near = [t for t in pool if abs(t - base) <= 8 or draw(st.booleans())] if draw(st.booleans()) else pool
    tiles = draw(st.lists(st.sampled_from(sorted(set(near))), min_size=n, max_size=n))
    hand = [0] * 34
    for t in tiles:
        hand[t] += 1
    assume(all(hand[t] + counts[t] <= 4 for t in range(34)))
    return hand, melds


@settings(max_examples=400, deadline=None)
@given(hands(14), st.booleans())
def test_minus_one_exactly_when_winning(h: tuple[list[int], list[tuple[int, ...]]], seven: bool) -> None:
    counts, melds = h
    assert (shanten(counts, melds, seven_pairs=seven) == -1) == is_winning_hand(counts, melds, seven_pairs=seven)


@settings(max_examples=400, deadline=None)
@given(hands(13), st.booleans())
def test_zero_exactly_when_waiting(h: tuple[list[int], list[tuple[int, ...]]], seven: bool) -> None:
    counts, melds = h
    s = shanten(counts, melds, seven_pairs=seven)
    assert s >= 0
    assert (s == 0) == bool(winning_tiles(counts, melds, seven_pairs=seven))


@settings(max_examples=300, deadline=None)
@given(hands(13), st.data())
def test_one_tile_changes_shanten_by_at_most_one(
    h: tuple[list[int], list[tuple[int, ...]]], data: st.DataObject
) -> None:
    counts, melds = h
    s13 = shanten(counts, melds)
    held = [t for t in range(34) if counts[t]]
    out = data.draw(st.sampled_from(held))
    room = [t for t in range(34) if counts[t] + sum(m.count(t) for m in melds) < 4 and t != out]
    new = data.draw(st.sampled_from(room))
    swapped = list(counts)
    swapped[out] -= 1
    swapped[new] += 1
    assert abs(shanten(swapped, melds) - s13) <= 1
    # drawing a tile never raises it, and some discard from 14 gets back to at most the 13's
    drawn = list(counts)
    drawn[new] += 1
    s14 = shanten(drawn, melds)
    assert s14 in (s13, s13 - 1)
    best = min(shanten([n - (t == x) for t, n in enumerate(drawn)], melds) for x in range(34) if drawn[x])
    assert best == s14 if s14 >= 0 else best == 0


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.integers(0, 4), min_size=9, max_size=9),
    st.lists(st.integers(0, 4), min_size=9, max_size=9),
    st.booleans(),
)
def test_a_profile_tells_what_one_tile_more_or_less_does(counts: list[int], caps: list[int], honours: bool) -> None:
    """suit_profile's masks against suit_vector of the suit with one tile added or taken away
    (exposed-meld caps included), and the mirrored suit's profile against the mirror."""
    from engine.shanten import suit_profile, suit_vector

    width, seq = (7, False) if honours else (9, True)
    caps = caps[:width]
    counts = [min(n, c) for n, c in zip(counts, caps, strict=False)]
    assume(sum(counts) <= 14)
    codes = bytes(n + 5 * c for n, c in zip(counts, caps, strict=True))
    vec, want, spare, room, drops = suit_profile(codes, seq)
    assert vec == suit_vector(codes, seq)
    for r in range(width):
        if counts[r]:
            less = bytearray(codes)
            less[r] -= 1
            expect = suit_vector(bytes(less), seq)
            assert expect == tuple(x if x < 0 or spare[i] >> r & 1 else x - 1 for i, x in enumerate(vec))
            assert expect == tuple(x - (drops[r] >> i & 1) for i, x in enumerate(vec))
        assert bool(room >> r & 1) == (counts[r] < caps[r])
        if counts[r] < caps[r]:
            more = bytearray(codes)
            more[r] += 1
            expect = suit_vector(bytes(more), seq)
            assert expect == tuple(x + 1 if x >= 0 and want[i] >> r & 1 else x for i, x in enumerate(vec))
    if seq:
        mirrored = suit_profile(codes[::-1], seq)  # found through the mirror of the one above
        assert mirrored[0] == vec
        assert mirrored[1] == tuple(sum(1 << (8 - r) for r in range(9) if m >> r & 1) for m in want)
