"""The table state machine (docs/rules.md §2–§12): ``apply(state, event) -> (new_state, effects)``.

Pure and deterministic: no I/O, no clock, no randomness but the ``wall_seed`` an event
carries. Every handler validates the event completely before it changes anything, so an
event that raises a :class:`RuleError` leaves the state exactly as it was. Two entry points
share the handlers (docs/design.md: python-chess's ``Board.push`` is the model):

- :func:`apply` never changes the state it is given: it copies it, then pushes the event
  onto the copy — what the service and the tools use;
- :func:`push` changes the state in place — what the self-play simulator uses, where a
  copy per event would cost more than the event.

One code path serves both modes. In *tracked* mode (the physical table) tiles are only
counted; in *full-tile* mode (``new_session`` with ``wall_seed``) the wall is shuffled from
the seed, every tile is placed in the ring and events' tiles are checked against the hands.

>>> s = replay([
...     {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
...     {"type": "seating", "method": "C", "east": 0},
...     {"type": "roll", "dice": [4, 6]},
...     {"type": "roll", "dice": [2, 3]},
... ])
>>> s.phase, s.turn, s.breakpoint.to_json(), s.wall.head_taken
('turn', 0, {'owner': 1, 'count': 15, 'wall': 1, 'stack': 15}, 53)
>>> apply(s, {"type": "discard", "seat": 2})
Traceback (most recent call last):
...
engine.errors.IllegalEventError: turn: seat 2 cannot discard: it is seat 0's turn
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields
from typing import Any, Final

from engine.claims import check_not_restated, on_claim, on_pass, on_resolve
from engine.errors import IllegalEventError, InvalidEventError, RuleError  # noqa: F401  (re-exported)
from engine.events import (
    Bets,
    Claim,
    EndSession,
    Event,
    Fee,
    Kong,
    Name,
    NewSession,
    NextHand,
    Roll,
    Seating,
    parse_event,
)
from engine.moves import (
    Effect,
    Effects,
    check_turn,
    draw,
    need_tile,
    on_discard,
    open_claims,
    pong_for,
    refuse,
    settle_now,
)
from engine.records import PHASES, Settlement
from engine.scoring import kong_transfers
from engine.seating import seated, tied_seats
from engine.seats import SEAT_RANGE, SEATS, next_seat, seat_counting
from engine.session_events import check_seated_once
from engine.state import Meld, SeatState, TableState
from engine.tiles import tile_text
from engine.wall import DEALT, REPLACEMENT_LAYER, WallState, break_point, deal_slots, shuffled_wall
from engine.wins import on_confirm_win, on_reject_win, on_score_hand, on_win

__all__ = ["Effect", "TableState", "accepts", "apply", "check_new_event", "new_table", "push", "replay"]


# --- the state machine's entry points --------------------------------------------------


def new_table() -> TableState:
    """A table before any ``new_session`` (phase ``idle``: it accepts only ``new_session``)."""
    return TableState()


def apply(state: TableState, event: Event | Mapping[str, object]) -> tuple[TableState, list[Effect]]:
    """Apply one new event; the new state and the effects. Raises :class:`RuleError` if refused
    (a new event's own checks too: :meth:`Event.check_new`). ``state`` itself is never changed."""
    ev = parse_event(event)
    check_new_event(state, ev)
    handler = _handler(state, ev)
    new = state.copy()
    return new, handler(new, ev)


def check_new_event(state: TableState, ev: Event) -> None:
    """What a new event must pass beyond what a journaled one did, in ``state`` (a replay does
    not ask: an old journal is read as it was written): the event's own checks
    (:meth:`Event.check_new`), a claim not said twice (docs/rules.md §17) and a
    name that seats no player twice. :func:`apply` and
    every press (``engine.presses``) ask it."""
    ev.check_new()
    if isinstance(ev, Claim):
        check_not_restated(state, ev)
    elif isinstance(ev, Name):  # (the named seat's new player is nobody else's seat)
        players, ids = list(state.players), list(state.player_ids)
        players[ev.seat], ids[ev.seat] = ev.name, ev.player_id
        check_seated_once(players, ids, ev.TYPE, only=ev.seat)


def push(state: TableState, event: Event | Mapping[str, object]) -> list[Effect]:
    """Apply one event to ``state`` in place; the effects. Raises :class:`RuleError` if
    refused, and then ``state`` is exactly as it was.

    >>> s = new_table()
    >>> push(s, {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}), s.phase
    ([], 'seating')
    >>> push(s, {"type": "roll", "dice": [3, 4]})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.errors.IllegalEventError: seating: cannot roll now (this phase accepts: seating, end_session, ...)
    >>> s.phase
    'seating'
    """
    ev = event if isinstance(event, Event) else parse_event(event)
    handler = _BY_PHASE[state.phase].get(ev.TYPE)
    if handler is None:
        handler = _handler(state, ev)  # raises
    return handler(state, ev)


def _handler(state: TableState, ev: Event) -> Handler:
    handler = TRANSITIONS.get((state.phase, ev.TYPE))
    if handler is None:
        who = f"seat {ev.seat_of} cannot {ev.TYPE}" if ev.seat_of is not None else f"cannot {ev.TYPE}"
        accepted = ", ".join(t for (p, t) in TRANSITIONS if p == state.phase)
        raise IllegalEventError(
            f"{state.phase}: {who} now (this phase accepts: {accepted})",
            "phase",
            seat=ev.seat_of,
            phase=state.phase,
            event=ev.TYPE,
        )
    return handler


def replay(events: Iterable[Event | Mapping[str, object]], state: TableState | None = None) -> TableState:
    """Apply events in order from ``state`` (a fresh table by default; ``state`` itself is not
    changed); the final state."""
    s = state.copy() if state is not None else new_table()
    for ev in events:
        push(s, ev)
    return s


# --- session, seating, bets, dice, the deal -----------------------------------------------


def on_new_session(s: TableState, ev: NewSession) -> Effects:
    """Start over: every field as a new table's, but the session's own."""
    fresh = TableState(
        phase="seating", players=list(ev.players), base=ev.base, rules=ev.rule_set, wall_seed=ev.wall_seed, hand=1
    )
    if ev.player_ids is not None:
        fresh.player_ids = list(ev.player_ids)
    fresh.fee = ev.fee
    for f in fields(TableState):
        setattr(s, f.name, getattr(fresh, f.name))
    return []


def on_seating(s: TableState, ev: Seating) -> Effects:
    if ev.method == "B":
        assert ev.rolls is not None
        groups = tied_seats(ev.rolls)
        if groups:
            text = "; ".join(f"seats {', '.join(map(str, g))} all rolled {v}" for v, g in groups.items())
            raise refuse(
                s,
                None,
                f"seating by method B has ties ({text}): the tied seats roll again among themselves",
                "seating.ties",
                tied=sorted(seat for g in groups.values() for seat in g),
            )
    # East keeps its place; after rolls (B) or drawn winds (C) the others move so that the
    # winds follow the seat order (§2, §3): engine.seating says where each goes.
    result = seated(ev)
    s.players = result.players(s.players)
    s.player_ids = result.players(s.player_ids)  # (the roster's ids move with their players)
    s.east = s.dealer = result.east
    s.phase = "betting"
    return [Effect("to_move", result.east, data="roll")]


def on_bets(s: TableState, ev: Bets) -> Effects:
    if s.dice_dealer is not None:
        raise refuse(
            s, None, "bets come before the hand's first roll; the dealer has already rolled", "bets.after_roll"
        )
    s.bets = list(ev.bets)
    s.phase = "rolling"
    return []


def on_roll(s: TableState, ev: Roll) -> Effects:
    assert s.dealer is not None
    if s.dice_dealer is None:
        if ev.seat is not None and ev.seat != s.dealer:
            raise refuse(
                s,
                ev.seat,
                f"cannot roll first: the dealer, seat {s.dealer}, rolls to choose the wall",
                "roll.not_dealer",
                dealer=s.dealer,
            )
        s.dice_dealer = ev.dice
        s.phase = "rolling"
        return [Effect("to_move", seat_counting(s.dealer, sum(ev.dice)), data="roll")]
    owner = seat_counting(s.dealer, sum(s.dice_dealer))
    if ev.seat is not None and ev.seat != owner:
        raise refuse(
            s,
            ev.seat,
            f"cannot roll now: the dealer rolled {sum(s.dice_dealer)}, so the wall owner, seat {owner}, rolls next",
            "roll.not_owner",
            owner=owner,
        )
    s.dice_owner = ev.dice
    s.breakpoint = break_point(s.dealer, s.dice_dealer, ev.dice, s.rules.wall_direction)
    return deal(s)


def deal(s: TableState) -> Effects:
    """The deal (docs/rules.md §7): a new wall broken at the break point, laid out once by draw slot
    in full-tile mode; 53 tiles from its head, 14 to the dealer, 13 to each other seat."""
    bp = s.breakpoint
    assert s.dealer is not None and bp is not None
    s.wall_tiles = shuffled_wall(s.wall_seed, s.hand) if s.wall_seed is not None else None
    s.wall = wall = WallState(None if s.wall_tiles is None else bp.in_draw_order(s.wall_tiles))
    s.seats = seats = [SeatState(full=wall.tiles is not None) for _ in SEAT_RANGE]
    wall.take_first(DEALT)  # the deal takes the first 53 slots (§7; deal_slots gives the order)
    for seat, slot in _DEAL_ORDER[s.dealer]:
        seats[seat].count += 1
        conc = seats[seat].concealed
        if conc is not None and wall.tiles is not None:
            conc[wall.tiles[slot]] += 1
    s.last_drawn = None if wall.tiles is None else wall.tiles[_DEALERS_14TH]
    s.turn, s.drawn, s.phase = s.dealer, "deal", "turn"
    s.kongs, s.discards_made, s.claims, s.pending, s.hand_transfers = 0, 0, None, None, []
    return [Effect("dealt", s.dealer, data=bp.to_json()), Effect("to_move", s.dealer, data="discard")]


_DEAL_ORDER: Final = tuple(tuple(deal_slots(dealer)) for dealer in SEAT_RANGE)
"""For each dealer, who takes which slot in the deal: the first 53 slots (``take_first``)."""
assert all(sorted(slot for _, slot in order) == list(range(DEALT)) for order in _DEAL_ORDER)
_DEALERS_14TH: Final = [slot for seat, slot in deal_slots(0) if seat == 0][-1]
"""The dealer's last dealt tile, the jump tile: a 天胡's winning tile (docs/rules.md §17)."""


# --- the player to move: discard, kong -----------------------------------------------------


def on_kong(s: TableState, ev: Kong) -> Effects:
    st = check_turn(s, ev.seat, f"declare a {ev.kind} kong")
    if s.drawn is None:  # docs/rules.md §17: a kong only after a draw
        raise refuse(
            s,
            ev.seat,
            f"cannot declare a {ev.kind} kong: it took this turn with a pong or chow and drew nothing",
            "kong.nothing_drawn",
            kind=ev.kind,
        )
    need_tile(s, ev.seat, ev.tile, f"declare a {ev.kind} kong")
    if s.wall.remaining == 0:
        raise refuse(s, ev.seat, "cannot declare a kong: no tile is left for its replacement draw", "kong.wall_empty")
    tile = ev.tile
    if ev.kind == "concealed":
        if st.count < 4:
            raise refuse(
                s,
                ev.seat,
                f"cannot declare a concealed kong: it holds only {st.count} concealed tiles",
                "kong.too_few",
                held=st.count,
            )
        if st.concealed is not None and tile is not None and st.concealed[tile] != 4:
            raise refuse(
                s,
                ev.seat,
                f"cannot declare a concealed kong of {tile_text(tile)}: it holds {st.concealed[tile]} of them",
                "kong.not_four",
                tile=tile_text(tile),
                held=st.concealed[tile],
            )
        paid = kong_transfers(ev.seat, "concealed", base=s.base, rules=s.rules)
        st.count -= 4
        if st.concealed is not None and tile is not None:
            st.concealed[tile] -= 4
        st.melds.append(Meld("kong", None if tile is None else (tile,) * 4, "concealed"))
        s.kongs += 1
        settle_now(s, paid)
        return [Effect("kong", ev.seat, tile, "concealed"), draw(s, ev.seat, REPLACEMENT_LAYER["concealed"])]
    # added kong (加杠): others may rob it before the replacement draw
    if not s.rules.added_kong:
        raise refuse(s, ev.seat, "cannot declare an added kong: the rule option added_kong is off", "kong.added_off")
    pong_for(s, st, ev.seat, tile)
    if st.concealed is not None and tile is not None and st.concealed[tile] == 0:
        raise refuse(
            s,
            ev.seat,
            f"cannot add {tile_text(tile)} to its pong: it does not hold that tile",
            "kong.not_held",
            tile=tile_text(tile),
        )
    s.claims = open_claims("rob", ev.seat, tile)
    s.phase = "claims"
    return [Effect("claims_open", ev.seat, tile, "rob")]


# --- the next hand, the end ---------------------------------------------------------------


def on_next_hand(s: TableState, ev: NextHand) -> Effects:
    """Dealer rotation (§4): the dealer keeps the deal on a win or a drawn hand, else its 下家 deals."""
    assert s.dealer is not None
    dealer = dealer_after(s.dealer, s.last_settlement)
    if dealer == s.dealer:
        s.dealer_streak += 1
    else:
        s.dealer = dealer
        s.passes += 1
        s.dealer_streak = 0
    s.hand += 1
    s.bets = [0] * SEATS
    s.dice_dealer = s.dice_owner = s.breakpoint = None
    s.wall = WallState()
    s.wall_tiles = None
    s.seats = [SeatState() for _ in SEAT_RANGE]
    s.kongs, s.discards_made, s.hand_transfers = 0, 0, []
    s.turn = s.drawn = s.last_drawn = s.claims = s.pending = None
    s.phase = "betting"
    return [Effect("to_move", s.dealer, data="roll")]


def dealer_after(dealer: int, last: Settlement | None) -> int:
    """Who deals after a hand (docs/rules.md §4): the dealer again when it won or nobody did, else its 下家.

    >>> dealer_after(2, None), dealer_after(2, {"winner": 0}), dealer_after(2, {"winner": 2})
    (2, 3, 2)
    """
    return dealer if last is None or last["winner"] in (None, dealer) else next_seat(dealer)


def on_name(s: TableState, ev: Name) -> Effects:
    """A seat's player gives their name (any phase before a hand is dealt or after it is over)."""
    s.players[ev.seat] = ev.name
    s.player_ids[ev.seat] = ev.player_id  # (another name is another player: no id without the roster's)
    return [Effect("named", ev.seat, data=ev.name)]


def on_fee(s: TableState, ev: Fee) -> Effects:
    """The session's fee from now on (docs/rules.md "Fees"): the bill at its end uses it for the whole session."""
    s.fee = ev.fee
    return [Effect("fee", data=None if ev.fee is None else ev.fee.to_json())]


def on_end_session(s: TableState, ev: EndSession) -> Effects:
    s.phase = "ended"
    s.turn = s.claims = s.pending = None
    s.seconds = ev.seconds
    return [Effect("session_ended")]


# --- the phase-transition table ----------------------------------------------------------

Handler = Callable[[TableState, Any], Effects]

_ANY_SESSION: Final = ("seating", "betting", "rolling", "turn", "claims", "win_pending", "hand_over")

# fmt: off
# phase        event          handler         next phase(s)
_TABLE: Final[list[tuple[str, str, Handler, str]]] = [
    ("seating",     "seating",     on_seating,     "betting"),
    ("betting",     "bets",        on_bets,        "rolling"),
    ("betting",     "roll",        on_roll,        "rolling"),
    ("rolling",     "bets",        on_bets,        "rolling (only before the first roll)"),
    ("rolling",     "roll",        on_roll,        "rolling, then turn (the deal)"),
    ("turn",        "discard",     on_discard,     "claims"),
    ("turn",        "kong",        on_kong,        "turn (replacement drawn) | claims (added kong: 抢杠 window)"),
    ("turn",        "win",         on_win,         "win_pending"),
    ("claims",      "claim",       on_claim,       "claims | when all have answered, as resolve"),
    ("claims",      "pass",        on_pass,        "claims | when all have answered, as resolve"),
    ("claims",      "resolve",     on_resolve,     "win_pending | turn | hand_over (荒牌)"),
    ("win_pending", "confirm_win", on_confirm_win, "hand_over"),
    ("win_pending", "reject_win",  on_reject_win,  "turn | claims | as resolve"),
    ("hand_over",   "next_hand",   on_next_hand,   "betting"),
    ("betting",     "score_hand",  on_score_hand,  "hand_over (score-only mode: engine/scored.py)"),
    *[(p, "end_session", on_end_session, "ended") for p in _ANY_SESSION],
    *[(p, "fee", on_fee, p + " (the same)") for p in _ANY_SESSION],
    *[(p, "name", on_name, p + " (the same)") for p in ("seating", "betting", "hand_over")],
    *[(p, "new_session", on_new_session, "seating") for p in ("idle", *_ANY_SESSION, "ended")],
]
# fmt: on

TRANSITIONS: Final[dict[tuple[str, str], Handler]] = {(p, e): h for p, e, h, _ in _TABLE}
"""(phase, event type) -> handler; an event its phase does not list is refused."""

_BY_PHASE: Final[dict[str, dict[str, Handler]]] = {
    phase: {e: h for (p, e), h in TRANSITIONS.items() if p == phase} for phase in PHASES
}
"""``TRANSITIONS`` by phase, then event type: what ``push`` looks up (no key tuple per event)."""


def accepts(phase: str) -> tuple[str, ...]:
    """The event types ``phase`` takes: its rows of the transition table (an unknown phase
    takes none). The web pages ask it which of the table's own steps to offer.

    >>> accepts("hand_over")
    ('next_hand', 'end_session', 'fee', 'name', 'new_session')
    >>> "name" in accepts("turn"), accepts("nowhere")
    (False, ())
    """
    return tuple(_BY_PHASE.get(phase, ()))
