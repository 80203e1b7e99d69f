"""Seat views: a pure function of the public state, worded as every front end words the seat."""

from __future__ import annotations

import json

import pytest

from engine import replay
from engine.public import public_state
from engine.scoring import ranks
from table_app.bench.mqtt import next_command
from table_app.present.seat import led_modes, seat_lines, seat_prompt, seat_view
from table_app.present.table import status_line
from tests.support.mqtt import HAND


def views(public):
    return [seat_view(public, s) for s in range(4)]


def test_ranks_share_places_on_equal_scores() -> None:
    assert ranks([0, 0, 0, 0]) == [1, 1, 1, 1]
    assert ranks([3, -1, -1, -1]) == [1, 2, 2, 2]
    assert ranks([-5, 10, 2, -7]) == [3, 1, 2, 4]


def test_before_any_session() -> None:
    v = seat_view(public_state(replay([])), 0)
    assert v["wind"] is None and v["score"] == 0 and not v["your_turn"] and not v["can_claim"]
    assert v["prompt"] == v["status"] == {"zh": "请开新牌局", "en": "start a session"}


def test_the_view_through_a_hand() -> None:
    seating = public_state(replay(HAND[:2]))
    assert [v["wind"] for v in views(seating)] == ["E", "S", "W", "N"]
    assert [v["wind_zh"] for v in views(seating)] == ["东", "南", "西", "北"]
    assert seat_view(seating, 0)["dealer"] and not seat_view(seating, 1)["dealer"]
    assert seat_view(seating, 0)["prompt"]["en"] == "your roll (whose wall)"  # the dealer rolls first
    assert seat_view(seating, 2)["prompt"]["en"] == "Bets if any, then Ann rolls"

    rolling = public_state(replay(HAND[:4]))  # the dealer rolled 7: the wall's owner, seat 2, rolls next
    assert seat_view(rolling, 2)["prompt"]["en"] == "your roll (the break point)"
    assert seat_view(rolling, 1)["prompt"]["zh"] == "Cy 掷骰（定起牌点）"

    dealt = public_state(replay(HAND[:5]))
    vs = views(dealt)
    assert [v["your_turn"] for v in vs] == [True, False, False, False]
    assert vs[0]["prompt"] == {"zh": "轮到你出牌", "en": "your turn"}
    assert vs[2]["prompt"]["en"] == "Ann's turn" and vs[2]["status"]["en"] == "Ann's turn"
    assert vs[2]["turn_name"] == {"zh": "Ann（东）", "en": "Ann (East)"}

    claims = public_state(replay(HAND[:7]))  # Ann discarded, Bo passed: Cy and Di may still claim
    vs = views(claims)
    assert [v["can_claim"] for v in vs] == [False, False, True, True]
    assert vs[0]["prompt"]["en"] == "you discarded"
    assert vs[1]["prompt"]["en"] == "pass"
    assert vs[2]["prompt"]["en"] == "may pong/kong/win"  # (only Bo, the 下家, may chow)
    assert vs[2]["prompt"]["zh"] == "可以碰杠胡"
    assert not any(v["your_turn"] for v in vs) and all(v["turn"] is None for v in vs)

    pending = public_state(replay(HAND[:-1]))
    assert seat_view(pending, 2)["prompt"]["en"] == "confirm your win"
    assert seat_view(pending, 0)["prompt"]["en"] == "Cy wins (on a discard)"

    over = public_state(replay(HAND))
    vs = views(over)
    assert [v["score"] for v in vs] == [0, 0, 1, -1]
    assert [v["last_delta"] for v in vs] == [0, 0, 1, -1]
    assert [v["rank"] for v in vs] == [2, 2, 1, 4]
    assert vs[2]["prompt"] == {"zh": "你胡了！+1", "en": "You won! +1"}
    assert vs[3]["prompt"] == {"zh": "这局你 -1", "en": "this hand: you -1"}
    assert vs[3]["status"] == {"zh": "Cy 胡了（点炮）", "en": "Cy wins (on a discard)"}
    assert vs[3]["last_hand"] == [{"zh": "你付 Cy 1 · 胡", "en": "You pay Cy 1 · win"}]
    assert vs[2]["last_hand"] == [{"zh": "Di 付你 1 · 胡", "en": "Di pays you 1 · win"}]

    ended = public_state(replay([*HAND, {"type": "end_session"}]))
    assert seat_view(ended, 3)["prompt"]["en"] == "session ended"
    assert seat_view(ended, 3)["settle_up"] == [{"zh": "你付 Cy 1", "en": "You pay Cy 1"}]


