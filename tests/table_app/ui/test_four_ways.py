"""One hand played four ways — GPIO buttons (gpiozero's MockFactory), the serial panel's
frames over a pty (the real firmware), the ``--sim`` keys in the Kivy window under Xvfb,
and a ``play`` file of presses — gives the same journal, event for event: every input
sends presses, and the engine's one button mapping, in the service thread, makes the events.

The hand has what players do: the quick 下家 who draws and discards inside the claim
window — its press held while the others may still claim, made when the window closes
(issue 28, docs/rules.md §17) —, a pong that makes the 下家 wait, a misclick taken back with a
held TURN (held twice: the first puts the undo up, the same seat's second confirms its own
step — issue 28), a kong refused right after the pong (§17), and a win on a discard that beats
the 下家's held press.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.presses import Press
from hardware.devices import GpioButtons, SeatLights
from hardware.pins import PinMap
from table_app.core.roster import Roster
from table_app.core.service import ManualClock, TableService
from table_app.inputs import LightsAdapter, PressSender
from table_app.inputs.panel import panel_handler
from table_app.journal.journal import Journal
from tests.firmware_bridge.conftest import fw  # noqa: F401  (the firmware's fixture)
from tests.firmware_bridge.test_end_to_end import presses_handled
from tests.firmware_bridge.test_transport import PanelThread, Plug, wait_until
from tests.hardware.conftest import clock, mock_factory  # noqa: F401  (gpiozero's MockFactory)
from tests.hardware.tables import press_pin
from tests.table_app.ui.conftest import UI

pytestmark = pytest.mark.kivy

SETUP = [
    {"type": "new_session", "players": ["东", "南", "西", "北"], "base": 1},
    {"type": "seating", "method": "C", "east": 0},
]
DICE = [(3, 4), (2, 3)]  # 7 from the dealer: seat 2 owns the wall
# (what, seat, button, refused?)
SCRIPT: list[tuple[str, int | None, str, bool]] = [
    ("press", None, "DICE", False),
    ("press", None, "DICE", False),
    ("press", 0, "TURN", False),  # the dealer discards
    ("press", 1, "TURN", False),  # the quick 下家 has drawn and discarded: held, the others may still claim
    ("press", 1, "PENG", True),  # …so its answer stands
    ("close", None, "", False),  # the claim window closes: its draw and discard are made
    ("press", 3, "PENG", False),
    ("press", 2, "TURN", True),  # the 下家 waits: seat 3's pong is pending
    ("press", 0, "HU", False),  # a misclick…
    ("propose", 0, "TURN", False),  # …a held TURN puts its undo up…
    ("held", 0, "TURN", False),  # …and the same seat's second confirms it: taken back
    ("press", 0, "TURN", False),  # a pass
    ("close", None, "", False),  # the claim window closes: seat 3 pongs
    ("press", 3, "GANG", True),  # no kong right after a pong
    ("press", 3, "TURN", False),
    ("press", 0, "TURN", False),  # the quick 下家 again: held
    ("press", 2, "HU", False),  # a win on seat 3's discard beats it
    ("press", 0, "HU", True),  # the 下家 has drawn: it cannot claim now
    ("press", 1, "TURN", False),  # the last answer: the win is declared
]
CONFIRM = {"type": "confirm_win", "wait": "single"}
PINS = PinMap.from_mapping({"leds": [0, 1, 14, 15]})


def _dice_source() -> Callable[[], tuple[int, int]]:
    rolls = iter(DICE)
    return lambda: next(rolls)


def _records(journal: Journal) -> list[tuple[str, Any, Any]]:
    return [(r.kind, r.event, r.target) for r in journal.records()]


def _check_the_end(service: TableService) -> None:
    pub = service.public
    assert pub["phase"] == "hand_over" and pub["last_settlement"]["winner"] == 2
    assert pub["last_settlement"]["kind"] == "discard" and pub["last_settlement"]["deltas"] == [0, 0, 2, -2]


# --- the four ways ---------------------------------------------------------------------------------


def by_gpio(tmp_path: Path, mock_factory: Any, clock: Any) -> list[tuple[str, Any, Any]]:  # noqa: F811
    journal = Journal.open(tmp_path / "gpio.sqlite3")
    service_clock = ManualClock()
    service = TableService(journal, claim_window_s=3.0, clock=service_clock, dice=_dice_source(),
                           roster=Roster.open(journal.path)).start()  # (a table remembers its players)
    adapter = LightsAdapter(service)
    lights = SeatLights(PINS, pin_factory=mock_factory)
    adapter.add(lights)
    buttons = GpioButtons(PINS, pin_factory=mock_factory, clock=clock)
    send = PressSender(service, "gpio")
    try:
        for ev in SETUP:
            assert service.call(ev, source="touch", timeout=10).ok
        for what, seat, button, refused in SCRIPT:
            if what == "close":
                seq = service.seq
                service_clock.advance(3.0)
                wait_until(lambda seq=seq: service.seq > seq, what="the window closing")
                continue
            pin = mock_factory.pin(PINS.dice if button == "DICE" else PINS.button_pin(seat, button))
            answers = press_pin(pin, buttons, send, clock, 1.2 if what in ("held", "propose") else 0.05)
            assert len(answers) == 1 and answers[0].ok is not refused, (what, seat, button, answers)
        assert service.call(CONFIRM, source="touch", timeout=10).ok
        _check_the_end(service)
        return _records(journal)
    finally:
        buttons.close()
        lights.close()
        adapter.close()
        service.stop()
        journal.close()


def by_panel(tmp_path: Path, fw: Any) -> list[tuple[str, Any, Any]]:  # noqa: F811
    journal = Journal.open(tmp_path / "panel.sqlite3")
    service_clock = ManualClock()
    service = TableService(journal, claim_window_s=3.0, clock=service_clock, roster=Roster.open(journal.path)).start()
    plug = Plug(tmp_path)
    panel = PanelThread(fw, plug.plug())
    rolls = iter(bytes([2, 3, 1, 2]))  # the panel's own dice show 3 4, then 2 3
    panel.panel.dice_source = lambda n: bytes([next(rolls)])
    adapter = LightsAdapter(service)
    from firmware_bridge.bridge import LinkState, PanelBridge

    bridge = PanelBridge(str(plug.link), panel_handler(PressSender(service, "panel")), retry_s=0.05)
    adapter.add(bridge)
    handled = presses_handled(service)
    modes: list[tuple[int, str]] = []
    real_set = panel.panel.out.set
    panel.panel.out.set = lambda seat, mode: (modes.append((seat, mode)), real_set(seat, mode))
    bridge.start()
    try:
        for ev in SETUP:
            assert service.call(ev, source="touch", timeout=10).ok
        wait_until(lambda: bridge.state is LinkState.CONNECTED and panel.panel.linked, what="connected")
        for what, seat, button, refused in SCRIPT:
            seq = service.seq
            if what == "close":
                service_clock.advance(3.0)
                wait_until(lambda seq=seq: service.seq > seq, what="the window closing")
                continue
            n, done = len(panel.panel.delivered), len(handled)
            if button == "DICE":
                panel.press_dice()
                wait_until(lambda seq=seq: service.seq > seq, what="the roll")
                continue
            if what in ("held", "propose"):
                panel.hold(seat, button)
                wait_until(lambda seat=seat: panel.panel.keys.turn_down[seat] is None,
                           what=f"seat {seat}'s {button} held long")  # (its long press sent)
                panel.release(seat, button)
            else:
                modes.clear()
                panel.tap(seat, button)
            wait_until(lambda n=n: len(panel.panel.delivered) == n + 1, what=f"seat {seat} {button} answered")
            wait_until(lambda done=done: len(handled) == done + 1, what=f"seat {seat} {button} acted on")
            assert (service.seq == seq) is (refused or what == "propose"), (what, seat, button)
            if refused:  # the seat's LED on the panel blinks
                wait_until(lambda seat=seat: (seat, "blink") in modes, what=f"seat {seat}'s LED blinking")
        assert service.call(CONFIRM, source="touch", timeout=10).ok
        _check_the_end(service)
        return _records(journal)
    finally:
        bridge.stop()
        adapter.close()
        panel.stop()
        plug.unplug()
        service.stop()
        journal.close()


KEYS = {(None, "DICE"): " ", **{(seat, b): row[i] for seat, row in enumerate(("12345", "qwert", "asdfg", "zxcvb"))
                                for i, b in enumerate(("TURN", "CHI", "PENG", "GANG", "HU"))}}


def by_keys(ui: UI) -> list[tuple[str, Any, Any]]:
    from kivy.core.window import Window

    ui.service.dice = _dice_source()
    for ev in SETUP:
        assert ui.service.call(ev, source="touch", timeout=10).ok
    ui.settled()
    table = ui.app.screen("table")
    for what, seat, button, refused in SCRIPT:
        seq = ui.service.seq
        if what == "close":
            ui.clock.advance(3.0)
            ui.wait(lambda seq=seq: ui.service.seq > seq, "the window closing")
            continue
        char = KEYS[(seat, button)]
        held = what in ("held", "propose")
        Window.dispatch("on_key_down", 32 if char == " " else ord(char), 0, char, ["shift"] if held else [])
        assert ui.service.call({"type": "state"}, timeout=10).ok  # (the queue is in order: the key is done)
        ui.settled()
        assert (ui.service.seq == seq) is (refused or what == "propose"), (what, seat, button)
        if refused:  # the reason, on that seat's panel
            ui.wait(lambda seat=seat: table.panel(seat).lit and table.panel(seat).refused, "the refusal shown")
    assert ui.service.call(CONFIRM, source="touch", timeout=10).ok
    _check_the_end(ui.service)
    return _records(ui.service._journal)


def by_play_file(tmp_path: Path) -> list[dict[str, Any]]:
    lines = [json.dumps(ev) for ev in SETUP]
    rolls = iter(DICE)
    refused = []
    for what, seat, button, bad in SCRIPT:
        if what == "close":
            lines.append(json.dumps({"type": "resolve"}))
        elif what == "propose":  # (a play file is its author's: a held TURN in it undoes at once)
            continue
        elif bad:
            refused.append(json.dumps(Press(seat, button).to_json()))
        else:
            press = Press(seat, button, held=what == "held", dice=next(rolls) if button == "DICE" else None)
            lines.append(json.dumps(press.to_json()))
    lines.append(json.dumps(CONFIRM))
    script = tmp_path / "presses.jsonl"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "events.jsonl"
    proc = subprocess.run([sys.executable, "-m", "table_app.cli", "play", str(script), "--json", "--events", str(out)],
                          capture_output=True, text=True, env=dict(os.environ, PYTHONUTF8="1"), timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["phase"] == "hand_over"
    # the refused presses are refused by play too (exit 3, the state before them reported)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([*lines[: lines.index(json.dumps({"type": "resolve"}))], refused[0]]) + "\n")
    proc = subprocess.run([sys.executable, "-m", "table_app.cli", "play", str(bad)], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONUTF8="1"), timeout=60)
    assert proc.returncode == 3 and "seat 1 has drawn and discarded: it waits for the others" in proc.stderr
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def pins(mock_factory: Any, clock: Any) -> Iterator[tuple[Any, Any]]:  # noqa: F811
    yield mock_factory, clock


def test_the_same_hand_four_ways_gives_the_same_journal(ui: UI, tmp_path: Path, fw: Any,  # noqa: F811
                                                         pins: tuple[Any, Any]) -> None:
    gpio = by_gpio(tmp_path, *pins)
    panel = by_panel(tmp_path, fw)
    keys = by_keys(ui)
    played = by_play_file(tmp_path)
    assert gpio == panel == keys
    undone = [target for kind, _, target in gpio if kind == "undo"]
    assert len(undone) == 1  # the misclick, taken back
    in_effect = [ev for kind, ev, _ in gpio if kind == "event"]
    taken_back = in_effect.index({"type": "claim", "seat": 0, "call": "win"})
    without_ids = [{k: v for k, v in ev.items() if k != "player_ids"} for ev in in_effect]  # (play has no roster)
    assert played == without_ids[:taken_back] + without_ids[taken_back + 1:]
    kinds = [ev["type"] for ev in played]
    assert kinds.count("resolve") == 2 and kinds.count("discard") == 2  # the window's two closes; two discards
    held = [ev for ev in played if ev.get("drew")]
    assert held == [{"type": "pass", "seat": 1, "drew": True}, {"type": "pass", "seat": 0, "drew": True}]
