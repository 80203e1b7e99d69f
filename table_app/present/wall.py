"""The wall as the screen draws it: 4 walls × 17 stacks, each upper/lower tile's state (no Kivy).

The public state gives the break point, the head and tail counts and the kongs; the engine's
own ``WallState`` replays the takes (replacement tiles first, by layer — exposed kongs take
uppers, concealed kongs lowers — then the head), which puts every taken tile where the
engine took it as long as the head and the tail have not met (the reserve keeps them apart).

>>> from engine.table import replay
>>> from engine.public import public_state
>>> pub = public_state(replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
...     {"type": "seating", "method": "C", "east": 0}, {"type": "roll", "dice": [4, 6]},
...     {"type": "roll", "dice": [2, 3]}]))
>>> w = wall_view(pub)
>>> w.head, w.tail, w.next_head
((1, 16), (1, 15), (3, 8))
>>> sum(1 for c in w.cells.values() if c.reserve)
13
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from engine.public import PublicState
from engine.wall import LOWER, PER_WALL, REPLACEMENT_LAYER, STACKS, UPPER, BreakPoint, WallState, break_point

PRESENT: Final = "in"
HEAD: Final = "head"  # taken from the head (dealt or drawn)
TAIL: Final = "tail"  # taken as a kong replacement


@dataclass
class Cell:
    """One stack: ``upper``/``lower`` are PRESENT, HEAD or TAIL; ``p`` its draw position (0 = head)."""

    wall: int
    stack: int
    p: int | None = None
    upper: str = PRESENT
    lower: str = PRESENT
    reserve: bool = False


@dataclass
class WallView:
    cells: dict[tuple[int, int], Cell] = field(default_factory=dict)
    broken: bool = False
    head: tuple[int, int] | None = None  # the first stack of the draw (after the break)
    tail: tuple[int, int] | None = None  # the k-th stack, 最后一墩
    next_head: tuple[int, int] | None = None  # where the next head draw comes from
    next_upper: tuple[int, int] | None = None  # the next exposed-kong replacement (上)
    next_lower: tuple[int, int] | None = None  # the next concealed-kong replacement (下)
    direction: str = "counterclockwise"
    remaining: int = 136
    drawable: int | None = None
    reserve_stacks: int = 13


def _kong_layers(pub: PublicState) -> tuple[int, int]:
    """How many replacement tiles came from each layer: the kongs on the table, each from the
    layer the engine takes its replacement from (``REPLACEMENT_LAYER``)."""
    taken = [0, 0]
    for s in pub["seats"] or []:
        for m in s["melds"]:
            if m["kind"] == "kong":
                taken[REPLACEMENT_LAYER[m.get("kong", "exposed")]] += 1
    return taken[UPPER], taken[LOWER]


def wall_view(pub: PublicState) -> WallView:
    direction = pub["rules"].get("wall_direction", "counterclockwise")
    v = WallView(direction=str(direction))
    for w in range(4):
        for n in range(1, PER_WALL + 1):
            v.cells[(w, n)] = Cell(w, n)
    dice, wall, dealer = pub["dice"], pub["wall"], pub["dealer"]
    v.reserve_stacks = wall["reserve_stacks"]
    if dealer is None or not dice["dealer"] or not dice["owner"]:
        return v
    bp = break_point(dealer, dice["dealer"], dice["owner"], v.direction)
    v.broken = True
    v.head, v.tail = bp.stack_at(0), bp.stack_at(STACKS - 1)
    for p in range(STACKS):
        v.cells[bp.stack_at(p)].p = p
    head_taken, tail_taken = wall["head_taken"], wall["tail_taken"]
    up, low = _kong_layers(pub)
    if up + low != tail_taken:  # a kong still waiting to be robbed, or an unusual table: trust the count
        low = min(low, tail_taken)
        up = tail_taken - low
    ws = WallState()
    taken_by: dict[int, str] = {}
    for layer, n in ((UPPER, up), (LOWER, low)):
        for _ in range(n):
            taken_by[ws.take_tail(layer)] = TAIL
    for _ in range(min(head_taken, ws.remaining)):
        taken_by[ws.take_head()] = HEAD
    for slot, how in taken_by.items():
        cell = v.cells[bp.stack_at(slot // 2)]
        if slot % 2 == UPPER:
            cell.upper = how
        else:
            cell.lower = how
    v.remaining = ws.remaining
    v.drawable = wall["drawable"]
    _mark_reserve(v, ws, bp)
    _mark_next(v, ws, bp)
    return v


def _mark_reserve(v: WallView, ws: WallState, bp: BreakPoint) -> None:
    """The reserve: the tail-most 2R tiles still on the table."""
    left = 2 * v.reserve_stacks
    for p in range(STACKS - 1, -1, -1):
        if left <= 0:
            break
        here = sum(1 for lay in (UPPER, LOWER) if not ws.taken[2 * p + lay])
        if here:
            v.cells[bp.stack_at(p)].reserve = True
            left -= here


def _mark_next(v: WallView, ws: WallState, bp: BreakPoint) -> None:
    """Where the next head draw and the next replacement of each layer come from."""
    nxt = ws.head_slot()
    if nxt is not None:
        v.next_head = bp.stack_at(nxt // 2)
    for layer in (UPPER, LOWER):
        next_slot = ws.tail_slot(layer)
        if next_slot is not None:
            pos = bp.stack_at(next_slot // 2)
            if layer == UPPER:
                v.next_upper = pos
            else:
                v.next_lower = pos


def screen_index(stack: int, direction: str) -> int:
    """0..16 along the wall in the screen's counter-clockwise order (bottom left→right, …)."""
    return stack - 1 if direction == "counterclockwise" else PER_WALL - stack
