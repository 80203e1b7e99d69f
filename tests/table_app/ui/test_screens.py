"""Hardware presses, the tile keyboard and a false win, undo/redo, layouts, languages."""

from __future__ import annotations

import threading
from typing import Any

from tests.table_app.ui.conftest import UI

SETUP = [
    {"type": "new_session", "players": ["Ann", "Bo", "Cy", "Di"], "base": 1},
    {"type": "seating", "method": "C", "east": 0},
]
DEAL = [{"type": "roll", "dice": [4, 6]}, {"type": "roll", "dice": [2, 3]}]


def given(ui: UI, events: list[dict[str, Any]]) -> None:
    for ev in events:
        answer = ui.service.call(ev, source="test")
        assert answer.ok, answer.error
    ui.settled()


def press_key(ui: UI, key: int, char: str) -> None:
    from kivy.core.window import Window

    before = ui.service.seq
    Window.dispatch("on_key_down", key, 0, char, [])
    ui.wait(lambda: ui.service.seq > before, f"the key {char!r} reached the service")
    ui.settled()


def test_hardware_presses_from_another_thread_update_the_screen(ui: UI) -> None:
    given(ui, SETUP)
    table = ui.app.sm.get_screen("table")
    assert ui.screen is table and "Ann rolls" in table.status

    # the dice button of the panel / GPIO: a press from another thread, as the adapters send it
    dice = {"type": "press", "seat": None, "button": "DICE", "dice": [4, 6]}
    t = threading.Thread(target=lambda: ui.service.call(dice, source="gpio"))
    t.start()
    t.join()
    ui.wait(lambda: "Bo rolls" in table.status, "the roll from the buttons")
    assert table.panel(0).lit and table.panel(0).lit_text == "Roll"
    assert ui.button(1, "roll")

    # simulated hardware: space is the dice button (the table rolls 2+3), 1 is seat 0's TURN
    # button, w/e seat 1's CHI/PENG
    press_key(ui, 32, " ")
    assert ui.service.public["phase"] == "turn" and table.status == "Ann's turn"
    press_key(ui, ord("1"), "1")
    assert ui.service.public["phase"] == "claims" and table.status.startswith("Ann discarded")
    assert [table.panel(s).led for s in range(4)] == ["off", "blink", "blink", "blink"]  # the LEDs, on screen
    press_key(ui, ord("e"), "e")  # seat 1 PENG
    assert "pong" in table.panel(1).detail and table.panel(1).lit
    assert "waiting: Cy, Di" in table.status
    ui.clock.advance(3.0)  # the claim window closes: the service resolves, Bo pongs
    ui.wait(lambda: table.status == "Bo's turn", "the pong after the claim window")
    assert ui.service.public["turn"] == 1 and table.panel(1).led == "on"
    assert table.panel(1).actions == ["discard"]  # RULES §17: after a pong nothing was drawn: discard only


def test_a_refused_press_shows_why_on_the_seats_panel(ui: UI) -> None:
    given(ui, SETUP + DEAL)
    table = ui.screen
    before = ui.service.seq
    from kivy.core.window import Window

    Window.dispatch("on_key_down", ord("t"), 0, "t", [])  # seat 1's HU on seat 0's turn
    ui.wait(lambda: table.panel(1).lit, "the refusal on seat 1's panel")
    assert table.panel(1).refused and table.panel(1).lit_text == "Not Bo's turn: Ann plays"
    assert ui.app.message == "Not Bo's turn: Ann plays" and ui.service.seq == before
    ui.app.toggle_lang()
    Window.dispatch("on_key_down", ord("t"), 0, "t", [])
    ui.wait(lambda: table.panel(1).lit_text == "还没轮到Bo：现在Ann出牌", "the refusal in Chinese")
    assert "✗" not in table.panel(1).lit_text


