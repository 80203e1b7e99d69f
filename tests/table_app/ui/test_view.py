"""The table screen's view of the public state, without Kivy."""

from __future__ import annotations

from engine import replay
from table_app.ui import view
from table_app.ui.text import tr

START = [
    {"type": "new_session", "players": ["Ann", "Bo", "Cy", "Di"], "base": 1},
    {"type": "seating", "method": "C", "east": 1},
]


def pub(*more: dict) -> dict:
    return replay([*START, *more]).public()


def test_who_rolls_and_what_each_seat_is_offered() -> None:
    p = pub()
    assert view.roller(p) == 1 and view.buttons(p, 1) == ["roll"] and view.buttons(p, 0) == []
    p = pub({"type": "roll", "dice": [1, 2]})  # 3 from Bo (seat 1): seat 3
    assert view.roller(p) == 3 and view.status_line(p, "en") == "Di rolls (the break point)"
    p = pub({"type": "roll", "dice": [1, 2]}, {"type": "roll", "dice": [3, 3]})
    assert view.buttons(p, 1) == ["discard", "kong", "win"]  # the engine's actions, as buttons
    assert view.buttons(p, 2) == [] and view.status_line(p, "zh") == "Bo 出牌"
    p = pub({"type": "roll", "dice": [1, 2]}, {"type": "roll", "dice": [3, 3]}, {"type": "discard", "seat": 1})
    assert "claim_chow" in view.buttons(p, 2) and "claim_chow" not in view.buttons(p, 3)
    assert view.buttons(p, 1) == []
    assert view.status_line(p, "en", 1.25) == "Bo discarded · 1.2 s left · waiting: Ann, Cy, Di"
    assert view.led_modes(p) == ["blink", "off", "blink", "blink"]


def test_buttons_send_presses() -> None:
    assert view.command("roll", 1, dice=(3, 4)) == {"type": "press", "seat": None, "button": "DICE", "held": False,
                                                     "dice": [3, 4]}
    assert view.command("kong", 2) == {"type": "press", "seat": 2, "button": "GANG", "held": False}
    assert view.command("discard", 0) == {"type": "press", "seat": 0, "button": "TURN", "held": False}
    assert view.command("claim_chow", 1)["button"] == "CHI"
    assert view.command("pass", 3) == {"type": "pass", "seat": 3}


def test_seat_lines_show_wind_dealer_streak_score_and_claims() -> None:
    p = pub()
    assert view.seat_lines(p, 1, "en") == {"title": "East Bo", "mark": "dealer", "score": "0", "detail": "bet 0"}
    assert view.seat_lines(p, 0, "zh")["title"] == "北 Ann"
    p["dealer_streak"], p["scores"] = 2, [0, 5, -5, 0]
    lines = view.seat_lines(p, 1, "zh")
    assert lines["mark"] == "庄 连2" and lines["score"] == "+5"
    p = pub({"type": "roll", "dice": [1, 2]}, {"type": "roll", "dice": [3, 3]}, {"type": "discard", "seat": 1},
            {"type": "claim", "seat": 3, "call": "pong"})
    assert view.seat_lines(p, 3, "en")["detail"].endswith("pong")  # the engine's claims.answers
    assert view.seat_lines(p, 1, "en")["detail"].endswith("discarder")


def test_settlement_lines_name_every_transfer() -> None:
    p = pub({"type": "bets", "bets": [0, 0, 0, 1]}, {"type": "roll", "dice": [1, 2]}, {"type": "roll", "dice": [3, 3]},
            {"type": "win", "seat": 1}, {"type": "confirm_win", "wait": "single"})
    lines = view.settlement_lines(p, "en")
    assert lines[0] == "Bo wins (heavenly) · single (bonus)"
    assert "Ann pays Bo 9 (win)" in lines and "Di pays Bo 2 (bet)" in lines
    assert view.score_rows(p, "en")[1] == ("Bo", "+29", "29")
    assert tr("drawn_hand", "zh") == "荒牌"
