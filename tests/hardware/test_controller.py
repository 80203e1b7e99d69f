"""GPIO buttons (MockFactory) → TableController → the real TableService and journal; the seat
LEDs follow the table."""

from __future__ import annotations

import time

import pytest

from engine.presses import Press
from hardware.controller import TableController
from hardware.devices import GpioButtons, SeatLights
from hardware.pins import PinMap
from table_app.journal import Journal
from table_app.service import ManualClock, TableService
from tests.hardware.tables import START

PINS = PinMap.from_mapping({"leds": [0, 1, 14, 15]})


@pytest.fixture
def rig(tmp_path, mock_factory, clock):
    journal = Journal.open(tmp_path / "j.sqlite3")
    service = TableService(journal, claim_window_s=3.0, clock=ManualClock(), dice=lambda: (3, 4)).start()
    for ev in START[:2]:
        assert service.call(ev, timeout=10).ok
    controller = TableController(service)
    lights = SeatLights(PINS, pin_factory=mock_factory)
    controller.add_lights(lights)
    buttons = GpioButtons(PINS, pin_factory=mock_factory, clock=clock)

    def press(seat, name, hold: float = 0.05):
        pin = mock_factory.pin(PINS.dice if name == "DICE" else PINS.button_pin(seat, name))
        answers = []
        pin.drive_low()
        for _ in range(int(hold / 0.005)):
            clock.t += 0.005
            answers += [controller.press(p, source="gpio") for p in buttons.poll()]
        pin.drive_high()
        for _ in range(10):
            clock.t += 0.005
            answers += [controller.press(p, source="gpio") for p in buttons.poll()]
        return answers

    leds = [mock_factory.pin(p) for p in (0, 1, 14, 15)]
    yield service, press, leds
    buttons.close()
    lights.close()
    controller.close()
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
    (a,) = press(0, "TURN", hold=1.2)  # held: undo the last event
    assert a.ok and service.public["phase"] == "turn" and service.seq == seq + 1
    record = list(service._journal.records())[-1]
    assert record.kind == "undo" and record.source == "gpio press 0:TURN:held"


def test_the_journal_keeps_the_events_a_press_became_with_the_press_as_source(rig):
    service, press, _leds = rig
    press(None, "DICE")
    press(None, "DICE")
    press(0, "TURN")
    (a,) = press(1, "TURN")  # the quick 下家: resolve (it draws), then its discard
    assert a.ok and service.public["phase"] == "claims" and service.public["claims"]["from"] == 1
    tail = [(r.event, r.source) for r in service._journal.records()][-4:]
    assert tail == [
        ({"type": "roll", "dice": [3, 4], "seat": 2}, "gpio press DICE"),
        ({"type": "discard", "seat": 0}, "gpio press 0:TURN"),
        ({"type": "resolve"}, "gpio press 1:TURN"),
        ({"type": "discard", "seat": 1}, "gpio press 1:TURN"),
    ]


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
    controller = TableController(service)
    try:
        assert service.call(START[0], timeout=10).ok  # new_session: the table is being seated
        seq = service.seq
        assert controller.press(Press(None, "DICE")).dice == (5, 2)
        assert controller.press(Press(None, "DICE", dice=(6, 6)), source="panel").dice == (6, 6)
        assert heard == [(5, 2), (6, 6)] and service.seq == seq  # nothing reached the journal
        assert service.call(START[1], timeout=10).ok  # seated: the dice button rolls the wall again
        answer = controller.press(Press(None, "DICE"))
        assert answer.ok and service.public["dice"]["dealer"] == [5, 2] and heard == [(5, 2), (6, 6)]
    finally:
        controller.close()
        service.stop()
        journal.close()
