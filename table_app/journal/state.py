"""The table's state from its journal: the events in effect replayed from the newest usable
snapshot (or from their session's start: a ``new_session`` starts over).

>>> import tempfile, pathlib
>>> from table_app.journal.journal import Journal
>>> with tempfile.TemporaryDirectory() as d, Journal.open(pathlib.Path(d) / "j.sqlite3") as j:
...     _ = j.append_event({"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}, None,
...                        new_session=True)
...     state, replayed = state_after(j, j.timeline().active)
>>> state.phase, replayed
('seating', 1)
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from engine import TableState, new_table, push
from table_app.journal.journal import Journal

CHUNK = 5000  # events read from the journal at a time


def state_after(journal: Journal, active: Sequence[int]) -> tuple[TableState, int]:
    """The state after the events ``active`` (seqs in effect, in order) and how many events were
    replayed to make it (the service saves a snapshot when they are many)."""
    start = 0  # index in active of the first event to replay
    starts = {first for _, first, _, _ in journal.sessions()}
    for i in range(len(active) - 1, -1, -1):
        if active[i] in starts:
            start = i  # new_session starts over: nothing before it matters
            break
    state = new_table()
    snap = journal.latest_snapshot(active, after=active[start] - 1 if active else 0)
    if snap is not None:
        seq, data = snap
        state = TableState.from_json(data)
        start = bisect.bisect_left(active, seq) + 1
    todo = active[start:]
    for i in range(0, len(todo), CHUNK):
        for ev in journal.events(todo[i:i + CHUNK]):
            push(state, ev)  # the state is this function's own: no copy per event
    return state, len(todo)
