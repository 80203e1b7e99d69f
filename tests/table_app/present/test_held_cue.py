"""Issue 28, item 13: every screen that shows the claims says that the 下家 has pressed and waits,
and that the others still have their seconds to claim — the status line (touchscreen, table
page, phones, MQTT seat views), each seat's prompt, the phones' buttons and the lights — from
the public state's ``claims.held`` (docs/rules.md §17). On the real engine's states."""

from __future__ import annotations

from engine.public import PublicState, public_state
from engine.table import replay
from table_app.present.seat import led_modes, seat_lines, seat_view
from table_app.present.table import status_line
from table_app.present.table_page import table_view

EVENTS = [{"type": "new_session", "players": ["阿明", "阿华", "阿强", "阿芳"], "base": 1},
          {"type": "seating", "method": "C", "east": 0},
          {"type": "roll", "dice": [3, 4]}, {"type": "roll", "dice": [2, 3]},
          {"type": "discard", "seat": 0}]
HELD = {"type": "pass", "seat": 1, "drew": True}


def pub(*more: dict) -> PublicState:
    return public_state(replay([*EVENTS, *more]))


def test_the_status_line_says_who_waits_and_the_seconds_left() -> None:
    p = pub(HELD)
    assert status_line(p, "zh", 2.4) == "阿华摸牌了，别家还有 2 秒 · 阿明 打出"
    assert status_line(p, "en", 2.4) == "阿华 drew: others have 2 s to claim · 阿明 discarded"
    assert status_line(p, "zh") == "阿华摸牌了，等别家 · 阿明 打出"  # (no timer, or a page counting itself)
    assert status_line(pub(), "zh", 2.4) == "阿明 打出 · 2 秒"  # before the press: as before


def test_each_seats_prompt() -> None:
    p = pub(HELD)
    assert [seat_lines(p, s, "zh")["prompt"] for s in range(4)] == ["你刚出牌", "摸牌了，等别家", "还可以碰杠胡",
                                                                    "还可以碰杠胡"]
    assert seat_lines(p, 1, "en")["prompt"] == "drew: others may still claim"
    assert seat_lines(p, 3, "en")["prompt"] == "may still pong/kong/win"
    passed = pub(HELD, {"type": "pass", "seat": 2})
    assert seat_lines(passed, 2, "zh")["prompt"] == "过" and seat_lines(passed, 3, "zh")["prompt"] == "还可以碰杠胡"


def test_the_phones_and_mqtt_seat_views() -> None:
    p = pub(HELD)
    views = [seat_view(p, s, claim_left=2.4) for s in range(4)]
    assert views[1]["prompt"]["zh"] == "摸牌了，等别家" and views[1]["claim_left"] is None
    assert not any(b["enabled"] for b in views[1]["buttons"])  # it has answered: its buttons rest
    assert not views[1]["next_seat"]  # its TURN no longer means "I drew and discarded"
    for v in views[2:]:
        assert v["can_claim"] and v["claim_left"] == 2.4 and v["prompt"]["en"] == "may still pong/kong/win"
        assert v["status"]["zh"] == "阿华摸牌了，等别家 · 阿明 打出"
    assert seat_view(pub(), 1)["next_seat"]  # before its press it is the quick 下家


def test_the_table_page() -> None:
    view = table_view(pub(HELD), "zh", claim_left=2.4, claim_window_s=3.0)
    assert view["status"] == "阿华摸牌了，等别家 · 阿明 打出"
    assert view["countdown"] is not None and view["countdown"]["left"] == 2.4  # (the page counts it down)


def test_the_lights() -> None:
    """The LEDs come from ``actions``: the 下家 that has pressed is off, the seats still awaited blink."""
    assert led_modes(pub(HELD)) == ["off", "off", "blink", "blink"]
    assert led_modes(pub()) == ["off", "blink", "blink", "blink"]


def test_the_history_tells_the_press() -> None:
    from engine.events import parse_event
    from table_app.present.history import describe

    said = describe([parse_event(e) for e in (EVENTS[-1], HELD)], ["阿明", "阿华", "阿强", "阿芳"], "en")
    assert said == ["阿明 discards", "阿华 draws and discards (once the others have answered)"]