def test_a_kong_the_engine_cannot_tell_is_asked_for(ui: UI) -> None:
    """Tracked mode, a seat with a pong and four tiles more: concealed or added? The GANG
    press is refused with that question and the screen asks it."""
    given(ui, SETUP + DEAL + [{"type": "discard", "seat": 0}, {"type": "claim", "seat": 2, "call": "pong"},
                              {"type": "resolve"}, {"type": "discard", "seat": 2}, {"type": "resolve"},
                              {"type": "discard", "seat": 3}, {"type": "resolve"}, {"type": "discard", "seat": 0},
                              {"type": "resolve"}, {"type": "discard", "seat": 1}, {"type": "resolve"}])
    assert ui.pub()["turn"] == 2 and ui.pub()["actions"][2] == ["discard", "kong", "win"]
    ui.tap(ui.button(2, "kong"))
    ui.wait(lambda: ui.app.message.startswith("Cy: which kong?"), "the question")
    dialog = ui.modal()
    added = next(w for w in dialog.walk() if getattr(w, "text", "") == "Add kong")
    ui.send_and_settle(added)
    pub = ui.pub()
    assert pub["wall"]["kongs"] == 0 and pub["phase"] == "claims" and pub["claims"]["kind"] == "rob"


def tap_tiles(ui: UI, screen: Any, text: str) -> None:
    keys = {b.action: b for b in screen.ids.keyboard.children}
    for tile in [text[i:i + 2] for i in range(0, len(text), 2)]:
        ui.tap(keys[tile])


def test_false_win_is_taken_back_and_a_hand_tapped_in_is_checked(ui: UI) -> None:
    given(ui, SETUP + DEAL)
    ui.send_and_settle(ui.button(0, "win"))
    assert ui.screen.name == "win" and ui.screen.title_text == "Ann wins (heavenly)"
    ui.send_and_settle(ui.screen.ids.reject)
    assert ui.service.public["phase"] == "turn" and ui.screen.name == "table" and ui.screen.status == "Ann's turn"

    ui.send_and_settle(ui.button(0, "win"))
    win = ui.screen
    tap_tiles(ui, win, "1m2m3m1p3p4s5s6s7s8s9s1z1z")
    assert win.verdict == "13/14"
    tap_tiles(ui, win, "2p")
    assert win.verdict == "wins: closed (bonus)"
    assert win.hand_text.startswith("123m123p456789s11z") and "2p 2 Dots" in win.hand_text
    ui.tap(win.ids.keyboard.children[0])  # one more (7z): not a hand any more
    assert win.verdict == "15/14"
    ui.tap(next(w for w in win.walk() if getattr(w, "action", "") == "backspace"))
    assert win.verdict == "wins: closed (bonus)"
    ui.send_and_settle(win.ids.confirm_hand)
    s = ui.service.public["last_settlement"]
    assert s["kind"] == "heavenly" and s["wait"] == "closed" and s["deltas"] == [27, -9, -9, -9]
    assert ui.screen.name == "settlement" and "Ann wins (heavenly) · closed (bonus)" in ui.screen.lines


def test_a_wrong_hand_is_refused_and_says_why(ui: UI) -> None:
    given(ui, SETUP + DEAL)
    ui.send_and_settle(ui.button(0, "win"))
    win = ui.screen
    tap_tiles(ui, win, "1m2m3m1p3p4s5s6s7s8s9s1z2z2p")
    assert win.verdict == "not a winning hand"
    ui.send_and_settle(win.ids.confirm_hand)
    assert "not a winning hand" in ui.app.message and ui.service.public["phase"] == "win_pending"


