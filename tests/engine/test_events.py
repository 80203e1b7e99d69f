"""Events: frozen dataclasses that check themselves, exact JSON round trips, clear errors."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from engine.errors import IllegalEventError, InvalidEventError, RuleError
from engine.events import EVENT_TYPES, Claim, Discard, Kong, NewSession, Roll, Seating, parse_event

CANONICAL: list[dict[str, Any]] = [
    {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
    {
        "type": "new_session",
        "players": ["甲", "乙", "丙", "丁"],
        "base": 5,
        "rules": {"seven_pairs": True},
        "wall_seed": 12345,
    },
    {"type": "seating", "method": "A", "roller": 2, "dice": [3, 6]},
    {"type": "seating", "method": "B", "rolls": [[1, 1], [6, 6], [3, 4], [2, 2]]},
    {"type": "seating", "method": "C", "east": 3},
    {"type": "seating", "method": "C", "drew": ["S", "N", "E", "W"]},
    {"type": "bets", "bets": [0, 1, 0, 2]},
    {"type": "roll", "dice": [4, 6]},
    {"type": "roll", "dice": [2, 3], "seat": 1},
    {"type": "discard", "seat": 0},
    {"type": "discard", "seat": 2, "tile": "7z"},
    {"type": "claim", "seat": 1, "call": "chow", "tiles": "46p"},
    {"type": "claim", "seat": 3, "call": "win"},
    {"type": "claim", "seat": 2, "call": "pong"},
    {"type": "claim", "seat": 2, "call": "kong"},
    {"type": "pass", "seat": 3},
    {"type": "resolve"},
    {"type": "kong", "seat": 0, "kind": "concealed"},
    {"type": "kong", "seat": 0, "kind": "added", "tile": "1s"},
    {"type": "win", "seat": 1},
    {"type": "confirm_win", "wait": "closed"},
    {"type": "confirm_win", "hand": "123m456p789s22333z", "win_tile": "5p"},
    {"type": "confirm_win", "hand": "123m456p22333z", "win_tile": "5p", "melds": ["789s"]},
    {"type": "confirm_win"},
    {"type": "reject_win"},
    {"type": "next_hand"},
    {"type": "end_session"},
    {"type": "end_session", "seconds": 5400},
    {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 2,
     "fee": {"mode": "hour", "rate": 30, "min": 20, "cap": 100, "payer": "big_winner", "tea": 5}},
    {"type": "fee", "fee": {"mode": "round", "rate": 20, "min": 0, "cap": None, "payer": "winners", "tea": 0}},
    {"type": "fee", "fee": None},
    {"type": "name", "seat": 2, "name": "王小明"},
    {"type": "score_hand", "winner": 2, "how": "discard", "discarder": 0, "wait": "single",
     "kongs": [{"seat": 1, "kind": "exposed", "discarder": 3}], "bets": [0, 1, 0, 2]},
]


def test_every_type_has_a_canonical_example() -> None:
    assert {e["type"] for e in CANONICAL} == set(EVENT_TYPES)


@pytest.mark.parametrize("obj", CANONICAL, ids=lambda o: o["type"])
def test_round_trip_exactly(obj: dict[str, Any]) -> None:
    ev = parse_event(obj)
    assert obj["type"] == ev.TYPE
    assert ev.to_json() == obj
    assert parse_event(ev.to_json()) == ev
    assert parse_event(ev) is ev


def test_events_are_frozen_plain_values() -> None:
    ev = parse_event({"type": "discard", "seat": 2, "tile": "5p"})
    assert ev == Discard(2, 13)
    with pytest.raises(dataclasses.FrozenInstanceError):
        ev.seat = 1  # type: ignore[misc]


def test_events_check_themselves_when_built() -> None:
    with pytest.raises(InvalidEventError, match=r"seat 0\.\.3"):
        Discard(seat=4)
    with pytest.raises(InvalidEventError, match=r"each 1\.\.6"):
        Roll(dice=(0, 3))
    with pytest.raises(InvalidEventError, match="'concealed' or 'added'"):
        Kong(seat=0, kind="exposed")
    with pytest.raises(InvalidEventError, match="method A takes"):
        Seating(method="A", roller=0, dice=(1, 2), east=1)
    with pytest.raises(InvalidEventError, match="only with a chow"):
        Claim(seat=1, call="pong", tiles=(1, 2))
    with pytest.raises(InvalidEventError, match="unknown rule option 'sevenpairs'"):
        NewSession(players=("a", "b", "c", "d"), rules={"sevenpairs": True})


BAD: list[tuple[Any, str]] = [
    ({"type": "discard", "seat": 4}, "'seat' must be a seat 0..3, got 4"),
    ({"type": "discard", "seat": True}, "'seat' must be a seat 0..3, got True"),
    ({"type": "discard", "seat": "1"}, "got '1'"),
    ({"type": "discard", "seat": 1, "tile": "8z"}, "there is no 8z"),
    ({"type": "discard", "seat": 1, "tile": 5}, "mpsz text"),
    ({"type": "discard", "seat": 1, "tile": "5p6p"}, "exactly one tile"),
    ({"type": "discard"}, "missing field 'seat'"),
    ({"type": "pass", "seat": 1, "why": "no"}, "unknown field 'why'"),
    ({"type": "draw", "seat": 1}, "unknown event type 'draw'"),
    ({"seat": 1}, "unknown event type None"),
    (["discard", 1], "must be a JSON object"),
    ("discard", "must be a JSON object"),
    ({"type": "roll", "dice": [7, 1]}, "each 1..6"),
    ({"type": "roll", "dice": [1, 2, 3]}, "two dice"),
    ({"type": "bets", "bets": [0, 1, -1, 0]}, "4 whole numbers >= 0"),
    ({"type": "bets", "bets": [0, 1, 0]}, "4 whole numbers >= 0"),
    ({"type": "claim", "seat": 1, "call": "eat"}, "'call' must be one of win, kong, pong, chow"),
    ({"type": "claim", "seat": 1, "call": "chow", "tiles": "4p"}, "2 (from the hand) or 3"),
    ({"type": "claim", "seat": 1, "call": "pong", "tiles": "55p"}, "only with a chow"),
    ({"type": "kong", "seat": 1, "kind": "exposed"}, "a kong on a discard is a claim"),
    ({"type": "confirm_win", "wait": "lucky"}, "'wait' must be one of"),
    ({"type": "confirm_win", "wait": "plain", "hand": "11m"}, "not both"),
    ({"type": "confirm_win", "hand": "123m"}, "go together"),
    ({"type": "confirm_win", "hand": "123m", "win_tile": "1m", "melds": ["135m"]}, "not a meld"),
    ({"type": "confirm_win", "hand": "11111m", "win_tile": "1m"}, "5 copies"),
    ({"type": "new_session", "players": ["a", "b", "c"], "base": 1}, "4 non-empty names"),
    ({"type": "new_session", "players": ["a", "b", "c", "d"], "base": 0}, "'base' must be a whole number >= 1"),
    ({"type": "new_session", "players": ["a", "b", "c", "d"], "base": 1, "wall_seed": "x"}, "'wall_seed'"),
    (
        {"type": "new_session", "players": ["a", "b", "c", "d"], "base": 1, "rules": {"kong_reserve": [1]}},
        "kong_reserve",
    ),
    ({"type": "seating", "method": "B", "rolls": [[1, 1]]}, "4 pairs"),
    ({"type": "seating", "method": "D"}, "'method' must be 'A', 'B' or 'C'"),
    ({"type": "seating", "method": "C"}, "method C needs 'drew' or 'east'"),
    ({"type": "seating", "method": "C", "east": 1, "drew": ["E", "S", "W", "N"]}, "takes 'drew' or 'east', not both"),
    ({"type": "seating", "method": "C", "drew": ["E", "E", "W", "N"]}, "E, S, W, N once each"),
    ({"type": "seating", "method": "B", "drew": ["E", "S", "W", "N"]}, "method B takes 'rolls', not 'drew'"),
]


@pytest.mark.parametrize(("obj", "words"), BAD, ids=[str(i) for i in range(len(BAD))])
def test_malformed_events_are_invalid_and_quote_the_input(obj: Any, words: str) -> None:
    with pytest.raises(InvalidEventError) as err:
        parse_event(obj)
    assert words in str(err.value)
    assert isinstance(err.value, RuleError) and isinstance(err.value, ValueError)
    assert not isinstance(err.value, IllegalEventError)
    if isinstance(obj, dict):
        assert repr(obj) in str(err.value)


def test_player_ids_are_optional_roster_ids_kept_through_json() -> None:
    """Issue 28: new_session's player_ids and name's player_id (the table's roster), absent in old journals."""
    e = parse_event({"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1, "player_ids": [3, None, 1, 9]})
    assert e.to_json()["player_ids"] == [3, None, 1, 9] and parse_event(e.to_json()) == e
    n = parse_event({"type": "name", "seat": 2, "name": "阿强", "player_id": 4})
    assert n.to_json() == {"type": "name", "seat": 2, "name": "阿强", "player_id": 4}
    for bad in ([1, 2, 3], [0, 1, 2, 3], ["p1", 2, 3, 4], [True, 2, 3, 4], 7):
        with pytest.raises(InvalidEventError, match="player_ids"):
            parse_event({"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1, "player_ids": bad})
    with pytest.raises(InvalidEventError, match="player_id"):
        parse_event({"type": "name", "seat": 2, "name": "阿强", "player_id": -1})
