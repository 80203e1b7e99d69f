"""The wall as the screen draws it: 4 walls × 17 stacks, each upper/lower tile's state (no Kivy).

The public state gives the break point, the head and tail counts and the kongs; the engine's
own ``WallState`` replays the takes (replacement tiles first, by layer — exposed kongs take
uppers, concealed kongs lowers — then the head), which puts every taken tile where the
engine took it as long as the head and the tail have not met (the reserve keeps them apart).

>>> pub = {"phase": "turn", "dealer": 0, "dice": {"dealer": [4, 6], "owner": [2, 3]}, "rules": {},
...        "wall": {"head_taken": 53, "tail_taken": 0, "kongs": 0, "reserve_stacks": 13, "drawable": 57},
...        "seats": [{"melds": []}] * 4}
>>> w = wall_view(pub)
>>> w.head, w.tail, w.next_head
((1, 16), (1, 15), (3, 8))
>>> sum(1 for c in w.cells.values() if c.reserve)
13
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from engine.wall import LOWER, PER_WALL, STACKS, UPPER, WallState, break_point

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


def _kong_layers(pub: dict[str, Any]) -> tuple[int, int]:
    up = low = 0
    for s in pub.get("seats") or []:
        for m in s.get("melds", []):
            if m.get("kind") == "kong":
                if m.get("kong") == "concealed":
                    low += 1
                else:
                    up += 1
    return up, low


def wall_view(pub: dict[str, Any]) -> WallView:
    direction = (pub.get("rules") or {}).get("wall_direction", "counterclockwise")
    v = WallView(direction=direction)
    for w in range(4):
        for n in range(1, PER_WALL + 1):
            v.cells[(w, n)] = Cell(w, n)
    dice = pub.get("dice") or {}
    wall = pub.get("wall") or {}
    v.reserve_stacks = int(wall.get("reserve_stacks", 13))
    if pub.get("dealer") is None or not dice.get("dealer") or not dice.get("owner"):
        return v
    bp = break_point(int(pub["dealer"]), dice["dealer"], dice["owner"], direction)
    v.broken = True
    v.head, v.tail = bp.stack_at(0), bp.stack_at(STACKS - 1)
    for p in range(STACKS):
        v.cells[bp.stack_at(p)].p = p
    head_taken, tail_taken = int(wall.get("head_taken", 0)), int(wall.get("tail_taken", 0))
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
    v.drawable = wall.get("drawable")
    # the reserve: the tail-most 2R tiles still on the table
    left = 2 * v.reserve_stacks
    for p in range(STACKS - 1, -1, -1):
        if left <= 0:
            break
        here = sum(1 for lay in (UPPER, LOWER) if not ws.taken[2 * p + lay])
        if here:
            v.cells[bp.stack_at(p)].reserve = True
            left -= here
    nxt = next((s for s in range(136) if not ws.taken[s]), None)
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
    return v


def screen_index(stack: int, direction: str) -> int:
    """0..16 along the wall in the screen's counter-clockwise order (bottom left→right, …)."""
    return stack - 1 if direction == "counterclockwise" else PER_WALL - stack
