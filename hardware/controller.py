"""Buttons to the table and the table to the lights: the adapter between the inputs (GPIO
buttons, the serial panel) and :class:`~table_app.service.TableService`.

A press goes to the service as it is (``{"type": "press", …}``); the service turns it into
events with the engine's one button mapping, in its own thread, against the state the
events will change — so no press races another input. The controller keeps no mapping of
its own. After every notice the seat LEDs follow the table (:func:`table_app.seat_view.led_modes`:
the seat to move or to roll lit, the seats that may still answer a claim blinking); a beep
when the engine says claims opened; a refused press, from whatever input, flashes that
seat's LED and beeps.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Protocol

from engine.presses import Press
from table_app.seat_view import led_modes

if TYPE_CHECKING:
    from table_app.service import Answer, Notice, TableService

log = logging.getLogger(__name__)


class Lights(Protocol):
    def set(self, seat: int, mode: str) -> None: ...

    def error(self, seat: int | None) -> None: ...

    def beep(self, seconds: float = 0.15) -> None: ...


class TableController:
    def __init__(self, service: TableService, *, timeout: float = 30.0) -> None:
        self.service = service
        self.timeout = timeout
        self.lights: list[Lights] = []
        self._lock = threading.Lock()
        self._modes = led_modes(service.public)
        self._unsubscribe = service.subscribe(self._on_notice)

    def add_lights(self, lights: Lights) -> None:
        self.lights.append(lights)
        for seat, mode in enumerate(self._modes):
            lights.set(seat, mode)

    def close(self) -> None:
        self._unsubscribe()

    def press(self, press: Press, source: str = "buttons") -> Answer:
        """Send one press to the table and wait for its answer (after the durable commit)."""
        answer = self.service.call(press.to_json(), source=source, timeout=self.timeout)
        if not answer.ok:
            log.info("the table refused %s from %s: %s", press.label(), source, answer.error)
        return answer

    def _on_notice(self, notice: Notice) -> None:
        if notice.kind == "refused":
            seat = (notice.press or {}).get("seat")
            self._each(lambda lights: lights.error(seat if isinstance(seat, int) else None))
            return
        if not notice.changed:
            return
        with self._lock:
            old, self._modes = self._modes, led_modes(notice.state)
            new = self._modes
        opened = any(e.what == "claims_open" for e in notice.effects)

        def show(lights: Lights) -> None:
            for seat, mode in enumerate(new):
                if mode != old[seat]:
                    lights.set(seat, mode)
            if opened:
                lights.beep()

        self._each(show)

    def _each(self, fn: object) -> None:
        for lights in list(self.lights):
            try:
                fn(lights)  # type: ignore[operator]
            except Exception:
                log.exception("updating %r failed", lights)
