"""The wall (docs/rules.md §5–§10): a ring of 68 two-tile stacks, the break point, head and tail.

Geometry. Each seat ``w`` builds 17 stacks numbered 1..17 in the counting direction
(``wall_direction``): counter-clockwise, counting runs toward the owner's 下家 and goes on
into the 下家's wall; clockwise is the mirror image (on into the 上家's wall).

Draw order. Once the wall is broken, stack positions ``p = 0..67`` run in the counting
direction from the **head** (the stack after the k-th, ``p = 0``) to the **tail** (the k-th,
``p = 67``). A *slot* is ``2 * p + layer`` with ``UPPER = 0`` and ``LOWER = 1``. The head
takes the upper tile of the head-most stack, then its lower tile; replacement draws take the
upper (exposed kongs) or lower (concealed kongs) tile of the tail-most stack that still has
one in that layer (§9).

The source's example (docs/rules.md §6): the dealer (seat 0) rolls 10, the owner rolls 5.

>>> bp = break_point(0, (4, 6), (2, 3))
>>> bp.owner, bp.count, bp.wall, bp.stack          # tail: seat 1's 15th stack
(1, 15, 1, 15)
>>> bp.stack_at(0), bp.stack_at(67)                # head: its 16th stack
((1, 16), (1, 15))
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Final, get_args

from engine.memo import Memo
from engine.rules import WallDirection
from engine.seats import SEATS, seat_counting
from engine.tiles import COPIES, NUM_KINDS, Tile

PER_WALL: Final = 17
STACKS: Final = SEATS * PER_WALL
TILES: Final = 2 * STACKS
UPPER: Final = 0
LOWER: Final = 1
REPLACEMENT_LAYER: Final[dict[str, int]] = {"concealed": LOWER, "exposed": UPPER, "added": UPPER}
"""The layer a kong's replacement tile comes from (docs/rules.md §9: 明杠上面，暗杠下面)."""
DEALT: Final = 53
DIRECTIONS: Final[tuple[WallDirection, ...]] = get_args(WallDirection)

def next_wall(wall: int, direction: str = "counterclockwise") -> int:
    """The wall the count runs on into after ``wall``'s 17th stack."""
    return (wall + 1) % SEATS if direction == "counterclockwise" else (wall - 1) % SEATS


