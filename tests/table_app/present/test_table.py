"""What the screens show, read from the public state without Kivy: the seats' fixed button
places, the forward action of every phase, the lines, the settlement, the ranking and the
history in sentences."""

from __future__ import annotations

from typing import Any

import pytest

from engine import replay
from engine.events import parse_event
from engine.public import public_state
from engine.records import PHASES
from engine.scoring import ranking
from table_app.present import buttons, history, names
from table_app.present import seat as seats
from table_app.present import table as view
from table_app.present.words import tr

START = [
    {"type": "new_session", "players": ["Ann", "Bo", "Cy", "Di"], "base": 1},
    {"type": "seating", "method": "C", "east": 1},
]
DEAL = [{"type": "roll", "dice": [1, 2]}, {"type": "roll", "dice": [3, 3]}]


def pub(*more: dict[str, Any]) -> Any:
    return public_state(replay([*START, *more]))


def test_who_rolls_and_what_each_seat_is_offered() -> None:
    p = pub()
    assert buttons.roller(p) == 1 and buttons.buttons(p, 1) == ["roll"] and buttons.buttons(p, 0) == []
    assert view.status_line(p, "en") == "Bets if any, then Bo rolls"
    p = pub(DEAL[0])  # 3 from Bo (seat 1): seat 3
    assert buttons.roller(p) == 3 and view.status_line(p, "en") == "Di rolls (the break point)"
    p = pub(*DEAL)
    assert buttons.buttons(p, 1) == ["discard", "kong", "win"]  # the engine's actions, as buttons
    assert buttons.buttons(p, 2) == [] and view.status_line(p, "zh") == "Bo 出牌"
    p = pub(*DEAL, {"type": "discard", "seat": 1})
    assert "claim_chow" in buttons.buttons(p, 2) and "claim_chow" not in buttons.buttons(p, 3)
    assert buttons.buttons(p, 1) == []
    assert view.status_line(p, "en", 1.25) == "Bo discarded · 1 s"
    assert seats.led_modes(p) == ["blink", "off", "blink", "blink"]


def test_the_six_places_never_move_and_send_only_their_own_actions() -> None:
    states = [pub(*DEAL), pub(*DEAL, {"type": "discard", "seat": 1}), pub(*DEAL, {"type": "win", "seat": 1})]
    for p in states:
        for seat in range(4):
            got = buttons.slots(p, seat)
            assert [s.key for s in got] == ["discard", "chow", "pong", "kong", "win", "pass"]
            for s, (_key, sends) in zip(got, buttons.PLAY_SLOTS, strict=True):
                assert s.action is None or s.action in sends
            assert {s.action for s in got if s.action} == set(buttons.buttons(p, seat))  # every action has its place
    claims = buttons.slots(states[1], 2)
    assert [s.action for s in claims] == [None, "claim_chow", "claim_pong", "claim_kong", "claim_win", "pass"]
    before = buttons.slots(pub(), 1)  # before the deal: 掷骰 and the bets in the same places
    assert [(s.key, s.action) for s in before[:3]] == [("roll", "roll"), ("bet_down", "bet_down"),
                                                        ("bet_up", "bet_up")]
    assert not any(s.shown for s in before[3:])


def test_buttons_send_presses() -> None:
    assert buttons.command("roll", 1, dice=(3, 4)) == {"type": "press", "seat": None, "button": "DICE", "held": False,
                                                     "dice": [3, 4]}
    assert buttons.command("kong", 2) == {"type": "press", "seat": 2, "button": "GANG", "held": False}
    assert buttons.command("discard", 0) == {"type": "press", "seat": 0, "button": "TURN", "held": False}
    assert buttons.command("claim_chow", 1)["button"] == "CHI"
    assert buttons.command("pass", 3) == {"type": "pass", "seat": 3}


PHASE_WALK = [
    [],
    [START[0]],
    START,
    [*START, {"type": "bets", "bets": [0, 1, 0, 0]}],
    [*START, *DEAL],
    [*START, *DEAL, {"type": "discard", "seat": 1}],
    [*START, *DEAL, {"type": "win", "seat": 1}],
    [*START, *DEAL, {"type": "win", "seat": 1}, {"type": "confirm_win", "wait": "plain"}],
    [*START, {"type": "end_session"}],
]


@pytest.mark.parametrize("events", PHASE_WALK, ids=lambda e: replay(e).phase)
def test_every_phase_has_a_way_on_and_it_is_one_the_engine_takes(events: list[dict[str, Any]]) -> None:
    from engine.table import TRANSITIONS

    p = public_state(replay(events))
    for score_only in (False, True):
        moves = buttons.forward(p, score_only)
        assert moves and (None, "menu") not in moves
        events_of = {"new_session": "new_session", "seating": "seating", "confirm_win": "confirm_win",
                     "next_hand": "next_hand", "score_hand": "score_hand", "discard": "discard", "roll": "roll",
                     "pass": "pass", "claim_win": "claim", "claim_pong": "claim", "claim_kong": "claim",
                     "claim_chow": "claim", "kong": "kong", "win": "win"}
        for _seat, act in moves:
            if act == "final":  # the session is over: the last screen, then a new session
                assert p["phase"] == "ended" and ("ended", "new_session") in TRANSITIONS
            else:
                assert (p["phase"], events_of[act]) in TRANSITIONS, (p["phase"], act)
    assert {replay(e).phase for e in PHASE_WALK} == set(PHASES) - {"rolling"} | {"rolling"}


