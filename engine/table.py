"""The table state machine (RULES §2–§12): ``apply(state, event) -> (new_state, effects)``.

Pure and deterministic: no I/O, no clock, no randomness but the ``wall_seed`` an event
carries. ``apply`` never changes the state it is given: it copies, then changes the copy,
so an event that raises a :class:`RuleError` leaves the caller's state as it was.

One code path serves both modes. In *tracked* mode (the physical table) tiles are only
counted; in *full-tile* mode (``new_session`` with ``wall_seed``) the wall is shuffled from
the seed, every tile is placed in the ring and events' tiles are checked against the hands.

>>> s = replay([
...     {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
...     {"type": "seating", "method": "C", "east": 0},
...     {"type": "roll", "dice": [4, 6]},
...     {"type": "roll", "dice": [2, 3]},
... ])
>>> s.phase, s.turn, s.public()["break"], s.wall.head_taken
('turn', 0, {'owner': 1, 'count': 15, 'wall': 1, 'stack': 15}, 53)
>>> apply(s, {"type": "discard", "seat": 2})
Traceback (most recent call last):
...
engine.errors.IllegalEventError: turn: seat 2 cannot discard: it is seat 0's turn
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine.errors import IllegalEventError, InvalidEventError, RuleError  # noqa: F401  (re-exported)
from engine.events import (
    Bets,
    Claim,
    ConfirmWin,
    Discard,
    EndSession,
    Event,
    Kong,
    NewSession,
    NextHand,
    Pass,
    RejectWin,
    Resolve,
    Roll,
    Seating,
    Win,
    parse_event,
)
from engine.hand import HandError, analyse_win, hand_counts, is_winning_hand, parse_meld
from engine.scoring import Transfer, deltas, kong_transfers, win_transfers
from engine.state import SEATS, Meld, SeatState, TableState
from engine.tiles import Tile, TileError, format_tiles, tile_text
from engine.wall import LOWER, UPPER, WallState, deal_slots, seat_counting, shuffled_wall

__all__ = ["Effect", "TableState", "apply", "new_table", "replay"]


# --- effects -------------------------------------------------------------------------


@dataclass(frozen=True)
class Effect:
    """Something outputs may want to show. ``what`` names it; ``seat``/``tile``/``data`` as relevant.

    ``what`` is one of: ``dealt``, ``drew`` (data: ``head``/``tail``), ``claims_open``
    (data: ``discard``/``rob``), ``claim_taken`` (data: the call), ``kong`` (data: kind),
    ``win_declared`` (data: kind), ``win_withdrawn``, ``hand_over`` (data: the settlement),
    ``to_move`` (the seat to play), ``session_ended``.
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


# --- the state machine's entry points --------------------------------------------------


def new_table() -> TableState:
    """A table before any ``new_session`` (phase ``idle``: it accepts only ``new_session``)."""
    return TableState()


def apply(state: TableState, event: Event | Mapping[str, Any]) -> tuple[TableState, list[Effect]]:
    """Apply one event; the new state and the effects. Raises :class:`RuleError` if refused."""
    ev = parse_event(event)
    handler = TRANSITIONS.get((state.phase, ev.TYPE))
    if handler is None:
        who = f"seat {ev.seat_of} cannot {ev.TYPE}" if ev.seat_of is not None else f"cannot {ev.TYPE}"
        accepted = ", ".join(t for (p, t) in TRANSITIONS if p == state.phase)
        raise IllegalEventError(f"{state.phase}: {who} now (this phase accepts: {accepted})")
    new = state.copy()
    effects = handler(new, ev)
    return new, effects


def replay(events: Iterable[Event | Mapping[str, Any]], state: TableState | None = None) -> TableState:
    """Apply events in order from ``state`` (a fresh table by default); the final state."""
    s = state if state is not None else new_table()
    for ev in events:
        s, _ = apply(s, ev)
    return s


# --- small helpers -----------------------------------------------------------------------


def _refuse(s: TableState, seat: int | None, what: str) -> IllegalEventError:
    who = f"seat {seat} " if seat is not None else ""
    return IllegalEventError(f"{s.phase}: {who}{what}")


