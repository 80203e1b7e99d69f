"""A press in one step (issue 25): the engine checks and applies all the events a press becomes
on one copy of the state, the journal writes them in one transaction, and the observers hear
each in turn; a journal that fails half-way through keeps none of them."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import replay
from engine.presses import Press, Undo, apply_press
from engine.public import public_state
from table_app.core.notices import Notice
from table_app.core.service import ManualClock, TableService
from table_app.journal.journal import Journal

DEALT = [{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
         {"type": "seating", "method": "C", "east": 0},
         {"type": "roll", "dice": [4, 6]}, {"type": "roll", "dice": [2, 3]}]
PASSED = [{"type": "pass", "seat": 2}, {"type": "pass", "seat": 3}]
"""Seat 0 has discarded and the others have passed: nobody but the 下家 may answer, so its TURN
is two events at once (docs/rules.md §17: else it is held until the others have answered)."""


def test_each_step_carries_the_public_state_of_the_events_so_far_and_the_state_pressed_on_is_unchanged() -> None:
    state = replay([*DEALT, {"type": "discard", "seat": 0}, *PASSED])
    before = state.to_json()
    pressed = apply_press(state, Press(1, "TURN"))  # the quick 下家, nobody else may claim: resolve, its discard
    assert not isinstance(pressed, Undo)
    assert [s.event.TYPE for s in pressed.steps] == ["resolve", "discard"]
    events = [s.event.to_json() for s in pressed.steps]
    for i, step in enumerate(pressed.steps):
        assert step.public == public_state(replay(events[: i + 1], state))
    assert pressed.state.to_json() == replay(events, state).to_json()
    assert state.to_json() == before


def test_a_refused_second_event_refuses_the_whole_press() -> None:
    state = replay([*DEALT, {"type": "discard", "seat": 0}, {"type": "claim", "seat": 3, "call": "pong"}])
    with pytest.raises(Exception, match="pending"):
        apply_press(state, Press(1, "TURN"))
    assert public_state(state)["claims"]["next"] is None  # (so no screen offers that TURN)


def test_append_events_writes_all_in_one_transaction(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as j:
        seqs, session = j.append_events(DEALT[:2], None, source="test", new_session=True)
        assert seqs == [1, 2] and session is not None
        assert j.record_sessions(seqs) == {1: session, 2: session}
        assert j.events(seqs) == DEALT[:2]
    with Journal.open(tmp_path / "j.sqlite3") as j:  # the hash chain holds across them
        assert j.timeline().active == [1, 2]


@pytest.fixture
def service(tmp_path: Path) -> Iterator[tuple[TableService, ManualClock, list[Notice], Journal]]:
    journal = Journal.open(tmp_path / "j.sqlite3")
    clock = ManualClock(100.0)
    svc = TableService(journal, claim_window_s=3.0, clock=clock, heartbeat=lambda: None).start()
    notices: list[Notice] = []
    svc.subscribe(notices.append)
    for command in DEALT:
        assert svc.call(command, timeout=10).ok
    yield svc, clock, notices, journal
    svc.stop()
    journal.close()


def test_a_two_event_press_is_told_in_turn_and_opens_a_fresh_window(service) -> None:
    svc, clock, notices, _ = service
    assert svc.call({"type": "press", "seat": 0, "button": "TURN"}, timeout=10).ok
    for command in PASSED:
        assert svc.call(command, timeout=10).ok
    clock.advance(1.0)
    answer = svc.call({"type": "press", "seat": 1, "button": "TURN"}, timeout=10)
    assert answer.ok
    resolve, discard = notices[-2:]
    assert (resolve.event.TYPE, resolve.final, resolve.claim_deadline) == ("resolve", False, None)
    assert (discard.event.TYPE, discard.final) == ("discard", True) and discard.has("claims_open")
    assert discard.claim_deadline == clock.now() + 3.0 == svc.claim_deadline
    assert resolve.press == discard.press == Press(1, "TURN") and answer.seq == discard.seq == resolve.seq + 1


def test_a_journal_that_fails_half_way_keeps_none_of_the_press(service, monkeypatch) -> None:
    svc, _, notices, journal = service
    assert svc.call({"type": "press", "seat": 0, "button": "TURN"}, timeout=10).ok
    for command in PASSED:
        assert svc.call(command, timeout=10).ok
    before, told, seq = svc.public, len(notices), svc.seq
    insert, calls = Journal._insert, []

    def failing(*args: object) -> bytes:
        calls.append(args)
        if len(calls) == 2:  # the press's second record
            raise sqlite3.OperationalError("disk I/O error (injected)")
        return insert(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(Journal, "_insert", staticmethod(failing))
    answer = svc.call({"type": "press", "seat": 1, "button": "TURN"}, timeout=10)
    monkeypatch.setattr(Journal, "_insert", staticmethod(insert))
    assert not answer.ok and answer.code == "journal.failed"
    assert svc.public == before and svc.seq == seq and len(notices) == told
    rows = [json.loads(text) for (text,) in journal._conn.execute("SELECT event FROM records ORDER BY seq")]
    assert public_state(replay(rows)) == svc.public  # memory is what the journal holds
    assert svc.call({"type": "press", "seat": 1, "button": "TURN"}, timeout=10).ok  # and a retry works
