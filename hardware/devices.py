"""gpiozero devices for a table wired straight to the Pi: seat buttons, the dice button, seat
LEDs and the buzzer. Every class takes ``pin_factory`` (tests pass gpiozero's own
``MockFactory``); nothing here knows the rules.

Button edges feed a pure :class:`~hardware.debounce.Debouncer` each; :meth:`GpioButtons.poll`
turns what has settled into :class:`~engine.presses.Press` values, and
:meth:`GpioButtons.start` runs a small ticker thread that polls and hands presses on. That
thread is the debouncer's clock: ``on_press`` must return at once (``table_app.inputs`` only
queues the press), since a press and release made while it is held up are never seen.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from gpiozero import LED, Button, Buzzer

from engine.presses import SEAT_BUTTONS, Press
from engine.seats import SEATS
from hardware.debounce import DEBOUNCE_S, LONG_S, Debouncer
from hardware.pins import PinMap

log = logging.getLogger(__name__)

POLL_S = 0.005


class GpioButtons:
    """The 20 seat buttons and the dice button, active low with the Pi's pull-ups."""

    def __init__(self, pins: PinMap, *, pin_factory: Any = None, clock: Callable[[], float] = time.monotonic,
                 debounce_s: float = DEBOUNCE_S, long_s: float = LONG_S) -> None:
        self.clock = clock
        self.keys: list[tuple[Press, Debouncer]] = []
        self.devices: list[Button] = []
        try:
            for seat in range(SEATS):
                for name in SEAT_BUTTONS:
                    deb = Debouncer(debounce_s, long_s if name == "TURN" else None)
                    self._add(pins.button_pin(seat, name), Press(seat, name), deb, pin_factory, debounce_s)
            if pins.dice is not None:
                self._add(pins.dice, Press(None, "DICE"), Debouncer(debounce_s), pin_factory, debounce_s)
        except Exception:
            self.close()
            raise
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _add(self, pin: int, press: Press, deb: Debouncer, pin_factory: Any, debounce_s: float) -> None:
        button = Button(pin, pull_up=True, bounce_time=debounce_s, pin_factory=pin_factory)
        button.when_pressed = lambda: deb.edge(True, self.clock())
        button.when_released = lambda: deb.edge(False, self.clock())
        self.devices.append(button)
        self.keys.append((press, deb))

    def poll(self, now: float | None = None) -> list[Press]:
        now = self.clock() if now is None else now
        out = []
        for press, deb in self.keys:
            for kind in deb.poll(now):
                out.append(Press(press.seat, press.button, held=kind == "long"))
        return out

    def start(self, on_press: Callable[[Press], object], poll_s: float = POLL_S,
              heartbeat: Callable[[], None] | None = None) -> GpioButtons:
        """Poll in a thread and hand each press on; ``heartbeat`` (systemd's watchdog) is beaten
        every round. ``on_press`` runs in that thread and must not wait (for a commit, a lock
        held long): the buttons are not read meanwhile."""

        def run() -> None:
            while not self._stop.wait(poll_s):
                if heartbeat is not None:
                    heartbeat()
                for p in self.poll():
                    try:
                        on_press(p)
                    except Exception:
                        log.exception("handling %r failed", p)

        self._thread = threading.Thread(target=run, name="gpio-buttons", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        if getattr(self, "_thread", None) is not None:
            self._stop.set()
            self._thread.join(2)  # type: ignore[union-attr]
            self._thread = None
        # each Button's hold thread takes up to 0.1 s to stop: stop them side by side
        if self.devices:
            with ThreadPoolExecutor(max_workers=len(self.devices)) as pool:
                list(pool.map(lambda d: d.close(), self.devices))
        self.devices = []


class SeatLights:
    """A "your turn" LED per seat (off / on / blink), an error flash, and the optional buzzer."""

    def __init__(self, pins: PinMap, *, pin_factory: Any = None) -> None:
        self.leds: dict[int, LED] = {}
        self.buzzer: Buzzer | None = None
        try:
            for seat, pin in enumerate(pins.leds):
                if pin is not None:
                    self.leds[seat] = LED(pin, pin_factory=pin_factory)
            if pins.buzzer is not None:
                self.buzzer = Buzzer(pins.buzzer, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise
        self.modes: dict[int, str] = {seat: "off" for seat in self.leds}
        self._timers: list[threading.Timer] = []

    def set(self, seat: int, mode: str) -> None:
        led = self.leds.get(seat)
        self.modes[seat] = mode
        if led is None:
            return
        if mode == "on":
            led.on()
        elif mode == "blink":
            led.blink(on_time=0.25, off_time=0.25)
        else:
            led.off()

    def error(self, seat: int | None) -> None:
        """A press that made no sense: flash that seat's LED, beep twice; then back as it was."""
        led = self.leds.get(seat) if seat is not None else None
        if seat is not None and led is not None:
            led.blink(on_time=0.08, off_time=0.08, n=6, background=True)
            at, mode = seat, self.modes.get(seat, "off")
            timer = threading.Timer(1.0, lambda: self.set(at, self.modes.get(at, mode)))
            timer.daemon = True
            self._timers = [t for t in self._timers if t.is_alive()] + [timer]
            timer.start()
        if self.buzzer is not None:
            self.buzzer.beep(on_time=0.08, off_time=0.08, n=2, background=True)

    def beep(self, seconds: float = 0.15) -> None:
        if self.buzzer is not None:
            self.buzzer.beep(on_time=seconds, off_time=0.05, n=1, background=True)

    def close(self) -> None:
        for t in getattr(self, "_timers", []):
            t.cancel()
        for led in self.leds.values():
            led.close()
        if self.buzzer is not None:
            self.buzzer.close()