def _t(tile: Tile | None) -> str:
    return "?" if tile is None else tile_text(tile)


def _settle_now(s: TableState, transfers: list[Transfer]) -> None:
    for seat, d in enumerate(deltas(transfers)):
        s.scores[seat] += d
    s.hand_transfers.extend(transfers)


def _draw(s: TableState, seat: int, layer: int | None) -> Effect:
    """Draw for ``seat``: from the head (``layer`` None) or a replacement in ``layer``."""
    if layer is None:
        slot, how = s.wall.take_head(), "head"
    else:
        slot, how = s.wall.take_tail(layer), "tail"
    st = s.seats[seat]
    st.count += 1
    tile: Tile | None = None
    if s.wall_tiles is not None and st.concealed is not None:
        bp = s.breakpoint
        assert bp is not None
        tile = s.wall_tiles[bp.physical_slot(slot)]
        st.concealed[tile] += 1
    s.turn, s.drawn, s.last_drawn, s.phase = seat, how, tile, "turn"
    return Effect("drew", seat, tile, how)


def _need_tile(s: TableState, seat: int, tile: Tile | None, what: str) -> None:
    if s.full and tile is None:
        raise _refuse(s, seat, f"cannot {what} without naming the tile: full-tile mode checks every tile")


# --- session, seating, bets, dice, the deal -----------------------------------------------


def _new_session(s: TableState, ev: NewSession) -> Effects:
    fresh = TableState(
        phase="seating", players=list(ev.players), base=ev.base, rules=ev.rule_set, wall_seed=ev.wall_seed, hand=1
    )
    s.__dict__.update(fresh.__dict__)
    return []


def _seating(s: TableState, ev: Seating) -> Effects:
    if ev.method == "A":
        assert ev.roller is not None and ev.dice is not None
        east = seat_counting(ev.roller, sum(ev.dice))
    elif ev.method == "B":
        assert ev.rolls is not None
        sums = [sum(r) for r in ev.rolls]
        tied = sorted({s_ for s_ in range(SEATS) if sums.count(sums[s_]) > 1})
        if tied:
            groups: dict[int, list[int]] = {}
            for seat in tied:
                groups.setdefault(sums[seat], []).append(seat)
            text = "; ".join(f"seats {', '.join(map(str, g))} all rolled {v}" for v, g in sorted(groups.items()))
            raise _refuse(s, None, f"seating by method B has ties ({text}): the tied seats roll again among themselves")
        order = sorted(range(SEATS), key=lambda x: -sums[x])  # East, South, West, North
        east = order[0]
        # The highest roller keeps its place, which becomes East; the others take the places
        # counter-clockwise from it by descending sum, so winds follow the seat order (§2).
        players = list(s.players)
        for i, seat in enumerate(order):
            s.players[(east + i) % SEATS] = players[seat]
    else:
        assert ev.east is not None
        east = ev.east
    s.east = s.dealer = east
    s.phase = "betting"
    return [Effect("to_move", east, data="roll")]


def _bets(s: TableState, ev: Bets) -> Effects:
    if s.dice_dealer is not None:
        raise _refuse(s, None, "bets come before the hand's first roll; the dealer has already rolled")
    s.bets = list(ev.bets)
    s.phase = "rolling"
    return []


def _roll(s: TableState, ev: Roll) -> Effects:
    assert s.dealer is not None
    if s.dice_dealer is None:
        if ev.seat is not None and ev.seat != s.dealer:
            raise _refuse(s, ev.seat, f"cannot roll first: the dealer, seat {s.dealer}, rolls to choose the wall")
        s.dice_dealer = ev.dice
        s.phase = "rolling"
        return [Effect("to_move", seat_counting(s.dealer, sum(ev.dice)), data="roll")]
    owner = seat_counting(s.dealer, sum(s.dice_dealer))
    if ev.seat is not None and ev.seat != owner:
        raise _refuse(
            s,
            ev.seat,
            f"cannot roll now: the dealer rolled {sum(s.dice_dealer)}, so the wall owner, seat {owner}, rolls next",
        )
    s.dice_owner = ev.dice
    return _deal(s)


