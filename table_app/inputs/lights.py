"""The seat lights follow the table: :class:`LightsAdapter` turns the service's notices into
modes for every :class:`Lights` attached (GPIO LEDs, the serial panel's LEDs and buzzer).

After every change the modes come from :func:`table_app.present.seat.led_modes` (the engine's
``actions``: ``on`` for the seat to move or to roll, ``blink`` for the seats that may still
answer a claim, else ``off``) and only the seats whose mode changed are told; a beep when
the engine says claims opened; a refused press, from whatever input, flashes that seat's
light and beeps. It runs in the service thread, as every observer does.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from table_app.present.seat import led_modes

if TYPE_CHECKING:
    from table_app.core.notices import Notice
    from table_app.core.service import TableService

log = logging.getLogger(__name__)


class Lights(Protocol):
    """What a device with seat lights offers (``hardware.devices.SeatLights``,
    ``firmware_bridge.bridge.PanelBridge``)."""

    def set(self, seat: int, mode: str) -> None:
        """Show ``mode`` on the seat's light: ``on``, ``off`` or ``blink``."""

    def error(self, seat: int | None) -> None:
        """A refused press: flash that seat's light (None: no seat, the dice button) and beep."""

    def beep(self, seconds: float = 0.15) -> None:
        """One beep (claims opened)."""


class LightsAdapter:
    def __init__(self, service: TableService) -> None:
        self.lights: list[Lights] = []
        self._lock = threading.Lock()
        self._modes = led_modes(service.public)
        self._unsubscribe = service.subscribe(self._on_notice)

    def add(self, lights: Lights) -> None:
        """Attach a device's lights; they show the table's modes at once."""
        with self._lock:
            self.lights.append(lights)
            modes = list(self._modes)
        for seat, mode in enumerate(modes):
            lights.set(seat, mode)

    def close(self) -> None:
        self._unsubscribe()

    def _on_notice(self, notice: Notice) -> None:
        if notice.kind == "refused":
            seat = None if notice.press is None else notice.press.seat
            self._each(lambda lights: lights.error(seat))
            return
        if not notice.changed:
            return
        with self._lock:
            old, self._modes = self._modes, led_modes(notice.state)
            new = self._modes
        opened = notice.has("claims_open")

        def show(lights: Lights) -> None:
            for seat, mode in enumerate(new):
                if mode != old[seat]:
                    lights.set(seat, mode)
            if opened:
                lights.beep()

        self._each(show)

    def _each(self, fn: Callable[[Lights], None]) -> None:
        with self._lock:
            every = list(self.lights)
        for lights in every:
            try:
                fn(lights)
            except Exception:  # one broken device must not keep the others dark
                log.exception("updating %r failed", lights)
