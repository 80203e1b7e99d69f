"""Attach the table's physical inputs to a running service: ``--panel DEVICE`` / ``--gpio``.

Returns a function that detaches them again. The link state of each input goes to
``on_link(name, state, detail)``: ``gpio`` (``connected``) and ``panel`` (``reconnecting``,
``waiting``, ``connected``, ``version_mismatch``), called from the input's own thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.presses import Press
from hardware.controller import TableController
from hardware.pins import DEFAULT, PinMap
from table_app import sdnotify

if TYPE_CHECKING:
    from table_app.service import TableService

LinkListener = Callable[[str, str, str], None]


def attach_inputs(service: TableService, *, panel: str | None = None, gpio: bool = False,
                  pins: PinMap | None = None, pin_factory: Any = None,
                  on_link: LinkListener | None = None) -> Callable[[], None]:
    """Buttons on GPIO and/or a serial panel into ``service``; returns the detacher."""
    if not panel and not gpio:
        return lambda: None
    say: LinkListener = on_link or (lambda name, state, detail: None)
    controller = TableController(service)
    closers: list[Callable[[], None]] = []
    try:
        if gpio:
            _attach_gpio(controller, pins or DEFAULT, say, pin_factory, closers)
        if panel:
            from firmware_bridge.bridge import PanelBridge

            bridge = PanelBridge(panel, panel_handler(controller), heartbeat=sdnotify.part_heartbeat("panel"))
            closers.append(lambda: sdnotify.part_stopped("panel"))
            bridge.add_listener(lambda state, detail: say("panel", state.value, detail))
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


def _attach_gpio(controller: TableController, pins: PinMap, say: LinkListener, pin_factory: Any,
                 closers: list[Callable[[], None]]) -> None:
    from gpiozero.exc import GPIOZeroError

    from hardware.devices import GpioButtons, SeatLights

    for w in pins.warnings():
        say("gpio", "warning", w)
    try:
        lights = SeatLights(pins, pin_factory=pin_factory)
        closers.append(lights.close)
        buttons = GpioButtons(pins, pin_factory=pin_factory)
        closers.append(buttons.close)
    except GPIOZeroError as e:
        raise HardwareError(f"gpio: cannot use the GPIO pins: {e} (on a Raspberry Pi, install python3-lgpio)") from e
    controller.add_lights(lights)
    def on_press(p: Press) -> None:
        controller.press(p, source="gpio")

    buttons.start(on_press, heartbeat=sdnotify.part_heartbeat("gpio"))
    closers.append(lambda: sdnotify.part_stopped("gpio"))
    say("gpio", "connected", f"{len(buttons.keys)} buttons and {len(lights.leds)} seat LEDs attached")


def panel_handler(controller: TableController) -> Callable[[Any], None]:
    """What the panel bridge calls for each BTN / DICE frame (its ACK already sent): a press for the table."""
    from firmware_bridge.protocol import Dice

    def on_frame(frame: Any) -> None:
        if isinstance(frame, Dice):  # the panel rolled its own dice: those are the ones played
            controller.press(Press(None, "DICE", dice=(frame.a, frame.b)), source="panel")
        else:
            controller.press(Press(frame.seat, frame.button, held=frame.long), source="panel")

    return on_frame
