from __future__ import annotations

import pytest

from hardware.pins import DEFAULT, RESERVED, PinError, PinMap


def test_the_default_keeps_off_i2c_and_uart_and_uses_each_pin_once():
    pins = [p for p, _ in DEFAULT.uses()]
    assert len(pins) == len(set(pins)) == 22
    assert not set(pins) & set(RESERVED)
    assert DEFAULT.warnings() == []


def test_a_pin_used_twice_is_refused_naming_it():
    with pytest.raises(PinError, match=r"GPIO26 is used twice: as the dice button and as the buzzer"):
        PinMap.from_mapping({"buzzer": 26})


@pytest.mark.parametrize(("data", "match"), [
    ({"dice": 28}, r"the dice button has pin 28, which is not a GPIO 0..27"),
    ({"leds": [None, -1, None, None]}, r"seat 1 LED has pin -1"),
    ({"buzzer": "27"}, r"the buzzer has pin '27'"),
    ({"buttons": [[4, 5, 6, 7]] * 4}, r"buttons must be 4 seats of 5 pins"),
    ({"leds": [1, 2]}, r"leds must be 4 pins"),
    ({"led": [1, 2, 3, 4]}, r"unknown key\(s\) \['led'\]"),
])
def test_bad_maps_are_refused_with_the_reason(data, match):
    with pytest.raises(PinError, match=match):
        PinMap.from_mapping(data)


def test_leds_on_reserved_pins_are_allowed_with_a_warning():
    m = PinMap.from_mapping({"leds": [0, 1, 14, 15], "buzzer": None})
    assert m.leds == (0, 1, 14, 15) and m.buzzer is None
    warnings = m.warnings()
    assert len(warnings) == 4 and "GPIO14 (seat 2 LED) is the UART TXD pin" in warnings[2]
