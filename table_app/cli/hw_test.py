"""``xian-table hw-test``: a wiring check a table owner runs once.

It blinks each seat LED in turn (and beeps the buzzer), then names every button as it is
pressed — on the Pi's GPIO (``--gpio``, the default pin map, docs/gpio.md) and/or on a
serial panel (``--panel DEVICE``, docs/panel.md, with its link state) — until Ctrl-C or
``--seconds``. Nothing reaches the table's journal.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from typing import Any, TextIO

HELP = "check the wiring: blink each LED in turn and name each button as it is pressed (--gpio, --panel)"


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--gpio", action="store_true", help="test the buttons and LEDs on the Pi's GPIO pins")
    p.add_argument("--panel", metavar="DEVICE", help="test a serial button panel on DEVICE")
    p.add_argument("--seconds", type=float, metavar="N", help="stop after N seconds (default: at Ctrl-C)")


def run(args: argparse.Namespace) -> int:
    if not args.gpio and not args.panel:
        print("xian-table hw-test: say what to test: --gpio, --panel DEVICE or both", file=sys.stderr)
        return 2
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        return check(stop, gpio=args.gpio, panel=args.panel, seconds=args.seconds, out=sys.stdout)
    except KeyboardInterrupt:
        return 0


def check(stop: threading.Event, *, gpio: bool, panel: str | None, seconds: float | None, out: TextIO,
          pin_factory: object = None, blink_s: float = 0.4) -> int:
    """The wiring check; returns the exit status. Tests call it with a MockFactory."""
    lock = threading.Lock()

    def say(text: str) -> None:
        with lock:
            print(text, file=out, flush=True)

    closers = []
    leds: list[tuple[str, Any]] = []  # (name, set(mode))
    try:
        if gpio:
            from gpiozero.exc import GPIOZeroError

            from hardware.devices import GpioButtons, SeatLights
            from hardware.pins import DEFAULT

            try:
                lights = SeatLights(DEFAULT, pin_factory=pin_factory)
                closers.append(lights.close)
                buttons = GpioButtons(DEFAULT, pin_factory=pin_factory)
                closers.append(buttons.close)
            except GPIOZeroError as e:
                print(f"xian-table hw-test: cannot use the GPIO pins: {e}", file=sys.stderr)
                return 2
            pins = {(p.seat, p.button): pin for (p, _), pin in zip(buttons.keys, _pins(DEFAULT), strict=True)}
            for seat in sorted(lights.leds):
                leds.append((f"seat {seat} LED (GPIO{DEFAULT.leds[seat]})", _setter(lights, seat)))
            if lights.buzzer is not None:
                leds.append((f"buzzer (GPIO{DEFAULT.buzzer})", lambda mode, b=lights: mode == "on" and b.beep(0.2)))
            buttons.start(lambda p: say(f"pressed: {_name(p)} (GPIO{pins[(p.seat, p.button)]})"))
            say(f"gpio: {len(buttons.keys)} buttons, {len(lights.leds)} seat LEDs"
                f"{', a buzzer' if lights.buzzer else ''} (docs/gpio.md has the pin map)")
        if panel:
            from firmware_bridge.bridge import PanelBridge
            from firmware_bridge.protocol import Dice

            def on_frame(frame: Any) -> None:
                if isinstance(frame, Dice):
                    say(f"pressed: the dice button (panel), it rolled {frame.a} and {frame.b}")
                else:
                    say(f"pressed: seat {frame.seat} {frame.button}{' (held)' if frame.long else ''} (panel)")

            bridge = PanelBridge(panel, on_frame)
            bridge.add_listener(lambda state, detail: say(f"panel link: {state.value}: {detail}"))
            bridge.start()
            closers.append(bridge.stop)
            for seat in range(4):
                leds.append((f"panel seat {seat} LED", _setter(bridge, seat)))
            leds.append(("panel buzzer", lambda mode, b=bridge: mode == "on" and b.buzz(200)))
        say("LEDs: each lights in turn; press every button once (Ctrl-C to stop)")
        deadline = None if seconds is None else time.monotonic() + seconds
        first = True
        while not stop.is_set():
            for name, set_mode in leds:
                if first:
                    say(f"lit: {name}")
                set_mode("on")
                if stop.wait(blink_s) or _past(deadline):
                    set_mode("off")
                    return 0
                set_mode("off")
            first = False
            if not leds and stop.wait(0.2):
                return 0
            if _past(deadline):
                return 0
        return 0
    finally:
        for close in reversed(closers):
            close()


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() >= deadline


def _setter(lights: Any, seat: int) -> Any:
    return lambda mode: lights.set(seat, mode)


def _pins(pins: Any) -> list[int]:
    from engine.presses import SEAT_BUTTONS

    out = [pins.button_pin(s, b) for s in range(4) for b in SEAT_BUTTONS]
    return out + ([pins.dice] if pins.dice is not None else [])


def _name(p: Any) -> str:
    if p.seat is None:
        return "the dice button"
    return f"seat {p.seat} {p.button}{' (held)' if p.held else ''}"
