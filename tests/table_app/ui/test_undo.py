"""A held TURN on the touchscreen (issue 28, item 8), through the ``--sim`` keys (Shift + a
seat's TURN key, as the panel's long press): another seat's step is not undone by one seat
alone — a second seat's held TURN makes it; the seat's own step is undone with its
confirmation (held again, or 确认 in the dialog); 取消 and the time running out drop it; after
any undo (held TURN, History) a note says what was undone and who decided it."""

from __future__ import annotations

from typing import Any

import pytest

from table_app.core.consent import HELD_TTL_S
from table_app.ui.undo import CHECK_S, UndoAsk, UndoneNote
from tests.table_app.ui.conftest import UI
from tests.table_app.ui.test_screens import DEAL, SETUP, given

pytestmark = pytest.mark.kivy

TURN_KEY = {0: "1", 1: "q", 2: "a", 3: "z"}  # (table_app/ui/sim.py: each seat's row starts with its TURN)


def hold_turn(ui: UI, seat: int) -> None:
    """Shift + the seat's TURN key: its button held; the notice shown."""
    from kivy.core.window import Window

    char = TURN_KEY[seat]
    Window.dispatch("on_key_down", ord(char), 0, char, ["shift"])
    assert ui.service.call({"type": "state"}, timeout=10).ok  # (the queue is in order: the key is done)
    ui.settled()
    ui.frames(2)


def asking(ui: UI) -> UndoAsk | None:
    from kivy.core.window import Window

    return next((w for w in Window.children if isinstance(w, UndoAsk)), None)


def note(ui: UI) -> str | None:
    from kivy.core.window import Window

    return next((w.text for w in Window.children if isinstance(w, UndoneNote)), None)


def discarded(ui: UI) -> int:
    given(ui, SETUP + DEAL + [{"type": "discard", "seat": 0}])  # Ann discards: her step
    ui.app.goto("table")
    ui.frames(2)
    assert ui.service.public["phase"] == "claims"
    return ui.service.seq


def test_another_seats_step_is_not_undone_by_one_seat_and_a_second_seat_makes_it(ui: UI) -> None:
    seq = discarded(ui)
    hold_turn(ui, 1)  # Bo holds TURN: an undo of Ann's discard is put up, nothing changes
    dialog = asking(ui)
    assert dialog is not None and ui.service.seq == seq and ui.service.public["phase"] == "claims"
    assert dialog.text == "Bo asks to undo: Ann discards"
    assert dialog.how.text == "Ann's step: Ann or another player holds TURN too (or agrees on a phone)"
    assert dialog.confirm.disabled  # (not Bo's own step: the screen cannot confirm it for him)
    assert dialog.left.text == f"Lapses in {int(HELD_TTL_S)} s"
    hold_turn(ui, 1)  # Bo again: still one seat
    assert ui.service.seq == seq and asking(ui) is dialog
    assert ui.app.message == "Bo cannot undo Ann's step alone: Ann or another player holds TURN too"
    hold_turn(ui, 2)  # Cy agrees: two seats
    assert ui.service.public["phase"] == "turn" and ui.service.public["turn"] == 0
    ui.wait(lambda: asking(ui) is None, "the dialog gone")
    assert note(ui) == "Undone: Ann discards (proposed by Bo, agreed by Cy)"
    record = list(ui.service._journal.records())[-1]
    assert record.kind == "undo" and record.source == "sim-keys press 2:TURN:held agrees sim-keys press 1:TURN:held"
    given(ui, [{"type": "discard", "seat": 0}])  # the next step: the note goes
    assert note(ui) is None


def test_a_seats_own_step_is_undone_with_its_confirmation_held_again_or_on_the_screen(ui: UI) -> None:
    seq = discarded(ui)
    hold_turn(ui, 0)  # Ann's own step: put up for her confirmation
    dialog = asking(ui)
    assert dialog is not None and ui.service.seq == seq
    assert dialog.how.text == "Ann's own step: Ann holds TURN again, or tap Confirm"
    ui.tap(dialog.confirm)  # 确认: Ann's held TURN again
    ui.wait(lambda: ui.service.public["phase"] == "turn", "the undo")
    ui.settled()
    assert note(ui) == "Undone: Ann discards (confirmed by Ann)" and asking(ui) is None
    given(ui, [{"type": "discard", "seat": 0}])
    hold_turn(ui, 0)
    hold_turn(ui, 0)  # held twice by the seat whose step it is: undone, no dialog left
    assert ui.service.public["phase"] == "turn" and asking(ui) is None
    assert note(ui) == "Undone: Ann discards (confirmed by Ann)"


def test_cancel_and_the_time_running_out_drop_it(ui: UI) -> None:
    given(ui, SETUP)  # (betting: no claim window closes while the clock is moved on)
    seq = ui.service.seq
    hold_turn(ui, 3)
    dialog = asking(ui)
    assert dialog is not None
    ui.tap(dialog.ids["cancel"])
    assert asking(ui) is None and ui.service.consent.open(ui.service.seq) == []
    hold_turn(ui, 2)  # after 取消, a held TURN puts a new undo up: it does not agree to the dropped one
    assert ui.service.seq == seq and asking(ui) is not None
    ui.clock.advance(HELD_TTL_S)  # nobody answers
    ui.wait(lambda: asking(ui) is None, f"the dialog gone within {CHECK_S} s")
    hold_turn(ui, 1)  # (a new one again: the lapsed one is forgotten)
    assert ui.service.seq == seq and asking(ui) is not None


def test_a_held_turn_while_betting_asks_two_seats_and_the_history_undo_is_noted(ui: UI) -> None:
    """The review's case: Shift+1 while the bets are placed jumped back to the last settlement.
    The last step is the table's own (not a seat's): two seats must agree."""
    given(ui, SETUP)
    seq = ui.service.seq
    assert ui.service.public["phase"] == "betting"
    hold_turn(ui, 0)
    dialog = asking(ui)
    assert dialog is not None and ui.service.seq == seq and dialog.confirm.disabled
    assert dialog.how.text == "Another player holds TURN too (or agrees on a phone)"
    hold_turn(ui, 0)
    assert ui.service.seq == seq and ui.service.public["phase"] == "betting"
    ui.tap(dialog.ids["cancel"])  # (the dialog is modal: the screen behind it waits)
    ui.app.goto("history")  # the History screen's own undo keeps its dialog, and is noted too
    ui.frames(2)
    ui.tap(ui.screen.ids.undo)
    dialog_h: Any = ui.modal()
    assert dialog_h.text == "Undo: seating: Ann drew East?"
    ui.send_and_settle(dialog_h.ids.yes)
    assert ui.service.public["phase"] == "seating"
    assert note(ui) == "Undone: seating: Ann drew East (on the touchscreen)"
