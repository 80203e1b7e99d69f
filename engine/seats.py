"""Seats (docs/rules.md §2): the four places at the table, 0..3 counter-clockwise seen from above.

Play moves counter-clockwise: the next player (下家) of seat ``s`` is ``s + 1`` (mod 4), the
previous (上家) ``s + 3``. Counting "k places counter-clockwise from seat s" counts ``s``
itself as 1.

>>> next_seat(3), OTHERS[1]
(0, (2, 3, 0))
>>> seat_counting(0, 10)   # the dealer rolls 10: the dealer's 下家
1
"""

from __future__ import annotations

from typing import Final

from engine.records import Wind

SEATS: Final = 4
SEAT_RANGE: Final = range(SEATS)
WINDS: Final[tuple[Wind, ...]] = ("E", "S", "W", "N")
"""The winds in seat order from East: East's 下家 is South, then West, then North."""


def next_seat(seat: int) -> int:
    """The seat's 下家, the next to play."""
    return (seat + 1) % SEATS


def seat_counting(start: int, k: int) -> int:
    """The seat reached counting ``k`` places counter-clockwise from ``start``, ``start`` being 1."""
    return (start + k - 1) % SEATS


OTHERS: Final = tuple(tuple((seat + i) % SEATS for i in range(1, SEATS)) for seat in SEAT_RANGE)
"""For each seat, the other three in turn order (counter-clockwise): its 下家 first."""
