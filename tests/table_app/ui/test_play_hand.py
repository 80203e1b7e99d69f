"""A whole hand played through touches on the table app, checked on screen and in the service."""

from __future__ import annotations

from typing import Any

from tests.table_app.ui.conftest import UI


def _toggle(screen: Any, value: tuple[Any, ...]) -> Any:
    found = [w for w in screen.walk() if getattr(w, "value", None) == value]
    assert found, f"no toggle {value!r}"
    return found[0]


def roll_by_touch(ui: UI, seat: int, a: int, b: int) -> None:
    ui.tap(ui.button(seat, "roll"))
    pad = ui.modal()
    rows = (pad.ids.row_a, pad.ids.row_b)
    for row, v in zip(rows, (a, b), strict=True):
        ui.tap(next(w for w in row.children if w.value == v))
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
    ui.send_and_settle(ids.start)
    assert ui.pub()["phase"] == "seating" and ui.pub()["players"] == ["Ann", "Bo", "Cy", "Di"]
    assert ui.screen.name == "seating"

    # seating by method A: Ann rolls 2+3 = 5 → counting 5 from Ann comes back to Ann: East
    seating = ui.screen
    ui.tap(seating.ids.method_A)
    ui.tap(_toggle(seating, ("roller", 0)))
    ui.tap(_toggle(seating, ("dice", 2, 0, 0)))
    ui.tap(_toggle(seating, ("dice", 3, 0, 1)))
    ui.send_and_settle(seating.ids.confirm)
    assert not app.message
    pub = ui.pub()
    assert pub["phase"] == "betting" and pub["dealer"] == 0 and pub["winds"] == ["E", "S", "W", "N"]
    assert ui.screen.name == "table"
    table = ui.screen
    assert table.panel(0).title == "East Ann" and table.panel(0).mark == "dealer"
    assert table.panel(3).title == "North Di"
    assert "Ann rolls" in table.status

    # bets by touch: Bo 1, Di 2
    ui.tap(ui.button(1, "bet_up"))
    ui.tap(ui.button(3, "bet_up"))
    ui.tap(ui.button(3, "bet_up"))
    assert table.panel(3).detail == "bet 2"
    ui.send_and_settle(table.ids.bets_done)
    assert ui.pub()["bets"] == [0, 1, 0, 2]
    assert "bet 1" in table.panel(1).detail

    # the dealer rolls 4+6 = 10: Bo's wall; Bo rolls 2+3: break after Bo's 15th stack
    roll_by_touch(ui, 0, 4, 6)
    assert ui.pub()["dice"]["dealer"] == [4, 6]
    assert "Bo rolls" in table.status
    roll_by_touch(ui, 1, 2, 3)
    pub = ui.pub()
    assert pub["phase"] == "turn" and pub["turn"] == 0
    assert pub["break"] == {"owner": 1, "count": 15, "wall": 1, "stack": 15}
    assert table.status == "Ann's turn"
    assert "57 drawable" in table.wall_text and "count 15" in table.wall_text
    w = table.ids.wall.view
    assert w.tail == (1, 15) and w.head == (1, 16) and w.next_head == (3, 8)
    assert sum(c.reserve for c in w.cells.values()) == 13

    # Ann discards; Cy pongs, Bo and Di pass
    ui.send_and_settle(ui.button(0, "discard"))
    assert ui.pub()["phase"] == "claims"
    assert table.status.startswith("Ann discarded") and "waiting: Bo, Cy, Di" in table.status
    assert ui.button(1, "claim_chow") and ui.button(2, "claim_pong")
    ui.send_and_settle(ui.button(2, "claim_pong"))
    assert "pong" in table.panel(2).detail and "waiting: Bo, Di" in table.status
    pass_all(ui, [1, 3])
    pub = ui.pub()
    assert pub["phase"] == "turn" and pub["turn"] == 2
    assert pub["seats"][2]["melds"] == [{"kind": "pong", "tiles": None, "from": 0}]
    assert table.status == "Cy's turn" and "[pong]" in table.panel(2).detail

    # Cy discards, nobody claims: Di draws
    ui.send_and_settle(ui.button(2, "discard"))
    pass_all(ui, [3, 0, 1])
    assert ui.pub()["turn"] == 3 and table.status == "Di's turn"

    # Di declares a concealed kong: paid at once, replacement from the tail's lower layer
    ui.send_and_settle(ui.button(3, "kong"))  # no pong: the engine can tell it is concealed
    pub = ui.pub()
    assert pub["scores"] == [-2, -2, -2, 6] and pub["wall"]["kongs"] == 1 and pub["wall"]["reserve_stacks"] == 7
    assert table.panel(3).score == "+6" and table.panel(0).score == "-2"
    assert "kongs 1" in table.wall_text and "reserve 7 stacks" in table.wall_text
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
    assert win.title_text == "Ann wins (self-drawn)"
    closed = next(b for b in win.ids.waits.children if b.action == "closed")
    assert closed.text == "closed"
    ui.send_and_settle(closed)

    # the settlement: self-drawn closed wait 3 each, own bets doubled (Bo 1×2, Di 2×2), Ann's kong payment
    pub = ui.pub()
    assert pub["phase"] == "hand_over"
    s = pub["last_settlement"]
    assert s["winner"] == 0 and s["wait"] == "closed" and s["bonus"] is True
    assert s["deltas"] == [9 + 2 + 4 - 2, -3 - 2 - 2, -3 - 2, -3 - 4 + 6]  # with the kong
    assert ui.screen.name == "settlement"
    lines = ui.screen.lines.splitlines()
    assert lines[0] == "Ann wins (self-drawn) · closed (bonus)"
    assert "Bo pays Ann 3 (win)" in lines and "Di pays Ann 4 (bet)" in lines and "Ann pays Di 2 (kong)" in lines
    cells = [w.text for w in reversed(ui.screen.ids.rows.children)]
    assert cells[3:6] == ["Ann", f"{s['deltas'][0]:+d}", str(pub["scores"][0])]
    assert app.totals[-1][1] == pub["scores"]

    # next hand: Ann keeps the deal, streak 1
    ui.send_and_settle(ui.screen.ids.next_hand)
    pub = ui.pub()
    assert pub["phase"] == "betting" and pub["dealer"] == 0 and pub["dealer_streak"] == 1 and pub["hand"] == 2
    assert ui.screen.name == "table" and ui.screen.panel(0).mark == "dealer streak 1"
