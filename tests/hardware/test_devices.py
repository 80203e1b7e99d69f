"""gpiozero buttons, LEDs and buzzer on gpiozero's MockFactory (pin.drive_low / drive_high)."""

from __future__ import annotations

import time

import pytest

from engine.presses import SEAT_BUTTONS as BUTTONS
from engine.presses import Press
from hardware.devices import GpioButtons, SeatLights
from hardware.pins import DEFAULT, PinError, PinMap

LIT = PinMap.from_mapping({"leds": [0, 1, 14, 15]})


def bounce(pin, clock, final_low: bool, edges: int = 7) -> None:
    """A contact bouncing: alternating levels 1 ms apart, ending at the final level."""
    low = final_low if edges % 2 == 1 else not final_low
    for _ in range(edges):
        pin.drive_low() if low else pin.drive_high()
        low = not low
        clock.t += 0.001


def settle(buttons: GpioButtons, clock, seconds: float = 0.05) -> list[Press]:
    out = []
    for _ in range(int(seconds / 0.005)):
        clock.t += 0.005
        out += buttons.poll()
    return out


@pytest.fixture
def buttons(mock_factory, clock):
    b = GpioButtons(DEFAULT, pin_factory=mock_factory, clock=clock)
    yield b
    b.close()


def test_every_button_of_every_seat_is_one_press_despite_bounces(buttons, mock_factory, clock):
    got = []
    for seat in range(4):
        for name in BUTTONS:
            pin = mock_factory.pin(DEFAULT.button_pin(seat, name))
            bounce(pin, clock, final_low=True)
            got += settle(buttons, clock)
            bounce(pin, clock, final_low=False)
            got += settle(buttons, clock)
    assert got == [Press(s, b) for s in range(4) for b in BUTTONS]


def test_the_dice_button(buttons, mock_factory, clock):
    pin = mock_factory.pin(DEFAULT.dice)
    bounce(pin, clock, final_low=True, edges=5)
    assert settle(buttons, clock) == [Press(None, "DICE")]


def test_holding_turn_is_a_long_press(buttons, mock_factory, clock):
    pin = mock_factory.pin(DEFAULT.button_pin(1, "TURN"))
    pin.drive_low()
    assert settle(buttons, clock, 0.9) == []
    assert settle(buttons, clock, 0.2) == [Press(1, "TURN", held=True)]
    pin.drive_high()
    assert settle(buttons, clock, 0.2) == []


def test_the_ticker_thread_hands_presses_on(mock_factory):
    got: list[Press] = []
    b = GpioButtons(DEFAULT, pin_factory=mock_factory).start(got.append, poll_s=0.002)
    try:
        mock_factory.pin(DEFAULT.button_pin(3, "HU")).drive_low()
        end = time.monotonic() + 5
        while not got and time.monotonic() < end:
            time.sleep(0.005)
        assert got == [Press(3, "HU")]
    finally:
        b.close()


def test_a_bad_map_touches_no_pin(mock_factory):
    with pytest.raises(PinError):
        GpioButtons(PinMap.from_mapping({"dice": 4}), pin_factory=mock_factory)
    assert mock_factory.pins == {}


def test_leds_follow_the_table_and_flash_on_an_error(mock_factory):
    lights = SeatLights(LIT, pin_factory=mock_factory)
    try:
        pins = [mock_factory.pin(p) for p in (0, 1, 14, 15)]
        lights.set(2, "on")
        assert [p.state for p in pins] == [False, False, True, False]
        lights.set(2, "off")
        lights.set(0, "blink")
        seen = set()
        end = time.monotonic() + 3
        while len(seen) < 2 and time.monotonic() < end:
            seen.add(pins[0].state)
            time.sleep(0.01)
        assert seen == {True, False}
        lights.set(0, "off")
        lights.set(3, "on")
        buzzer = mock_factory.pin(DEFAULT.buzzer)
        lights.error(3)
        end = time.monotonic() + 3
        states, beeps = set(), set()
        while time.monotonic() < end and (len(states) < 2 or len(beeps) < 2):
            states.add(pins[3].state)
            beeps.add(buzzer.state)
            time.sleep(0.005)
        assert states == {True, False} and beeps == {True, False}
        end = time.monotonic() + 5
        while time.monotonic() < end and not (pins[3].state and lights.leds[3]._blink_thread is None):
            time.sleep(0.02)
        assert pins[3].state  # back to "on" after the flash
    finally:
        lights.close()


def test_no_leds_in_the_default_map_is_fine(mock_factory):
    lights = SeatLights(DEFAULT, pin_factory=mock_factory)
    lights.set(0, "on")
    lights.error(0)
    lights.close()
