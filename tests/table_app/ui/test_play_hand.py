"""A whole hand played through touches on the table app, checked on screen and in the service."""

from __future__ import annotations

from typing import Any

import pytest

from table_app.present.table import running_totals
from tests.table_app.ui.conftest import UI

pytestmark = pytest.mark.kivy


def _toggle(screen: Any, value: tuple[Any, ...]) -> Any:
    found = [w for w in screen.walk() if getattr(w, "value", None) == value]
    assert found, f"no toggle {value!r}"
    return found[0]


def roll_by_touch(ui: UI, seat: int, a: int, b: int) -> None:
    ui.tap(ui.button(seat, "roll"))
    pad = ui.modal()
    rows = (pad.ids.row_a, pad.ids.row_b)
    assert pad.ids.ok.disabled  # OK waits for both dice
    for row, v in zip(rows, (a, b), strict=True):
        ui.tap(next(w for w in row.children if getattr(w, "value", None) == v))
    assert f"{a}+{b}" in pad.ids.ok.text
    ui.send_and_settle(pad.ids.ok)


def pass_all(ui: UI, seats: list[int]) -> None:
    for s in seats:
        ui.send_and_settle(ui.button(s, "pass"))


def test_a_whole_hand_by_touch(ui: UI) -> None:
    app = ui.app
    assert ui.screen.name == "session"
    ids = ui.screen.ids
    for i, name in enumerate(["Ann", "Bo", "Cy", "Di"]):
        ids[f"name{i}"].text = name
    assert [ids[f"place{i}"].text for i in range(4)] == ["bottom", "right", "top", "left"]  # places, not numbers
    ui.send_and_settle(ids.start)
    assert ui.pub()["phase"] == "seating" and ui.pub()["players"] == ["Ann", "Bo", "Cy", "Di"]
    assert ui.screen.name == "seating"

    # seating by method A: the bottom seat is the roller already; OK waits for the dice
    seating = ui.screen
    assert _toggle(seating, ("roller", 0)).state == "down" and seating.ids.confirm.disabled
    assert "counter-clockwise" in seating.ids.explain.text
    ui.tap(_toggle(seating, ("dice", 0, 2)))
    assert seating.ids.confirm.disabled
    ui.tap(_toggle(seating, ("dice", 1, 3)))  # Ann rolls 2+3 = 5: counting 5 from Ann comes back to Ann
    ui.send_and_settle(seating.ids.confirm)
    assert not app.message
    pub = ui.pub()
    assert pub["phase"] == "betting" and pub["dealer"] == 0 and pub["winds"] == ["E", "S", "W", "N"]
    assert ui.screen.name == "sithere"  # please sit here: each side's wind and name
    assert "Ann is East" in ui.screen.ids.hint.text
    ui.tap(ui.screen.ids.seated)
    assert ui.screen.name == "table"
    table = ui.screen
    assert (table.panel(0).wind, table.panel(0).name, table.panel(0).mark) == ("E", "Ann", "D")
    assert table.panel(3).wind == "N" and "Ann rolls" in table.status

    # bets by touch: Bo 1, Di 2 (sent with the dealer's roll)
    ui.tap(ui.button(1, "bet_up"))
    ui.tap(ui.button(3, "bet_up"))
    ui.tap(ui.button(3, "bet_up"))
    assert table.panel(3).detail == "bet 2"

    # the dealer rolls 4+6 = 10: Bo's wall; Bo rolls 2+3: break after Bo's 15th stack
    roll_by_touch(ui, 0, 4, 6)
    assert ui.pub()["dice"]["dealer"] == [4, 6] and ui.pub()["bets"] == [0, 1, 0, 2]
    assert "Bo rolls" in table.status and "bet 1" in table.panel(1).detail
    roll_by_touch(ui, 1, 2, 3)
    pub = ui.pub()
    assert pub["phase"] == "turn" and pub["turn"] == 0
    assert pub["break"] == {"owner": 1, "count": 15, "wall": 1, "stack": 15}
    assert table.status == "Ann's turn" and table.panel(0).prompt == "your turn"
    assert "57 to draw" in table.info and "stack 15 of Bo's wall" in table.info
    w = table.ids.wall.view
    assert w.tail == (1, 15) and w.head == (1, 16) and w.next_head == (3, 8)
    assert sum(c.reserve for c in w.cells.values()) == 13

    # Ann discards; Cy pongs, Bo and Di pass
    ui.send_and_settle(ui.button(0, "discard"))
    assert ui.pub()["phase"] == "claims" and table.status.startswith("Ann discarded")
    assert table.panel(0).countdown > 0 and table.panel(1).countdown < 0  # the bar on the discarder's panel
    assert ui.button(1, "claim_chow") and ui.button(2, "claim_pong")
    ui.send_and_settle(ui.button(2, "claim_pong"))
    assert table.panel(2).prompt == "pong" and table.panel(1).prompt == "may chow/pong/kong/win"
    pass_all(ui, [1, 3])
    pub = ui.pub()
    assert pub["phase"] == "turn" and pub["turn"] == 2
    assert pub["seats"][2]["melds"] == [{"kind": "pong", "tiles": None, "from": 0}]
    assert table.status == "Cy's turn" and "pong" in table.panel(2).detail

    # Cy discards, nobody claims: Di draws
    ui.send_and_settle(ui.button(2, "discard"))
    pass_all(ui, [3, 0, 1])
    assert ui.pub()["turn"] == 3 and table.status == "Di's turn"

    # Di declares a concealed kong: paid at once, replacement from the tail's lower layer
    ui.send_and_settle(ui.button(3, "kong"))  # no pong: the engine can tell it is concealed
    pub = ui.pub()
    assert pub["scores"] == [-2, -2, -2, 6] and pub["wall"]["kongs"] == 1 and pub["wall"]["reserve_stacks"] == 7
    assert table.panel(3).score == "+6" and table.panel(0).score == "-2"
    w = table.ids.wall.view
    assert w.cells[(1, 15)].lower == "tail" and w.cells[(1, 15)].upper == "in"
    assert sum(c.reserve for c in w.cells.values()) == 8  # 14 tiles: the tail's upper + 6½ stacks
    assert table.status == "Di's turn"

    # Di discards, all pass; Ann draws and wins by herself
    ui.send_and_settle(ui.button(3, "discard"))
    pass_all(ui, [0, 1, 2])
    assert ui.pub()["turn"] == 0
    ui.send_and_settle(ui.button(0, "win"))
    assert ui.pub()["phase"] == "win_pending"
    assert ui.screen.name == "win"
    win = ui.screen
    assert win.ids.top.title == "Ann wins (self-drawn): which wait?"
    closed = ui.find("closed")
    assert closed.text == "closed"
    ui.send_and_settle(closed)

    # the settlement: one row per player — win, kong, bets, the hand, the total
    pub = ui.pub()
    assert pub["phase"] == "hand_over"
    s = pub["last_settlement"]
    assert s["winner"] == 0 and s["wait"] == "closed" and s["bonus"] is True
    assert s["deltas"] == [9 + 2 + 4 - 2, -3 - 2 - 2, -3 - 2, -3 - 4 + 6]  # with the kong
    assert ui.screen.name == "settlement"
    assert ui.screen.ids.top.title == "Ann wins (self-drawn) · closed (bonus)"
    cells = [w.text for w in reversed(ui.screen.ids.rows.children)]
    assert cells[6:12] == ["Ann", "+9", "-2", "+6", f"{s['deltas'][0]:+d}", str(pub["scores"][0])]
    assert cells[18:24] == ["Cy", "-3", "-2", "0", "-5", "-5"]
    assert running_totals(pub)[-1] == pub["scores"]  # (the Scores screen's chart: the engine's results)

    # leave the settlement: the table itself offers the next hand (no dead end)
    app.goto("table")
    ui.frames(3)
    ui.send_and_settle(ui.find("next_hand"))
    pub = ui.pub()
    assert pub["phase"] == "betting" and pub["dealer"] == 0 and pub["dealer_streak"] == 1 and pub["hand"] == 2
    assert ui.screen.name == "table" and ui.screen.panel(0).mark == "D×1"
