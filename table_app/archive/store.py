"""The archive's summary tables: derived from the journal, kept beside it, never trusted blindly.

Three tables in the journal's own SQLite file (like the roster's ``players``: outside the hash
chain, which covers the records only), each row sealed with a hash of its content:

- ``archive_sessions``: one row per session (in effect or undone), its summary as JSON;
- ``archive_hands``: one row per settled hand (and the hand being played now, ``open``);
- ``archive_plays``: who played each session (a phone's own sessions, a player's record);
- ``archive_meta``: the last record summarised, its hash in the chain, the counts, and the
  scan's cursor (the engine state after the last event in effect) to carry on from.

:meth:`Store.refresh` brings them up to the journal: new events are scanned from the cursor;
an undo or redo rescans from the start of the session it reaches back into; a summary that
does not match the journal (another last record, a row whose seal fails, a count that
differs, another version) is dropped and made again from the records. A journal open
read-only is never written: its summary is read if current, else made in TEMP tables.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import sqlite3
from collections.abc import Iterator
from dataclasses import asdict
from typing import Final

from table_app.archive.marks import Ranges
from table_app.archive.model import HandSummary, SessionSummary
from table_app.archive.scan import Scan, SessionAcc
from table_app.journal import file as journal_file

log = logging.getLogger(__name__)

VERSION: Final = 2
CHUNK: Final = 5000  # records read at a time
TABLES: Final = ("archive_meta", "archive_sessions", "archive_hands", "archive_plays")
SCHEMA: Final = (
    "CREATE {temp} TABLE IF NOT EXISTS archive_meta (id INTEGER PRIMARY KEY CHECK (id = 1), data TEXT NOT NULL, "
    "seal BLOB NOT NULL)",
    "CREATE {temp} TABLE IF NOT EXISTS archive_sessions (number INTEGER PRIMARY KEY, first_seq INTEGER NOT NULL, "
    "in_effect INTEGER NOT NULL, started TEXT NOT NULL, data TEXT NOT NULL, seal BLOB NOT NULL)",
    "CREATE {temp} TABLE IF NOT EXISTS archive_hands (session INTEGER NOT NULL, hand INTEGER NOT NULL, "
    "open INTEGER NOT NULL, data TEXT NOT NULL, seal BLOB NOT NULL, PRIMARY KEY (session, hand))",
    "CREATE {temp} TABLE IF NOT EXISTS archive_plays (session INTEGER NOT NULL, player_id INTEGER, "
    "name TEXT NOT NULL COLLATE NOCASE)",
    "CREATE INDEX IF NOT EXISTS {schema}archive_plays_id ON archive_plays (player_id, session)",
    "CREATE INDEX IF NOT EXISTS {schema}archive_plays_name ON archive_plays (name, session)",
)


class Stale(Exception):
    """The summary does not match the journal: it is made again."""


def seal(table: str, key: str, data: str) -> bytes:
    return hashlib.sha256(f"{table}\x00{key}\x00{data}".encode()).digest()


def checked(table: str, key: str, data: object, stored: object) -> dict[str, object]:
    """A row's JSON once its seal matches (else :class:`Stale`)."""
    if not isinstance(data, str) or stored != seal(table, key, data):
        raise Stale(f"{table} row {key}: its seal does not match")
    value = json.loads(data)
    if not isinstance(value, dict):
        raise Stale(f"{table} row {key}: not an object")
    return value


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Store:
    """The summary of one journal file over a connection of the archive's own."""

    def __init__(self, conn: sqlite3.Connection, writable: bool) -> None:
        self.conn = conn
        self.writable = writable  # False: the summary is never written to the file
        self.temp = False  # the summary lives in TEMP tables (a read-only journal's summary, made here)
        self.rebuilds = 0  # how many times the summary was made again from the records (tests, the bench)
        conn.execute("PRAGMA busy_timeout = 5000")
        if writable:
            with self._write():
                self._create("", "")

    def _create(self, temp: str, schema: str) -> None:
        for sql in SCHEMA:
            self.conn.execute(sql.format(temp=temp, schema=schema))

    def _write(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        return journal_file.immediate(self.conn, "BEGIN" if self.temp else "BEGIN IMMEDIATE")

    @contextlib.contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: the records and the summary as of one moment."""
        c = self.conn
        c.execute("BEGIN")
        try:
            yield c
        finally:
            with contextlib.suppress(sqlite3.Error):
                c.execute("COMMIT")

    def _has_tables(self) -> bool:
        if self.temp:
            return True
        found = {r[0] for r in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'archive_%'")}
        return set(TABLES) <= found

    def drop(self) -> None:
        """Forget the summary: it is made again from the records at the next refresh."""
        if self.writable or self.temp:
            with self._write():
                self.conn.execute("DELETE FROM archive_meta")
        else:
            self._to_temp(copy=False)

    def _to_temp(self, copy: bool = True) -> None:
        """A read-only journal: its summary copied to TEMP tables (where one is found) to be
        brought up to date there."""
        c = self.conn
        copy = copy and self._has_tables()
        self._create("TEMP", "temp.")
        if copy:
            with contextlib.suppress(sqlite3.Error):
                for t in TABLES:
                    c.execute(f"INSERT INTO temp.{t} SELECT * FROM main.{t}")
        self.temp = True

    # -- checking ------------------------------------------------------------------------

    def meta(self) -> dict[str, object]:
        """The meta row as of now (read inside :meth:`reading`); Stale if it is not sound."""
        if not self._has_tables():
            raise Stale("no summary yet")
        row = self.conn.execute("SELECT data, seal FROM archive_meta WHERE id = 1").fetchone()
        if row is None:
            raise Stale("no summary yet")
        meta = checked("archive_meta", "1", row[0], row[1])
        if meta.get("version") != VERSION:
            raise Stale(f"summary version {meta.get('version')} (this program makes {VERSION})")
        last = meta.get("last_seq")
        if not isinstance(last, int):
            raise Stale("no last record")
        if last:
            found = self.conn.execute("SELECT hash FROM records WHERE seq = ?", (last,)).fetchone()
            if found is None or bytes(found[0] or b"").hex() != meta.get("last_hash"):
                raise Stale(f"record {last} is not the one summarised")
        counts = self.conn.execute("SELECT (SELECT count(*) FROM archive_sessions), "
                                   "(SELECT count(*) FROM archive_hands)").fetchone()
        if list(counts) != [meta.get("sessions"), meta.get("hands")]:
            raise Stale(f"the summary has {counts[0]} sessions and {counts[1]} hands, its meta says otherwise")
        return meta

    def journal_last(self) -> int:
        return int(self.conn.execute("SELECT coalesce(max(seq), 0) FROM records").fetchone()[0])

    # -- bringing it up to date ------------------------------------------------------------

    def refresh(self) -> None:
        """Bring the summary up to the journal's last record (see the module's docstring)."""
        for _ in range(3):  # (another archive may refresh at the same moment: then again)
            with self.reading():
                try:
                    meta: dict[str, object] | None = self.meta()
                except Stale as e:
                    if self._has_tables():
                        log.info("archive: summary made again (%s)", e)
                    meta = None
                last = self.journal_last()
                if meta is not None and meta["last_seq"] == last:
                    return
                work = self._work(meta, last)
            if not self.writable and not self.temp:
                self._to_temp()
            if self._save(meta, last, *work):
                return
        raise sqlite3.OperationalError("archive: the summary kept changing while it was brought up to date")

    def _work(self, meta: dict[str, object] | None, last: int) -> tuple[int, Scan, Ranges | None]:
        """Scan what the summary lacks: ``(from_seq, scan, ranges)``; ``from_seq`` 0: everything
        was scanned (rows of sessions starting at or after ``from_seq`` are replaced)."""
        c = self.conn
        starts = {first: (number, at) for number, first, at in
                  c.execute("SELECT id, first_seq, started_at FROM sessions")}
        done = int(meta["last_seq"]) if meta is not None else 0  # type: ignore[call-overload]
        marks = c.execute("SELECT seq, kind, target FROM records WHERE kind != 'event' AND seq > ? AND seq <= ? "
                          "ORDER BY seq", (done, last)).fetchall()
        if meta is not None and not marks:
            scan = Scan.resume(starts, meta["cursor"])  # type: ignore[arg-type]
            self._feed(scan, [(done + 1, last)])
            return -1, scan, None
        ranges = Ranges.fold(c.execute("SELECT seq, kind, target FROM records WHERE kind != 'event' AND seq <= ? "
                                       "ORDER BY seq", (last,)), last)
        begin = 0
        if meta is not None:
            reach = min((t + 1 if k == "undo" else t) for _, k, t in marks)
            reach = min(reach, done + 1)
            begin = max((f for f in starts if f <= reach and ranges.in_effect(f)), default=0)
        scan = Scan(starts)
        self._feed(scan, ranges.spans(begin or 1, last))
        return begin, scan, ranges

    def _feed(self, scan: Scan, spans: list[tuple[int, int]]) -> None:
        c = self.conn
        for lo, hi in spans:
            for a in range(lo, hi + 1, CHUNK):
                for seq, at, text in c.execute(
                        "SELECT seq, at, event FROM records WHERE seq BETWEEN ? AND ? AND kind = 'event' ORDER BY seq",
                        (a, min(hi, a + CHUNK - 1))):
                    scan.feed(seq, at, json.loads(text))

    def _save(self, meta: dict[str, object] | None, last: int, begin: int, scan: Scan, ranges: Ranges | None) -> bool:
        """Write what the scan found; False if the summary moved meanwhile (then again)."""
        c = self.conn
        with self._write():
            try:
                now = self.meta()
            except Stale:
                now = None
            if (now or {}).get("last_seq") != (meta or {}).get("last_seq"):
                return False
            if begin == 0:
                self.rebuilds += 1
                for t in TABLES:
                    c.execute(f"DELETE FROM {t}")
            elif begin > 0:
                self._drop_from(begin)
            self._mark_undone(ranges)
            c.execute("DELETE FROM archive_hands WHERE open = 1")
            for acc in scan.sessions.values():
                self._put_session(acc.summary(), acc)
            for number, hand in scan.hands:
                self._put_hand(number, hand, False)
            opened = scan.open_hand()
            if opened is not None:
                self._put_hand(opened[0], opened[1], True)
            self._put_meta(scan, last)
        return True

    def _drop_from(self, begin: int) -> None:
        """The rows of the sessions from the one starting at ``begin`` on (rescanned)."""
        c = self.conn
        numbers = [n for (n,) in c.execute("SELECT id FROM sessions WHERE first_seq >= ?", (begin,))]
        for t, key in (("archive_hands", "session"), ("archive_plays", "session"), ("archive_sessions", "number")):
            c.executemany(f"DELETE FROM {t} WHERE {key} = ?", [(n,) for n in numbers])

    def _mark_undone(self, ranges: Ranges | None) -> None:
        """The sessions whose ``new_session`` is undone: a row saying so (no hands)."""
        c = self.conn
        if ranges is None:
            return
        for number, first, at, players in c.execute("SELECT id, first_seq, started_at, players FROM sessions")\
                .fetchall():
            if ranges.in_effect(first):
                continue
            acc = SessionAcc(number, first, at, json.loads(players), [None] * 4, last_seq=first)
            data = {**asdict(acc.summary()), "in_effect": False, "stats": {}}
            self._put_row("archive_sessions", str(number), data,
                          "INSERT OR REPLACE INTO archive_sessions VALUES (?, ?, 0, ?, ?, ?)", (number, first, at))

    def _put_row(self, table: str, key: str, data: dict[str, object], sql: str, head: tuple[object, ...]) -> None:
        text = _dumps(data)
        self.conn.execute(sql, (*head, text, seal(table, key, text)))

    def _put_session(self, s: SessionSummary, acc: SessionAcc) -> None:
        c = self.conn
        data = {**asdict(s), "stats": acc.stats}
        self._put_row("archive_sessions", str(s.number), data,
                      "INSERT OR REPLACE INTO archive_sessions VALUES (?, ?, 1, ?, ?, ?)",
                      (s.number, s.first_seq, s.started))
        c.execute("DELETE FROM archive_plays WHERE session = ?", (s.number,))
        plays = {(pid, name) for pid, name in acc.plays()}
        c.executemany("INSERT INTO archive_plays VALUES (?, ?, ?)", [(s.number, pid, n) for pid, n in sorted(
            plays, key=lambda p: (p[0] or 0, p[1]))])

    def _put_hand(self, number: int, h: HandSummary, open_: bool) -> None:
        self._put_row("archive_hands", f"{number}:{h.hand}", asdict(h),
                      "INSERT OR REPLACE INTO archive_hands VALUES (?, ?, ?, ?, ?)", (number, h.hand, int(open_)))

    def _put_meta(self, scan: Scan, last: int) -> None:
        c = self.conn
        row = c.execute("SELECT hash FROM records WHERE seq = ?", (last,)).fetchone()
        counts = c.execute("SELECT (SELECT count(*) FROM archive_sessions), "
                           "(SELECT count(*) FROM archive_hands)").fetchone()
        data = {"version": VERSION, "last_seq": last, "last_hash": bytes(row[0] or b"").hex() if row else "",
                "sessions": counts[0], "hands": counts[1], "cursor": scan.cursor()}
        self._put_row("archive_meta", "1", data, "INSERT OR REPLACE INTO archive_meta VALUES (1, ?, ?)", ())