def _deal(s: TableState) -> Effects:
    assert s.dealer is not None
    s.wall = WallState()
    full = s.wall_seed is not None
    s.seats = [SeatState(full) for _ in range(SEATS)]
    s.wall_tiles = shuffled_wall(s.wall_seed, s.hand) if s.wall_seed is not None else None
    bp = s.breakpoint
    assert bp is not None
    for seat, slot in deal_slots(s.dealer):
        s.wall.take(slot)
        st = s.seats[seat]
        st.count += 1
        if s.wall_tiles is not None and st.concealed is not None:
            st.concealed[s.wall_tiles[bp.physical_slot(slot)]] += 1
    s.last_drawn = s.wall_tiles[bp.physical_slot(50)] if s.wall_tiles is not None else None  # the dealer's 14th
    s.turn, s.drawn, s.phase = s.dealer, "deal", "turn"
    s.kongs, s.discards_made, s.claims, s.pending, s.hand_transfers = 0, 0, None, None, []
    return [Effect("dealt", s.dealer, data=bp.to_json()), Effect("to_move", s.dealer, data="discard")]


# --- the player to move: discard, kong, win -------------------------------------------------


def _check_turn(s: TableState, seat: int, what: str) -> SeatState:
    if seat != s.turn:
        raise _refuse(s, seat, f"cannot {what}: it is seat {s.turn}'s turn")
    return s.seats[seat]


def _discard(s: TableState, ev: Discard) -> Effects:
    st = _check_turn(s, ev.seat, "discard")
    _need_tile(s, ev.seat, ev.tile, "discard")
    if st.concealed is not None and ev.tile is not None and st.concealed[ev.tile] == 0:
        held = format_tiles(t for t in range(34) for _ in range(st.concealed[t]))
        raise _refuse(s, ev.seat, f"cannot discard {tile_text(ev.tile)}: its hand is {held}")
    st.count -= 1
    if st.concealed is not None and ev.tile is not None:
        st.concealed[ev.tile] -= 1
    st.discards.append(ev.tile)
    s.discards_made += 1
    s.claims = {"kind": "discard", "from": ev.seat, "tile": ev.tile, "answers": [None] * SEATS, "tiles": [None] * SEATS}
    s.turn, s.drawn, s.last_drawn, s.phase = None, None, None, "claims"
    return [Effect("claims_open", ev.seat, ev.tile, "discard")]


def _kong(s: TableState, ev: Kong) -> Effects:
    st = _check_turn(s, ev.seat, f"declare a {ev.kind} kong")
    _need_tile(s, ev.seat, ev.tile, f"declare a {ev.kind} kong")
    if s.wall.remaining == 0:
        raise _refuse(s, ev.seat, "cannot declare a kong: no tile is left for its replacement draw")
    tile = ev.tile
    if ev.kind == "concealed":
        if st.count < 4:
            raise _refuse(s, ev.seat, f"cannot declare a concealed kong: it holds only {st.count} concealed tiles")
        if st.concealed is not None and tile is not None and st.concealed[tile] != 4:
            raise _refuse(
                s,
                ev.seat,
                f"cannot declare a concealed kong of {tile_text(tile)}: it holds {st.concealed[tile]} of them",
            )
        st.count -= 4
        if st.concealed is not None and tile is not None:
            st.concealed[tile] -= 4
        st.melds.append(Meld("kong", None if tile is None else (tile,) * 4, "concealed"))
        s.kongs += 1
        _settle_now(s, kong_transfers(ev.seat, "concealed", base=s.base, rules=s.rules))
        return [Effect("kong", ev.seat, tile, "concealed"), _draw(s, ev.seat, LOWER)]
    # added kong (加杠): others may rob it before the replacement draw
    if not s.rules.added_kong:
        raise _refuse(s, ev.seat, "cannot declare an added kong: the rule option added_kong is off")
    _pong_for(s, st, ev.seat, tile)
    if st.concealed is not None and tile is not None and st.concealed[tile] == 0:
        raise _refuse(s, ev.seat, f"cannot add {tile_text(tile)} to its pong: it does not hold that tile")
    s.claims = {"kind": "rob", "from": ev.seat, "tile": tile, "answers": [None] * SEATS, "tiles": [None] * SEATS}
    s.phase = "claims"
    return [Effect("claims_open", ev.seat, tile, "rob")]


