"""A pure debouncer with an injectable clock: edges in, presses out.

A contact's state counts as changed only once its raw level has held still for
``debounce_s`` after its last edge, so a burst of bounces gives exactly one press (and its
release no second one). ``poll(now)`` settles what has held still long enough; call it
from a ticker (about every 5 ms) or before reading. With ``long_s`` set (the TURN button),
the key reports ``"long"`` once it has been held that long and ``"press"`` on a shorter
release; without it, ``"press"`` as soon as the press has settled.

gpiozero's ``MockFactory`` ignores ``bounce_time``, so this is what makes the tests exact;
on real pins gpiozero also gets ``bounce_time``.

>>> d = Debouncer(debounce_s=0.02)
>>> for t, level in [(0.000, True), (0.001, False), (0.002, True), (0.004, False), (0.005, True)]:
...     d.edge(level, t)
>>> d.poll(0.020), d.poll(0.025), d.poll(0.5)
([], ['press'], [])
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

DEBOUNCE_S = 0.02
LONG_S = 1.0


@dataclass
class Debouncer:
    debounce_s: float = DEBOUNCE_S
    long_s: float | None = None
    raw: bool = False
    stable: bool = False
    last_edge: float = float("-inf")
    pressed_at: float | None = None  # when the current press settled (None: up, or long reported)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def edge(self, level: bool, now: float) -> None:
        """The contact's level changed (or was read): True = closed."""
        with self._lock:
            if level != self.raw:
                self.raw = level
                self.last_edge = now

    def poll(self, now: float) -> list[str]:
        """The presses that have settled by ``now``: [], ["press"] or ["long"]."""
        out: list[str] = []
        with self._lock:
            if self.raw != self.stable and now - self.last_edge >= self.debounce_s - 1e-9:
                self.stable = self.raw
                if self.stable:
                    self.pressed_at = now
                    if self.long_s is None:
                        out.append("press")
                else:
                    if self.long_s is not None and self.pressed_at is not None:
                        out.append("press")
                    self.pressed_at = None
            if (self.long_s is not None and self.stable and self.pressed_at is not None
                    and now - self.pressed_at >= self.long_s - 1e-9):
                out.append("long")
                self.pressed_at = None  # its release is not a short press
        return out
