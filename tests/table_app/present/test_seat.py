"""Seat views: a pure function of the public state, the same for every front end."""

from __future__ import annotations

import json

import pytest

from engine import replay
from engine.public import public_state
from table_app.bench.mqtt import next_command
from table_app.present.seat import prompt, ranks, seat_view, seat_views
from tests.table_app.mqtt_helpers import HAND


def test_ranks_share_places_on_equal_scores() -> None:
    assert ranks([0, 0, 0, 0]) == [1, 1, 1, 1]
    assert ranks([3, -1, -1, -1]) == [1, 2, 2, 2]
    assert ranks([-5, 10, 2, -7]) == [3, 1, 2, 4]


def test_before_any_session() -> None:
    v = seat_view(public_state(replay([])), 0)
    assert v["wind"] is None and v["score"] == 0 and not v["your_turn"] and not v["can_claim"]
    assert v["prompt"] == {"zh": "等待开局", "en": "Waiting for a new session"}


def test_the_view_through_a_hand() -> None:
    seating = public_state(replay(HAND[:2]))
    assert [v["wind"] for v in seat_views(seating)] == ["E", "S", "W", "N"]
    assert [v["wind_zh"] for v in seat_views(seating)] == ["东", "南", "西", "北"]
    assert seat_view(seating, 0)["dealer"] and not seat_view(seating, 1)["dealer"]
    assert seat_view(seating, 2)["prompt"]["en"] == "Place your bets"

    rolling = public_state(replay(HAND[:3]))
    assert seat_view(rolling, 0)["prompt"]["en"] == "You are the dealer: roll the dice"
    assert seat_view(rolling, 1)["prompt"]["zh"] == "等待庄家 Ann（东） 掷骰子"
    assert seat_view(public_state(replay(HAND[:4])), 3)["prompt"]["en"] == "Waiting for the wall's owner to roll"

    dealt = public_state(replay(HAND[:5]))
    views = seat_views(dealt)
    assert [v["your_turn"] for v in views] == [True, False, False, False]
    assert views[0]["prompt"]["en"] == "Your turn: draw, then discard"
    assert views[2]["prompt"]["en"] == "Waiting for Ann (East) to play"
    assert views[2]["turn_name"] == {"zh": "Ann（东）", "en": "Ann (East)"}

    claims = public_state(replay(HAND[:7]))  # Ann discarded, Bo passed: Cy and Di may still claim
    views = seat_views(claims)
    assert [v["can_claim"] for v in views] == [False, False, True, True]
    assert views[0]["prompt"]["en"] == "Waiting for the others to claim or pass"
    assert views[1]["prompt"]["en"] == "Answered; waiting for the others"
    assert views[2]["prompt"]["en"] == "Claim the tile (win, kong, pong) or pass"  # (only Bo, the 下家, may chow)
    assert views[2]["prompt"]["zh"] == "可以叫这张牌：胡、杠、碰，或过"
    assert not any(v["your_turn"] for v in views) and all(v["turn"] is None for v in views)

    pending = public_state(replay(HAND[:-1]))
    assert seat_view(pending, 2)["prompt"]["en"] == "Confirm your win"
    assert seat_view(pending, 0)["prompt"]["en"] == "Cy (West) declared a win; waiting for the check"

    over = public_state(replay(HAND))
    views = seat_views(over)
    assert [v["score"] for v in views] == [0, 0, 1, -1]
    assert [v["last_delta"] for v in views] == [0, 0, 1, -1]
    assert [v["rank"] for v in views] == [2, 2, 1, 4]
    assert views[2]["prompt"] == {"zh": "你胡了！ +1", "en": "You won! +1"}
    assert views[3]["prompt"] == {"zh": "Cy（西） 胡了，你 -1", "en": "Cy (West) won; you -1"}

    ended = public_state(replay([*HAND, {"type": "end_session"}]))
    assert seat_view(ended, 3)["prompt"]["en"] == "Session over: rank 4, -1"


def test_a_drawn_hand_says_so() -> None:
    events = list(HAND[:5])
    public = public_state(replay(events))
    while public["phase"] != "hand_over":
        events.append(next_command(public))
        public = public_state(replay(events))
    assert public["last_settlement"]["result"] == "draw"
    assert prompt(public, 1) == {"zh": "荒牌 +0", "en": "Drawn hand +0"}


def test_views_agree_with_the_public_state_over_a_long_game() -> None:
    from engine import apply, new_table, parse_event

    state = new_table()
    for ev in HAND[:2]:
        state, _ = apply(state, parse_event(ev))
    for _ in range(600):
        public = public_state(state)
        views = seat_views(public)
        json.dumps(views)  # plain JSON
        for s, v in enumerate(views):
            assert v["seat"] == s and v["name"] == public["players"][s] and v["score"] == public["scores"][s]
            assert v["your_turn"] == (public["phase"] == "turn" and public["turn"] == s)
            assert v["can_claim"] == (public["phase"] == "claims" and s in public["claims"]["waiting"])
            assert v["dealer"] == (public["dealer"] == s)
            assert v["prompt"]["zh"] and v["prompt"]["en"]
        state, _ = apply(state, parse_event(next_command(public)))


def test_a_seat_must_be_0_to_3() -> None:
    public = public_state(replay(HAND[:2]))
    for bad in (-1, 4, "1", True):
        with pytest.raises(ValueError, match="seat must be 0–3"):
            seat_view(public, bad)  # type: ignore[arg-type]


def test_the_view_names_the_last_winner() -> None:
    assert seat_view(public_state(replay(HAND[:9])), 0)["winner"] is None
    won = public_state(replay(HAND))
    assert [v["winner"] for v in seat_views(won)] == [2, 2, 2, 2]
