"""The table state machine, event by event (docs/rules.md §2–§12; docs/design.md events and public state)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import XIAN, IllegalEventError, InvalidEventError, RuleError, apply, new_table, replay
from engine.hand import winning_tiles
from engine.public import public_state
from engine.state import TableState
from engine.table import TRANSITIONS, Effect
from engine.tiles import parse_tiles, tile_text, to_counts
from engine.wall import shuffled_wall

PLAYERS = ["Ann", "Bo", "Cai", "Dee"]


def session(*, seed: int | None = None, rules: dict[str, Any] | None = None, base: int = 1) -> list[dict[str, Any]]:
    ns: dict[str, Any] = {"type": "new_session", "players": PLAYERS, "base": base}
    if rules:
        ns["rules"] = rules
    if seed is not None:
        ns["wall_seed"] = seed
    return [ns]


def dealt(
    *,
    east: int = 0,
    seed: int | None = None,
    rules: dict[str, Any] | None = None,
    dice: tuple[list[int], list[int]] = ([4, 6], [2, 3]),
) -> TableState:
    return replay(
        [
            *session(seed=seed, rules=rules),
            {"type": "seating", "method": "C", "east": east},
            {"type": "roll", "dice": dice[0]},
            {"type": "roll", "dice": dice[1]},
        ]
    )


def go(state: TableState, *events: dict[str, Any]) -> TableState:
    for ev in events:
        state, _ = apply(state, ev)
    return state


def refused(state: TableState, event: Any, words: str, kind: type[RuleError] = IllegalEventError) -> str:
    before = state.to_json()
    with pytest.raises(kind) as err:
        apply(state, event)
    assert words in str(err.value), str(err.value)
    assert state.to_json() == before
    return str(err.value)


# --- the session and the phase table ----------------------------------------------------------


def test_a_new_table_waits_for_a_session() -> None:
    s = new_table()
    assert s.phase == "idle"
    msg = refused(s, {"type": "roll", "dice": [1, 2]}, "idle: cannot roll now")
    assert "accepts: new_session" in msg
    s = go(s, *session())
    assert (s.phase, s.players, s.hand, s.round, s.scores) == ("seating", PLAYERS, 1, 1, [0, 0, 0, 0])


def test_every_phase_accepts_new_session_and_the_table_is_readable() -> None:
    phases = {p for p, _ in TRANSITIONS}
    assert phases == {"idle", "seating", "betting", "rolling", "turn", "claims", "win_pending", "hand_over", "ended"}
    assert all((p, "new_session") in TRANSITIONS for p in phases)
    assert ("ended", "end_session") not in TRANSITIONS


def test_end_session_then_only_a_new_one() -> None:
    s = go(dealt(), {"type": "end_session"})
    assert s.phase == "ended"
    refused(s, {"type": "next_hand"}, "ended: cannot next_hand now")
    assert go(s, *session()).phase == "seating"


# --- seating --------------------------------------------------------------------------------


def test_seating_method_a_counts_from_the_roller() -> None:
    # roller 2 rolls 9: the seat reached is (2 + 9 - 1) mod 4 = 2
    s = go(new_table(), *session(), {"type": "seating", "method": "A", "roller": 2, "dice": [3, 6]})
    assert (s.east, s.dealer, s.phase) == (2, 2, "betting")
    assert public_state(s)["winds"] == ["W", "N", "E", "S"]


def test_seating_method_b_orders_winds_by_descending_sums() -> None:
    # sums: seat 0 = 5, seat 1 = 12, seat 2 = 3, seat 3 = 9 -> East Bo, South Dee, West Ann, North Cai;
    # Bo keeps seat 1 (East) and the others sit counter-clockwise from it.
    rolls = [[2, 3], [6, 6], [1, 2], [4, 5]]
    s = go(new_table(), *session(), {"type": "seating", "method": "B", "rolls": rolls})
    assert s.east == 1
    assert s.players == ["Cai", "Bo", "Dee", "Ann"]
    assert public_state(s)["winds"] == ["N", "E", "S", "W"]


def test_seating_method_b_rejects_ties_naming_the_seats() -> None:
    s = go(new_table(), *session())
    msg = refused(
        s, {"type": "seating", "method": "B", "rolls": [[3, 3], [2, 4], [1, 1], [5, 5]]}, "seats 0, 1 all rolled 6"
    )
    assert "roll again" in msg


def test_seating_method_c_by_east_alone_moves_nobody() -> None:
    # (journals before 'drew': the seat that drew East, the others already sitting by their winds)
    s = go(new_table(), *session(), {"type": "seating", "method": "C", "east": 3})
    assert (s.dealer, public_state(s)["winds"]) == (3, ["S", "W", "N", "E"])
    assert s.players == PLAYERS


def test_seating_method_c_seats_everyone_by_the_wind_they_drew() -> None:
    # Ann drew North, Bo West, Cai East, Dee South: Cai keeps seat 2 as East, Dee (South)
    # moves to its 下家 seat 3, Bo (West) to seat 0, Ann (North) to seat 1.
    drew = ["N", "W", "E", "S"]
    s = go(new_table(), *session(), {"type": "seating", "method": "C", "drew": drew})
    assert (s.east, s.dealer, s.phase) == (2, 2, "betting")
    assert s.players == ["Bo", "Ann", "Cai", "Dee"]
    winds = public_state(s)["winds"]
    assert [winds[s.players.index(p)] for p in PLAYERS] == drew  # each holds the wind they drew


# --- bets, dice and the deal --------------------------------------------------------------------


def test_bets_only_before_the_first_roll() -> None:
    s = go(new_table(), *session(), {"type": "seating", "method": "C", "east": 0})
    s = go(s, {"type": "bets", "bets": [0, 1, 0, 2]}, {"type": "bets", "bets": [1, 1, 0, 2]})
    assert s.bets == [1, 1, 0, 2] and s.phase == "rolling"
    s = go(s, {"type": "roll", "dice": [4, 6]})
    refused(s, {"type": "bets", "bets": [0, 0, 0, 0]}, "bets come before the hand's first roll")


def test_rolls_are_checked_against_the_dealer_and_the_owner() -> None:
    s = go(new_table(), *session(), {"type": "seating", "method": "C", "east": 2})
    refused(s, {"type": "roll", "dice": [4, 6], "seat": 0}, "seat 0 cannot roll first: the dealer, seat 2")
    s = go(s, {"type": "roll", "dice": [4, 6], "seat": 2})  # 10 from seat 2 -> seat 3
    refused(s, {"type": "roll", "dice": [1, 1], "seat": 2}, "the wall owner, seat 3, rolls next")
    s = go(s, {"type": "roll", "dice": [1, 1], "seat": 3})
    assert s.phase == "turn" and s.turn == 2
    assert public_state(s)["break"] == {"owner": 3, "count": 12, "wall": 3, "stack": 12}


def test_the_deal_gives_the_dealer_14_and_the_others_13() -> None:
    s = dealt(east=1)
    assert [x.count for x in s.seats] == [13, 14, 13, 13]
    assert (s.phase, s.turn, s.drawn) == ("turn", 1, "deal")
    assert public_state(s)["wall"]["remaining"] == 83


def test_full_tile_mode_deals_the_wall_in_its_physical_places() -> None:
    # The seed example, worked by hand: the head stacks run seat 1's 16, 17, then seat 2's 1..17,
    # then seat 3's. The dealer takes stacks 1-2 from the head (seat 1's 16, 17), 9-10 (seat 2's
    # 7, 8) and 17-18 (seat 2's 15, 16) whole, then the upper tiles of stacks 25-26 (seat 3's 6, 7).
    # Physical index in the seeded wall: 2 * (wall * 17 + stack - 1) + layer (0 upper, 1 lower).
    s = dealt(seed=7)
    wall = shuffled_wall(7, 1)

    def at(wall_seat: int, stack: int, layer: int) -> int:
        return wall[2 * (wall_seat * 17 + stack - 1) + layer]

    whole = [(1, 16), (1, 17), (2, 7), (2, 8), (2, 15), (2, 16)]
    expected = [at(w, n, layer) for w, n in whole for layer in (0, 1)] + [at(3, 6, 0), at(3, 7, 0)]
    assert bytearray(to_counts(expected)) == s.seats[0].concealed
    assert s.seats[1].concealed is not None and sum(s.seats[1].concealed) == 13


# --- turns --------------------------------------------------------------------------------------


def test_only_the_player_to_move_discards() -> None:
    s = dealt()
    refused(s, {"type": "discard", "seat": 2}, "turn: seat 2 cannot discard: it is seat 0's turn")
    refused(s, {"type": "pass", "seat": 1}, "turn: seat 1 cannot pass now")
    s2, effects = apply(s, {"type": "discard", "seat": 0})
    assert s2.phase == "claims" and s.phase == "turn"  # the input state is untouched
    assert effects == [Effect("claims_open", 0, None, "discard")]


def test_full_tile_discards_must_be_held_and_named() -> None:
    s = dealt(seed=11)
    conc = s.seats[0].concealed
    assert conc is not None
    missing = next(t for t in range(34) if conc[t] == 0)
    refused(s, {"type": "discard", "seat": 0, "tile": tile_text(missing)}, f"cannot discard {tile_text(missing)}")
    refused(s, {"type": "discard", "seat": 0}, "without naming the tile")
    held = next(t for t in range(34) if conc[t])
    s2 = go(s, {"type": "discard", "seat": 0, "tile": tile_text(held)})
    assert s2.seats[0].discards == [held] and s2.seats[0].count == 13


def test_no_draw_after_resolve_means_the_next_seat_draws() -> None:
    s = go(dealt(seed=3), {"type": "discard", "seat": 0, "tile": tile_text(_any_tile(dealt(seed=3), 0))})
    s2, effects = apply(s, {"type": "resolve"})
    assert s2.turn == 1 and s2.seats[1].count == 14 and s2.wall.head_taken == 54
    assert effects[0].what == "drew" and effects[0].seat == 1 and effects[0].data == "head"
    assert effects[0].tile is not None and s2.last_drawn == effects[0].tile


def _any_tile(s: TableState, seat: int) -> int:
    conc = s.seats[seat].concealed
    assert conc is not None
    return next(t for t in range(34) if conc[t])


# --- claims -----------------------------------------------------------------------------------


def test_claim_eligibility() -> None:
    s = go(dealt(), {"type": "discard", "seat": 0})
    refused(
        s,
        {"type": "claim", "seat": 2, "call": "chow"},
        "claims: seat 2 cannot chow: only seat 1, the discarder's 下家, may chow",
    )
    refused(s, {"type": "claim", "seat": 0, "call": "pong"}, "seat 0 cannot claim pong on its own discard")
    refused(s, {"type": "pass", "seat": 0}, "seat 0 cannot pass")
    refused(s, {"type": "discard", "seat": 1}, "claims: seat 1 cannot discard now")


def test_full_tile_claims_are_checked_against_the_hand() -> None:
    s = dealt(seed=5)
    tile = _any_tile(s, 0)
    s = go(s, {"type": "discard", "seat": 0, "tile": tile_text(tile)})
    for seat in (1, 2, 3):
        conc = s.seats[seat].concealed
        assert conc is not None
        if conc[tile] < 2:
            refused(s, {"type": "claim", "seat": seat, "call": "pong"}, f"cannot pong {tile_text(tile)}")
        if not winning_tiles(conc) or tile not in winning_tiles(conc):
            refused(s, {"type": "claim", "seat": seat, "call": "win"}, "does not win with it")


def test_chow_tiles_must_make_a_sequence_with_the_discard() -> None:
    s = go(dealt(), {"type": "discard", "seat": 0, "tile": "5p"})
    refused(s, {"type": "claim", "seat": 1, "call": "chow", "tiles": "79p"}, "they make no sequence")
    refused(s, {"type": "claim", "seat": 1, "call": "chow", "tiles": "678p"}, "must include the discard 5p")
    s = go(s, {"type": "claim", "seat": 1, "call": "chow", "tiles": "46p"}, {"type": "resolve"})
    assert s.seats[1].melds[0].tiles == tuple(parse_tiles("456p"))
    assert (s.phase, s.turn, s.drawn, s.seats[0].discards) == ("turn", 1, None, [])


def test_a_chow_on_an_unnamed_discard_takes_the_two_tiles_from_the_hand() -> None:
    s = go(dealt(), {"type": "discard", "seat": 0})
    refused(s, {"type": "claim", "seat": 1, "call": "chow", "tiles": "456p"}, "the discard was not named")
    refused(s, {"type": "claim", "seat": 1, "call": "chow", "tiles": "47p"}, "no tile makes a sequence with them")
    s = go(s, {"type": "claim", "seat": 1, "call": "chow", "tiles": "45p"}, {"type": "resolve"})
    assert s.seats[1].melds[0].kind == "chow" and s.seats[1].melds[0].tiles is None


def test_a_later_claim_replaces_an_earlier_one() -> None:
    s = go(
        dealt(),
        {"type": "discard", "seat": 0},
        {"type": "claim", "seat": 2, "call": "win"},
        {"type": "claim", "seat": 2, "call": "pong"},
        {"type": "resolve"},
    )
    assert (s.phase, s.turn) == ("turn", 2)
    assert s.seats[2].melds[0].kind == "pong"


def test_no_self_drawn_win_after_a_pong() -> None:
    s = go(dealt(), {"type": "discard", "seat": 0}, {"type": "claim", "seat": 3, "call": "pong"}, {"type": "resolve"})
    refused(s, {"type": "win", "seat": 3}, "took this turn with a pong or chow and drew nothing")


# --- kongs --------------------------------------------------------------------------------------


def test_kong_payments_and_options() -> None:
    # exposed_kong_payers = discarder: only the discarder pays, 3b (docs/rules.md §14)
    s = dealt(rules={"exposed_kong_payers": "discarder"})
    s = go(s, {"type": "discard", "seat": 0}, {"type": "claim", "seat": 2, "call": "kong"}, {"type": "resolve"})
    assert s.scores == [-3, 0, 3, 0]
    assert (s.turn, s.drawn, s.wall.tail_taken, s.kongs) == (2, "tail", 1, 1)
    s = dealt(rules={"added_kong": False})
    s = go(
        s,
        {"type": "discard", "seat": 0},
        {"type": "claim", "seat": 1, "call": "pong"},
        {"type": "resolve"},
        {"type": "discard", "seat": 1},
        {"type": "resolve"},
        {"type": "discard", "seat": 2},
        {"type": "resolve"},
        {"type": "discard", "seat": 3},
        {"type": "resolve"},
        {"type": "discard", "seat": 0},
        {"type": "resolve"},
    )
    refused(s, {"type": "kong", "seat": 1, "kind": "added"}, "the rule option added_kong is off")
    refused(s, {"type": "kong", "seat": 2, "kind": "concealed"}, "it is seat 1's turn")


def test_full_tile_kongs_need_the_tiles() -> None:
    s = dealt(seed=2)
    conc = s.seats[0].concealed
    assert conc is not None
    t = next(t for t in range(34) if 0 < conc[t] < 4)
    refused(s, {"type": "kong", "seat": 0, "kind": "concealed", "tile": tile_text(t)}, f"it holds {conc[t]} of them")
    refused(s, {"type": "kong", "seat": 0, "kind": "added", "tile": tile_text(t)}, "no pong of")


def test_a_drawn_hand_takes_kong_payments_back_when_the_option_says_so() -> None:
    s = dealt(rules={"kong_paid_on_draw": False})
    s = go(s, {"type": "kong", "seat": 0, "kind": "concealed"})
    assert s.scores == [6, -2, -2, -2]
    while s.phase != "hand_over":
        s = go(s, {"type": "discard", "seat": s.turn}) if s.phase == "turn" else go(s, {"type": "resolve"})
    last = s.last_settlement
    assert last is not None and last["result"] == "draw"
    assert s.scores == [0, 0, 0, 0] and last["deltas"] == [0, 0, 0, 0]
    assert len(last["transfers"]) == 6  # the kong's three, then the three given back
    assert last["transfers"][3] == {"from": 0, "to": 1, "amount": 2, "reason": "kong"}


def test_a_third_kong_restores_the_reserve_at_once() -> None:
    """三杠还原: a third kong with fewer than 26 tiles left ends the hand at the next due draw."""
    s = dealt()
    s = go(s, {"type": "kong", "seat": 0, "kind": "concealed"}, {"type": "kong", "seat": 0, "kind": "concealed"})
    assert (s.wall.remaining, public_state(s)["wall"]["drawable"]) == (81, 65)
    while s.wall.remaining > 20:
        s = go(s, {"type": "discard", "seat": s.turn}, {"type": "resolve"})
    assert public_state(s)["wall"]["drawable"] == 4
    s = go(s, {"type": "kong", "seat": s.turn, "kind": "concealed"})  # remaining 19 <= 2 x R(3) = 26
    assert public_state(s)["wall"] == {
        **public_state(s)["wall"],
        "remaining": 19,
        "kongs": 3,
        "reserve_stacks": 13,
        "drawable": 0,
    }
    s = go(s, {"type": "discard", "seat": s.turn}, {"type": "resolve"})
    assert s.phase == "hand_over" and s.last_settlement is not None and s.last_settlement["result"] == "draw"


def test_a_kong_needs_a_tile_for_its_replacement() -> None:
    s = dealt(rules={"kong_reserve": [0, 0, 0, 0]})
    while s.wall.remaining > 0:
        s = go(s, {"type": "discard", "seat": s.turn}, {"type": "resolve"})
    assert s.phase == "turn"
    refused(s, {"type": "kong", "seat": s.turn, "kind": "concealed"}, "no tile is left for its replacement draw")
    s = go(s, {"type": "discard", "seat": s.turn}, {"type": "resolve"})
    assert s.phase == "hand_over"


# --- wins ---------------------------------------------------------------------------------------


def _give(s: TableState, seat: int, hand: str) -> TableState:
    """A copy of ``s`` where ``seat`` holds ``hand`` (a full-tile test fixture; tiles are not conserved)."""
    s = s.copy()
    s.seats[seat].concealed = bytearray(to_counts(parse_tiles(hand)))
    s.seats[seat].count = len(parse_tiles(hand))
    return s


def test_full_tile_heavenly_win_is_checked_and_scored() -> None:
    s = _give(dealt(seed=9), 0, "123m456p789s11222z")
    s.last_drawn = parse_tiles("2z")[0]  # the dealer's 14th tile: 2z completes a triplet (plain)
    s = go(s, {"type": "win", "seat": 0})
    assert s.pending is not None and s.pending["kind"] == "heavenly"
    refused(s, {"type": "confirm_win", "wait": "closed"}, "the hand reads as plain on 2z")
    s = go(s, {"type": "confirm_win"})
    assert s.last_settlement is not None
    assert (s.last_settlement["kind"], s.last_settlement["wait"]) == ("heavenly", "plain")
    assert s.scores == [18, -6, -6, -6]  # docs/rules.md §16: 天胡 by the dealer, plain wait


def test_full_tile_false_wins_are_refused() -> None:
    s = _give(dealt(seed=9), 0, "123m456p789s11234z")
    refused(s, {"type": "win", "seat": 0}, "seat 0 cannot win: its hand 123m456p789s11234z does not win")


def test_full_tile_win_on_a_discard_takes_the_tile() -> None:
    s = dealt(seed=9)
    s = _give(s, 1, "123m456p789s1122z")
    s = go(s, {"type": "discard", "seat": 0, "tile": tile_text(_any_tile(s, 0))})
    s = _give(s, 2, "123m456p789s1122z")
    s.seats[0].discards[-1] = parse_tiles("1z")[0]
    s.claims["tile"] = parse_tiles("1z")[0]  # type: ignore[index]
    s = go(
        s,
        {"type": "claim", "seat": 2, "call": "win"},
        {"type": "claim", "seat": 1, "call": "win"},
        {"type": "pass", "seat": 3},
    )
    assert s.pending is not None and s.pending["seat"] == 1  # nearest to the discarder
    refused(s, {"type": "confirm_win", "hand": "123m456p789s11122z", "win_tile": "2z"}, "the table holds")
    s = go(s, {"type": "confirm_win", "hand": "123m456p789s11122z", "win_tile": "1z"})
    assert s.seats[1].count == 14 and s.seats[0].discards == []
    assert s.scores == [-1, 1, 0, 0]


def test_tracked_confirmation_with_a_hand_is_checked() -> None:
    s = go(
        dealt(),
        {"type": "discard", "seat": 0, "tile": "5p"},
        {"type": "claim", "seat": 3, "call": "win"},
        {"type": "resolve"},
    )
    refused(s, {"type": "confirm_win", "hand": "123m456p789s22334z", "win_tile": "5p"}, "is not a winning hand")
    refused(s, {"type": "confirm_win", "hand": "123m456p789s22333z", "win_tile": "6p"}, "the winning tile was 5p")
    refused(
        s,
        {"type": "confirm_win", "hand": "123m456p22333z", "win_tile": "5p", "melds": ["789s"]},
        "seat 3 has 0 on the table",
    )
    refused(s, {"type": "confirm_win"}, "without its 'wait' or its 'hand'")
    s = go(s, {"type": "confirm_win", "hand": "123m456p789s22333z", "win_tile": "5p"})
    assert s.last_settlement is not None and s.last_settlement["wait"] == "closed"
    assert s.scores == [-2, 0, 0, 2]


def test_edge_wait_bonus_follows_the_option() -> None:
    for option, paid in ((False, 1), (True, 2)):
        s = dealt(rules={"edge_wait_bonus": option})
        s = go(
            s,
            {"type": "discard", "seat": 0},
            {"type": "claim", "seat": 1, "call": "win"},
            {"type": "resolve"},
            {"type": "confirm_win", "wait": "edge"},
        )
        assert s.scores == [-paid, paid, 0, 0]


def test_a_false_self_drawn_win_resumes_the_turn() -> None:
    s = dealt()
    before = s.to_json()
    s = go(s, {"type": "win", "seat": 0}, {"type": "reject_win"})
    assert s.to_json() == before


# --- rotation -------------------------------------------------------------------------------


def test_next_hand_resets_the_hand_and_rotates_the_dealer() -> None:
    s = go(
        dealt(),
        {"type": "discard", "seat": 0},
        {"type": "claim", "seat": 2, "call": "win"},
        {"type": "resolve"},
        {"type": "confirm_win", "wait": "plain"},
    )
    assert public_state(s)["next_dealer"] == 1  # the dealer's 下家, not the winner (docs/rules.md §4)
    s = go(s, {"type": "next_hand"})
    assert (s.dealer, s.dealer_streak, s.hand, s.phase, s.bets) == (1, 0, 2, "betting", [0, 0, 0, 0])
    assert public_state(s)["break"] is None and public_state(s)["wall"]["remaining"] == 136
    assert s.last_settlement is not None and s.last_settlement["winner"] == 2


# --- state: copies, JSON, public shape ----------------------------------------------------------

DESIGN_KEYS = {
    "schema",
    "phase",
    "players",
    "winds",
    "dealer",
    "hand",
    "round",
    "dealer_streak",
    "bets",
    "dice",
    "break",
    "wall",
    "turn",
    "scores",
    "last_settlement",
}


@pytest.mark.parametrize("seed", [None, 4])
def test_state_round_trips_through_json_in_every_phase(seed: int | None) -> None:
    s = dealt(seed=seed)
    tile = {} if seed is None else {"tile": tile_text(_any_tile(s, 0))}
    steps = [{"type": "kong", "seat": 0, "kind": "concealed"}] if seed is None else []
    steps += [{"type": "discard", "seat": 0, **tile}, {"type": "claim", "seat": 2, "call": "win"}]
    if seed is not None:
        steps[-1] = {"type": "pass", "seat": 2}
    for ev in steps:
        s = go(s, ev)
        again = TableState.from_json(s.to_json())
        assert again == s and again.to_json() == s.to_json()
    c = s.copy()
    assert c == s
    c.seats[2].discards.append(None)
    c.claims["answers"][1] = "pass"  # type: ignore[index]
    assert s.seats[2].discards == [] and s.claims["answers"][1] is None  # type: ignore[index]


def test_public_state_has_the_design_shape() -> None:
    for s in (new_table(), dealt(), go(dealt(), {"type": "discard", "seat": 0})):
        pub = public_state(s)
        assert set(pub) >= DESIGN_KEYS
        assert pub["schema"] == 1
        assert set(pub["dice"]) == {"dealer", "owner"}
        assert {"remaining", "head_taken", "tail_taken", "kongs", "reserve_stacks", "drawable"} <= set(pub["wall"])
    pub = public_state(dealt(seed=1))
    assert pub["mode"] == "full" and all(isinstance(x["concealed"], int) for x in pub["seats"])  # no hidden tiles


def test_errors_are_rule_errors_and_value_errors() -> None:
    s = dealt()
    with pytest.raises(InvalidEventError):
        apply(s, {"type": "discard", "seat": 9})
    with pytest.raises(ValueError):
        apply(s, {"type": "discard", "seat": 1})
    assert XIAN.kong_reserve == (13, 7, 8, 13)