def _pong_for(s: TableState, st: SeatState, seat: int, tile: Tile | None) -> int:
    """The index of the pong an added kong extends (the one of ``tile`` if known)."""
    pongs = [i for i, m in enumerate(st.melds) if m.kind == "pong"]
    if tile is not None:
        known = [i for i in pongs if st.melds[i].tiles is not None and st.melds[i].tiles == (tile,) * 3]
        unknown = [i for i in pongs if st.melds[i].tiles is None]
        pongs = known or unknown
    if not pongs:
        of = f" of {tile_text(tile)}" if tile is not None else ""
        raise _refuse(s, seat, f"cannot declare an added kong: it has no pong{of} to add to")
    if st.count < 1:
        raise _refuse(s, seat, "cannot declare an added kong: it holds no concealed tile to add")
    return pongs[0]


def _win_kind(s: TableState, seat: int) -> str:
    if s.drawn == "tail":
        return "kong_bloom"
    if s.drawn == "deal" and seat == s.dealer and s.discards_made == 0:
        return "heavenly"
    return "self_drawn"


def _win(s: TableState, ev: Win) -> Effects:
    st = _check_turn(s, ev.seat, "declare a self-drawn win")
    if s.drawn is None:
        raise _refuse(
            s, ev.seat, "cannot declare a self-drawn win: it took this turn with a pong or chow and drew nothing"
        )
    if st.concealed is not None and not is_winning_hand(st.concealed, st.meld_tiles(), seven_pairs=s.rules.seven_pairs):
        raise _refuse(s, ev.seat, f"cannot win: its hand {_hand_text(st)} does not win")
    kind = _win_kind(s, ev.seat)
    s.pending = {"seat": ev.seat, "kind": kind, "tile": s.last_drawn, "from": None, "prior": "turn"}
    s.phase = "win_pending"
    return [Effect("win_declared", ev.seat, s.last_drawn, kind)]


def _hand_text(st: SeatState) -> str:
    if st.concealed is None:
        return f"{st.count} tiles"
    hand = format_tiles(t for t in range(34) for _ in range(st.concealed[t]))
    melds = " ".join(format_tiles(m) for m in st.meld_tiles())
    return f"{hand} {melds}".strip()


# --- claims ------------------------------------------------------------------------------


def _chow_options(tile: Tile) -> list[tuple[Tile, Tile]]:
    if tile >= 27:
        return []
    r = tile % 9
    return [(tile + a, tile + b) for a, b in ((-2, -1), (-1, 1), (1, 2)) if r + a >= 0 and r + b <= 8]


def _claim(s: TableState, ev: Claim) -> Effects:
    c = s.claims
    assert c is not None
    frm, tile, seat = c["from"], c["tile"], ev.seat
    if seat == frm:
        what = "its own discard" if c["kind"] == "discard" else "its own kong"
        raise _refuse(s, seat, f"cannot claim {ev.call} on {what}")
    st = s.seats[seat]
    if c["kind"] == "rob" and ev.call != "win":
        raise _refuse(s, seat, f"cannot {ev.call}: an added kong's tile may only be robbed with a win (抢杠)")
    chosen: tuple[Tile, ...] | None = None
    if ev.call == "win":
        if st.concealed is not None and tile is not None:
            hand = list(st.concealed)
            hand[tile] += 1
            if not is_winning_hand(hand, st.meld_tiles(), seven_pairs=s.rules.seven_pairs):
                raise _refuse(
                    s, seat, f"cannot win on {tile_text(tile)}: its hand {_hand_text(st)} does not win with it"
                )
    elif ev.call in ("pong", "kong"):
        need = 2 if ev.call == "pong" else 3
        if st.count < need:
            raise _refuse(s, seat, f"cannot {ev.call}: it holds only {st.count} concealed tiles")
        if st.concealed is not None and tile is not None and st.concealed[tile] < need:
            raise _refuse(
                s,
                seat,
                f"cannot {ev.call} {tile_text(tile)}: it holds {st.concealed[tile]} of them, {ev.call} needs {need}",
            )
        if ev.call == "kong" and s.wall.remaining == 0:
            raise _refuse(s, seat, "cannot kong: no tile is left for its replacement draw")
    else:  # chow
        nxt = (frm + 1) % SEATS
        if seat != nxt:
            raise _refuse(s, seat, f"cannot chow: only seat {nxt}, the discarder's 下家, may chow")
        if st.count < 2:
            raise _refuse(s, seat, f"cannot chow: it holds only {st.count} concealed tiles")
        chosen = _chow_tiles(s, st, seat, tile, ev.tiles)
    c["answers"][seat] = ev.call
    c["tiles"][seat] = chosen
    return _resolve_if_answered(s)


