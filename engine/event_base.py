"""The base of every event (``engine.events``, ``engine.scored``): a frozen value with its JSON ``type``.

Kept apart so that the event modules import it, not each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class Event:
    """Base of all events; ``TYPE`` is the JSON ``type``."""

    TYPE: ClassVar[str] = ""

    def to_json(self) -> dict[str, object]:
        raise NotImplementedError

    def check_new(self) -> None:
        """What a new event must pass beyond what a journaled one did (:func:`engine.table.apply`
        asks, a replay does not): rules added after journals already held events — an old
        journal is read as it was written (issue 26: names with control characters)."""

    @property
    def seat_of(self) -> int | None:
        """The seat that acts, if the event has one."""
        seat = getattr(self, "seat", None)
        return seat if isinstance(seat, int) else None
