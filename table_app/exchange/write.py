"""``xian-table export --format mjai``: the journal's sessions in effect as mjai records, streamed.

The file is a header (``xian_header``: the format, its version, the public state's schema,
the sessions), each session's records (:class:`~table_app.exchange.mjai.MjaiSession`), and a
footer (``xian_footer``: how many records and events, how many undone events were left
out) so that a file cut short is never taken for a shorter evening.

Undone events are left out: what is exported is the events in effect, which is what the
table's state is made of (the footer counts the ones left out). A session whose
``new_session`` was undone is not exported.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.state import SCHEMA
from table_app.exchange.mjai import FORMAT, VERSION, MjaiSession, Record

if TYPE_CHECKING:
    from table_app.journal.journal import Journal

__all__ = ["Plan", "mjai_records", "plan"]


@dataclass
class Plan:
    """Which sessions are exported: their ids (as ``xian-table history`` numbers them) by first seq."""

    by_first: dict[int, int]
    active: set[int]
    undone_sessions: list[int] = field(default_factory=list)


def plan(journal: Journal) -> Plan:
    """The sessions in effect (their ``new_session`` not undone) and the events in effect."""
    active = journal.timeline().active
    in_effect = set(active)
    p = Plan({}, in_effect)
    for i, first, _at, _players in journal.sessions():
        if first in in_effect:
            p.by_first[first] = i
        else:
            p.undone_sessions.append(i)
    return p


def mjai_records(journal: Journal, p: Plan, only: int | None = None) -> Iterator[Record]:
    """Every record of the export, header first, footer last (call inside the journal's
    ``read_snapshot`` so that a record the service commits meanwhile is seen by none of it)."""
    sessions = [i for i in p.by_first.values() if only is None or i == only]
    yield {"type": "xian_header", "format": FORMAT, "version": VERSION, "public_state_schema": SCHEMA,
           "events": "xian-table events (docs/design.md §3), in 'xian'", "sessions": sessions}
    records = events = undone = 0
    current: int | None = None
    converter = MjaiSession()
    for r in journal.records():
        if r.kind != "event" or r.event is None:
            continue
        if r.seq not in p.active:
            undone += r.session in sessions
            continue
        if r.seq in p.by_first:
            current = p.by_first[r.seq]
            converter = MjaiSession(current)
        if current is None or (only is not None and current != only):
            continue
        out = converter.feed(r.event, r.at, new=False)
        events += 1
        records += len(out)
        yield from out
    yield {"type": "xian_footer", "records": records + 2, "events": events, "undone_left_out": undone}