def _chow_tiles(
    s: TableState, st: SeatState, seat: int, tile: Tile | None, given: tuple[Tile, ...] | None
) -> tuple[Tile, ...] | None:
    """The two tiles of the claimer's hand that make a sequence with the discard (checked)."""
    pair: tuple[Tile, ...] | None = None
    if given is not None:
        if len(given) == 3:
            if tile is None or tile not in given:
                raise _refuse(
                    s, seat, f"cannot chow {format_tiles(given)}: the sequence must include the discard {_t(tile)}"
                )
            rest = list(given)
            rest.remove(tile)
            pair = tuple(rest)
        else:
            pair = given
        if tile is not None:
            if tuple(sorted(pair)) not in _chow_options(tile):
                raise _refuse(
                    s, seat, f"cannot chow {tile_text(tile)} with {format_tiles(pair)}: they make no sequence"
                )
        else:
            a, b = sorted(pair)
            if a >= 27 or b >= 27 or a // 9 != b // 9 or b - a not in (1, 2):
                raise _refuse(s, seat, f"cannot chow with {format_tiles(pair)}: no tile makes a sequence with them")
    if st.concealed is not None and tile is not None:
        conc = st.concealed
        held = [o for o in _chow_options(tile) if all(conc[x] >= (2 if o[0] == o[1] else 1) for x in o)]
        if pair is None:
            if not held:
                raise _refuse(
                    s, seat, f"cannot chow {tile_text(tile)}: its hand {_hand_text(st)} has no two tiles for it"
                )
            if len(held) > 1:
                opts = " or ".join(format_tiles(o) for o in held)
                raise _refuse(s, seat, f"cannot chow {tile_text(tile)} without saying which tiles: {opts}")
            pair = held[0]
        elif tuple(sorted(pair)) not in held:
            raise _refuse(
                s, seat, f"cannot chow with {format_tiles(pair)}: its hand {_hand_text(st)} does not hold them"
            )
    return None if pair is None else tuple(sorted(pair))


def _pass(s: TableState, ev: Pass) -> Effects:
    c = s.claims
    assert c is not None
    if ev.seat == c["from"]:
        raise _refuse(s, ev.seat, "cannot pass: it is the seat that opened these claims")
    c["answers"][ev.seat] = "pass"
    c["tiles"][ev.seat] = None
    return _resolve_if_answered(s)


def _resolve_if_answered(s: TableState) -> Effects:
    c = s.claims
    assert c is not None
    if all(c["answers"][x] is not None for x in range(SEATS) if x != c["from"]):
        return _resolve_claims(s)
    return []


def _resolve(s: TableState, ev: Resolve) -> Effects:
    return _resolve_claims(s)


