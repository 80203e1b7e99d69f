"""Host ↔ firmware over a real pty, into the real TableService and journal: a full hand driven
from simulated panel presses reaches the same state as the same events from a file, and
pulling the cable mid-hand loses no acknowledged press."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import parse_event, replay
from engine.public import public_state
from firmware_bridge.bridge import LinkState, PanelBridge
from table_app.core.service import ManualClock, TableService
from table_app.inputs import LightsAdapter, PressSender
from table_app.inputs.panel import panel_handler
from table_app.journal.journal import Journal
from tests.firmware_bridge.test_transport import PanelThread, Plug, wait_until

HAND = Path(__file__).with_name("hand.jsonl")


def file_events() -> list[dict]:
    return [json.loads(line) for line in HAND.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture
def table(tmp_path):
    journal = Journal.open(tmp_path / "journal.sqlite3")
    clock = ManualClock()
    service = TableService(journal, claim_window_s=3.0, clock=clock).start()
    yield service, clock, journal
    service.stop()
    journal.close()


def presses_handled(service: TableService) -> list[str]:
    """The presses the service has finished with (acted on or refused), as they finish: the
    panel's ACK comes first (the press is queued after it), so a test waits for this too."""
    done: list[str] = []
    service.subscribe(lambda n: done.append(n.source) if n.press is not None and n.final else None)
    return done


def test_a_hand_from_panel_presses_equals_the_same_events_from_a_file(tmp_path, fw, table):
    service, clock, journal = table
    events = file_events()
    for ev in events[:2]:  # players and seats come from the touchscreen
        assert service.call(ev, source="screen", timeout=10).ok

    plug = Plug(tmp_path)
    panel = PanelThread(fw, plug.plug())
    rolls = iter(bytes([2, 3, 1, 2]))  # the panel's dice show 3 4, then 2 3
    panel.panel.dice_source = lambda n: bytes([next(rolls)])
    lights = LightsAdapter(service)
    bridge = PanelBridge(str(plug.link), panel_handler(PressSender(service, "panel")), retry_s=0.05)
    lights.add(bridge)
    bridge.start()
    led = lambda seat: panel.board.output(fw.app.LED_PINS[seat])  # noqa: E731
    handled = presses_handled(service)

    def tap(seat, button) -> None:
        n, done = len(panel.panel.delivered), len(handled)
        panel.tap(seat, button)
        wait_until(lambda: len(panel.panel.delivered) == n + 1, what=f"seat {seat} {button} answered")
        wait_until(lambda: len(handled) == done + 1, what=f"seat {seat} {button} acted on")

    def dice() -> None:
        seq = service.seq
        panel.press_dice()
        wait_until(lambda: service.seq == seq + 1, what="the roll")

    def close_window() -> None:
        seq = service.seq
        clock.advance(3.0)
        wait_until(lambda: service.seq == seq + 1, what="the claim window closing")

    try:
        wait_until(lambda: bridge.state is LinkState.CONNECTED and panel.panel.linked, what="connected")
        wait_until(lambda: led(0) == 1, what="the dealer's LED: seat 0 rolls first")
        dice()
        dice()
        assert service.public["phase"] == "turn" and service.public["turn"] == 0
        wait_until(lambda: led(0) == 1, what="seat 0's turn LED")

        seq = service.seq
        tap(1, "TURN")  # not seat 1's turn: refused on the panel, nothing changes
        assert service.seq == seq
        tap(0, "TURN")
        tap(2, "PENG")
        close_window()
        assert service.public["turn"] == 2
        tap(2, "TURN")
        close_window()

        # the cable comes out mid-hand; a press made now is never acknowledged and never acts
        seq = service.seq
        panel.replug(-1)
        plug.unplug()
        wait_until(lambda: bridge.state is LinkState.RECONNECTING, what="reconnecting shown")
        answered = len(panel.panel.delivered)
        panel.tap(3, "GANG")
        wait_until(lambda: panel.panel.link.stats["given_up"] >= 1, timeout=10, what="the press given up")
        assert len(panel.panel.delivered) == answered and service.seq == seq
        panel.replug(plug.plug())
        wait_until(lambda: bridge.state is LinkState.CONNECTED and panel.panel.linked, what="plugged back")

        tap(3, "GANG")  # pressed again
        tap(3, "TURN")
        tap(0, "HU")
        close_window()
        assert service.public["phase"] == "win_pending"
        assert service.call(events[-1], source="screen", timeout=10).ok  # the wait: on the touchscreen

        expected = replay(events)
        assert service.public == public_state(expected)
        assert journal.events(journal.timeline().active) == [parse_event(e).to_json() for e in events]
        assert bridge.transport.opened == 2
    finally:
        bridge.stop()
        lights.close()
        panel.stop()
        plug.unplug()
