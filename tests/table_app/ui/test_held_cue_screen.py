"""Issue 28, item 13 on the touchscreen: the 下家's press (its ``--sim`` key, the same press as
its wired TURN) is held while the others may still claim; the table screen says so, with the
seconds the others still have, the 下家's panel says it waits and its buttons rest; when the
window closes its draw and discard are made (docs/rules.md §17)."""

from __future__ import annotations

import pytest

from tests.table_app.ui.conftest import UI

pytestmark = pytest.mark.kivy

SETUP = [{"type": "new_session", "players": ["Ann", "Bo", "Cy", "Di"], "base": 1},
         {"type": "seating", "method": "C", "east": 0},
         {"type": "roll", "dice": [3, 4]}, {"type": "roll", "dice": [2, 3]},
         {"type": "discard", "seat": 0}]


def test_the_table_screen_shows_the_held_press_and_the_seconds_left(ui: UI) -> None:
    from kivy.core.window import Window

    for ev in SETUP:
        assert ui.service.call(ev, source="touch", timeout=10).ok
    ui.settled()
    ui.app.goto("table")
    ui.wait(lambda: ui.screen.name == "table", "the table screen")
    table = ui.screen
    assert table.status == "Ann discarded · 3 s" and table.panel(1).button("pass") is not None
    ui.clock.advance(0.5)
    Window.dispatch("on_key_down", ord("q"), 0, "q", [])  # seat 1's TURN: the quick 下家
    assert ui.service.call({"type": "state"}, timeout=10).ok
    ui.settled()
    assert ui.pub()["claims"]["held"] == 1
    ui.wait(lambda: table.status == "Bo drew: others have 2 s to claim · Ann discarded", "the held cue")
    assert table.panel(1).prompt == "drew: others may still claim" and table.panel(1).actions == []
    assert table.panel(2).prompt == table.panel(3).prompt == "may still pong/kong/win"
    ui.clock.advance(1.2)
    ui.wait(lambda: table.status == "Bo drew: others have 1 s to claim · Ann discarded", "the seconds going down")
    before = ui.service.seq
    ui.clock.advance(1.3)  # the window closes: Bo's draw and discard
    ui.wait(lambda: ui.service.seq > before, "the window closing")
    ui.settled()
    assert ui.pub()["claims"]["from"] == 1 and ui.pub()["claims"]["held"] is None
    ui.wait(lambda: table.status == "Bo discarded · 3 s", "the claims on Bo's discard")