def _resolve_claims(s: TableState) -> Effects:
    """The highest claim takes effect (§8): win (nearest to the discarder) > kong = pong > chow."""
    c = s.claims
    assert c is not None
    frm, tile = c["from"], c["tile"]
    order = [(frm + i) % SEATS for i in (1, 2, 3)]  # nearest first, counter-clockwise
    answers = c["answers"]
    winner = next((x for x in order if answers[x] == "win"), None)
    if winner is not None:
        kind = "discard" if c["kind"] == "discard" else "robbed_kong"
        s.pending = {"seat": winner, "kind": kind, "tile": tile, "from": frm, "prior": "claims"}
        s.phase = "win_pending"
        return [Effect("win_declared", winner, tile, kind)]
    if c["kind"] == "rob":
        return _complete_added_kong(s)
    taker = next((x for x in order if answers[x] in ("kong", "pong")), None)
    if taker is None and answers[order[0]] == "chow":
        taker = order[0]
    s.claims = None
    if taker is None:
        nxt = order[0]
        if s.drawable == 0:
            return _exhaustive_draw(s)
        return [_draw(s, nxt, None)]
    call = answers[taker]
    st = s.seats[taker]
    s.seats[frm].discards.pop()
    if call == "chow":
        pair = c["tiles"][taker]
        st.count -= 2
        if st.concealed is not None and pair is not None:
            for x in pair:
                st.concealed[x] -= 1
        meld_tiles = None if pair is None or tile is None else tuple(sorted((*pair, tile)))
        st.melds.append(Meld("chow", meld_tiles, None, frm))
    else:
        n = 2 if call == "pong" else 3
        st.count -= n
        if st.concealed is not None and tile is not None:
            st.concealed[tile] -= n
        st.melds.append(
            Meld(call, None if tile is None else (tile,) * (n + 1), "exposed" if call == "kong" else None, frm)
        )
    effects = [Effect("claim_taken", taker, tile, call)]
    if call == "kong":
        s.kongs += 1
        _settle_now(s, kong_transfers(taker, "exposed", base=s.base, rules=s.rules, discarder=frm))
        effects.append(Effect("kong", taker, tile, "exposed"))
        effects.append(_draw(s, taker, UPPER))
    else:
        s.turn, s.drawn, s.last_drawn, s.phase = taker, None, None, "turn"
        effects.append(Effect("to_move", taker, data="discard"))
    return effects


def _complete_added_kong(s: TableState) -> Effects:
    c = s.claims
    assert c is not None
    seat, tile = c["from"], c["tile"]
    st = s.seats[seat]
    i = _pong_for(s, st, seat, tile)
    old = st.melds[i]
    tiles = old.tiles if old.tiles is not None else None if tile is None else (tile,) * 3
    st.melds[i] = Meld("kong", None if tiles is None else (*tiles, tiles[0]), "added", old.frm)
    st.count -= 1
    if st.concealed is not None and tile is not None:
        st.concealed[tile] -= 1
    s.claims = None
    s.kongs += 1
    _settle_now(s, kong_transfers(seat, "added", base=s.base, rules=s.rules))
    return [Effect("kong", seat, tile, "added"), _draw(s, seat, UPPER)]


# --- ending a hand --------------------------------------------------------------------------


def _exhaustive_draw(s: TableState) -> Effects:
    """荒牌 (§10): no winner; kong payments stand unless ``kong_paid_on_draw`` is off."""
    if not s.rules.kong_paid_on_draw:
        back = [Transfer(t.to, t.frm, t.amount, t.reason) for t in s.hand_transfers]
        _settle_now(s, back)
    s.last_settlement = {
        "result": "draw",
        "winner": None,
        "kind": None,
        "wait": None,
        "transfers": [t.to_json() for t in s.hand_transfers],
        "deltas": deltas(s.hand_transfers),
        "dealer": s.dealer,
        "hand": s.hand,
    }
    s.turn, s.drawn, s.last_drawn, s.claims, s.phase = None, None, None, None, "hand_over"
    return [Effect("hand_over", None, None, s.last_settlement)]


