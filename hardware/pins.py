"""The GPIO pin map: which BCM pin each seat's buttons, the dice button, the seat LEDs and the
buzzer use. Checked before any pin is touched: a pin out of range or used twice is refused
with a message naming it.

The default keeps off the I²C pins (GPIO0/1 for HAT EEPROMs, GPIO2/3 SDA/SCL) and the UART
(GPIO14/15, where a serial panel may be wired). The 40-pin header has 22 other GPIOs, and
20 buttons + the dice button + the buzzer take them all, so the seat LEDs have no pins by
default: give them pins in the map (a warning is printed for I²C/UART pins) or use the
serial panel, which has its own LEDs. docs/gpio.md has the table.

>>> DEFAULT.button_pin(2, "HU")
20
>>> PinMap.from_mapping({"leds": [4, 4, None, None]})
Traceback (most recent call last):
...
hardware.pins.PinError: gpio pin map: GPIO4 is used twice: as seat 0 TURN and as seat 0 LED
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.presses import SEAT_BUTTONS
from engine.seats import SEATS

BUTTONS = SEAT_BUTTONS  # (the engine's: TURN CHI PENG GANG HU)
MAX_PIN = 27  # BCM GPIO0..27 on the 40-pin header
RESERVED = {0: "I²C ID_SD (HAT EEPROM)", 1: "I²C ID_SC (HAT EEPROM)", 2: "I²C SDA", 3: "I²C SCL",
            14: "UART TXD", 15: "UART RXD"}


class PinError(ValueError):
    """A pin map that cannot be used; the message names the pin and its uses."""


@dataclass(frozen=True)
class PinMap:
    buttons: tuple[tuple[int, ...], ...]  # [seat][TURN CHI PENG GANG HU]
    dice: int | None = None
    leds: tuple[int | None, ...] = (None, None, None, None)  # per seat
    buzzer: int | None = None

    def __post_init__(self) -> None:
        self.check()

    def button_pin(self, seat: int, button: str) -> int:
        return self.buttons[seat][BUTTONS.index(button)]

    def uses(self) -> list[tuple[int, str]]:
        """Every (pin, what) pair in the map."""
        out = [(pin, f"seat {s} {BUTTONS[b]}") for s, row in enumerate(self.buttons) for b, pin in enumerate(row)]
        if self.dice is not None:
            out.append((self.dice, "the dice button"))
        out += [(pin, f"seat {s} LED") for s, pin in enumerate(self.leds) if pin is not None]
        if self.buzzer is not None:
            out.append((self.buzzer, "the buzzer"))
        return out

    def check(self) -> None:
        if len(self.buttons) != SEATS or any(len(row) != len(BUTTONS) for row in self.buttons):
            raise PinError(f"gpio pin map: buttons must be {SEATS} seats of {len(BUTTONS)} pins "
                           f"({' '.join(BUTTONS)}), got {self.buttons!r}")
        if len(self.leds) != SEATS:
            raise PinError(f"gpio pin map: leds must be {SEATS} pins (or none), got {self.leds!r}")
        seen: dict[int, str] = {}
        for pin, what in self.uses():
            if type(pin) is not int or not 0 <= pin <= MAX_PIN:
                raise PinError(f"gpio pin map: {what} has pin {pin!r}, which is not a GPIO 0..{MAX_PIN}")
            if pin in seen:
                raise PinError(f"gpio pin map: GPIO{pin} is used twice: as {seen[pin]} and as {what}")
            seen[pin] = what

    def warnings(self) -> list[str]:
        return [f"GPIO{pin} ({what}) is the {RESERVED[pin]} pin: make sure nothing else is wired to it"
                for pin, what in self.uses() if pin in RESERVED]

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], base: PinMap | None = None) -> PinMap:
        """A map from a TOML table ``[gpio]``: keys ``buttons`` (4 lists of 5), ``dice``, ``leds``
        (4 entries, None for none), ``buzzer``; a key left out keeps the default's value."""
        base = DEFAULT if base is None else base
        unknown = set(data) - {"buttons", "dice", "leds", "buzzer"}
        if unknown:
            raise PinError(f"gpio pin map: unknown key(s) {sorted(unknown)} (known: buttons, dice, leds, buzzer)")
        try:
            buttons = tuple(tuple(row) for row in data.get("buttons", base.buttons))
            leds = tuple(data.get("leds", base.leds))
        except TypeError:
            raise PinError(f"gpio pin map: buttons and leds must be lists, got {dict(data)!r}") from None
        return cls(buttons, data.get("dice", base.dice), leds, data.get("buzzer", base.buzzer))


# Seat s's buttons run along the header; the dice button and the buzzer at the end.
DEFAULT = PinMap(
    buttons=((4, 5, 6, 7, 8), (9, 10, 11, 12, 13), (16, 17, 18, 19, 20), (21, 22, 23, 24, 25)),
    dice=26,
    buzzer=27,
)
