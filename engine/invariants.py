"""The table's invariants (docs/simulation.md), one plain function each: the self-play
simulator checks them after every hand (and the draw at the reserve after every discard
nobody claimed). Each returns what is wrong, in words, or ``None`` when the invariant holds.

>>> from engine.simulate import SimConfig, simulate
>>> s = simulate(SimConfig(hands=1, seed=3)).final_state
>>> assert s is not None and s.last_settlement is not None
>>> tiles_conserved(s), hand_sizes(s, s.last_settlement["winner"])
(None, None)
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.records import Settlement
from engine.scoring import Transfer
from engine.seats import SEAT_RANGE, next_seat
from engine.state import TableState
from engine.tiles import ALL_TILES, COPIES, HAND_TILES, NUM_KINDS, tile_text
from engine.wall import TILES

HELD: int = HAND_TILES - 1
"""Tiles every seat holds between turns, a kong counted as three; the winner holds one more."""


def tiles_conserved(s: TableState) -> str | None:
    """Full-tile mode: every tile is in the wall, a hand, a meld or a river — four of each."""
    wall = s.wall
    if wall.tiles is None:
        return "full-tile mode lost its wall"
    counts = [0] * NUM_KINDS
    for slot, tile in enumerate(wall.tiles):
        if not wall.taken[slot]:
            counts[tile] += 1
    if sum(counts) != wall.remaining:
        return f"the wall holds {sum(counts)} tiles but counts {wall.remaining} remaining"
    for seat, st in enumerate(s.seats):
        if st.concealed is None:
            return f"seat {seat}'s tiles are unknown in full-tile mode"
        for t in ALL_TILES:
            counts[t] += st.concealed[t]
        for meld in st.melds:
            if meld.tiles is None:
                return f"seat {seat} has a meld of unknown tiles in full-tile mode"
            for t in meld.tiles:
                counts[t] += 1
        for discard in st.discards:
            if discard is None:
                return f"seat {seat} discarded an unknown tile in full-tile mode"
            counts[discard] += 1
    wrong = [f"{n} of {tile_text(t)}" for t, n in enumerate(counts) if n != COPIES]
    return f"tiles not conserved: {', '.join(wrong)} (want {COPIES} each)" if wrong else None


def hand_sizes(s: TableState, winner: int | None) -> str | None:
    """Each seat's concealed count is the tiles it holds, and it holds 13 tiles (a kong
    counted as three) — the winner 14."""
    for seat, st in enumerate(s.seats):
        if st.concealed is not None and sum(st.concealed) != st.count:
            return f"seat {seat} counts {st.count} concealed tiles but holds {sum(st.concealed)}"
        want = HELD + 1 if seat == winner else HELD
        if st.size != want:
            return f"seat {seat} holds {st.size} tiles (a kong as three), not {want}"
    return None


def settlement_adds_up(last: Settlement, hand_transfers: Sequence[Transfer]) -> str | None:
    """The settlement lists the hand's transfers, each a positive payment between two seats;
    its deltas are their sums per seat and add up to zero; a drawn hand pays only kongs, and
    a winner is paid for the win."""
    transfers = last["transfers"]
    if transfers != [t.to_json() for t in hand_transfers]:
        return f"the settlement's transfers {transfers} are not the hand's {hand_transfers}"
    if any(t["amount"] <= 0 or t["from"] == t["to"] for t in transfers):
        return f"a transfer is not a positive payment between two seats: {transfers}"
    deltas = last["deltas"]
    if sum(deltas) != 0:
        return f"the settlement does not sum to zero: deltas {deltas}"
    sums = [0] * len(deltas)
    for t in transfers:
        sums[t["from"]] -= t["amount"]
        sums[t["to"]] += t["amount"]
    if sums != deltas:
        return f"the deltas {deltas} are not the sum of the transfers {sums}"
    winner = last["winner"]
    if winner is None and any(t["reason"] != "kong" for t in transfers):
        return f"a drawn hand paid something other than kongs: {transfers}"
    if winner is not None and not any(t["reason"] == "win" and t["to"] == winner for t in transfers):
        return f"seat {winner} won but was paid nothing for it: {transfers}"
    return None


def scores_add_up(scores: Sequence[int], before: Sequence[int], deltas: Sequence[int]) -> str | None:
    """The running scores are those before the hand plus the hand's deltas."""
    expected = [before[seat] + deltas[seat] for seat in SEAT_RANGE]
    if list(scores) != expected:
        return f"scores {list(scores)} are not the sum of the hands' deltas {expected}"
    return None


def head_draw(s: TableState, head: int, tail: int) -> str | None:
    """After the claims on a discard closed with no claim (``head`` and ``tail``: the wall's
    counters before): the head gives the next seat a tile exactly when more than the reserve,
    2 × R(k) tiles, is left (docs/rules.md §10); otherwise the hand is drawn and no tile is taken."""
    left = TILES - head - tail
    reserve = 2 * s.rules.reserve_stacks(s.kongs)
    w = s.wall
    took = (w.head_taken - head, w.tail_taken - tail)
    if left > reserve:  # a head tile was drawable
        if s.phase == "hand_over":
            return f"the hand ended drawn with {left - reserve} head tile(s) still drawable"
        if s.phase != "turn" or s.drawn != "head" or took != (1, 0):
            return (f"closing the claims with {left} tiles left did not draw one head tile "
                    f"(phase {s.phase}, drawn {s.drawn}, {w.remaining} left)")
        return None
    if s.phase == "turn":
        return (f"the head gave a tile past the reserve: {left} tiles left, reserve {reserve // 2} stacks "
                f"after {s.kongs} kong(s), and play went on")
    if s.phase != "hand_over" or took != (0, 0):
        return f"closing the claims with {left} tiles left went to phase {s.phase} and took tiles"
    return None


def drawn_at_reserve(s: TableState) -> str | None:
    """A drawn hand (荒牌) ends with no head tile drawable: the wall is down to its reserve."""
    if s.wall.remaining > 2 * s.reserve_stacks:
        return f"drawn with {s.wall.remaining} tiles left, reserve {s.reserve_stacks} stacks"
    return None


def dealer_rotation(dealer: int, streak: int, passes: int, winner: int | None, after: TableState) -> str | None:
    """docs/rules.md §4: from ``dealer`` with its ``streak`` and the deal having moved on ``passes``
    times, the dealer keeps the deal, its streak growing, on its own win or a drawn hand;
    otherwise its 下家 deals, streak 0, and the deal has moved on once more."""
    keeps = winner is None or winner == dealer
    want = (dealer, streak + 1, passes) if keeps else (next_seat(dealer), 0, passes + 1)
    if (after.dealer, after.dealer_streak, after.passes) != want:
        return (f"dealer rotation: dealer {dealer} (streak {streak}), winner {winner} -> "
                f"dealer {after.dealer} (streak {after.dealer_streak}, passes {after.passes})")
    return None