def _confirm_win(s: TableState, ev: ConfirmWin) -> Effects:
    p = s.pending
    assert p is not None
    seat, kind, tile, frm = p["seat"], p["kind"], p["tile"], p["from"]
    st = s.seats[seat]
    wait, bonus = _judge_wait(s, st, seat, tile, kind, ev)
    # the winning tile joins the winner's hand
    if frm is not None:
        giver = s.seats[frm]
        if kind == "discard":
            giver.discards.pop()
        else:  # robbed kong: the tile leaves the declarer's concealed hand
            giver.count -= 1
            if giver.concealed is not None and tile is not None:
                giver.concealed[tile] -= 1
        st.count += 1
        if st.concealed is not None and tile is not None:
            st.concealed[tile] += 1
    how = {"discard": "discard", "robbed_kong": "robbed_kong"}.get(kind, "self_drawn")
    wins = win_transfers(
        seat,
        how,
        base=s.base,
        rules=s.rules,
        wait_bonus=bonus,
        discarder=frm,
        after_kong=kind == "kong_bloom",
        heavenly=kind == "heavenly",
        bets=s.bets,
    )
    _settle_now(s, wins)
    s.last_settlement = {
        "result": "win",
        "winner": seat,
        "kind": kind,
        "wait": wait,
        "bonus": bonus,
        "from": frm,
        "transfers": [t.to_json() for t in s.hand_transfers],
        "deltas": deltas(s.hand_transfers),
        "dealer": s.dealer,
        "hand": s.hand,
    }
    s.pending, s.claims, s.turn, s.drawn, s.last_drawn, s.phase = None, None, None, None, None, "hand_over"
    return [Effect("hand_over", seat, tile, s.last_settlement)]


def _judge_wait(
    s: TableState, st: SeatState, seat: int, tile: Tile | None, kind: str, ev: ConfirmWin
) -> tuple[str, bool]:
    """The confirmed wait and whether it earns the bonus; a false hand is refused."""
    add = tile if kind in ("discard", "robbed_kong") else None
    if st.concealed is not None and tile is not None:  # full-tile mode: the engine knows the hand
        hand = list(st.concealed)
        if add is not None:
            hand[add] += 1
        a = analyse_win(hand, tile, st.meld_tiles(), s.rules)
        if not a.winning or a.wait is None:
            raise _refuse(s, seat, f"cannot confirm the win: its hand {_hand_text(st)} does not win")
        if ev.hand is not None and (hand_counts(ev.hand) != hand or ev.win_tile != tile):
            held = format_tiles(t for t in range(34) for _ in range(hand[t]))
            raise _refuse(
                s,
                seat,
                f"cannot confirm the win with hand {ev.hand!r}: the table holds {held} winning on {tile_text(tile)}",
            )
        if ev.wait is not None and ev.wait != a.wait:
            raise _refuse(s, seat, f"cannot confirm a {ev.wait} wait: the hand reads as {a.wait} on {tile_text(tile)}")
        return a.wait, a.bonus
    if ev.wait is not None:
        return ev.wait, ev.wait in ("closed", "single") or (ev.wait == "edge" and s.rules.edge_wait_bonus)
    if ev.hand is None or ev.win_tile is None:
        raise _refuse(s, seat, "cannot confirm the win without its 'wait' or its 'hand' and 'win_tile' (tracked mode)")
    if tile is not None and ev.win_tile != tile:
        raise _refuse(
            s, seat, f"cannot confirm a win on {tile_text(ev.win_tile)}: the winning tile was {tile_text(tile)}"
        )
    try:
        melds = [parse_meld(m) for m in ev.melds] if ev.melds is not None else None
        if melds is None:
            if any(m.tiles is None for m in st.melds):
                raise _refuse(
                    s,
                    seat,
                    f"cannot check the hand: give its {len(st.melds)} melds ('melds');"
                    " the table does not know their tiles",
                )
            melds = st.meld_tiles()
        if len(melds) != len(st.melds):
            raise _refuse(
                s, seat, f"cannot confirm the win with {len(melds)} melds: seat {seat} has {len(st.melds)} on the table"
            )
        known = sorted(m.tiles for m in st.melds if m.tiles is not None)
        if len(known) == len(melds) and sorted(tuple(sorted(m)) for m in melds) != known:
            raise _refuse(
                s,
                seat,
                f"cannot confirm the win with melds {list(ev.melds or ())}:"
                f" the table shows {[format_tiles(m) for m in known]}",
            )
        a = analyse_win(ev.hand, ev.win_tile, melds, s.rules)
    except (HandError, TileError) as e:
        raise _refuse(s, seat, f"cannot confirm the win: {e}") from None
    if not a.winning or a.wait is None:
        raise _refuse(
            s,
            seat,
            f"cannot confirm the win: {ev.hand} with {tile_text(ev.win_tile)} is not a winning hand"
            " (reject_win takes it back)",
        )
    return a.wait, a.bonus


