"""The wall ring, the break point, dealing order and replacement draws (docs/rules.md §5–§7, §9)."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from engine.seats import seat_counting
from engine.wall import (
    DEALT,
    LOWER,
    STACKS,
    TILES,
    UPPER,
    WallState,
    break_point,
    deal_slots,
    next_wall,
    shuffled_wall,
)


def test_counting_seats_counts_the_start_as_one() -> None:
    # docs/rules.md §2: the seat reached counting k from s is (s + k - 1) mod 4
    assert seat_counting(0, 1) == 0
    assert seat_counting(0, 2) == 1
    assert seat_counting(0, 10) == 1  # §6: t1 = 10 -> the dealer's 下家
    assert seat_counting(3, 5) == 3
    assert seat_counting(2, 12) == 1


def test_the_sources_example_breaks_after_stack_15_of_the_xiajia() -> None:
    bp = break_point(0, (4, 6), (2, 3))
    assert (bp.owner, bp.count, bp.wall, bp.stack, bp.overflow) == (1, 15, 1, 15, False)
    assert bp.stack_at(67) == (1, 15)  # the tail: the 15th stack
    assert bp.stack_at(0) == (1, 16)  # the head: the 16th
    assert bp.stack_at(1) == (1, 17)
    assert bp.stack_at(2) == (2, 1)  # on into the 下家's wall
    assert bp.to_json() == {"owner": 1, "count": 15, "wall": 1, "stack": 15}


@pytest.mark.parametrize(
    ("dealer", "t1", "t2", "owner", "wall", "stack"),
    [
        (0, (6, 6), (6, 6), 3, 0, 7),  # 12 from 0 -> seat 3; k = 24 -> 7 into seat 0's wall
        (2, (1, 1), (3, 3), 3, 3, 8),  # 2 from 2 -> seat 3; k = 8
        (1, (5, 4), (4, 4), 1, 1, 17),  # 9 from 1 -> seat 1 itself; k = 17: its last stack
        (1, (5, 4), (4, 5), 1, 2, 1),  # k = 18: the first stack of the next wall
    ],
)
def test_break_point_with_overflow(
    dealer: int, t1: tuple[int, int], t2: tuple[int, int], owner: int, wall: int, stack: int
) -> None:
    bp = break_point(dealer, t1, t2)
    assert (bp.owner, bp.wall, bp.stack) == (owner, wall, stack)
    assert bp.stack_at(67) == (wall, stack)


def test_clockwise_walls_count_into_the_shangjia() -> None:
    assert next_wall(1, "counterclockwise") == 2
    assert next_wall(1, "clockwise") == 0
    bp = break_point(0, (4, 6), (4, 4), "clockwise")  # owner 1, k = 18
    assert (bp.owner, bp.wall, bp.stack) == (1, 0, 1)
    assert bp.stack_at(0) == (0, 2)


def test_every_position_is_a_different_stack() -> None:
    for direction in ("counterclockwise", "clockwise"):
        for t1 in range(2, 13):
            for t2 in range(2, 13):
                bp = break_point(
                    0, (1, t1 - 1) if t1 <= 7 else (6, t1 - 6), (1, t2 - 1) if t2 <= 7 else (6, t2 - 6), direction
                )
                stacks = {bp.stack_at(p) for p in range(STACKS)}
                assert len(stacks) == STACKS
                assert sorted(bp.physical_slot(s) for s in range(TILES)) == list(range(TILES))


def test_break_point_rejects_bad_dice() -> None:
    with pytest.raises(ValueError, match="two dice"):
        break_point(0, (0, 6), (1, 1))
    with pytest.raises(ValueError, match="wall_direction"):
        break_point(0, (1, 6), (1, 1), "sideways")


def test_the_deal_gives_14_and_13_from_53_head_tiles() -> None:
    # docs/rules.md §7: three passes of 4 (two whole stacks), then the dealer takes the upper tiles of
    # the next two stacks (slots 48, 50), the others the lower of the first (49), the lower
    # of the second (51) and the upper of the third (52).
    slots = deal_slots(1)
    assert len(slots) == DEALT
    assert sorted(s for _, s in slots) == list(range(53))
    per_seat = Counter(seat for seat, _ in slots)
    assert per_seat == {1: 14, 2: 13, 3: 13, 0: 13}
    assert slots[:4] == [(1, 0), (1, 1), (1, 2), (1, 3)]  # the dealer takes the first two stacks
    assert slots[4:8] == [(2, 4), (2, 5), (2, 6), (2, 7)]
    assert slots[48:] == [(1, 48), (1, 50), (2, 49), (3, 51), (0, 52)]


def test_head_draws_take_upper_then_lower() -> None:
    w = WallState()
    for _, slot in deal_slots(0):
        w.take(slot)
    assert w.head_taken == 53 and w.remaining == 83
    assert w.head_slot() == 53  # the lower tile of the 27th stack
    assert w.take_head() == 53
    assert w.take_head() == 54  # the 28th stack's upper tile


def test_replacements_exposed_upper_concealed_lower() -> None:
    # docs/rules.md §9: 明杠上面，暗杠下面 -- of the tail-most stack that still has a tile in that layer
    w = WallState()
    assert w.take_tail(LOWER) == 2 * 67 + LOWER  # concealed: the tail stack's lower tile
    assert w.take_tail(UPPER) == 2 * 67 + UPPER  # exposed: its upper tile; the stack is gone
    assert w.take_tail(UPPER) == 2 * 66 + UPPER
    assert w.take_tail(UPPER) == 2 * 65 + UPPER  # stack 66's lower tile is still there
    assert w.take_tail(LOWER) == 2 * 66 + LOWER
    assert w.tail_taken == 5 and w.remaining == 131


def test_head_and_tail_meet_without_taking_a_tile_twice() -> None:
    w = WallState()
    taken = []
    for i in range(TILES):
        taken.append(w.take_head() if i % 3 else w.take_tail(i % 2))
    assert sorted(taken) == list(range(TILES))
    assert w.remaining == 0 and w.head_slot() is None and w.tail_slot(UPPER) is None
    with pytest.raises(ValueError, match="empty"):
        w.take_head()


def test_wall_state_json_round_trip_and_copy() -> None:
    w = WallState()
    for _ in range(7):
        w.take_head()
    w.take_tail(LOWER)
    again = WallState.from_json(w.to_json())
    assert again == w and again.head_slot() == w.head_slot()
    c = w.copy()
    c.take_head()
    assert c != w and w.head_taken == 7


def test_shuffled_walls_are_deterministic_full_sets() -> None:
    a, b = shuffled_wall(42), shuffled_wall(42)
    assert a == b
    assert Counter(a) == {t: 4 for t in range(34)}
    assert shuffled_wall(42, 2) != a  # the next hand has a new wall
    assert shuffled_wall(43) != a
    with pytest.raises(ValueError):
        shuffled_wall(42, 0)


def test_walls_are_pinned() -> None:
    """Every full-tile journal depends on these walls (``random.Random(seed).shuffle`` of the
    per-hand seed): a new Python or a change of the shuffle must not change them. The digest
    is of the walls before issue 19 replaced the written-out shuffle by the stdlib's own."""
    digest = hashlib.sha256()
    for seed in (0, 1, 42, 2026, -7, 10**12):
        for hand in (1, 2, 3, 100, 9999):
            digest.update(bytes(shuffled_wall(seed, hand)))
    assert digest.hexdigest() == "1576cd01dd3c8a18469b6eaf6878cfbaaaac112647b72473188465d721ef5b27"
    assert shuffled_wall(7)[:8] == [10, 20, 10, 28, 31, 11, 21, 5]
