"""Which events are in effect: a journal's records (events, undos, redos) folded into the events
in effect and the undone ones that redo can bring back, in order (docs/journal.md). An undo goes
back to the state after one event; a redo re-applies the next undone event; a new event empties
the redo list.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from table_app.journal.file import JournalError

__all__ = ["Timeline", "timeline"]


@dataclass
class Timeline:
    """The events in effect and the undone ones that redo can bring back (both by seq, in order)."""

    active: list[int]
    redo: list[int]
    last_seq: int = 0

    def apply_record(self, seq: int, kind: str, target: int | None) -> None:
        if kind == "event":
            self.active.append(seq)
            self.redo.clear()
        elif kind == "undo":
            assert target is not None
            cut = self.cut_index(target)
            self.redo[:0] = self.active[cut:]
            del self.active[cut:]
        elif kind == "redo":
            if not self.redo or self.redo[0] != target:
                raise JournalError(f"redo record {seq} re-applies event {target}, which is not the next undone event")
            self.active.append(self.redo.pop(0))
        self.last_seq = seq

    def cut_index(self, target: int) -> int:
        """Where the active list is cut to go back to the state after event ``target``."""
        if target == 0:
            return 0
        i = bisect.bisect_left(self.active, target)
        if i == len(self.active) or self.active[i] != target:
            raise JournalError(f"event {target} is not in effect")
        return i + 1


def timeline(rows: Sequence[tuple[int, str, int | None]]) -> Timeline:
    """Fold ``(seq, kind, target)`` records into the events in effect and the redo list.

    >>> t = timeline([(1, "event", None), (2, "event", None), (3, "event", None), (4, "undo", 1)])
    >>> t.active, t.redo
    ([1], [2, 3])
    >>> t.apply_record(5, "redo", 2); (t.active, t.redo)
    ([1, 2], [3])
    >>> t.apply_record(6, "event", None); (t.active, t.redo)
    ([1, 2, 6], [])
    """
    t = Timeline([], [])
    for seq, kind, target in rows:
        t.apply_record(seq, kind, target)
    return t