def test_undo_and_redo_ask_first(ui: UI) -> None:
    given(ui, SETUP + DEAL + [{"type": "discard", "seat": 0}])
    seq = ui.service.seq
    ui.tap(next(w for w in ui.screen.walk() if getattr(w, "text", "") == "History"))
    hist = ui.screen
    assert hist.name == "history"
    rows = hist.ids.events.children
    assert len(rows) == 5 and rows[-1].children[2].text == "discard Ann"  # newest on top
    ui.tap(hist.ids.undo)
    dialog = ui.modal()
    assert dialog.text.startswith("Undo #5 discard Ann")
    ui.send_and_settle(dialog.ids.yes)
    assert ui.service.public["phase"] == "turn" and ui.service.seq == seq + 1
    assert len(hist.ids.events.children) == 4 and not hist.ids.redo.disabled
    ui.tap(hist.ids.redo)
    ui.send_and_settle(ui.modal().ids.yes)
    assert ui.service.public["phase"] == "claims" and len(hist.ids.events.children) == 5
    # undo back to just after the seating (#2): the table is waiting for the first roll again
    row = next(r for r in hist.ids.events.children if r.children[-1].text == "#2")
    ui.tap(row.children[0])
    dialog = ui.modal()
    assert dialog.text == "Go back to just after #2?"
    ui.send_and_settle(dialog.ids.yes)
    assert ui.service.public["phase"] == "betting" and ui.service.public["dice"]["dealer"] is None


def _buttons(widget: Any) -> list[Any]:
    from table_app.ui.widgets import BigButton, BigToggle

    return [w for w in widget.walk() if isinstance(w, BigButton | BigToggle) and w.opacity > 0]


def test_layouts_keep_touch_targets_large_and_on_screen(ui: UI) -> None:
    from kivy.core.window import Window

    given(ui, SETUP + DEAL + [{"type": "discard", "seat": 0}])
    for size in ((800, 480), (1280, 720)):
        Window.size = size
        ui.frames(6)
        for name in ("table", "win", "settlement", "history", "scores", "settings", "session", "seating"):
            ui.app.sm.current = name
            ui.app.sm.current_screen.refresh()
            ui.frames(4)
            for b in _buttons(ui.app.sm.current_screen):
                x, y = b.to_window(b.x, b.y)
                where = f"{name} {size}: {b.text!r}"
                assert b.width >= 48 and b.height >= 48, f"{where} is {b.width:.0f}×{b.height:.0f}"
                assert x >= -1 and x + b.width <= size[0] + 1 and y >= -1 and y + b.height <= size[1] + 1, where
        ui.app.sm.current = "table"
        ui.frames(3)
        table = ui.app.sm.current_screen
        boxes = [table.panel(s) for s in range(4)] + [table.ids.wall]
        rects = [(*w.to_window(w.x, w.y), w.width, w.height) for w in boxes]
        for i, (ax, ay, aw, ah) in enumerate(rects):
            for j, (bx, by, bw, bh) in enumerate(rects[i + 1:], i + 1):
                overlap = max(0, min(ax + aw, bx + bw) - max(ax, bx)) * max(0, min(ay + ah, by + bh) - max(ay, by))
                assert overlap <= 1, f"{boxes[i]} overlaps {boxes[j]} at {size}: {rects}"


def test_chinese_and_english(ui: UI) -> None:
    given(ui, SETUP)
    table = ui.screen
    assert table.panel(0).title == "East Ann"
    lang = next(w for w in table.walk() if getattr(w, "text", "") == "中文")
    ui.tap(lang)
    assert ui.app.lang == "zh"
    assert table.panel(0).title == "东 Ann" and table.panel(0).mark == "庄"
    assert table.status.startswith("下注，然后庄家掷骰") and "Ann 掷骰" in table.status
    assert ui.button(0, "roll").text == "掷骰"
    assert ui.app.font_path and ui.app.font_path.endswith((".ttc", ".ttf", ".otf"))


