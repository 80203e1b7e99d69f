"""The touchscreen's score-only screen draws the one result form
(``table_app.present.forms.result``, tested there): its taps change that form, and 记分 sends
the command a phone's JSON of the same result makes. The screen's fuller walks are in
``test_screens.py``."""

from __future__ import annotations

from typing import Any

import pytest

from table_app.present.forms.result import command, from_json

from .conftest import UI
from .test_screens import SETUP, _toggle, given

pytestmark = pytest.mark.kivy

RULES = {"exposed_kong_payers": "discarder"}


def test_the_screens_taps_send_what_the_phones_form_sends(ui: UI) -> None:
    given(ui, [dict(SETUP[0], rules=RULES), SETUP[1]])
    ui.app.score_only = True
    ui.app.goto(ui.app.home())
    entry = ui.screen
    ui.tap(_toggle(entry, ("winner", 1)))
    ui.tap(_toggle(entry, ("how", "self_drawn")))
    ui.tap(entry.ids.page)
    ui.tap(ui.find("kong_2_1"))  # Cy's exposed kong: the rules ask from whose discard
    ui.tap(next(w for w in ui.modal().walk() if getattr(w, "text", None) == "Ann"))  # (whose discard: Ann's)
    ui.tap(ui.find("bet_3"))
    assert [w.text for w in entry.ids.counters.children[::-1]][-8:] == ["Cy", "conc. 0", "exp. 1", "bet 0",
                                                                         "Di", "conc. 0", "exp. 0", "bet 1"]
    ui.tap(entry.ids.page)
    phone = {"type": "score_hand", "winner": 1, "how": "self_drawn", "wait": "plain",
             "kongs": [{"seat": 2, "kind": "exposed", "discarder": 0}], "bets": [0, 0, 0, 1]}
    expected: Any = command(from_json(phone), ui.service.public)
    ui.send_and_settle(entry.ids.score_it)
    assert ui.service._journal.event(ui.service.seq) == expected
    assert ui.service.public["phase"] == "hand_over"


def test_a_refused_entry_is_said_and_nothing_is_sent(ui: UI) -> None:
    given(ui, SETUP)
    ui.app.score_only = True
    ui.app.goto(ui.app.home())
    entry = ui.screen
    seq = ui.service.seq
    ui.tap(_toggle(entry, ("winner", 1)))
    ui.tap(_toggle(entry, ("how", "self_drawn")))
    ui.tap(entry.ids.page)
    for _ in range(3):  # 3 concealed and 2 exposed: Bo has five kongs
        ui.tap(ui.find("kong_1_0"))
    for _ in range(2):
        ui.tap(ui.find("kong_1_1"))
    ui.tap(entry.ids.page)
    ui.tap(entry.ids.score_it)
    ui.settled()
    assert ui.service.seq == seq and ui.service.public["phase"] == "betting"
    assert ui.app.message.startswith("That result cannot be: seat 1 has more than 4 kongs")  # (the form's words)
