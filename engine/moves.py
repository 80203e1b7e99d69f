"""What every table handler shares: the effects it reports, refusing an event, drawing a
tile, paying at once. Used by ``engine.table``, ``engine.claims`` and ``engine.wins``."""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from engine.errors import IllegalEventError
from engine.scoring import Transfer, deltas
from engine.state import SEATS, SeatState, TableState
from engine.tiles import NUM_KINDS, Tile, format_tiles, tile_text

# --- effects -------------------------------------------------------------------------


class Effect(NamedTuple):
    """Something outputs may want to show. ``what`` names it; ``seat``/``tile``/``data`` as relevant.
    (A named tuple: a handler makes one or two per event, and a tuple is the cheapest value.)

    ``what`` is one of: ``dealt``, ``drew`` (data: ``head``/``tail``), ``claims_open``
    (data: ``discard``/``rob``), ``claim_taken`` (data: the call), ``kong`` (data: kind),
    ``win_declared`` (data: kind), ``win_withdrawn``, ``hand_over`` (data: the settlement),
    ``to_move`` (the seat to play), ``session_ended``, ``named`` (data: the name).
    """

    what: str
    seat: int | None = None
    tile: Tile | None = None
    data: Any = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"what": self.what}
        if self.seat is not None:
            d["seat"] = self.seat
        if self.tile is not None:
            d["tile"] = tile_text(self.tile)
        if self.data is not None:
            d["data"] = self.data
        return d


Effects = list[Effect]

UNKNOWN: Final = NUM_KINDS
"""Where an unknown tile (tracked mode) sits in :func:`_every_effect`'s tables."""


def _every_effect(what: str, data: str) -> tuple[tuple[Effect, ...], ...]:
    """``Effect(what, seat, tile, data)`` for every seat and tile (index ``UNKNOWN``: no tile).
    Every turn reports a draw and opens claims, many a claim is taken: those effects are
    built once, here, and shared (an effect is an immutable value)."""
    return tuple(tuple(Effect(what, seat, t, data) for t in (*range(NUM_KINDS), None)) for seat in range(SEATS))


DREW: Final = {"head": _every_effect("drew", "head"), "tail": _every_effect("drew", "tail")}
CLAIMS_OPEN: Final = {"discard": _every_effect("claims_open", "discard"), "rob": _every_effect("claims_open", "rob")}
CLAIM_TAKEN: Final = {call: _every_effect("claim_taken", call) for call in ("chow", "pong", "kong")}
TO_DISCARD: Final = tuple(Effect("to_move", seat, data="discard") for seat in range(SEATS))


def refuse(s: TableState, seat: int | None, what: str, code: str, **params: Any) -> IllegalEventError:
    """The refusal of an event the rules forbid now: the message names the phase, the seat and
    what stands in the way; ``code`` and ``params`` say the same for a screen that words it
    in its own language (every code is listed in ``engine.errors.CODES``)."""
    who = f"seat {seat} " if seat is not None else ""
    return IllegalEventError(f"{s.phase}: {who}{what}", code, seat=seat, phase=s.phase, **params)


def hand_result(settlement: dict[str, Any]) -> dict[str, Any]:
    """A settled hand as the session's results keep it (``TableState.results``)."""
    return {key: settlement.get(key) for key in ("hand", "dealer", "result", "winner", "kind", "from", "deltas")}


def settle_now(s: TableState, transfers: list[Transfer]) -> None:
    for seat, d in enumerate(deltas(transfers)):
        s.scores[seat] += d
    s.hand_transfers.extend(transfers)


def draw(s: TableState, seat: int, layer: int | None) -> Effect:
    """Draw for ``seat``: from the head (``layer`` None) or a replacement in ``layer``."""
    if layer is None:
        slot, how = s.wall.take_head(), "head"
    else:
        slot, how = s.wall.take_tail(layer), "tail"
    st = s.seats[seat]
    st.count += 1
    conc = st.concealed
    if conc is None:  # tracked mode: the tile is not known
        s.turn, s.drawn, s.last_drawn, s.phase = seat, how, None, "turn"
        return DREW[how][seat][UNKNOWN]
    order = s.wall.tiles  # full-tile mode: the wall's tiles by slot (laid out at the deal)
    tile = order[slot] if order is not None else s.wall_tile(slot)
    conc[tile] += 1
    s.turn, s.drawn, s.last_drawn, s.phase = seat, how, tile, "turn"
    return DREW[how][seat][tile]


def need_tile(s: TableState, seat: int, tile: Tile | None, what: str) -> None:
    if s.full and tile is None:
        raise refuse(
            s,
            seat,
            f"cannot {what} without naming the tile: full-tile mode checks every tile",
            "tile.needed",
            action=what,
        )


def check_turn(s: TableState, seat: int, what: str) -> SeatState:
    if seat != s.turn:
        raise refuse(s, seat, f"cannot {what}: it is seat {s.turn}'s turn", "not_turn", turn=s.turn)
    return s.seats[seat]


def pong_for(s: TableState, st: SeatState, seat: int, tile: Tile | None) -> int:
    """The index of the pong an added kong extends (the one of ``tile`` if known)."""
    pongs = [i for i, m in enumerate(st.melds) if m.kind == "pong"]
    if tile is not None:
        known = [i for i in pongs if st.melds[i].tiles is not None and st.melds[i].tiles == (tile,) * 3]
        unknown = [i for i in pongs if st.melds[i].tiles is None]
        pongs = known or unknown
    if not pongs:
        of = f" of {tile_text(tile)}" if tile is not None else ""
        raise refuse(
            s,
            seat,
            f"cannot declare an added kong: it has no pong{of} to add to",
            "kong.no_pong",
            tile=tile_text(tile) if tile is not None else None,
        )
    if st.count < 1:
        raise refuse(s, seat, "cannot declare an added kong: it holds no concealed tile to add", "kong.nothing_to_add")
    return pongs[0]


def hand_text(st: SeatState) -> str:
    if st.concealed is None:
        return f"{st.count} tiles"
    hand = format_tiles(t for t in range(34) for _ in range(st.concealed[t]))
    melds = " ".join(format_tiles(m) for m in st.meld_tiles())
    return f"{hand} {melds}".strip()
