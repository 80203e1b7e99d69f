"""What a bot sees: a :class:`View` of the table from one seat, made by :func:`view_of`.

A player sees its own concealed tiles, every meld and discard on the table, the wall
counters and the open claim — nothing of the other seats' hands. A view holds exactly that,
and what the seat may do now (``moves``: the engine's legal moves, ``engine.legal``, asked
with the same facts).

>>> from engine.tiles import parse_tiles, to_counts
>>> v = View(seat=0, phase="turn", hand=to_counts(parse_tiles("123m456p789s1122z5z")), drawn=True)
>>> [e.to_json()["tile"] for e in v.moves if e.TYPE == "discard"]
['1m', '2m', '3m', '4p', '5p', '6p', '7s', '8s', '9s', '1z', '2z', '5z']
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence
from dataclasses import dataclass

from engine.events import Event
from engine.legal import claim_moves, turn_moves
from engine.records import ClaimKind, Phase
from engine.rules import XIAN, Rules
from engine.seats import SEATS
from engine.state import TableState
from engine.tiles import Tile
from engine.wall import TILES

Table = tuple[tuple[tuple[tuple[Tile, ...], ...], ...], tuple[tuple[Tile | None, ...], ...]]
"""What lies open on the table: every seat's melds (tiles) and every seat's discards."""


def nothing_open() -> Table:
    """An empty table: no melds, no discards."""
    return ((),) * SEATS, ((),) * SEATS


@dataclass(eq=False, slots=True)
class View:
    """What seat ``seat`` can see. ``hand``: its own concealed counts (a copy: the bot may
    change it); ``melds``: its own melds' tiles (a kong as four; concealed kongs included);
    ``pongs``: the tiles of its pongs (what an added kong may extend); ``drawn``: it is its
    turn and it began with a draw (so it may win by itself or kong); ``claim_*``: the open
    claim (phase ``claims``): kind, the seat it is on, the tile. ``open_table`` gives every
    seat's melds and discards as they lie on the table when the bot looks (reading them
    costs more than most decisions need).
    """

    seat: int
    phase: Phase
    hand: MutableSequence[int]
    melds: tuple[tuple[Tile, ...], ...] = ()
    pongs: tuple[Tile, ...] = ()
    drawn: bool = False
    last_drawn: Tile | None = None
    claim_kind: ClaimKind | None = None
    claim_from: int | None = None
    claim_tile: Tile | None = None
    wall_remaining: int = TILES
    rules: Rules = XIAN
    open_table: Callable[[], Table] = nothing_open

    @property
    def moves(self) -> list[Event]:
        """Every event this seat may make now: the engine's legal moves, from what it sees
        (worked out each time it is read: a bot reads it once a decision)."""
        hand, seat = self.hand, self.seat
        if self.phase == "turn":
            return turn_moves(seat, hand, sum(hand), len(self.melds), self.pongs, self.drawn, self.wall_remaining,
                              self.rules)
        if self.phase == "claims" and self.claim_kind is not None and self.claim_from is not None:
            return claim_moves(seat, hand, sum(hand), len(self.melds), self.claim_kind, self.claim_from,
                               self.claim_tile, self.wall_remaining, self.rules)
        return []

    @property
    def table_melds(self) -> tuple[tuple[tuple[Tile, ...], ...], ...]:
        """Every seat's melds (tiles), as they lie on the table."""
        return self.open_table()[0]

    @property
    def discards(self) -> tuple[tuple[Tile | None, ...], ...]:
        """Every seat's discards still on the table (claimed ones have moved into melds)."""
        return self.open_table()[1]

    def seen(self) -> list[int]:
        """How many of each tile this seat can see: its hand, every meld, every discard."""
        seen = list(self.hand)
        melds, discards = self.open_table()
        for seat_melds in melds:
            for m in seat_melds:
                for t in m:
                    seen[t] += 1
        for river in discards:
            for d in river:
                if d is not None:
                    seen[d] += 1
        return seen


def table_of(state: TableState) -> Table:
    """Every seat's melds and discards: what any player sees on the table."""
    return (
        tuple(tuple(m.tiles for m in s.melds if m.tiles is not None) for s in state.seats),
        tuple(tuple(s.discards) for s in state.seats),
    )


def view_of(state: TableState, seat: int) -> View:
    """The view of ``seat`` (full-tile mode): its own hand and what lies open on the table."""
    me = state.seats[seat]
    if me.concealed is None:
        raise ValueError("bots play in full-tile mode only (new_session with a wall_seed)")
    c = state.claims if state.phase == "claims" else None
    mine = state.turn == seat  # (also while others may rob its added kong)
    melds = me.melds
    return View(
        seat,
        state.phase,
        me.concealed[:],
        tuple([m.tiles for m in melds if m.tiles is not None]) if melds else (),
        tuple([m.tiles[0] for m in melds if m.kind == "pong" and m.tiles is not None]) if melds else (),
        mine and state.drawn is not None,
        state.last_drawn if mine else None,
        None if c is None else c["kind"],
        None if c is None else c["from"],
        None if c is None else c["tile"],
        state.wall.remaining,
        state.rules,
        lambda: table_of(state),
    )
