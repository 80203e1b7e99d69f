"""The service's one queue, in lanes (docs/design.md §1): what waits for the service thread, and
in which order.

A clock wake-up goes first, then the table's own inputs (its buttons, the panel, the touchscreen,
stdin), then remote commands (MQTT, phones), and the stop behind everything already queued;
first in, first out within a lane. At most ``remote_limit`` remote commands wait: beyond that a
remote command is answered ``busy`` at once, so a flood from the network never makes the
players' buttons wait. Once stopped, a command is answered ``stopped`` and never queued.

>>> lanes = Lanes(remote_limit=1)
>>> a, b, c = (Item({"n": n}, "", Future(), remote=n != 2) for n in (0, 1, 2))
>>> lanes.admit(a), lanes.admit(b).code, lanes.admit(c)
(None, 'service.busy', None)
>>> [lanes.take(0).command for _ in range(2)], lanes.busy_refusals
([{'n': 2}, {'n': 0}], 1)
"""

from __future__ import annotations

import itertools
import queue
import threading
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Final

from table_app.core.notices import Answer

__all__ = ["REMOTE_LIMIT", "STOP", "WAKE", "Item", "Lanes"]

REMOTE_LIMIT: Final = 32  # remote commands that may wait; the next is answered "busy" at once

# the lanes' priorities: a clock wake-up first, then the table's own inputs, then remote
# commands, and the stop behind everything already queued
_P_WAKE, _P_LOCAL, _P_REMOTE, _P_STOP = 0, 1, 2, 3

WAKE: Final = object()  # the clock moved: look at the claim window again
STOP: Final = object()  # the service stops once everything before it is done


@dataclass
class Item:
    """A command waiting, with its source and the future its sender holds."""

    command: object
    source: str
    future: Future[Answer]
    remote: bool = False


class Lanes:
    """The queue in lanes, thread-safe: any thread admits, the service thread takes."""

    def __init__(self, remote_limit: int = REMOTE_LIMIT) -> None:
        self.remote_limit = remote_limit
        self.busy_refusals = 0  # remote commands answered busy (for the benchmark and the tests)
        self._queue: queue.PriorityQueue[tuple[int, int, Item | object]] = queue.PriorityQueue()
        self._order = itertools.count()  # first in, first out within a lane
        self._lock = threading.Lock()
        self._remote_waiting = 0  # remote commands queued, not yet taken (under _lock)
        self._stopped = False

    def admit(self, item: Item) -> Answer | None:
        """Queue ``item`` in its lane; None, or the answer that refuses it at once (stopped,
        or too many remote commands already wait)."""
        with self._lock:
            if self._stopped:
                return Answer(False, error="the table service has stopped", code="service.stopped")
            if item.remote and self._remote_waiting >= self.remote_limit:
                self.busy_refusals += 1
                return Answer(False, error=f"the table is busy ({self._remote_waiting} remote commands "
                                           "wait): send it again in a moment", code="service.busy")
            if item.remote:
                self._remote_waiting += 1
            self._put(_P_REMOTE if item.remote else _P_LOCAL, item)
        return None

    def wake(self) -> None:
        """Queue a wake-up before every command (the clock moved)."""
        self._put(_P_WAKE, WAKE)

    def stop(self) -> None:
        """Queue the stop behind everything already queued; nothing is admitted after it."""
        with self._lock:  # nothing can be queued behind STOP and then never answered
            self._stopped = True
            self._put(_P_STOP, STOP)

    def take(self, timeout: float | None) -> Item | object:
        """The next queued item, an :class:`Item`, :data:`WAKE` or :data:`STOP`
        (``queue.Empty`` when none comes within ``timeout``)."""
        _, _, item = self._queue.get(timeout=timeout)
        if isinstance(item, Item) and item.remote:
            with self._lock:
                self._remote_waiting -= 1
        return item

    def _put(self, priority: int, item: Item | object) -> None:
        self._queue.put((priority, next(self._order), item))

    @property
    def queued(self) -> int:
        """Everything waiting."""
        return self._queue.qsize()

    @property
    def remote_waiting(self) -> int:
        """Remote commands waiting."""
        return self._remote_waiting
