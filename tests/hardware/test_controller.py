"""GPIO buttons (MockFactory) → TableController → the real TableService and journal; the seat
LEDs follow the table."""

from __future__ import annotations

import time

import pytest

from hardware.commands import DICE, Press, Refusal
from hardware.controller import TableController, seat_modes
from hardware.devices import GpioButtons, SeatLights
from hardware.pins import PinMap
from table_app.journal import Journal
from table_app.service import ManualClock, TableService
from tests.hardware.tables import START

PINS = PinMap.from_mapping({"leds": [0, 1, 14, 15]})


@pytest.fixture
def rig(tmp_path, mock_factory, clock):
    journal = Journal.open(tmp_path / "j.sqlite3")
    service = TableService(journal, claim_window_s=3.0, clock=ManualClock()).start()
    for ev in START[:2]:
        assert service.call(ev, timeout=10).ok
    controller = TableController(service, dice=lambda: [3, 4])
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
    assert isinstance(r, Refusal) and service.public["turn"] == 0
    (a,) = press(0, "TURN")
    assert a.ok and service.public["phase"] == "claims"
    seq = service.seq
    (a,) = press(0, "TURN", hold=1.2)  # held: undo seat 0's own discard
    assert a.ok and service.public["phase"] == "turn" and service.seq == seq + 1
    (r,) = press(0, "TURN", hold=1.2)  # the last event is now unknown: undo on the touchscreen
    assert isinstance(r, Refusal) and "cannot undo" in r.reason


def test_seat_modes():
    assert seat_modes({"phase": "turn", "turn": 3}) == ["off", "off", "off", "on"]
    assert seat_modes({"phase": "claims", "claims": {"waiting": [0, 2]}}) == ["blink", "off", "blink", "off"]
    assert seat_modes({"phase": "rolling", "dealer": 1, "dice": {"dealer": [1, 1]}}) == ["off", "off", "on", "off"]
    assert seat_modes({"phase": "hand_over"}) == ["off"] * 4


def test_a_press_the_engine_refuses_flashes_and_changes_nothing(rig):
    service, press, _leds = rig
    press(None, "DICE")
    press(None, "DICE")
    seq = service.seq
    (a,) = press(0, "HU")  # a self-drawn win declared: pending until confirmed
    assert a.ok
    (r,) = press(1, "PENG")
    assert isinstance(r, Refusal) and service.seq == seq + 1 and service.public["phase"] == "win_pending"


def test_the_dice_button_during_seating_goes_to_the_seating_form(tmp_path, mock_factory, clock):
    """Seating has no dice event of its own: the front end with the seating form hears the roll.
    Without such a front end (headless serve) the press is refused as before."""
    journal = Journal.open(tmp_path / "j.sqlite3")
    service = TableService(journal, claim_window_s=3.0, clock=ManualClock()).start()
    try:
        assert service.call(START[0], timeout=10).ok  # new_session: the table is being seated
        assert service.public["phase"] == "seating"
        heard: list[list[int]] = []
        with_form = TableController(service, dice=lambda: [5, 2], on_seating_dice=heard.append)
        headless = TableController(service, dice=lambda: [5, 2])
        dice = Press(None, DICE)
        seq = service.seq
        assert with_form.press(dice) == [5, 2] and heard == [[5, 2]]
        assert with_form.press(dice, source="panel", dice=[6, 6]) == [6, 6] and heard[-1] == [6, 6]
        assert isinstance(headless.press(dice), Refusal)
        assert service.seq == seq  # nothing reached the journal
        assert service.call(START[1], timeout=10).ok  # seated: the dice button rolls the wall again
        assert service.public["phase"] != "seating"
        answer = with_form.press(dice)
        assert answer.ok and service.public["dice"]["dealer"] == [5, 2] and heard == [[5, 2], [6, 6]]
        with_form.close()
        headless.close()
    finally:
        service.stop()
        journal.close()
