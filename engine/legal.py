"""What each seat may do now: the engine's one answer (python-chess's ``legal_moves`` is the model).

:func:`legal_moves` lists every event a seat may make in the table's current state — in
full-tile mode with its tiles (each discard, each kong, each chow's pair), in tracked mode
in the forms the engine can check (no tiles). :func:`actions` sums them up by kind for the
public state (docs/design.md, ``actions``): the touchscreen's buttons, the seat displays, the
phones, the bots and the button mapping all read it; none of them re-derives a rule.

The handlers of ``engine.table`` accept exactly these events (a property test walks whole
sessions in both modes and checks that every listed move is accepted and every other one
refused).

>>> from engine.table import replay
>>> s = replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
...             {"type": "seating", "method": "C", "east": 0},
...             {"type": "roll", "dice": [4, 6]}, {"type": "roll", "dice": [2, 3]},
...             {"type": "discard", "seat": 0}])
>>> for seat_actions in actions(s):
...     print(seat_actions)
[]
['claim:win', 'claim:kong', 'claim:pong', 'claim:chow', 'pass']
['claim:win', 'claim:kong', 'claim:pong', 'pass']
['claim:win', 'claim:kong', 'claim:pong', 'pass']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.claims import HELD_FOR, restates
from engine.events import Claim, Discard, Event, Kong, Pass, Win
from engine.hand import is_complete
from engine.records import ACTIONS, CALLS, Action, ClaimKind
from engine.rules import Rules
from engine.seats import OTHERS, SEAT_RANGE, SEATS, next_seat, seat_counting
from engine.state import TableState
from engine.tiles import ALL_TILES, CHOW_PAIRS, COPIES, NUM_KINDS, Tile

__all__ = ["ACTIONS", "Action", "action_of", "actions", "claim_moves", "claimants", "legal_moves",
           "may_still_claim", "roller", "turn_moves"]

Counts = bytes | bytearray | Sequence[int]

# Events are plain, immutable values: every move of every seat is built once, here, and
# handed out as it is (building and checking one per move would cost more than the move).
_ANY: Final = NUM_KINDS  # the index of "no tile named" (tracked mode)
_DISCARD: Final = tuple(tuple(Discard(seat, t) for t in (*ALL_TILES, None)) for seat in SEAT_RANGE)
_KONG: Final = tuple({kind: tuple(Kong(seat, kind, t) for t in (*ALL_TILES, None))
                      for kind in ("concealed", "added")} for seat in SEAT_RANGE)
_WIN: Final = tuple(Win(seat) for seat in SEAT_RANGE)
_PASS: Final = tuple(Pass(seat) for seat in SEAT_RANGE)
_CLAIM: Final = tuple({call: Claim(seat, call) for call in CALLS} for seat in SEAT_RANGE)
_CHOW: Final = tuple(tuple(tuple(Claim(seat, "chow", pair) for pair in CHOW_PAIRS[t]) for t in ALL_TILES)
                     for seat in SEAT_RANGE)


def roller(s: TableState) -> int | None:
    """The seat due to roll (phases ``betting`` and ``rolling``): the dealer, then the wall
    owner — the seat reached counting the dealer's roll from the dealer (docs/rules.md §6).

    >>> from engine.table import replay
    >>> s = replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
    ...             {"type": "seating", "method": "C", "east": 2}])
    >>> roller(s), roller(replay([{"type": "roll", "dice": [3, 1]}], s))
    (2, 1)
    """
    if s.phase not in ("betting", "rolling") or s.dealer is None:
        return None
    if s.dice_dealer is None:
        return s.dealer
    return seat_counting(s.dealer, sum(s.dice_dealer))


def legal_moves(s: TableState, seat: int) -> list[Event]:
    """Every event ``seat`` may make now (not ``roll``: see :func:`roller`; not the table's own
    ``resolve``, ``confirm_win``, ``next_hand``…, which belong to no seat)."""
    if s.phase == "turn":
        return _own_turn(s, seat) if seat == s.turn else []
    if s.phase == "claims":
        return _claims(s, seat)
    return []


def actions(s: TableState) -> list[list[Action]]:
    """For each seat, the kinds of what it may do now (docs/design.md ``actions``), in ``ACTIONS`` order."""
    out: list[list[Action]] = [[] for _ in range(SEATS)]
    for seat in SEAT_RANGE:
        kinds = {action_of(m) for m in legal_moves(s, seat)}
        if roller(s) == seat:
            kinds.add("roll")
        out[seat] = [a for a in ACTIONS if a in kinds]
    return out


def action_of(event: Event) -> Action:
    """The action an event is (``Claim(call="pong")`` is ``claim:pong``)."""
    if isinstance(event, Claim):
        return f"claim:{event.call}"  # type: ignore[return-value]
    kind: Action = event.TYPE  # type: ignore[assignment]
    return kind


def claimants(s: TableState) -> list[int]:
    """The seats, nearest the open claim's source first, with anything but a pass among
    their legal moves (the seats a table would wait for)."""
    c = s.claims
    if s.phase != "claims" or c is None:
        return []
    return [seat for seat in OTHERS[c["from"]] if len(_claim_options(s, seat)) > 1]  # (a pass is always among them)


def may_still_claim(s: TableState, besides: int) -> list[int]:
    """The seats but ``besides`` that have not answered the open claims and may claim something
    (their ``actions`` hold a claim): the seats the 下家's TURN waits for (docs/rules.md §17).

    >>> from engine.table import replay
    >>> s = replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
    ...             {"type": "seating", "method": "C", "east": 0},
    ...             {"type": "roll", "dice": [4, 6]}, {"type": "roll", "dice": [2, 3]},
    ...             {"type": "discard", "seat": 0}])
    >>> may_still_claim(s, 1), may_still_claim(replay([{"type": "pass", "seat": 2}], s), 1)
    ([2, 3], [3])
    """
    c = s.claims
    if c is None:
        return []
    return [seat for seat in claimants(s) if seat != besides and c["answers"][seat] is None]


# --- the player to move --------------------------------------------------------------------


def _own_turn(s: TableState, seat: int) -> list[Event]:
    st = s.seats[seat]
    pongs = [None if m.tiles is None else m.tiles[0] for m in st.melds if m.kind == "pong"]
    return turn_moves(seat, st.concealed, st.count, len(st.melds), pongs, s.drawn is not None, s.wall.remaining,
                      s.rules)


def turn_moves(seat: int, conc: Counts | None, count: int, melds: int, pongs: Sequence[Tile | None], drawn: bool,
               wall_remaining: int, rules: Rules) -> list[Event]:
    """The moves of the player to move, from what that player knows: its concealed counts
    (None in tracked mode) or their number, how many melds it has and the tiles of its pongs
    (None where not known), whether it began the turn with a draw, the tiles left in the wall."""
    discards = _DISCARD[seat]
    moves: list[Event] = [discards[_ANY]] if conc is None else [discards[t] for t in ALL_TILES if conc[t]]
    if not drawn:  # docs/rules.md §17: after a pong or chow nothing was drawn: discard only
        return moves
    if wall_remaining > 0:  # a kong needs its replacement tile
        kongs = _KONG[seat]
        if conc is None:  # tracked: the engine counts tiles, it cannot tell which
            if count >= COPIES:
                moves.append(kongs["concealed"][_ANY])
            if pongs and rules.added_kong and count >= 1:
                moves.append(kongs["added"][_ANY])
        else:
            moves += [kongs["concealed"][t] for t in ALL_TILES if conc[t] == COPIES]
            if rules.added_kong:
                moves += [kongs["added"][t] for t in pongs if t is not None and conc[t]]
    if conc is None or is_complete(conc, melds, rules.seven_pairs):
        moves.append(_WIN[seat])
    return moves


# --- claims on a discard or an added kong's tile ---------------------------------------------


def _claims(s: TableState, seat: int) -> list[Event]:
    """A seat's answers now: what it may claim, less the claim it has already made (§17); none
    for the 下家 whose draw is held (it has drawn: its answer stands, §17)."""
    c = s.claims
    if c is not None and c["held"] == seat:
        return []
    moves = _claim_options(s, seat)
    if c is None or c["answers"][seat] in (None, "pass"):
        return moves
    return [m for m in moves if not (isinstance(m, Claim) and restates(s, m))]


def _claim_options(s: TableState, seat: int) -> list[Event]:
    c = s.claims
    assert c is not None
    st = s.seats[seat]
    return claim_moves(seat, st.concealed, st.count, len(st.melds), c["kind"], c["from"], c["tile"],
                       s.wall.remaining, s.rules)


def claim_moves(seat: int, conc: Counts | None, count: int, melds: int, kind: ClaimKind, frm: int, tile: Tile | None,
                wall_remaining: int, rules: Rules) -> list[Event]:
    """A seat's answers to open claims (``kind`` discard or rob, ``frm`` the seat they are on,
    ``tile`` if known), from what that seat knows; a pass is always among them."""
    if seat == frm:
        return []
    moves: list[Event] = []
    claim = _CLAIM[seat]
    # tracked mode: the players' word, checked when the win is confirmed
    if conc is None or tile is None or _wins_with(conc, melds, tile, rules.seven_pairs):
        moves.append(claim["win"])
    if kind == "discard":
        held = count if conc is None or tile is None else conc[tile]
        if held >= HELD_FOR["pong"]:
            moves.append(claim["pong"])
        if held >= HELD_FOR["kong"] and wall_remaining > 0:
            moves.append(claim["kong"])
        if seat == next_seat(frm) and count >= HELD_FOR["chow"]:  # only the discarder's 下家 may chow (§8)
            if conc is None or tile is None:
                if tile is None or CHOW_PAIRS[tile]:
                    moves.append(claim["chow"])
            else:
                moves += [ev for (a, b), ev in zip(CHOW_PAIRS[tile], _CHOW[seat][tile], strict=True)
                          if conc[a] and conc[b]]
    moves.append(_PASS[seat])
    return moves


def _wins_with(conc: Counts, melds: int, tile: Tile, seven_pairs: bool) -> bool:
    """Whether the hand wins with one more ``tile`` (the hand itself is not changed)."""
    hand = bytearray(conc)
    hand[tile] += 1
    return is_complete(hand, melds, seven_pairs)
