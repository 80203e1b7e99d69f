"""The service's clock: real time, or a clock that moves only when a test says so.

The claim window's deadline is a time of this clock (``Notice.claim_deadline``): every output
asks the same clock how long is left, so nothing re-bases a "seconds left" figure of its own.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...

    def add_listener(self, fn: Callable[[], None]) -> None: ...


class MonotonicClock:
    """Real time (``time.monotonic``)."""

    def now(self) -> float:
        return time.monotonic()

    def add_listener(self, fn: Callable[[], None]) -> None:
        """Real time needs no wake-ups: the service waits with a timeout."""


class ManualClock:
    """A clock that moves only on :meth:`advance`; listeners (the service) are woken then."""

    def __init__(self, start: float = 0.0) -> None:
        self._t = start
        self._lock = threading.Lock()
        self._listeners: list[Callable[[], None]] = []

    def now(self) -> float:
        with self._lock:
            return self._t

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._t += seconds
            listeners = list(self._listeners)
        for fn in listeners:
            fn()

    def add_listener(self, fn: Callable[[], None]) -> None:
        with self._lock:
            self._listeners.append(fn)


def seconds_left(deadline: float | None, clock: Clock) -> float | None:
    """Seconds until ``deadline`` (a time of ``clock``), never below 0; None for no deadline.

    >>> seconds_left(12.5, ManualClock(10.0)), seconds_left(5.0, ManualClock(10.0)), seconds_left(None, ManualClock())
    (2.5, 0.0, None)
    """
    return None if deadline is None else max(0.0, deadline - clock.now())
