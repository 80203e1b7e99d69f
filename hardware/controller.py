"""Buttons to the table and the table to the lights: the adapter between the inputs (GPIO
buttons, the serial panel) and :class:`~table_app.service.TableService`.

A press becomes a command with :func:`~hardware.commands.command_for` on the service's
latest public state; a refusal, or a command the engine refuses, flashes that seat's LED
and beeps, and nothing changes. After every change the seat LEDs follow the table: the
seat to move (or to roll) lit, the seats that may still claim blinking, a beep when the
claim window opens.

Undo by a held TURN needs "that seat made the last event": the controller remembers the
seat of the last event it was told about (none at start-up and after an undo, so such an
undo is then done on the touchscreen). The check and the undo are two steps: another
input's event landing between them in the same millisecond would be the one undone.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from hardware.commands import DICE, Press, Refusal, command_for, event_seat, fair_dice

log = logging.getLogger(__name__)


class Lights(Protocol):
    def set(self, seat: int, mode: str) -> None: ...

    def error(self, seat: int | None) -> None: ...

    def beep(self, seconds: float = 0.15) -> None: ...


def seat_modes(public: Mapping[str, Any]) -> list[str]:
    """What each seat's LED shows for a public state."""
    modes = ["off"] * 4
    phase = public.get("phase")
    if phase == "turn" and isinstance(public.get("turn"), int):
        modes[public["turn"]] = "on"
    elif phase == "claims" and public.get("claims"):
        for s in public["claims"].get("waiting", []):
            modes[s] = "blink"
    elif phase in ("betting", "rolling") and isinstance(public.get("dealer"), int):
        dealer = public["dealer"]
        first = (public.get("dice") or {}).get("dealer")
        roller = dealer if not first else (dealer + sum(first) - 1) % 4
        modes[roller] = "on"
    return modes


class TableController:
    def __init__(self, service: Any, *, dice: Callable[[], list[int]] = fair_dice, timeout: float = 30.0,
                 on_seating_dice: Callable[[list[int]], None] | None = None) -> None:
        self.service = service
        self.dice = dice
        self.timeout = timeout
        # Seating takes its dice on a screen form (who rolled, which method), not as an event of
        # their own: a front end that has that form hears the dice button's roll here.
        self.on_seating_dice = on_seating_dice
        self.lights: list[Lights] = []
        self.last_event_seat: int | None = None
        self._lock = threading.Lock()
        self._modes = seat_modes(service.public)
        self._unsubscribe = service.subscribe(self._on_notice)

    def add_lights(self, lights: Lights) -> None:
        self.lights.append(lights)
        for seat, mode in enumerate(self._modes):
            lights.set(seat, mode)

    def close(self) -> None:
        self._unsubscribe()

    def press(self, press: Press, source: str = "buttons", dice: list[int] | None = None) -> Any:
        """Handle one press; returns the service's answer or the :class:`Refusal` (or, for the
        dice button during seating with ``on_seating_dice`` set, the dice it passed on).

        ``dice``: the values an electronic dice already showed (the panel's); else the
        controller rolls with ``secrets``.
        """
        roll = self.dice if dice is None else (lambda: list(dice))
        if press.button == DICE and self.on_seating_dice is not None and self.service.public.get("phase") == "seating":
            values = roll()
            self.on_seating_dice(values)
            return values
        cmd = command_for(press, self.service.public, last_event_seat=self.last_event_seat, dice=roll)
        if isinstance(cmd, Refusal):
            log.info("refused %s: %s", press, cmd.reason)
            self._error(press.seat)
            return cmd
        answer = self.service.call(cmd, source=source, timeout=self.timeout)
        if not answer.ok:
            log.info("the table refused %s from %s: %s", cmd, press, answer.error)
            self._error(press.seat)
        return answer

    def _error(self, seat: int | None) -> None:
        for lights in list(self.lights):
            try:
                lights.error(seat)
            except Exception:
                log.exception("showing an error on %r failed", lights)

    def _on_notice(self, notice: Any) -> None:
        with self._lock:
            if notice.kind in ("event", "redo"):
                self.last_event_seat = event_seat(notice.event)
            else:
                self.last_event_seat = None
            old, self._modes = self._modes, seat_modes(notice.state)
            opened = notice.state.get("phase") == "claims" and "blink" not in old
        for lights in list(self.lights):
            try:
                for seat, mode in enumerate(self._modes):
                    if mode != old[seat]:
                        lights.set(seat, mode)
                if opened:
                    lights.beep()
            except Exception:
                log.exception("updating %r failed", lights)