def test_a_seat_with_only_a_pass_is_told_to_pass_never_offered_calls_it_lacks() -> None:
    events = [{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1, "wall_seed": 7},
              {"type": "seating", "method": "C", "east": 0}, {"type": "roll", "dice": [3, 4]},
              {"type": "roll", "dice": [2, 2]}]
    state = replay(events)
    discard = next(t for t in range(34) if state.seats[0].concealed[t])
    public = public_state(replay([{"type": "discard", "seat": 0, "tile": _text(discard)}], state))
    for seat in (1, 2, 3):
        acts = public["actions"][seat]
        prompt = seat_view(public, seat)["prompt"]["en"]
        if acts == ["pass"]:
            assert prompt == "nothing to claim: pass"
        else:
            for call in ("chow", "pong", "kong", "win"):
                assert (call in prompt) == (f"claim:{call}" in acts), (seat, acts, prompt)


def _text(t):
    from engine.tiles import tile_text
    return tile_text(t)


def test_the_seat_view_says_what_the_touchscreen_panel_and_status_line_say() -> None:
    events = list(HAND[:2])
    state = replay(events)
    for _ in range(400):
        public = public_state(state)
        for seat in range(4):
            v = seat_view(public, seat)
            for lang in ("zh", "en"):
                panel, status = seat_lines(public, seat, lang), status_line(public, lang)
                assert v["prompt"][lang] == (panel["prompt"] or status)
                assert v["status"][lang] == status
                assert panel["prompt"] == seat_prompt(public, seat, lang)
        state = replay([next_command(public)], state)


def test_a_drawn_hand_says_so() -> None:
    events = list(HAND[:5])
    public = public_state(replay(events))
    while public["phase"] != "hand_over":
        events.append(next_command(public))
        public = public_state(replay(events))
    assert public["last_settlement"]["result"] == "draw"
    assert seat_view(public, 1)["prompt"] == {"zh": "这局你 +0", "en": "this hand: you +0"}
    assert seat_view(public, 1)["status"] == {"zh": "荒牌", "en": "drawn hand"}
    # the session's list of hands says it too (hand_line: every screen that lists hands)
    assert seat_view(public, 1)["results"] == [{"hand": 1, "delta": 0, "won": False, "drawn": True,
                                                "line": {"zh": "第1局 荒牌 0", "en": "hand 1: drawn 0"}}]


def test_a_drawn_hand_with_a_kong_paid_says_drawn_with_its_delta() -> None:
    start = [{"type": "new_session", "players": ["Ann", "Bo", "Cy", "Di"], "base": 1},
             {"type": "seating", "method": "C", "east": 0}]
    drawn = [*start, {"type": "score_hand", "kongs": [{"seat": 2, "kind": "concealed"}]}]
    v = seat_view(public_state(replay(drawn)), 2)
    [r] = v["results"]
    assert r["drawn"] and not r["won"] and r["delta"] > 0
    assert r["line"] == {"zh": f"第1局 荒牌 +{r['delta']}", "en": f"hand 1: drawn +{r['delta']}"}
    won = [*start, {"type": "score_hand", "winner": 2, "how": "self_drawn"}]
    assert [r["line"] for r in seat_view(public_state(replay(won)), 2)["results"]] == [
        {"zh": "第1局 胡 +6", "en": "hand 1: won +6"}]
    assert [r["line"] for r in seat_view(public_state(replay(won)), 0)["results"]] == [
        {"zh": "第1局 -2", "en": "hand 1: -2"}]


def test_a_seat_is_named_by_its_wind_or_its_place_never_a_number() -> None:
    idle = public_state(replay([]))
    assert [seat_view(idle, s)["label"]["en"] for s in range(4)] == [
        "the seat at the screen's bottom", "the seat at the screen's right", "the seat at the screen's top",
        "the seat at the screen's left"]
    assert seat_view(idle, 0)["label"]["zh"] == "屏幕下方的座位"
    seated = public_state(replay(HAND[:2]))
    for s in range(4):
        v = seat_view(seated, s)
        assert v["label"] == {"zh": f"{v['wind_zh']}风", "en": v["wind_en"]}


