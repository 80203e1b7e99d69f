"""The archive (issue 29, docs/archive.md): every session and hand the journal keeps, paged;
any hand step by step; players' records and the leaderboard. Read-only over the records:
what it keeps is a summary derived from them (``store.py``), made again when it does not
match them. Kivy-free; every front end reads it and words it with ``present/history_view``.

Thread-safe: one connection of its own to the journal's file, under a lock (the web's threads,
the touchscreen's). The service may write meanwhile (WAL: neither waits for the other but
for the summary's short writes).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import fields
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, TypeVar

from engine import TableState, new_table, push
from table_app.archive.marks import Ranges
from table_app.archive.model import HandSummary, Page, PlayerRecord, RecordRow, SessionSummary, Step
from table_app.archive.records import PERIODS, Names, local_date, period_key, tally
from table_app.archive.replay import Replay
from table_app.archive.store import Stale, Store, checked
from table_app.journal import chain
from table_app.journal import file as journal_file

if TYPE_CHECKING:
    from table_app.core.roster import Roster
    from table_app.journal.journal import Journal

log = logging.getLogger(__name__)
R = TypeVar("R")
MAX_PER_PAGE = 100


def _session(data: dict[str, object]) -> SessionSummary:
    return SessionSummary(**{f.name: data[f.name] for f in fields(SessionSummary) if f.name in data})  # type: ignore[arg-type]


def _hand(data: dict[str, object]) -> HandSummary:
    return HandSummary(**{f.name: data[f.name] for f in fields(HandSummary) if f.name in data})  # type: ignore[arg-type]


class Archive:
    """The archive of the journal (see the module's docstring); ``roster``: players' ids and
    today's names (None: ids as the events carry them, no matching by name)."""

    def __init__(self, journal: Journal, roster: Roster | None = None) -> None:
        self.path = journal.path
        self.roster = roster
        self._lock = threading.Lock()
        self._store = self._open(not journal.readonly)

    def _open(self, writable: bool) -> Store:
        if writable:
            try:
                return Store(journal_file.connect(self.path, "rw"), True)
            except (sqlite3.Error, journal_file.JournalError) as e:
                log.warning("archive: cannot keep a summary in %s (%s); it is made in memory", self.path, e)
        return Store(journal_file.connect(self.path, "ro"), False)

    def close(self) -> None:
        with self._lock:
            self._store.conn.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def rebuilds(self) -> int:
        """How many times the summary was made from all the records (tests, the bench)."""
        return self._store.rebuilds

    def _read(self, fn: Callable[[sqlite3.Connection], R]) -> R:
        """``fn`` over a summary brought up to date, in one read transaction; a row whose seal
        fails makes the summary again, once."""
        with self._lock:
            for attempt in (1, 2):
                self._store.refresh()
                try:
                    with self._store.reading() as c:
                        return fn(c)
                except Stale as e:
                    if attempt == 2:
                        raise
                    log.warning("archive: %s; the summary is made again", e)
                    self._store.drop()
        raise AssertionError("unreachable")

    # -- sessions and hands ------------------------------------------------------------------

    def sessions(self, page: int = 0, per_page: int = 20, player_id: int | None = None) -> Page[SessionSummary]:
        """The sessions in effect, newest first, ``per_page`` (1 … 100) a page; ``player_id``:
        only those that player played."""
        per_page = max(1, min(MAX_PER_PAGE, per_page))
        page = max(0, page)
        where, args = "in_effect = 1", []
        if player_id is not None:
            where += (" AND number IN (SELECT session FROM archive_plays WHERE player_id = ? "
                      "OR (player_id IS NULL AND name = ?))")
            args = [player_id, self._names().by_id.get(player_id, "\x00")]

        def read(c: sqlite3.Connection) -> Page[SessionSummary]:
            total = int(c.execute(f"SELECT count(*) FROM archive_sessions WHERE {where}", args).fetchone()[0])
            rows = c.execute(f"SELECT number, data, seal FROM archive_sessions WHERE {where} "
                             "ORDER BY number DESC LIMIT ? OFFSET ?", [*args, per_page, page * per_page]).fetchall()
            items = [_session(checked("archive_sessions", str(n), d, s)) for n, d, s in rows]
            return Page(items, page, max(1, -(-total // per_page)), total)

        return self._read(read)

    def session(self, number: int) -> SessionSummary:
        """Session ``number`` (KeyError if the journal has none so numbered)."""
        def read(c: sqlite3.Connection) -> SessionSummary:
            row = c.execute("SELECT data, seal FROM archive_sessions WHERE number = ?", (number,)).fetchone()
            if row is None:
                raise KeyError(number)
            return _session(checked("archive_sessions", str(number), row[0], row[1]))

        return self._read(read)

    def hands(self, number: int) -> list[HandSummary]:
        """Session ``number``'s hands in order (the one being played last, ``unfinished``)."""
        def read(c: sqlite3.Connection) -> list[HandSummary]:
            rows = c.execute("SELECT hand, data, seal FROM archive_hands WHERE session = ? ORDER BY hand",
                             (number,)).fetchall()
            return [_hand(checked("archive_hands", f"{number}:{h}", d, s)) for h, d, s in rows]

        return self._read(read)

    # -- a hand step by step -------------------------------------------------------------------

    def replay(self, number: int, hand: int) -> Replay:
        """Hand ``hand`` of session ``number`` step by step (KeyError if there is none)."""
        def read(c: sqlite3.Connection) -> Replay:
            row = c.execute("SELECT data, seal FROM archive_hands WHERE session = ? AND hand = ?",
                            (number, hand)).fetchone()
            srow = c.execute("SELECT data, seal FROM archive_sessions WHERE number = ?", (number,)).fetchone()
            if row is None or srow is None:
                raise KeyError((number, hand))
            h = _hand(checked("archive_hands", f"{number}:{hand}", row[0], row[1]))
            s = _session(checked("archive_sessions", str(number), srow[0], srow[1]))
            last = int(c.execute("SELECT coalesce(max(seq), 0) FROM records").fetchone()[0])
            ranges = Ranges.fold(c.execute("SELECT seq, kind, target FROM records WHERE kind != 'event' "
                                           "ORDER BY seq"), last)
            steps = [Step(seq, json.loads(ev), src, not ranges.in_effect(seq)) for seq, ev, src in c.execute(
                "SELECT seq, event, source FROM records WHERE seq BETWEEN ? AND ? AND kind = 'event' AND session = ? "
                "ORDER BY seq", (h.first_seq, h.last_seq, number))]
            start = new_table() if h.first_seq == s.first_seq else self._state_before(c, ranges, s, h.first_seq)
            return Replay(number, hand, steps, start)

        return self._read(read)

    @staticmethod
    def _state_before(c: sqlite3.Connection, ranges: Ranges, s: SessionSummary, seq: int) -> TableState:
        """The engine's state just before record ``seq`` of session ``s``: from the journal's
        newest sound snapshot in the session (else its start), then its events in effect."""
        state, begin = new_table(), s.first_seq
        for snap, text, sealed, record_hash in c.execute(
                "SELECT s.seq, s.state, s.hash, r.hash FROM snapshots s JOIN records r ON r.seq = s.seq "
                "WHERE s.seq BETWEEN ? AND ? ORDER BY s.seq DESC", (s.first_seq, seq - 1)):
            if ranges.in_effect(snap) and isinstance(text, str) and record_hash is not None \
                    and sealed == chain.snapshot_seal(bytes(record_hash), text):
                state, begin = TableState.from_json(json.loads(text)), snap + 1
                break
        for lo, hi in ranges.spans(begin, seq - 1):
            for (text,) in c.execute("SELECT event FROM records WHERE seq BETWEEN ? AND ? AND kind = 'event' "
                                     "ORDER BY seq", (lo, hi)):
                push(state, json.loads(text))
        return state

    # -- records --------------------------------------------------------------------------------

    def _names(self) -> Names:
        return Names.of((p.id, p.name) for p in self.roster.players()) if self.roster is not None else Names()

    def _summaries(self, c: sqlite3.Connection, where: str, args: Sequence[object]) -> list[dict[str, object]]:
        rows = c.execute(f"SELECT number, data, seal FROM archive_sessions WHERE in_effect = 1 {where} "
                         "ORDER BY number", args).fetchall()
        return [checked("archive_sessions", str(n), d, s) for n, d, s in rows]

    def record(self, player_id: int, period: str | None = None) -> PlayerRecord:
        """Player ``player_id``'s record: all time (period None), else by day, week or month,
        the newest first."""
        if period is not None and period not in PERIODS:
            raise ValueError(f"period must be one of {', '.join(PERIODS)} or None, got {period!r}")
        names = self._names()
        name = names.by_id.get(player_id, "")
        where = ("AND number IN (SELECT session FROM archive_plays WHERE player_id = ? "
                 "OR (player_id IS NULL AND name = ?))")
        sessions = self._read(lambda c: self._summaries(c, where, [player_id, name or "\x00"]))
        tallies = tally(sessions, names, period, only=player_id)
        rows = sorted((t.row(pid, p) for (pid, p), t in tallies.items()), key=lambda r: r.period or "", reverse=True)
        if not rows:
            rows = [RecordRow(player_id, name, None, 0, 0, 0, 0, 0, 0)] if period is None else []
        return PlayerRecord(player_id, name or (rows[0].name if rows else ""), rows)

    def leaderboard(self, period: str | None = None, since: date | None = None) -> list[RecordRow]:
        """Every player's tally, the highest net first: all time (period None), else the
        current day, week or month (the table's clock); ``since``: sessions from that day on."""
        if period is not None and period not in PERIODS:
            raise ValueError(f"period must be one of {', '.join(PERIODS)} or None, got {period!r}")
        names = self._names()
        where, args = "", []
        if since is not None:  # (a day early in UTC: the local day is checked below)
            where, args = "AND started >= ?", [(since - timedelta(days=1)).isoformat()]
        sessions = [s for s in self._read(lambda c: self._summaries(c, where, args))
                    if since is None or local_date(str(s["started"])) >= since]
        now = period_key(datetime.now().astimezone().date(), period) if period is not None else None
        rows = [t.row(pid, p) for (pid, p), t in tally(sessions, names, period).items() if p == now]
        return sorted(rows, key=lambda r: (-r.net, -r.wins, r.name, r.player_id))
