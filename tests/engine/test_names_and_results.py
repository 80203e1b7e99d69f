"""The ``name`` event (a phone names its seat, issue 18) and the session's hand results in the
state (``results``: what the phones and the scoreboard show hand by hand)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalEventError, InvalidEventError
from engine.events import parse_event
from engine.public import public_state
from engine.table import apply, replay

START = [
    {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
    {"type": "seating", "method": "C", "east": 0},
]
DEAL = [{"type": "roll", "dice": [4, 6]}, {"type": "roll", "dice": [2, 3]}]


def test_a_name_is_taken_before_the_deal_and_between_hands() -> None:
    s = replay([START[0], {"type": "name", "seat": 1, "name": " 阿强 "}])  # seating
    assert s.players == ["A", "阿强", "C", "D"]
    s = replay([*START, {"type": "name", "seat": 3, "name": "Ludwig van B"}])  # betting
    assert s.players[3] == "Ludwig van B" and public_state(s)["players"][3] == "Ludwig van B"
    over = replay([*START, *DEAL, {"type": "win", "seat": 0}, {"type": "confirm_win", "wait": "plain"}])
    assert replay([{"type": "name", "seat": 0, "name": "Ann"}], over).players[0] == "Ann"


@pytest.mark.parametrize("events", [[*START, *DEAL], [*START, *DEAL, {"type": "discard", "seat": 0}]])
def test_not_during_a_hand(events: list[dict[str, object]]) -> None:
    s = replay(events)
    with pytest.raises(IllegalEventError) as e:
        apply(s, {"type": "name", "seat": 1, "name": "Bo"})
    assert e.value.code == "phase" and s.players[1] == "B"


@pytest.mark.parametrize("bad", ["", "   ", "1234567890123", "a\nb", "a\x00b", "x\u202ey", "\u200b", 7, None])
def test_names_are_1_to_12_printable_characters(bad: object) -> None:
    with pytest.raises(InvalidEventError) as e:
        parse_event({"type": "name", "seat": 0, "name": bad})
    assert e.value.code in ("invalid", "invalid.name")
    assert len(str(e.value)) < 200


def test_a_name_round_trips_as_json() -> None:
    ev = parse_event({"type": "name", "seat": 2, "name": "王小明"})
    assert ev.to_json() == {"type": "name", "seat": 2, "name": "王小明"} and parse_event(ev.to_json()) == ev


def test_the_sessions_results_keep_every_hand_and_start_again_with_a_session() -> None:
    hand1 = [*DEAL, {"type": "win", "seat": 0}, {"type": "confirm_win", "wait": "single"}, {"type": "next_hand"}]
    s = replay([*START, *hand1])
    assert s.results == [{"hand": 1, "dealer": 0, "result": "win", "winner": 0, "kind": "heavenly", "from": None,
                          "deltas": [27, -9, -9, -9]}]
    s2 = replay([*DEAL, {"type": "discard", "seat": 0}, {"type": "claim", "seat": 2, "call": "win"},
                 {"type": "resolve"}, {"type": "confirm_win", "wait": "plain"}], s)
    assert [r["kind"] for r in s2.results] == ["heavenly", "discard"] and s2.results[1]["from"] == 0
    assert public_state(s2)["results"] == s2.results
    assert type(s2).from_json(s2.to_json()).results == s2.results
    assert replay([START[0]], s2).results == []


def test_a_scored_hand_is_among_the_results_like_a_played_one() -> None:
    """Score-only mode (``score_hand``) ends a hand through the same path as a played hand: a
    scored win is one of the session's results too (before issue 19 only a scored draw was)."""
    s = replay([*START, {"type": "score_hand", "winner": 1, "how": "discard", "discarder": 3, "wait": "single"},
                {"type": "next_hand"}, {"type": "score_hand"}])
    assert s.results == [
        {"hand": 1, "dealer": 0, "result": "win", "winner": 1, "kind": "discard", "from": 3, "deltas": [0, 2, 0, -2]},
        {"hand": 2, "dealer": 1, "result": "draw", "winner": None, "kind": None, "from": None,
         "deltas": [0, 0, 0, 0]},
    ]
    assert public_state(s)["results"] == s.results
