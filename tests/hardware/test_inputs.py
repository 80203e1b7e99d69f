"""GPIO buttons (MockFactory) → table_app.inputs → the real TableService and journal; the seat
LEDs follow the table; the buttons' poll thread never waits for a commit."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest

from engine.presses import Press
from hardware.devices import GpioButtons, SeatLights
from hardware.pins import DEFAULT, PinMap
from table_app.config.file import Config
from table_app.core.service import ManualClock, TableService
from table_app.inputs import LightsAdapter, PressSender, attach_inputs
from table_app.journal.journal import Journal
from tests.firmware_bridge.test_transport import wait_until
from tests.hardware.tables import START, press_pin
from tests.reliability.helpers import ROOT

PINS = PinMap.from_mapping({"leds": [0, 1, 14, 15]})


@pytest.fixture
def rig(tmp_path, mock_factory, clock):
    journal = Journal.open(tmp_path / "j.sqlite3")
    service = TableService(journal, claim_window_s=3.0, clock=ManualClock(), dice=lambda: (3, 4)).start()
    for ev in START[:2]:
        assert service.call(ev, timeout=10).ok
    adapter = LightsAdapter(service)
    lights = SeatLights(PINS, pin_factory=mock_factory)
    adapter.add(lights)
    buttons = GpioButtons(PINS, pin_factory=mock_factory, clock=clock)
    send = PressSender(service, "gpio")

    def press(seat, name, hold: float = 0.05):
        pin = mock_factory.pin(PINS.dice if name == "DICE" else PINS.button_pin(seat, name))
        return press_pin(pin, buttons, send, clock, hold)

    leds = [mock_factory.pin(p) for p in (0, 1, 14, 15)]
    yield service, press, leds
    buttons.close()
    lights.close()
    adapter.close()
    service.stop()
    journal.close()


def wait_leds(leds, want):
    end = time.monotonic() + 5
    while [p.state for p in leds] != want and time.monotonic() < end:
        time.sleep(0.01)
    assert [p.state for p in leds] == want


def test_gpio_presses_play_and_the_leds_follow(rig):
    service, press, leds = rig
    wait_leds(leds, [True, False, False, False])  # the dealer rolls
    (a,) = press(None, "DICE")
    assert a.ok and service.public["dice"]["dealer"] == [3, 4]
    wait_leds(leds, [False, False, True, False])  # 7: seat 2 owns the wall and rolls
    press(None, "DICE")
    assert service.public["phase"] == "turn"
    wait_leds(leds, [True, False, False, False])
    (r,) = press(3, "TURN")
    assert not r.ok and r.code == "press.not_turn" and service.public["turn"] == 0
    (a,) = press(0, "TURN")
    assert a.ok and service.public["phase"] == "claims"
    wait_leds(leds, [False, True, True, True])  # the others may answer: blinking (a blinking pin reads True here)
    seq = service.seq
    (a,) = press(1, "TURN", hold=1.2)  # held by another seat: its undo of seat 0's discard is put up
    assert a.ok and a.proposal is not None and service.seq == seq and service.public["phase"] == "claims"
    (a,) = press(1, "TURN", hold=1.2)  # held again by the same seat: not enough, it is seat 0's step
    assert not a.ok and a.code == "undo.second" and service.seq == seq
    (a,) = press(0, "TURN", hold=1.2)  # seat 0, whose step it is, holds TURN too: undone
    assert a.ok and service.public["phase"] == "turn" and service.seq == seq + 1
    record = list(service._journal.records())[-1]
    assert record.kind == "undo" and record.source == "gpio press 0:TURN:held agrees gpio press 1:TURN:held"


def test_the_journal_keeps_the_events_a_press_became_with_the_press_as_source(rig):
    service, press, _leds = rig
    press(None, "DICE")
    press(None, "DICE")
    press(0, "TURN")
    (a,) = press(1, "TURN")  # the quick 下家: held while the others may still claim (docs/rules.md §17)
    assert a.ok and service.public["phase"] == "claims" and service.public["claims"]["held"] == 1
    press(2, "TURN")
    (a,) = press(3, "TURN")  # the last answer: the 下家's draw and discard
    assert a.ok and service.public["phase"] == "claims" and service.public["claims"]["from"] == 1
    tail = [(r.event, r.source) for r in service._journal.records()][-5:]
    assert tail == [
        ({"type": "roll", "dice": [3, 4], "seat": 2}, "gpio press DICE"),
        ({"type": "discard", "seat": 0}, "gpio press 0:TURN"),
        ({"type": "pass", "seat": 1, "drew": True}, "gpio press 1:TURN"),
        ({"type": "pass", "seat": 2}, "gpio press 2:TURN"),
        ({"type": "pass", "seat": 3}, "gpio press 3:TURN"),
    ]
    (b,) = press(3, "TURN")  # on seat 1's discard: seats 2 and 0 may still claim
    assert b.ok and service.public["claims"]["held"] is None and service.public["claims"]["answers"][3] == "pass"


def test_a_refused_press_blinks_that_seats_led_and_changes_nothing(rig):
    service, press, leds = rig
    press(None, "DICE")
    press(None, "DICE")
    seq = service.seq
    (a,) = press(0, "HU")  # a self-drawn win declared: pending until confirmed
    assert a.ok
    wait_leds(leds, [False, False, False, False])
    leds[1].clear_states()
    (r,) = press(1, "PENG")
    assert not r.ok and r.code == "press.phase" and "seat 1" in r.error
    assert service.seq == seq + 1 and service.public["phase"] == "win_pending"
    end = time.monotonic() + 5
    while sum(1 for st in leds[1].states if st.state) < 2 and time.monotonic() < end:
        time.sleep(0.02)
    assert sum(1 for st in leds[1].states if st.state) >= 2  # seat 1's LED flashed


def test_the_dice_button_during_seating_goes_to_the_seating_form(tmp_path):
    """Seating has no dice event of its own: the service tells its observers the dice (a
    ``dice`` notice) for the seating form, and nothing reaches the journal."""
    journal = Journal.open(tmp_path / "j.sqlite3")
    service = TableService(journal, claim_window_s=3.0, clock=ManualClock(), dice=lambda: (5, 2)).start()
    heard: list[tuple[int, int]] = []
    service.subscribe(lambda n: heard.append(n.dice) if n.kind == "dice" else None)
    gpio, panel = PressSender(service, "gpio"), PressSender(service, "panel")
    try:
        assert service.call(START[0], timeout=10).ok  # new_session: the table is being seated
        seq = service.seq
        assert gpio(Press(None, "DICE")).result(10).dice == (5, 2)
        assert panel(Press(None, "DICE", dice=(6, 6))).result(10).dice == (6, 6)
        assert heard == [(5, 2), (6, 6)] and service.seq == seq  # nothing reached the journal
        assert service.call(START[1], timeout=10).ok  # seated: the dice button rolls the wall again
        answer = gpio(Press(None, "DICE")).result(10)
        assert answer.ok and service.public["dice"]["dealer"] == [5, 2] and heard == [(5, 2), (6, 6)]
    finally:
        service.stop()
        journal.close()


def test_presses_made_while_the_table_is_busy_are_all_seen_once_in_order(tmp_path, mock_factory):
    """The real poll thread (real time): while the service thread is held up (here by an
    observer that waits, as a slow commit would), the sender returns at once, and the
    presses made meanwhile are all read and act later, once each, in order."""
    journal = Journal.open(tmp_path / "j.sqlite3")
    service = TableService(journal, claim_window_s=0, clock=ManualClock()).start()
    for ev in START:
        assert service.call(ev, timeout=10).ok
    release = threading.Event()
    service.subscribe(lambda n: release.wait(10))  # every change holds the service thread up
    futures = []
    send = PressSender(service, "gpio")

    def on_press(p):
        started = time.monotonic()
        futures.append(send(p))
        assert time.monotonic() - started < 0.05  # (the poll thread is back at once)

    buttons = GpioButtons(PINS, pin_factory=mock_factory).start(on_press)
    try:
        for seat in (0, 2, 3, 1):  # a discard, two passes, the 下家's resolve and discard
            pin = mock_factory.pin(PINS.button_pin(seat, "TURN"))
            pin.drive_low()
            time.sleep(0.06)
            pin.drive_high()
            time.sleep(0.06)
        wait_until(lambda: len(futures) == 4)
        assert not any(f.done() for f in futures[1:])  # the table is still on the first
        release.set()
        answers = [f.result(10) for f in futures]
    finally:
        release.set()
        buttons.close()
        service.stop()
    assert all(a.ok for a in answers)
    tail = [(r.event, r.source) for r in journal.records()][len(START):]
    journal.close()
    assert tail == [
        ({"type": "discard", "seat": 0}, "gpio press 0:TURN"),
        ({"type": "pass", "seat": 2}, "gpio press 2:TURN"),
        ({"type": "pass", "seat": 3}, "gpio press 3:TURN"),
        ({"type": "resolve"}, "gpio press 1:TURN"),
        ({"type": "discard", "seat": 1}, "gpio press 1:TURN"),
    ]


def test_attach_inputs_attaches_gpio_from_the_config_and_detaches(tmp_path, mock_factory):
    journal = Journal.open(tmp_path / "j.sqlite3")
    service = TableService(journal, claim_window_s=0, clock=ManualClock(), dice=lambda: (3, 4)).start()
    seen: list[tuple[str, str, str]] = []
    cfg = Config(gpio_enabled=True, gpio_pins=(("leds", (0, 1, 14, 15)),))
    detach = attach_inputs(service, cfg, {"panel": None}, pin_factory=mock_factory,
                           on_link=lambda *link: seen.append(link))
    try:
        assert [s[:2] for s in seen][-1] == ("gpio", "connected")
        assert ("gpio", "warning") in [s[:2] for s in seen]  # GPIO0/1/14/15 are I²C and UART pins
        assert service.call(START[0], timeout=10).ok and service.call(START[1], timeout=10).ok
        leds = [mock_factory.pin(p) for p in (0, 1, 14, 15)]
        wait_leds(leds, [True, False, False, False])  # the dealer rolls
        dice = mock_factory.pin(DEFAULT.dice)
        dice.drive_low()
        time.sleep(0.06)
        dice.drive_high()
        wait_until(lambda: service.public["dice"]["dealer"] == [3, 4], what="the roll")
        wait_leds(leds, [False, False, True, False])
    finally:
        detach()
        service.stop()
    assert [r.source for r in journal.records()][-1] == "gpio press DICE"
    journal.close()
    GpioButtons(PINS, pin_factory=mock_factory).close()  # every pin was let go (one in use would raise)
    SeatLights(PINS, pin_factory=mock_factory).close()


def test_hardware_imports_nothing_of_table_app():
    code = ("import sys, hardware, hardware.devices, hardware.pins, hardware.debounce; "
            "print([m for m in sys.modules if m.split('.')[0] == 'table_app'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60,
                         check=True).stdout
    assert out.strip() == "[]"