def test_scoreboard_and_settings(ui: UI) -> None:
    given(ui, SETUP + DEAL + [{"type": "win", "seat": 0}, {"type": "confirm_win", "wait": "plain"},
                              {"type": "next_hand"}, *DEAL, {"type": "discard", "seat": 0},
                              {"type": "claim", "seat": 2, "call": "win"}, {"type": "pass", "seat": 1},
                              {"type": "pass", "seat": 3}])
    assert ui.screen.name == "win"
    ui.send_and_settle(ui.app.sm.get_screen("win").ids.waits.children[-2])  # "single"
    scores = ui.service.public["scores"]
    ui.app.goto("scores")
    ui.frames(3)
    chart = ui.screen.ids.chart
    assert chart.series == [[0, 0, 0, 0], [18, -6, -6, -6], scores]
    assert [w.text for w in reversed(ui.screen.ids.legend.children)][2] == f"Cy  {scores[2]}"
    ui.app.goto("settings")
    ui.frames(3)
    text = ui.screen.links
    assert "buttons: simulated (keyboard)" in text and "MQTT: offline" in text and "panel: not connected" in text
    assert "journal.sqlite3" in text and "font: /" in text


def _toggle(screen: Any, value: tuple[Any, ...]) -> Any:
    found = [w for w in screen.walk() if getattr(w, "value", None) == value]
    assert found, f"no toggle {value!r} on the screen"
    return found[0]


def test_seating_by_everyone_rolling_refuses_ties_then_by_wind_tiles(ui: UI) -> None:
    given(ui, SETUP[:1])
    seating = ui.screen
    assert seating.name == "seating"
    ui.tap(seating.ids.method_B)
    rolls = [(6, 5), (3, 3), (3, 3), (1, 2)]  # Bo and Cy tie on 6
    for seat, (a, b) in enumerate(rolls):
        ui.tap(_toggle(seating, ("rolls", a, seat, 0)))
        ui.tap(_toggle(seating, ("rolls", b, seat, 1)))
    ui.send_and_settle(seating.ids.confirm)
    assert "seats 1, 2 all rolled 6" in ui.app.message and ui.service.public["phase"] == "seating"
    ui.tap(seating.ids.method_C)
    ui.tap(_toggle(seating, ("east", 3)))
    ui.send_and_settle(seating.ids.confirm)
    pub = ui.service.public
    assert pub["phase"] == "betting" and pub["dealer"] == 3 and pub["winds"] == ["S", "W", "N", "E"]
    assert ui.screen.name == "table" and ui.screen.panel(3).title == "East Di"


def test_a_new_session_over_a_running_one_asks_first(ui: UI) -> None:
    given(ui, SETUP + DEAL)
    ui.app.goto("session")
    ui.frames(2)
    ids = ui.screen.ids
    ids.name0.text = "Eve"
    seq = ui.service.seq
    ui.tap(ids.start)
    dialog = ui.modal()
    assert dialog.text == "Leave the session being played and start a new one?" and ui.service.seq == seq
    ui.send_and_settle(dialog.ids.yes)
    assert ui.service.public["phase"] == "seating" and ui.service.public["players"][0] == "Eve"
    assert ui.screen.name == "seating"


def test_the_dice_button_fills_the_seating_form(ui: UI) -> None:
    """The panel's (or GPIO) dice during seating, pressed on an input thread, fill the form:
    method A takes them as the roll, method B as the next seat's roll. Nothing is journaled."""
    given(ui, SETUP[:1])
    ui.app.goto("table")
    seq = ui.service.seq

    def press(dice: list[int]) -> None:
        press = {"type": "press", "seat": None, "button": "DICE", "dice": dice}
        t = threading.Thread(target=lambda: ui.service.call(press, source="panel"))
        t.start()
        t.join()

    press([2, 3])
    ui.wait(lambda: ui.app.sm.current == "seating", "the seating screen after the dice")
    seating = ui.screen
    ui.wait(lambda: seating.choice["dice"] == [2, 3], "the dice in the method A form")
    ui.tap(seating.ids.method_B)
    for n, roll in enumerate(([6, 6], [1, 2])):
        press(roll)
        ui.wait(lambda n=n, r=roll: seating.choice["rolls"][n] == r, f"seat {n}'s roll from the dice button")
    assert 0 in seating.choice["rolls"][2] and ui.service.public["phase"] == "seating"
    assert ui.service.seq == seq
