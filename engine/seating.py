"""Choosing seats (docs/rules.md §3): who is East, and who moves to which seat.

Winds follow the seats in order (§2: East, then its 下家 South, West, North), so when the
winds are given out by the players' rolls (method B) or by the wind tiles they drew (method C),
the players move: the one who is East keeps their place, and the others sit down
counter-clockwise from it in their winds' order. :func:`seated` says where each goes; the
table (``engine.table``) applies it, the screens tell the players.

>>> seated(Seating(method="B", rolls=((2, 3), (6, 6), (1, 2), (4, 5))))  # sums 5, 12, 3, 9
Seated(east=1, moves=(3, 1, 0, 2))
>>> seated(Seating(method="C", drew=("W", "E", "N", "S")))  # seat 1 drew East, seat 3 South
Seated(east=1, moves=(3, 1, 0, 2))
>>> seated(Seating(method="C", east=2))  # (journals before 'drew': the others sat by their winds)
Seated(east=2, moves=(0, 1, 2, 3))
"""

from __future__ import annotations

from typing import NamedTuple, TypeVar

from engine.events import Seating
from engine.seats import SEAT_RANGE, SEATS, WINDS, seat_counting

T = TypeVar("T")


class Seated(NamedTuple):
    """The seat of East after seating, and ``moves[s]``: the seat the player at seat ``s`` moves to."""

    east: int
    moves: tuple[int, ...]

    def players(self, before: list[T]) -> list[T]:
        """The players (their names, their roster ids) by seat after the moves.

        >>> Seated(1, (3, 1, 0, 2)).players(["A", "B", "C", "D"])
        ['C', 'B', 'D', 'A']
        """
        after = list(before)
        for seat, to in enumerate(self.moves):
            after[to] = before[seat]
        return after


STAY = tuple(SEAT_RANGE)


def tied_seats(rolls: tuple[tuple[int, int], ...]) -> dict[int, list[int]]:
    """Method B's ties: each sum rolled by more than one seat, with those seats.

    >>> tied_seats(((3, 3), (2, 4), (1, 1), (5, 5)))
    {6: [0, 1]}
    """
    groups: dict[int, list[int]] = {}
    for seat, roll in enumerate(rolls):
        groups.setdefault(sum(roll), []).append(seat)
    return {total: seats for total, seats in sorted(groups.items()) if len(seats) > 1}


def seated(ev: Seating) -> Seated:
    """East and the moves of a seating (method B's rolls are assumed without ties: the table
    refuses those first)."""
    if ev.method == "A":
        assert ev.roller is not None and ev.dice is not None
        return Seated(seat_counting(ev.roller, sum(ev.dice)), STAY)
    if ev.method == "B":
        assert ev.rolls is not None
        rolls = ev.rolls
        order = sorted(SEAT_RANGE, key=lambda s: -sum(rolls[s]))  # East, South, West, North
        return _by_winds(order[0], {seat: i for i, seat in enumerate(order)})
    if ev.drew is not None:
        drew = ev.drew
        east = drew.index("E")
        return _by_winds(east, {seat: WINDS.index(drew[seat]) for seat in SEAT_RANGE})
    assert ev.east is not None
    return Seated(ev.east, STAY)


def _by_winds(east: int, wind_of: dict[int, int]) -> Seated:
    """East keeps its seat; the player of the i-th wind (0 East … 3 North) sits i seats on from it."""
    return Seated(east, tuple((east + wind_of[seat]) % SEATS for seat in SEAT_RANGE))