def _reject_win(s: TableState, ev: RejectWin) -> Effects:
    """A false win: play resumes exactly as before it (a false claim becomes a pass)."""
    p = s.pending
    assert p is not None
    s.pending = None
    effects = [Effect("win_withdrawn", p["seat"], None, p["kind"])]
    if p["prior"] == "turn":
        s.phase = "turn"
        return [*effects, Effect("to_move", p["seat"], data="discard")]
    c = s.claims
    assert c is not None
    c["answers"][p["seat"]] = "pass"
    s.phase = "claims"
    return effects + _resolve_if_answered(s)


def _next_hand(s: TableState, ev: NextHand) -> Effects:
    """Dealer rotation (§4): the dealer keeps the deal on a win or a drawn hand, else its 下家 deals."""
    assert s.dealer is not None
    last = s.last_settlement
    if last is None or last["winner"] is None or last["winner"] == s.dealer:
        s.dealer_streak += 1
    else:
        s.dealer = (s.dealer + 1) % SEATS
        s.passes += 1
        s.dealer_streak = 0
    s.hand += 1
    s.bets = [0, 0, 0, 0]
    s.dice_dealer = s.dice_owner = None
    s.wall = WallState()
    s.wall_tiles = None
    s.seats = [SeatState() for _ in range(SEATS)]
    s.kongs, s.discards_made, s.hand_transfers = 0, 0, []
    s.turn = s.drawn = s.last_drawn = s.claims = s.pending = None
    s.phase = "betting"
    return [Effect("to_move", s.dealer, data="roll")]


def _end_session(s: TableState, ev: EndSession) -> Effects:
    s.phase = "ended"
    s.turn = s.claims = s.pending = None
    return [Effect("session_ended")]


# --- the phase-transition table ----------------------------------------------------------

Handler = Callable[[TableState, Any], Effects]

_ANY_SESSION: Final = ("seating", "betting", "rolling", "turn", "claims", "win_pending", "hand_over")

# fmt: off
# phase          event           handler             next phase(s)
_TABLE: Final[list[tuple[str, str, Handler, str]]] = [
    ("seating",     "seating",     _seating,     "betting"),
    ("betting",     "bets",        _bets,        "rolling"),
    ("betting",     "roll",        _roll,        "rolling"),
    ("rolling",     "bets",        _bets,        "rolling (only before the first roll)"),
    ("rolling",     "roll",        _roll,        "rolling, then turn (the deal)"),
    ("turn",        "discard",     _discard,     "claims"),
    ("turn",        "kong",        _kong,        "turn (replacement drawn) | claims (added kong: 抢杠 window)"),
    ("turn",        "win",         _win,         "win_pending"),
    ("claims",      "claim",       _claim,       "claims | when all have answered, as resolve"),
    ("claims",      "pass",        _pass,        "claims | when all have answered, as resolve"),
    ("claims",      "resolve",     _resolve,     "win_pending | turn | hand_over (荒牌)"),
    ("win_pending", "confirm_win", _confirm_win, "hand_over"),
    ("win_pending", "reject_win",  _reject_win,  "turn | claims | as resolve"),
    ("hand_over",   "next_hand",   _next_hand,   "betting"),
    *[(p, "end_session", _end_session, "ended") for p in _ANY_SESSION],
    *[(p, "new_session", _new_session, "seating") for p in ("idle", *_ANY_SESSION, "ended")],
]
# fmt: on

TRANSITIONS: Final[dict[tuple[str, str], Handler]] = {(p, e): h for p, e, h, _ in _TABLE}
"""(phase, event type) -> handler; an event its phase does not list is refused."""
