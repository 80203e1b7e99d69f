"""Which events are in effect, folded from the journal's undo and redo records alone.

The same fold as ``table_app.journal.journal.timeline`` but over ranges of seqs, so that a journal
of a million events costs as much as its marks (the ``marks`` index): the events between
two marks are one range.

>>> t = Ranges.fold([(4, "undo", 1), (5, "redo", 2)], last=7)
>>> [s for s in range(1, 8) if t.in_effect(s)]
[1, 2, 6, 7]
>>> t.undone_between(1, 7)
[3]
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable


class Ranges:
    """The events in effect as sorted, disjoint ``[lo, hi]`` ranges; the redo list likewise."""

    def __init__(self) -> None:
        self.active: list[list[int]] = []
        self.redo: list[list[int]] = []
        self.marks: set[int] = set()  # the undo and redo records (no events)

    @classmethod
    def fold(cls, marks: Iterable[tuple[int, str, int | None]], last: int) -> Ranges:
        """``marks``: the ``(seq, kind, target)`` of every undo and redo record in order; ``last``:
        the journal's last seq."""
        t = cls()
        prev = 0
        for seq, kind, target in [*marks, (last + 1, "", None)]:
            if seq > prev + 1:
                t._events(prev + 1, seq - 1)
            if kind == "undo":
                t._undo(target or 0)
            elif kind == "redo" and target is not None:
                t._redo(target)
            if kind:
                t.marks.add(seq)
            prev = seq
        return t

    def _events(self, lo: int, hi: int) -> None:
        self.redo.clear()
        self._append(lo, hi)

    def _append(self, lo: int, hi: int) -> None:
        if self.active and self.active[-1][1] == lo - 1:
            self.active[-1][1] = hi
        else:
            self.active.append([lo, hi])

    def _undo(self, target: int) -> None:
        moved: list[list[int]] = []
        while self.active and self.active[-1][1] > target:
            lo, hi = self.active.pop()
            if lo <= target:
                self.active.append([lo, target])
                lo = target + 1
            moved.insert(0, [lo, hi])
        self.redo[:0] = moved
        self._merge_redo()

    def _merge_redo(self) -> None:
        merged: list[list[int]] = []
        for lo, hi in self.redo:
            if merged and merged[-1][1] == lo - 1:
                merged[-1][1] = hi
            else:
                merged.append([lo, hi])
        self.redo = merged

    def _redo(self, target: int) -> None:
        if not self.redo or self.redo[0][0] != target:
            return  # (the journal's checks refuse such a file; nothing to re-apply here)
        first = self.redo[0]
        if first[0] == first[1]:
            self.redo.pop(0)
        else:
            first[0] += 1
        self._append(target, target)

    def in_effect(self, seq: int) -> bool:
        i = bisect.bisect_right(self.active, [seq, float("inf")]) - 1
        return i >= 0 and self.active[i][0] <= seq <= self.active[i][1]

    def last_active(self) -> int:
        return self.active[-1][1] if self.active else 0

    def undone_between(self, lo: int, hi: int) -> list[int]:
        """The event records in ``lo`` … ``hi`` that are not in effect (the marks left out)."""
        return [s for s in range(lo, hi + 1) if s not in self.marks and not self.in_effect(s)]

    def spans(self, lo: int, hi: int) -> list[tuple[int, int]]:
        """The ranges of events in effect within ``lo`` … ``hi``."""
        out = []
        for a, b in self.active:
            if b < lo or a > hi:
                continue
            out.append((max(a, lo), min(b, hi)))
        return out
