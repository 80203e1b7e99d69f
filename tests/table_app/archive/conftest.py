"""Real journals for the archive's tests: sessions played through the table service (with the
roster, undo and redo) or written by the simulator as the bench writes them."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from engine import replay
from engine.public import PublicState, public_state
from table_app.bench.service import scripted_session
from table_app.core.roster import Roster
from table_app.core.service import TableService
from table_app.journal.journal import Journal
from table_app.journal.timeline import timeline

Event = dict[str, object]


class Table:
    """A journal with the service (and the roster) writing it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.journal = Journal.open(path)
        self.roster = Roster.open(path)
        self.service = TableService(self.journal, claim_window_s=0, roster=self.roster).start()

    def play(self, events: Sequence[Event]) -> int:
        seq = 0
        for e in events:
            answer = self.service.call(e)
            assert answer.ok, (e, answer.error)
            seq = answer.seq or seq
        return seq

    def undo(self, to: int) -> None:
        assert self.service.call({"type": "undo", "to": to}).ok

    def redo(self) -> None:
        assert self.service.call({"type": "redo"}).ok

    def close(self) -> None:
        self.service.stop()
        self.roster.close()
        self.journal.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path / "journal.sqlite3")
    yield t
    t.close()


PLAYERS = ("阿明", "阿华", "阿强", "阿芳")


def evening(hands: int, seed: int, players: Sequence[str] = PLAYERS, end: bool = True) -> list[Event]:
    return scripted_session(hands, seed=seed, players=list(players), end=end)


def in_effect(path: Path) -> list[tuple[int, int | None, Event]]:
    """``(seq, session, event)`` of the events in effect, read with plain SQL and the journal's own fold."""
    con = sqlite3.connect(path)
    try:
        t = timeline(con.execute("SELECT seq, kind, target FROM records ORDER BY seq").fetchall())
        rows = {seq: (session, json.loads(text)) for seq, session, text in
                con.execute("SELECT seq, session, event FROM records WHERE kind = 'event'")}
    finally:
        con.close()
    return [(seq, *rows[seq]) for seq in t.active]


def state_after(path: Path, seq: int) -> PublicState:
    """The engine's public state after record ``seq``: the events in effect up to it, from the
    last ``new_session`` among them."""
    events = [e for s, _, e in in_effect(path) if s <= seq]
    start = max(i for i, e in enumerate(events) if e["type"] == "new_session")
    return public_state(replay(events[start:]))
