"""The seat buttons, dice button, seat LEDs and buzzer on the Pi's GPIO pins (``gpio.enabled``,
``--gpio``; the pin map is ``gpio.pins``, docs/gpio.md).

The devices are ``hardware.devices``' (gpiozero); their poll thread hands each press to a
:class:`~table_app.inputs.sender.PressSender`, which only queues it, so the thread is back
at the buttons within its 5 ms tick whatever the commit takes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from table_app.system import sdnotify

if TYPE_CHECKING:
    from table_app.inputs.registry import InputContext


class HardwareError(ValueError):
    """The GPIO pins cannot be used (no GPIO library or chip on this machine, a pin busy)."""


def attach(ctx: InputContext, setting: object) -> Callable[[], None]:
    """Open the buttons and lights of the configured pin map; returns the closer."""
    from gpiozero.exc import GPIOZeroError

    from hardware.devices import GpioButtons, SeatLights
    from table_app.config.file import gpio_pin_map

    pins = gpio_pin_map(ctx.cfg)
    for warning in pins.warnings():
        ctx.say("gpio", "warning", warning)
    closers: list[Callable[[], None]] = []
    try:
        lights = SeatLights(pins, pin_factory=ctx.pin_factory)
        closers.append(lights.close)
        buttons = GpioButtons(pins, pin_factory=ctx.pin_factory)
        closers.append(buttons.close)
    except GPIOZeroError as e:
        for undo in reversed(closers):
            undo()
        raise HardwareError(f"gpio: cannot use the GPIO pins: {e} (on a Raspberry Pi, install python3-lgpio)") from e
    ctx.lights.add(lights)
    buttons.start(ctx.sender("gpio"), heartbeat=sdnotify.part_heartbeat("gpio"))
    ctx.say("gpio", "connected", f"{len(buttons.keys)} buttons and {len(lights.leds)} seat LEDs attached")

    def close() -> None:
        sdnotify.part_stopped("gpio")
        buttons.close()
        lights.close()

    return close
