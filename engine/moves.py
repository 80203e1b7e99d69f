"""What every table handler shares: the effects it reports, refusing an event, drawing a
tile, discarding one (the 下家's held draw closes the claims with its discard: ``engine.claims``),
paying at once. Used by ``engine.table``, ``engine.claims`` and ``engine.wins``."""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

from engine.errors import IllegalEventError
from engine.events import Discard
from engine.records import ClaimKind, Claims, Drawn, Settlement, hand_result
from engine.scoring import Transfer, deltas
from engine.seats import SEATS
from engine.state import SeatState, TableState
from engine.tiles import ALL_TILES, Tile, format_tiles, tile_text

# --- effects -------------------------------------------------------------------------


EffectKind = Literal[
    "dealt", "drew", "claims_open", "claim_taken", "kong", "win_declared", "win_withdrawn", "hand_over", "to_move",
    "session_ended", "named", "fee",
]


class Effect(NamedTuple):
    """Something outputs may want to show. ``what`` names it; ``seat``/``tile``/``data`` as relevant:
    ``dealt`` (data: the break point), ``drew`` (data: ``head``/``tail``), ``claims_open``
    (data: ``discard``/``rob``), ``claim_taken`` (data: the call), ``kong`` (data: kind),
    ``win_declared`` (data: kind), ``win_withdrawn``, ``hand_over`` (data: the settlement),
    ``to_move`` (the seat to play; data: ``discard`` or ``roll``), ``session_ended``, ``named``
    (data: the name), ``fee`` (data: the new fee setting's JSON, or None).
    (A named tuple: a handler makes one or two per event, and a tuple is the cheapest value.)
    """

    what: EffectKind
    seat: int | None = None
    tile: Tile | None = None
    data: Any = None

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"what": self.what}
        if self.seat is not None:
            d["seat"] = self.seat
        if self.tile is not None:
            d["tile"] = tile_text(self.tile)
        if self.data is not None:
            d["data"] = self.data
        return d


Effects = list[Effect]


def refuse(s: TableState, seat: int | None, what: str, code: str, **params: Any) -> IllegalEventError:
    """The refusal of an event the rules forbid now: the message names the phase, the seat and
    what stands in the way; ``code`` and ``params`` say the same for a screen that words it
    in its own language (every code is listed in ``engine.errors.CODES``)."""
    who = f"seat {seat} " if seat is not None else ""
    return IllegalEventError(f"{s.phase}: {who}{what}", code, seat=seat, phase=s.phase, **params)


def end_hand(s: TableState, settled: Settlement, seat: int | None = None, tile: Tile | None = None) -> Effects:
    """The hand is over — a win confirmed or scored, or a drawn hand: its settlement (made by
    ``engine.scoring.settlement``) kept as ``last_settlement`` and added to the session's
    ``results``; nobody is to move. ``seat`` and ``tile``: the winner and the winning tile."""
    s.last_settlement = settled
    s.results.append(hand_result(settled))
    s.settled_round = s.round
    s.turn = s.drawn = s.last_drawn = s.claims = s.pending = None
    s.phase = "hand_over"
    return [Effect("hand_over", seat, tile, settled)]


def settle_now(s: TableState, transfers: list[Transfer]) -> None:
    for seat, d in enumerate(deltas(transfers)):
        s.scores[seat] += d
    s.hand_transfers.extend(transfers)


def draw(s: TableState, seat: int, layer: int | None) -> Effect:
    """Draw for ``seat``: from the head (``layer`` None) or a replacement in ``layer``."""
    how: Drawn = "head" if layer is None else "tail"
    slot = s.wall.take_head() if layer is None else s.wall.take_tail(layer)
    st = s.seats[seat]
    st.count += 1
    tile = None if s.wall.tiles is None else s.wall.tiles[slot]  # (tracked mode: the tile is not known)
    if tile is not None and st.concealed is not None:
        st.concealed[tile] += 1
    s.turn, s.drawn, s.last_drawn, s.phase = seat, how, tile, "turn"
    return Effect("drew", seat, tile, how)


def on_discard(s: TableState, ev: Discard) -> Effects:
    seat, tile = ev.seat, ev.tile
    if seat != s.turn:
        check_turn(s, seat, "discard")  # raises
    st = s.seats[seat]
    conc = st.concealed
    if conc is not None:  # full-tile mode: the tile must be named and held
        if tile is None:
            need_tile(s, seat, tile, "discard")  # raises
            raise AssertionError("unreachable")
        if conc[tile] == 0:
            held = format_tiles(t for t in ALL_TILES for _ in range(conc[t]))
            raise refuse(
                s,
                seat,
                f"cannot discard {tile_text(tile)}: its hand is {held}",
                "discard.not_held",
                tile=tile_text(tile),
            )
        conc[tile] -= 1
    st.count -= 1
    st.discards.append(tile)
    s.discards_made += 1
    s.claims = open_claims("discard", seat, tile)
    s.turn, s.drawn, s.last_drawn, s.phase = None, None, None, "claims"
    return [Effect("claims_open", seat, tile, "discard")]


def open_claims(kind: ClaimKind, frm: int, tile: Tile | None) -> Claims:
    """Claims open on ``frm``'s discard, or its added kong's tile: nobody has answered yet."""
    return {"kind": kind, "from": frm, "tile": tile, "answers": [None] * SEATS, "tiles": [None] * SEATS,
            "held": None}


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
    hand = format_tiles(t for t in ALL_TILES for _ in range(st.concealed[t]))
    melds = " ".join(format_tiles(m) for m in st.meld_tiles())
    return f"{hand} {melds}".strip()
