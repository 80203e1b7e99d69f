"""The table's own steps, decided once in the engine (issue 40 item 3) and asked by every front
end: when a new session starts, replaces an unplayed one or leaves one being played; when a
session may end; when a hand's bets are in; whose dice they are; places and ties; when an hour
of an hourly fee counts. Each over a real table, phase by phase."""

from __future__ import annotations

import pytest

from engine.authority import bets_stage, may_end_session, new_session_way, unplayed
from engine.errors import IllegalEventError
from engine.fees import FeeSetting, next_hour_in, started_hours, units
from engine.presses import Press, Pressed, apply_press, seat_press
from engine.public import PublicState, public_state
from engine.records import PHASES
from engine.scoring import ranking, ranks
from engine.table import accepts, new_table, replay

NEW: dict[str, object] = {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}
SEAT: dict[str, object] = {"type": "seating", "method": "C", "east": 0}
BETS: dict[str, object] = {"type": "bets", "bets": [1, 0, 2, 0]}
DEALER_ROLL: dict[str, object] = {"type": "roll", "dice": [3, 4]}
OWNER_ROLL: dict[str, object] = {"type": "roll", "dice": [2, 3]}
WON: list[dict[str, object]] = [{"type": "win", "seat": 0}, {"type": "confirm_win", "wait": "plain"}]


def pub(*events: dict[str, object]) -> PublicState:
    return public_state(replay(list(events))) if events else public_state(new_table())


def test_a_new_session_starts_replaces_an_unplayed_one_or_leaves_one_being_played() -> None:
    assert new_session_way(pub()) == "start"
    assert new_session_way(pub(NEW)) == "replace" and unplayed(pub(NEW))  # seating
    assert new_session_way(pub(NEW, SEAT)) == "replace"  # the first bets, before the dealer rolled
    assert new_session_way(pub(NEW, SEAT, BETS)) == "over"  # (bets entered: the touchscreen asks first)
    assert new_session_way(pub(NEW, SEAT, BETS, DEALER_ROLL)) == "over"  # the first hand is begun
    assert new_session_way(pub(NEW, SEAT, DEALER_ROLL, OWNER_ROLL)) == "over"
    over = [NEW, SEAT, DEALER_ROLL, OWNER_ROLL, *WON]
    assert new_session_way(pub(*over)) == "over"  # hand_over
    assert new_session_way(pub(*over, {"type": "next_hand"})) == "over"  # betting, hand 2: played
    assert new_session_way(pub(*over, {"type": "end_session"})) == "start"


def test_a_session_ends_only_between_hands_and_the_engine_takes_it_there() -> None:
    between = [p for p in PHASES if may_end_session(p)]
    assert between == ["betting", "hand_over"]
    assert all("end_session" in accepts(p) for p in between)
    assert not may_end_session(pub(NEW, SEAT, DEALER_ROLL, OWNER_ROLL)["phase"])  # turn: mid-hand


def test_the_bets_are_open_then_in_then_closed_by_the_dealers_roll() -> None:
    assert bets_stage(pub(NEW, SEAT)) == "open"
    assert bets_stage(pub(NEW, SEAT, BETS)) == "in"
    assert bets_stage(pub(NEW, SEAT, BETS, DEALER_ROLL)) == "closed"
    assert bets_stage(pub(NEW, SEAT, DEALER_ROLL)) == "closed"  # (rolled without bets)
    assert bets_stage(pub()) == bets_stage(pub(NEW)) == "closed"


def test_the_dice_are_the_seat_due_to_roll_and_no_other() -> None:
    state = replay([NEW, SEAT, BETS])
    actions = public_state(state)["actions"]
    press = seat_press(0, "DICE", False, actions)  # the dealer
    assert press == Press(None, "DICE")
    pressed = apply_press(state, press, (3, 4))
    assert isinstance(pressed, Pressed)
    assert [step.event.to_json() for step in pressed.steps] == [{"type": "roll", "dice": [3, 4], "seat": 0}]
    for seat in (1, 2, 3):
        with pytest.raises(IllegalEventError) as e:
            seat_press(seat, "DICE", False, actions)
        assert e.value.code == "press.not_roller" and e.value.params["roller"] == 0
    after = public_state(replay([DEALER_ROLL], state))["actions"]  # 3+4: the wall's owner, seat 2, rolls
    assert seat_press(2, "DICE", False, after) == Press(None, "DICE")
    with pytest.raises(IllegalEventError):
        seat_press(0, "DICE", False, after)
    assert seat_press(1, "TURN", True, after) == Press(1, "TURN", True)  # (a seat's own buttons: as pressed)


def test_equal_scores_share_a_place_and_the_next_place_is_skipped() -> None:
    assert ranks([3, -3, 0, 0]) == [1, 4, 2, 2]
    assert ranking([3, -3, 0, 0]) == [(1, 0), (2, 2), (2, 3), (4, 1)]  # ties: by seat
    assert ranking([0, 0, 0, 0]) == [(1, 0), (1, 1), (1, 2), (1, 3)]


def test_an_hour_counts_once_a_second_of_it_has_passed() -> None:
    hourly = FeeSetting("hour", 30)
    for seconds in (0, 1, 59, 3599, 3600, 3601, 7200, 7201, 36_000):
        later = seconds + next_hour_in(seconds)
        assert started_hours(later) == started_hours(seconds) + 1  # the next hour starts then
        assert started_hours(later - 1) == started_hours(seconds)  # and not a second before
        assert units(hourly, hands=0, rounds=0, seconds=seconds) == started_hours(seconds)