def test_seat_lines_show_wind_dealer_streak_score_and_claims() -> None:
    p = pub()
    lines = seats.seat_lines(p, 1, "en")
    assert (lines["wind"], lines["name"], lines["mark"], lines["score"], lines["detail"]) == ("E", "Bo", "D", "0",
                                                                                             "bet 0")
    assert seats.seat_lines(p, 0, "zh")["wind"] == "北"
    p["dealer_streak"], p["scores"] = 2, [0, 5, -5, 0]
    lines = seats.seat_lines(p, 1, "zh")
    assert lines["mark"] == "庄连2" and lines["score"] == "+5"
    p = pub(*DEAL, {"type": "discard", "seat": 1}, {"type": "claim", "seat": 3, "call": "pong"})
    assert seats.seat_lines(p, 3, "en")["prompt"] == "pong"  # the engine's claims.answers
    assert seats.seat_lines(p, 1, "en")["prompt"] == "you discarded"
    assert seats.seat_lines(p, 0, "en")["prompt"] == "may pong/kong/win"  # (not the 下家: no chow)
    assert seats.seat_lines(p, 2, "zh")["prompt"] == "可以吃碰杠胡"  # the 下家


def test_melds_are_named_in_words() -> None:
    assert view.meld_text({"kind": "pong", "tiles": "333s"}, "zh") == "碰 三条"
    assert view.meld_text({"kind": "chow", "tiles": "123m"}, "zh") == "吃 一二三万"
    assert view.meld_text({"kind": "kong", "kong": "concealed", "tiles": None}, "en") == "concealed kong"


def test_the_settlement_has_one_row_per_player() -> None:
    p = pub({"type": "bets", "bets": [0, 0, 0, 1]}, *DEAL, {"type": "win", "seat": 1},
            {"type": "confirm_win", "wait": "single"})
    assert view.settlement_head(p, "en") == "Bo wins (heavenly) · single (bonus)"
    assert view.status_line(p, "en") == "Bo wins (heavenly)"  # who won, then who deals next:
    assert view.info_lines(p, "en")[1] == f"next dealer: {p['players'][p['next_dealer']]}"
    assert view.settlement_rows(p)[1] == ("Bo", 27, 0, 2, 29, 29)
    assert view.settlement_rows(p)[3] == ("Di", -9, 0, -2, -11, -11)
    lines = view.transfer_lines(p, "en")
    assert "Ann pays Bo 9 (win)" in lines and "Di pays Bo 2 (bet)" in lines
    assert tr("drawn_hand", "zh") == "荒牌"


def test_ranking_shares_places_and_the_settle_up_is_the_engines() -> None:
    assert ranking([3, -3, 0, 0]) == [(1, 0), (2, 2), (2, 3), (4, 1)]
    p = public_state(replay([*START, {"type": "score_hand", "winner": 2, "how": "discard", "discarder": 0},
                {"type": "end_session"}]))
    assert view.settle_lines(p, "zh") == ["Ann 给 Cy 1"]


def test_the_history_in_sentences() -> None:
    events = [*START, {"type": "bets", "bets": [0, 1, 0, 0]}, *DEAL, {"type": "discard", "seat": 1, "tile": "5p"},
              {"type": "claim", "seat": 3, "call": "pong"}, {"type": "resolve"},
              {"type": "kong", "seat": 3, "kind": "added", "tile": "5p"}, {"type": "win", "seat": 3},
              {"type": "confirm_win", "wait": "closed"},
              {"type": "score_hand", "winner": 2, "how": "discard", "discarder": 0, "wait": "single"},
              {"type": "name", "seat": 2, "name": "小明"}]
    said = history.describe([parse_event(e) for e in events], ["Ann", "Bo", "Cy", "Di"], "zh", east=1)
    assert said == ["新牌局：Ann、Bo、Cy、Di，基数 1", "定位：Bo 摸到东", "下注：Bo 1", "掷骰 1+2（定哪家的墙）",
                    "掷骰 3+3（定起牌点）", "Bo 出牌 五筒", "Di 碰 Bo的 五筒", "吃碰杠胡截止", "Di 加杠 五筒",
                    "Di 自摸", "确认胡牌 · 夹张", "记分：Cy 点炮（Ann） · 单调",
                    "入座改名：小明"]
    assert history.describe([parse_event({"type": "seating", "method": "A", "roller": 2, "dice": [1, 1]})],
                            ["A", "B", "C", "D"], "en", east=3) == ["seating: C rolls 1+1, D is East"]
    assert history.source_word("gpio press 1:TURN", "zh") == "按钮" and history.source_word("touch", "en") == "screen"


def test_names_are_checked_before_a_session() -> None:
    assert names.names_problem(["欧阳司马诸葛上官", "Maximilianus", "阿强", "Bo"], "en") == ""
    assert names.names_problem(["欧阳司马诸葛上官甲", "B", "C", "D"], "en").startswith("A name has at most")
    assert names.names_problem(["A", "", "C", "D"], "zh") == "请给右方的玩家起个名字"
    assert names.names_problem(["A", "B\x1b[2J", "C", "D"], "en") == "The name at the right has a control character"
    assert names.names_problem(["A", "B", "C\ud800", "D"], "zh").endswith("的名字里有控制字符")
    assert names.names_problem(["A", "B", "A", "D"], "en") == "Two players have the same name: A"