def test_the_end_of_a_session_is_in_every_seat_view_to_show_first_and_share() -> None:
    start = [{"type": "new_session", "players": ["Ann", "Bo", "Cy", "Di"], "base": 1},
             {"type": "seating", "method": "C", "east": 0},
             {"type": "score_hand", "winner": 1, "how": "self_drawn"}]
    assert seat_view(public_state(replay(start)), 0)["final"] is None  # (only once the session has ended)
    public = public_state(replay([*start, {"type": "end_session"}]))
    final = seat_view(public, 0)["final"]
    assert final is not None and all(seat_view(public, s)["final"] == final for s in range(4))
    assert final["title"] == {"zh": "牌局结束 · 共 1 局", "en": "Session over · 1 hand"}  # (not "1 hands")
    assert [(r["rank"], r["name"], r["score"]) for r in final["ranking"]] == [
        (1, "Bo", 6), (2, "Ann", -2), (2, "Cy", -2), (2, "Di", -2)]
    assert final["ranking"][0]["line"] == {"zh": "第1名 Bo +6", "en": "#1 Bo +6"}
    assert final["settle"][0] == {"zh": "Ann 给 Bo 2", "en": "Ann pays Bo 2"}
    assert final["text"]["zh"].splitlines() == ["牌局结束 · 共 1 局", "排名", "第1名 Bo +6", "第2名 Ann -2",
                                                "第2名 Cy -2", "第2名 Di -2", "结账", "Ann 给 Bo 2", "Cy 给 Bo 2",
                                                "Di 给 Bo 2"]
    assert json.loads(json.dumps(final, ensure_ascii=False)) == final  # (published as JSON: MQTT, phones)


def test_views_agree_with_the_public_state_over_a_long_game() -> None:
    state = replay(HAND[:2])
    for _ in range(600):
        public = public_state(state)
        vs = views(public)
        json.dumps(vs)  # plain JSON
        for s, v in enumerate(vs):
            assert v["seat"] == s and v["name"] == public["players"][s] and v["score"] == public["scores"][s]
            assert v["your_turn"] == (public["phase"] == "turn" and public["turn"] == s)
            assert v["can_claim"] == (public["phase"] == "claims" and s in public["claims"]["waiting"])
            assert v["dealer"] == (public["dealer"] == s)
            assert v["prompt"]["zh"] and v["prompt"]["en"]
            assert [b["button"] for b in v["buttons"] if b["enabled"]] or not public["actions"][s]
        state = replay([next_command(public)], state)


def test_the_lights_follow_the_actions() -> None:
    assert led_modes(public_state(replay(HAND[:5]))) == ["on", "off", "off", "off"]
    assert led_modes(public_state(replay(HAND[:7]))) == ["off", "off", "blink", "blink"]


def test_a_seat_must_be_0_to_3() -> None:
    public = public_state(replay(HAND[:2]))
    for bad in (-1, 4, "1", True):
        with pytest.raises(ValueError, match="seat must be 0–3"):
            seat_view(public, bad)  # type: ignore[arg-type]


def test_the_view_names_the_last_winner() -> None:
    assert seat_view(public_state(replay(HAND[:9])), 0)["winner"] is None
    won = public_state(replay(HAND))
    assert [v["winner"] for v in views(won)] == [2, 2, 2, 2]


def test_the_quick_turn_is_offered_only_while_nobody_has_claimed() -> None:
    def turn(public, seat):
        return next(b for b in seat_view(public, seat)["buttons"] if b["button"] == "TURN")

    open_ = public_state(replay(HAND[:6]))  # Ann discarded: Bo (her 下家) may draw and discard at once
    assert turn(open_, 1)["enabled"] and turn(open_, 1)["en"] == "Draw & discard"
    pending = public_state(replay([*HAND[:6], {"type": "claim", "seat": 3, "call": "pong"}]))
    assert pending["claims"]["next"] is None and not turn(pending, 1)["enabled"]  # the engine would refuse it