def _stack_at(owner: int, count: int, direction: str, p: int) -> tuple[int, int]:
    r = (count + p) % STACKS  # ring index from the owner's stack 1
    wall = owner
    for _ in range(r // PER_WALL):
        wall = next_wall(wall, direction)
    return wall, r % PER_WALL + 1


def _draw_order(key: tuple[int, int, str]) -> Callable[[Sequence[Tile]], tuple[Tile, ...]]:
    """For a wall broken at ``(owner, count, direction)``: a wall's tiles in physical order ->
    the same tiles by draw slot (an ``itemgetter`` of each slot's physical index)."""
    physical = []
    for slot in range(TILES):
        wall, stack = _stack_at(*key, slot // 2)
        physical.append(2 * (wall * PER_WALL + stack - 1) + slot % 2)
    return itemgetter(*physical)


_DRAW_ORDERS: Final = Memo(_draw_order, limit=SEATS * 21 * len(DIRECTIONS))  # k = 4..24: every one fits


@dataclass(frozen=True)
class BreakPoint:
    """Where the wall is broken: the owner, k = t1 + t2, and the tail stack (wall, stack 1..17)."""

    dealer: int
    dealer_roll: tuple[int, int]
    owner_roll: tuple[int, int]
    direction: str = "counterclockwise"

    @property
    def t1(self) -> int:
        return sum(self.dealer_roll)

    @property
    def owner(self) -> int:
        return seat_counting(self.dealer, self.t1)

    @property
    def count(self) -> int:
        return self.t1 + sum(self.owner_roll)

    @property
    def wall(self) -> int:
        """The wall holding the tail stack (the owner's, or the next when k > 17)."""
        return self.owner if self.count <= PER_WALL else next_wall(self.owner, self.direction)

    @property
    def stack(self) -> int:
        """The tail stack's number in its wall, 1..17."""
        return self.count if self.count <= PER_WALL else self.count - PER_WALL

    @property
    def overflow(self) -> bool:
        return self.count > PER_WALL

    def stack_at(self, p: int) -> tuple[int, int]:
        """(wall, stack number) of draw position ``p`` (0 = head, 67 = tail)."""
        return _stack_at(self.owner, self.count, self.direction, p)

    def physical_slot(self, slot: int) -> int:
        """Index into a wall built in physical order (``2 * (wall * 17 + stack - 1) + layer``)."""
        wall, stack = self.stack_at(slot // 2)
        return 2 * (wall * PER_WALL + stack - 1) + slot % 2

    def in_draw_order(self, wall: Sequence[Tile]) -> tuple[Tile, ...]:
        """A wall's tiles in physical order -> the same tiles in draw order (by slot)."""
        return _DRAW_ORDERS[self.owner, self.count, self.direction](wall)

    def to_json(self) -> dict[str, int]:
        return {"owner": self.owner, "count": self.count, "wall": self.wall, "stack": self.stack}


def break_point(
    dealer: int, dealer_roll: Sequence[int], owner_roll: Sequence[int], direction: str = "counterclockwise"
) -> BreakPoint:
    """The break point from the dealer's roll and the wall owner's roll (docs/rules.md §6)."""
    if direction not in DIRECTIONS:
        raise ValueError(f"wall_direction must be one of {', '.join(DIRECTIONS)}, got {direction!r}")
    if not 0 <= dealer < SEATS:
        raise ValueError(f"the dealer must be a seat 0..3, got {dealer!r}")
    for roll in (dealer_roll, owner_roll):
        if len(roll) != 2 or any(type(d) is not int or not 1 <= d <= 6 for d in roll):
            raise ValueError(f"a roll is two dice 1..6, got {roll!r}")
    return BreakPoint(dealer, (dealer_roll[0], dealer_roll[1]), (owner_roll[0], owner_roll[1]), direction)


def deal_slots(dealer: int) -> list[tuple[int, int]]:
    """(seat, slot) in dealing order (docs/rules.md §7): 53 tiles from the head.

    >>> [s for s, _ in deal_slots(2)[-5:]], [slot for _, slot in deal_slots(2)[-5:]]
    ([2, 2, 3, 0, 1], [48, 50, 49, 51, 52])
    """
    out: list[tuple[int, int]] = []
    slot = 0
    for _ in range(3):
        for i in range(SEATS):
            seat = (dealer + i) % SEATS
            out.extend((seat, slot + j) for j in range(4))  # two whole stacks
            slot += 4
    # then the dealer takes the upper tiles of the next two stacks (p = 24, 25), the others
    # take the lower of the first, the lower of the second and the upper of the third
    out += [(dealer, 48), (dealer, 50), ((dealer + 1) % SEATS, 49), ((dealer + 2) % SEATS, 51),
            ((dealer + 3) % SEATS, 52)]
    return out


def shuffled_wall(seed: int, hand: int = 1) -> list[Tile]:
    """The full-tile wall of hand ``hand`` (1-based) of a session with ``wall_seed`` ``seed``,
    in physical order (index ``2 * (wall * 17 + stack - 1) + layer``).

    Each hand has its own generator, seeded from the session's seed and the hand number
    (a string seed, which Python hashes with SHA-512: the same in every process), so dealing
    hand n costs one shuffle however long the session; the engine takes no other randomness.

    >>> len(shuffled_wall(7)), sorted(shuffled_wall(7)) == sorted(shuffled_wall(7, 2))
    (136, True)
    """
    if type(seed) is not int or type(hand) is not int or hand < 1:
        raise ValueError(f"a wall needs a whole-number seed and hand >= 1, got {seed!r}, {hand!r}")
    tiles = list(_NEW_WALL)
    random.Random(f"xian-table wall {seed} {hand}").shuffle(tiles)
    return tiles


_NEW_WALL: Final = tuple(t for t in range(NUM_KINDS) for _ in range(COPIES))


class WallState:
    """Which slots (draw order) have been taken, and the head/tail counters; in full-tile mode
    also ``tiles``, the wall's tiles by slot, laid out once when the wall is dealt.

    >>> w = WallState()
    >>> [w.take_head() for _ in range(3)], w.take_tail(LOWER), w.take_tail(UPPER), w.take_tail(LOWER)
    ([0, 1, 2], 135, 134, 133)
    >>> w.remaining, w.head_taken, w.tail_taken
    (130, 3, 3)
    """

    __slots__ = ("_head", "head_taken", "tail_taken", "taken", "tiles")

    def __init__(self, tiles: tuple[Tile, ...] | None = None) -> None:
        self.taken = bytearray(TILES)
        self.head_taken = 0
        self.tail_taken = 0
        self._head = 0
        self.tiles = tiles  # never changed in place: copies share it

    def copy(self) -> WallState:
        w = WallState.__new__(WallState)
        w.taken = bytearray(self.taken)
        w.head_taken, w.tail_taken, w._head, w.tiles = self.head_taken, self.tail_taken, self._head, self.tiles
        return w

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, WallState)
            and self.taken == other.taken
            and self.head_taken == other.head_taken
            and self.tail_taken == other.tail_taken
        )

    __hash__ = None  # type: ignore[assignment]

    @property
    def remaining(self) -> int:
        return TILES - self.head_taken - self.tail_taken

    def take(self, slot: int) -> None:
        """Take one given slot from the head side (the deal)."""
        if self.taken[slot]:
            raise ValueError(f"slot {slot} was already taken")
        self.taken[slot] = 1
        self.head_taken += 1
        while self._head < TILES and self.taken[self._head]:
            self._head += 1

    def take_first(self, n: int) -> None:
        """Take slots ``0 .. n - 1`` from a new wall (the deal)."""
        if self.head_taken or self.tail_taken:
            raise ValueError("the deal takes the first slots of a new wall")
        self.taken[0:n] = b"\x01" * n
        self.head_taken = self._head = n

    def head_slot(self) -> int | None:
        """The slot the next head draw would take, or None if the wall is empty."""
        return self._head if self._head < TILES else None

    def take_head(self) -> int:
        """Take the next tile from the head; its slot."""
        slot = self._head
        if slot >= TILES:  # every slot taken
            raise ValueError("the wall is empty")
        taken = self.taken
        taken[slot] = 1
        self.head_taken += 1
        head = slot + 1
        while head < TILES and taken[head]:
            head += 1
        self._head = head
        return slot

    def tail_slot(self, layer: int) -> int | None:
        """The slot a replacement draw in ``layer`` would take (§9), or None if the wall is empty.

        When no stack has a tile left in that layer the other layer's tail-most tile is taken
        (the rules are silent; it can only happen with a reserve of almost nothing).
        """
        for lay in (layer, 1 - layer):
            for p in range(STACKS - 1, -1, -1):
                if not self.taken[2 * p + lay]:
                    return 2 * p + lay
        return None

    def take_tail(self, layer: int) -> int:
        slot = self.tail_slot(layer)
        if slot is None:
            raise ValueError("the wall is empty")
        self.taken[slot] = 1
        self.tail_taken += 1
        while self._head < TILES and self.taken[self._head]:
            self._head += 1
        return slot

    def to_json(self) -> dict[str, Any]:
        return {
            "taken": self.taken.decode("ascii").translate(_BITS_OUT),
            "head_taken": self.head_taken,
            "tail_taken": self.tail_taken,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any], tiles: tuple[Tile, ...] | None = None) -> WallState:
        """The wall of :meth:`to_json` (which keeps no tiles: full-tile mode gives them back)."""
        w = cls(tiles)
        bits = d["taken"]
        if not isinstance(bits, str) or len(bits) != TILES or set(bits) - {"0", "1"}:
            raise ValueError(f"bad wall 'taken' bits: {bits!r}")
        w.taken = bytearray(bits.translate(_BITS_IN), "ascii")
        w.head_taken, w.tail_taken = int(d["head_taken"]), int(d["tail_taken"])
        if w.head_taken + w.tail_taken != sum(w.taken):
            raise ValueError("wall counters do not match its taken slots")
        while w._head < TILES and w.taken[w._head]:
            w._head += 1
        return w


_BITS_OUT: Final = {0: "0", 1: "1"}
_BITS_IN: Final = {ord("0"): "\x00", ord("1"): "\x01"}
