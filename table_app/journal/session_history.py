"""The session's history as the journal keeps it: the events in effect since the session
started (with where each came from) and the undone ones that redo can bring back, in order —
read from the journal itself (its ``Timeline``), never kept a second time by a front end.

>>> import tempfile, pathlib
>>> from table_app.journal.journal import Journal
>>> with tempfile.TemporaryDirectory() as d, Journal.open(pathlib.Path(d) / "j.sqlite3") as j:
...     _ = j.append_event({"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}, None,
...                        new_session=True, source="touch")
...     _ = j.append_event({"type": "seating", "method": "C", "east": 0}, 1, source="touch")
...     _ = j.append_undo(1, 1, source="touch")
...     now = SessionHistory(j).read()
>>> [(e.seq, e.event.TYPE, e.source) for e in now.in_effect], [e.event.TYPE for e in now.redo]
([(1, 'new_session', 'touch')], ['seating'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.event_base import Event
from engine.events import parse_event
from table_app.journal.journal import Journal

KEPT: Final = 2000  # the newest events in effect a history shows (and can take back to)


@dataclass(frozen=True)
class Entry:
    seq: int
    event: Event
    source: str


@dataclass(frozen=True)
class History:
    in_effect: list[Entry]  # this session's events in effect, oldest first (at most KEPT)
    redo: list[Entry]  # the undone events redo brings back, the next first
    before: int = 0  # the event in effect before this session's start (0: none), where undoing the session goes

    def has(self, event_type: str) -> bool:
        return any(event_type == e.event.TYPE for e in self.in_effect)


class SessionHistory:
    """Reads the history over a read-only connection of its own (the touchscreen's thread
    reads while the service writes). ``KEPT`` bounds what one read takes."""

    def __init__(self, journal: Journal, kept: int = KEPT) -> None:
        self._journal = journal.reader()
        self.kept = kept

    def read(self) -> History:
        with self._journal.read_snapshot():  # (the service writes meanwhile: one consistent view)
            return self._read()

    def _read(self) -> History:
        j = self._journal
        timeline = j.timeline()
        starts = {first for _, first, _, _ in j.sessions()}
        active = timeline.active
        begin = max((i for i, seq in enumerate(active) if seq in starts), default=0)
        seqs = active[begin:][-self.kept:]
        redo = timeline.redo[:1]  # (only the next one is offered)
        return History(self._entries(seqs), self._entries(redo), active[begin - 1] if begin > 0 else 0)

    def _entries(self, seqs: Sequence[int]) -> list[Entry]:
        events = self._journal.events(seqs)
        sources = self._journal.sources(seqs)
        return [Entry(seq, parse_event(ev), sources.get(seq, "")) for seq, ev in zip(seqs, events, strict=True)]

    def close(self) -> None:
        self._journal.close()
