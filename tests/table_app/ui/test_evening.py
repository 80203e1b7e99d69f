"""An evening as four players live it, at 800×480 in Chinese, every step a touch on the
touchscreen alone (no phone, no keyboard): three names picked from the table's roster (they
played here before) and a new Chinese name typed on the name keyboard in pinyin, seating by
everyone rolling (a tie rolled again), please sit here, bets, the rolls, a press on the wrong
seat, a claim taken back by undo, a false win taken back, a hand won and settled, the
settlement left and the next hand found on the table, a drawn hand, the end of the evening
with the ranking and the settle-up.

``EVENING_SHOTS=dir`` saves what the screen showed at each step (to look at)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.table_app.ui.conftest import UI

pytestmark = pytest.mark.kivy


class Evening:
    def __init__(self, ui: UI) -> None:
        self.ui, self.n = ui, 0
        self.out = Path(os.environ["EVENING_SHOTS"]) if os.environ.get("EVENING_SHOTS") else None

    def shot(self, what: str) -> None:
        if self.out is not None:
            self.n += 1
            self.ui.frames(2)
            self.ui.app.save_screenshot(str(self.out / f"{self.n:02d}-{what}.png"))

    def tap(self, widget: Any, what: str = "") -> None:
        self.ui.send_and_settle(widget) if what == "send" else self.ui.tap(widget)

    def toggle(self, value: tuple[Any, ...]) -> Any:
        found = [w for w in self.ui.screen.walk() if getattr(w, "value", None) == value]
        assert found, f"no {value!r} on {self.ui.screen.name}"
        return found[0]

    def dice(self, a: int, b: int) -> None:
        pad = self.ui.modal()
        for row, v in ((pad.ids.row_a, a), (pad.ids.row_b, b)):
            self.ui.tap(next(w for w in row.children if getattr(w, "value", None) == v))
        self.ui.send_and_settle(pad.ids.ok) if self.ui.screen.name == "table" else self.ui.tap(pad.ids.ok)

    def menu(self, item: str) -> None:
        self.ui.tap(self.ui.find("menu"))
        self.ui.tap(self.ui.modal().items[item])
        self.ui.frames(2)


def test_an_evening_by_touch(ui: UI) -> None:
    from kivy.core.window import Window

    Window.size = (800, 480)
    ui.app.set_lang("zh")
    ui.frames(3)
    ev = Evening(ui)
    # they played here last week (小李 at the bottom then): the roster remembers them
    for command in ({"type": "new_session", "players": ["小李", "老王", "阿强", "Zhao"], "base": 1},
                    {"type": "end_session"}):
        assert ui.service.call(command, "touch", 10).ok
    ui.settled()
    ui.app.goto("session")
    ui.frames(3)
    s = ui.screen
    assert s.names() == ["小李", "老王", "阿强", "Zhao"]  # last time's four, where they sat
    ui.tap(s.ids.name0)  # 老王 sits at the bottom tonight: his name in the roster, one tap
    ui.tap(ui.find(f"roster_{ui.service.roster.find('老王').id}"))  # type: ignore[union-attr]
    assert s.names() == ["老王", "小李", "阿强", "Zhao"]
    ui.tap(s.ids.name2)  # 阿强 is not here; someone new sits at the top
    ui.tap(s.ids.new_name)
    kb = ui.modal()  # the name keyboard, in pinyin: ouyang → 欧阳, zhuge → 诸葛
    for word, chars in (("ouyang", "欧阳"), ("zhuge", "诸葛")):
        for k in word:
            ui.tap(ui.find(f"key_{k}", root=kb))
        ui.tap(next(w for w in kb.bar.children if w.text == chars))
    ev.shot("keyboard")
    ui.tap(ui.find("ok", root=kb))
    assert s.names() == ["老王", "小李", "欧阳诸葛", "Zhao"]
    ev.shot("names")
    ui.send_and_settle(s.ids.start)
    roster = {p.name: p.id for p in ui.service.roster.players()}  # type: ignore[union-attr]
    assert ui.pub()["player_ids"] == [roster[n] for n in ["老王", "小李", "欧阳诸葛", "Zhao"]]

    # seating: everyone rolls; 小李 and 欧阳诸葛 tie, roll again
    s = ui.screen
    ui.tap(s.ids.method_B)
    ev.shot("seating-B")
    for seat, (a, b) in enumerate([(5, 6), (3, 4), (2, 5), (1, 1)]):
        ui.tap(ui.find(f"roll_{seat}"))
        ev.dice(a, b)
    ui.send_and_settle(s.ids.confirm)
    assert ui.app.message == "小李、欧阳诸葛 点数一样：请这几位再掷一次"
    assert s.ids.missing.text == "还差骰子：小李、欧阳诸葛" and s.ids.confirm.disabled  # they roll again
    ev.shot("tie")
    for seat, (a, b) in ((1, (6, 6)), (2, (1, 2))):
        ui.tap(ui.find(f"roll_{seat}"))
        ev.dice(a, b)
    ui.send_and_settle(s.ids.confirm)
    pub = ui.pub()
    assert pub["phase"] == "betting" and pub["players"][pub["dealer"]] == "小李"
    assert ui.screen.name == "sithere"
    ev.shot("sit-here")
    ui.tap(ui.screen.ids.seated)
    table = ui.screen
    dealer = pub["dealer"]
    names = pub["players"]

    # bets, the dealer's roll (the bets go with it), the wall owner's roll
    ui.tap(ui.button((dealer + 1) % 4, "bet_up"))
    ev.shot("bets")
    ui.tap(ui.button(dealer, "roll"))
    ev.dice(3, 3)
    owner = ui.pub()["break"] if ui.pub()["break"] else None
    roller = next(s for s in range(4) if "roll" in ui.pub()["actions"][s])
    ui.tap(ui.button(roller, "roll"))
    ev.dice(2, 4)
    assert ui.pub()["phase"] == "turn" and owner is None
    ev.shot("dealt")

    # the dealer discards; the player across presses 出牌 on his own panel: not his turn
    ui.send_and_settle(ui.button(dealer, "discard"))
    across = (dealer + 2) % 4
    assert table.panel(across).button("discard") is None  # disabled: nothing to press by mistake
    ui.send_and_settle(ui.button(across, "claim_pong"))  # a pong by mistake…
    ev.shot("pong-by-mistake")
    ev.menu("history")
    ui.tap(ui.screen.ids.undo)
    assert ui.modal().text == f"撤销：{names[across]} 碰 {names[dealer]}的牌？"
    ev.shot("undo-asks")
    ui.send_and_settle(ui.modal().ids.yes)
    assert ui.pub()["claims"]["answers"][across] is None
    ev.menu("table")
    for seat in ((dealer + 1) % 4, across, (dealer + 3) % 4):
        ui.send_and_settle(ui.button(seat, "pass"))
    nxt = (dealer + 1) % 4
    assert ui.pub()["turn"] == nxt

    # 下家 says 胡 by mistake (a false win), it is taken back after a yes
    ui.send_and_settle(ui.button(nxt, "win"))
    assert ui.screen.name == "win"
    ev.shot("win-screen")
    ui.tap(ui.screen.ids.reject)
    ev.shot("false-win-asks")
    ui.send_and_settle(ui.modal().ids.yes)
    assert ui.screen.name == "table" and ui.pub()["turn"] == nxt

    # he discards; the next one wins on it, a closed wait
    ui.send_and_settle(ui.button(nxt, "discard"))
    winner = (nxt + 1) % 4
    ui.send_and_settle(ui.button(winner, "claim_win"))
    for seat in range(4):
        if seat not in (nxt, winner) and ui.pub()["phase"] == "claims":
            ui.send_and_settle(ui.button(seat, "pass"))
    assert ui.screen.name == "win"
    ui.send_and_settle(ui.find("closed"))
    assert ui.screen.name == "settlement" and ui.pub()["phase"] == "hand_over"
    ev.shot("settlement")

    # they look at the table, then find the next hand there (no dead end)
    ev.menu("table")
    ev.shot("hand-over-on-the-table")
    ui.send_and_settle(ui.find("next_hand"))
    assert ui.pub()["phase"] == "betting" and ui.pub()["hand"] == 2

    # the second hand is scored only (their buttons got tired): nobody wins, a concealed kong
    ev.menu("entry")
    e = ui.screen
    ui.tap(ev.toggle(("winner", "nobody")))
    ui.tap(e.ids.page)
    ui.tap(ui.find(f"kong_{winner}_0"))
    ev.shot("score-only-kong")
    ui.send_and_settle(e.ids.score_it)
    assert ui.pub()["last_settlement"]["result"] == "draw"

    # the end of the evening: asked first, then ranked and settled up
    ev.menu("end")
    ev.shot("end-asks")
    ui.send_and_settle(ui.modal().ids.yes)
    final = ui.screen
    assert final.name == "final" and ui.pub()["phase"] == "ended"
    ev.shot("final")
    pays = ui.pub()["settle_up"]
    assert final.ids.settle.text.count("给") == len(pays) >= 1
