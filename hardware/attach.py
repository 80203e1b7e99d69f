"""Attach the table's physical inputs to a running service: ``serve --panel DEVICE`` / ``--gpio``.

Returns a function that detaches them again. Messages for the operator go to ``out``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO

from hardware.commands import DICE, Press
from hardware.controller import TableController
from hardware.pins import DEFAULT, PinMap


def attach_inputs(service: Any, *, panel: str | None = None, gpio: bool = False, pins: PinMap | None = None,
                  out: TextIO | None = None, pin_factory: Any = None,
                  on_link: Callable[[str, str], None] | None = None,
                  on_seating_dice: Callable[[list[int]], None] | None = None) -> Callable[[], None]:
    """Buttons on GPIO and/or a serial panel into ``service``; returns the detacher.

    ``on_link(state, detail)`` hears the panel's link state (``reconnecting``, ``waiting``,
    ``connected``, ``version_mismatch``) from the transport thread: a screen shows it (Kivy:
    through ``Clock.schedule_once``). ``on_seating_dice(dice)`` hears the dice button (GPIO or
    the panel's own dice) while the table is being seated, for a screen's seating form.
    """
    if not panel and not gpio:
        return lambda: None
    controller = TableController(service, on_seating_dice=on_seating_dice)
    closers: list[Callable[[], None]] = []
    try:
        if gpio:
            _attach_gpio(controller, pins or DEFAULT, out, pin_factory, closers)
        if panel:
            from firmware_bridge.bridge import PanelBridge

            bridge = PanelBridge(panel, panel_handler(controller))
            bridge.add_listener(lambda state, detail: _say(out, f"panel: {state.value}: {detail}"))
            if on_link is not None:
                bridge.add_listener(lambda state, detail: on_link(state.value, detail))
            controller.add_lights(bridge)
            bridge.start()
            closers.append(bridge.stop)
    except Exception:
        for close in reversed(closers):
            close()
        controller.close()
        raise
    closers.append(controller.close)

    def detach() -> None:
        for close in reversed(closers):
            close()

    return detach


class HardwareError(ValueError):
    """The GPIO pins cannot be used (no GPIO library or chip on this machine, a pin busy)."""


def _attach_gpio(controller: TableController, pins: PinMap, out: TextIO | None, pin_factory: Any,
                 closers: list[Callable[[], None]]) -> None:
    from gpiozero.exc import GPIOZeroError

    from hardware.devices import GpioButtons, SeatLights

    for w in pins.warnings():
        _say(out, f"gpio: {w}")
    try:
        lights = SeatLights(pins, pin_factory=pin_factory)
        closers.append(lights.close)
        buttons = GpioButtons(pins, pin_factory=pin_factory)
        closers.append(buttons.close)
    except GPIOZeroError as e:
        raise HardwareError(f"gpio: cannot use the GPIO pins: {e} (on a Raspberry Pi, install python3-lgpio)") from e
    controller.add_lights(lights)
    buttons.start(lambda p: controller.press(p, source="gpio"))
    _say(out, f"gpio: {len(buttons.keys)} buttons and {len(lights.leds)} seat LEDs attached")


def panel_handler(controller: TableController) -> Callable[[Any], None]:
    """What the panel bridge calls for each BTN / DICE frame (before the frame's ACK goes out)."""
    from firmware_bridge.protocol import Dice

    def on_frame(frame: Any) -> None:
        if isinstance(frame, Dice):  # the panel rolled its own dice: those are the ones played
            controller.press(Press(None, DICE), source="panel", dice=[frame.a, frame.b])
        else:
            controller.press(Press(frame.seat, frame.button, frame.long), source="panel")

    return on_frame


def _say(out: TextIO | None, text: str) -> None:
    if out is not None:
        print(f"xian-table: {text}", file=out, flush=True)
