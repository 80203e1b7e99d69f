"""The wall drawing's model: which tile of which stack is gone, the reserve, head and tail."""

from __future__ import annotations

from engine import replay
from engine.public import public_state
from table_app.present.wall import HEAD, PRESENT, TAIL, screen_index, wall_view

DEAL = [
    {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
    {"type": "seating", "method": "C", "east": 0},
    {"type": "roll", "dice": [4, 6]},
    {"type": "roll", "dice": [2, 3]},
]


def test_before_the_break_the_wall_is_whole() -> None:
    v = wall_view(public_state(replay(DEAL[:2])))
    assert not v.broken and len(v.cells) == 68 and v.head is None
    assert all(c.upper == c.lower == PRESENT for c in v.cells.values())


def test_after_the_deal_53_tiles_left_the_head() -> None:
    v = wall_view(public_state(replay(DEAL)))
    assert v.broken and v.tail == (1, 15) and v.head == (1, 16)
    gone = [(c.wall, c.stack, c.upper, c.lower) for c in v.cells.values() if c.upper != PRESENT or c.lower != PRESENT]
    assert sum((u == HEAD) + (lo == HEAD) for *_, u, lo in gone) == 53
    assert v.cells[(3, 8)].upper == HEAD and v.cells[(3, 8)].lower == PRESENT and v.next_head == (3, 8)
    reserve = sorted(c.p for c in v.cells.values() if c.reserve)
    assert reserve == list(range(55, 68)) and v.remaining == 83


def test_kong_replacements_take_upper_for_exposed_and_lower_for_concealed() -> None:
    s = replay([*DEAL, {"type": "kong", "seat": 0, "kind": "concealed"}])
    v = wall_view(public_state(s))
    assert v.cells[(1, 15)].lower == TAIL and v.cells[(1, 15)].upper == PRESENT
    assert v.next_lower == (1, 14) and v.next_upper == (1, 15)
    # R(1) = 7 stacks: 14 tiles from the tail end, the tail's upper counting as one
    assert sum(c.reserve for c in v.cells.values()) == 8
    s = replay([{"type": "discard", "seat": 0}, {"type": "claim", "seat": 2, "call": "kong"},
                {"type": "pass", "seat": 1}, {"type": "pass", "seat": 3}], s)
    v = wall_view(public_state(s))
    assert v.cells[(1, 15)].upper == TAIL and v.cells[(1, 15)].lower == TAIL


def test_screen_order_follows_the_counting_direction() -> None:
    assert [screen_index(n, "counterclockwise") for n in (1, 17)] == [0, 16]
    assert [screen_index(n, "clockwise") for n in (1, 17)] == [16, 0]
