"""The journal: every event a table accepted, durable on disk before anyone is told.

One SQLite file (stdlib ``sqlite3``) in WAL mode with ``synchronous=FULL``: a commit
returns only after the write-ahead log is fsynced, so an acknowledged event survives a
power cut. Each record is its own transaction.

Records are numbered ``seq`` 1, 2, 3, … with no gaps, across sessions. A record is

- ``event``: an engine event (JSON) that was applied;
- ``undo``: the table went back to the state after event ``target`` (0: an empty table);
  the undone events stay in the file, so the history stays auditable;
- ``redo``: the undone event ``target`` was applied again.

:func:`timeline` turns the records into the events in effect (``active``) and the events
that ``redo`` can bring back, in order. A new event empties the redo list.

Snapshots (``state`` JSON after an event) let start-up skip replaying long sessions; a
snapshot is valid while its event is in effect (see ``docs/journal.md`` for why).

Opening checks the file first: it must be SQLite (header), pass ``PRAGMA quick_check``,
be a xian-table journal (``application_id``), be or become WAL, and have contiguous
sequence numbers. Anything else is refused with :class:`JournalError`; the file is never
written to, moved or replaced.
"""

from __future__ import annotations

import bisect
import contextlib
import fcntl
import json
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

APPLICATION_ID = 0x58494154  # "XIAT"
SCHEMA_VERSION = 1
SQLITE_HEADER = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    first_seq INTEGER NOT NULL UNIQUE,
    started_at TEXT NOT NULL,
    players TEXT NOT NULL
);
CREATE TABLE records (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('event', 'undo', 'redo')),
    session INTEGER REFERENCES sessions(id),
    source TEXT NOT NULL DEFAULT '',
    event TEXT,
    target INTEGER,
    CHECK ((kind = 'event') = (event IS NOT NULL)),
    CHECK ((kind = 'event') = (target IS NULL))
);
CREATE INDEX marks ON records (seq) WHERE kind != 'event';
CREATE TABLE snapshots (
    seq INTEGER PRIMARY KEY REFERENCES records(seq),
    state TEXT NOT NULL
);
"""


class JournalError(RuntimeError):
    """The journal file cannot be used (damaged, not ours, locked) — the file is left as it is."""


@dataclass(frozen=True)
class Record:
    seq: int
    at: str
    kind: str  # event | undo | redo
    session: int | None
    source: str
    event: dict[str, Any] | None
    target: int | None


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


def _now() -> str:
    return datetime.fromtimestamp(time.time(), UTC).isoformat(timespec="milliseconds")


class Journal:
    """One open journal file. Not thread-safe: the table service is its only writer."""

    def __init__(self, path: Path, conn: sqlite3.Connection, readonly: bool, lock_fd: int | None) -> None:
        self.path = path
        self._conn = conn
        self.readonly = readonly
        self._lock_fd = lock_fd

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, readonly: bool = False, create: bool = True) -> Journal:
        """Open (or create) and check a journal; raise :class:`JournalError` if it cannot be used."""
        p = Path(path)
        exists = p.exists() and p.stat().st_size > 0
        if not exists and (readonly or not create):
            raise JournalError(f"journal {str(p)!r} does not exist")
        if exists:
            _check_header(p)
        lock_fd = None
        if not readonly:
            try:
                p.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise JournalError(f"cannot create the journal's folder {str(p.parent)!r}: {e.strerror}") from None
            lock_fd = _lock(p)
        try:
            mode = "ro" if readonly else ("rw" if exists else "rwc")
            try:
                conn = sqlite3.connect(f"{p.resolve().as_uri()}?mode={mode}", uri=True,
                                       isolation_level=None, check_same_thread=False)
            except sqlite3.Error as e:
                raise JournalError(f"cannot open journal {str(p)!r}: {e}") from None
            journal = cls(p, conn, readonly, lock_fd)
            try:
                journal._check(new=not exists)
            except sqlite3.DatabaseError as e:
                conn.close()
                raise _damaged(p, str(e)) from None
            except BaseException:
                conn.close()
                raise
            return journal
        except BaseException:
            if lock_fd is not None:
                os.close(lock_fd)
            raise

    def _check(self, new: bool) -> None:
        c = self._conn
        c.execute("PRAGMA busy_timeout = 5000")
        if not new:
            problems = [r[0] for r in c.execute("PRAGMA quick_check").fetchall()]
            if problems != ["ok"]:
                raise _damaged(self.path, "quick_check: " + "; ".join(problems[:5]))
        app_id = c.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if app_id == 0 and not tables:
            if self.readonly:
                raise JournalError(f"journal {str(self.path)!r} is empty")
            self._init_schema()
        elif app_id != APPLICATION_ID:
            raise JournalError(
                f"{str(self.path)!r} is an SQLite file but not a xian-table journal "
                f"(application_id {app_id:#x}); refusing to use it — the file is kept as it is"
            )
        version = c.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise JournalError(f"journal {str(self.path)!r} has schema version {version}; this program reads "
                               f"version {SCHEMA_VERSION} — the file is kept as it is")
        if not self.readonly:
            mode = c.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise JournalError(f"journal {str(self.path)!r}: cannot switch to WAL mode (journal_mode is {mode})")
            c.execute("PRAGMA synchronous = FULL")
            if c.execute("PRAGMA synchronous").fetchone()[0] != 2:
                raise JournalError(f"journal {str(self.path)!r}: cannot set synchronous = FULL")
        count, low, high = c.execute("SELECT count(*), min(seq), max(seq) FROM records").fetchone()
        if count and (low != 1 or high != count):
            raise _damaged(self.path, f"sequence numbers are not contiguous: {count} records numbered {low}..{high}")

    def _init_schema(self) -> None:
        c = self._conn
        c.execute("PRAGMA journal_mode = WAL")
        c.execute("BEGIN IMMEDIATE")
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                c.execute(statement)
        c.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        c.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        c.execute("COMMIT")

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._conn.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -------------------------------------------------------------------------

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        if self.readonly:
            raise JournalError(f"journal {str(self.path)!r} is open read-only")
        c = self._conn
        c.execute("BEGIN IMMEDIATE")
        try:
            yield c
            c.execute("COMMIT")
        except BaseException:
            # SQLite may already have rolled back (a full disk does); never mask the real error
            if c.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    c.execute("ROLLBACK")
            raise

    def _next_seq(self, c: sqlite3.Connection) -> int:
        return int(c.execute("SELECT coalesce(max(seq), 0) + 1 FROM records").fetchone()[0])

    def append_event(self, event: dict[str, Any], session: int | None, *, source: str = "",
                     new_session: bool = False) -> tuple[int, int | None]:
        """Append an applied event; returns ``(seq, session)`` once it is durable.

        With ``new_session`` a session row is created and the event belongs to it.
        """
        with self._transaction() as c:
            seq = self._next_seq(c)
            if new_session:
                cur = c.execute("INSERT INTO sessions (first_seq, started_at, players) VALUES (?, ?, ?)",
                                (seq, _now(), json.dumps(event.get("players", []), ensure_ascii=False)))
                session = cur.lastrowid
            c.execute("INSERT INTO records (seq, at, kind, session, source, event) VALUES (?, ?, 'event', ?, ?, ?)",
                      (seq, _now(), session, source, json.dumps(event, ensure_ascii=False, separators=(",", ":"))))
        return seq, session

    def append_undo(self, target: int, session: int | None, *, source: str = "") -> int:
        return self._append_mark("undo", target, session, source)

    def append_redo(self, target: int, session: int | None, *, source: str = "") -> int:
        return self._append_mark("redo", target, session, source)

    def _append_mark(self, kind: str, target: int, session: int | None, source: str) -> int:
        with self._transaction() as c:
            seq = self._next_seq(c)
            c.execute("INSERT INTO records (seq, at, kind, session, source, target) VALUES (?, ?, ?, ?, ?, ?)",
                      (seq, _now(), kind, session, source, target))
        return seq

    def save_snapshot(self, seq: int, state: dict[str, Any]) -> None:
        """Keep the engine state after event ``seq`` so start-up need not replay up to it."""
        with self._transaction() as c:
            c.execute("INSERT OR REPLACE INTO snapshots (seq, state) VALUES (?, ?)",
                      (seq, json.dumps(state, separators=(",", ":"))))

    # -- reading -------------------------------------------------------------------------

    def last_seq(self) -> int:
        return int(self._conn.execute("SELECT coalesce(max(seq), 0) FROM records").fetchone()[0])

    def timeline(self) -> Timeline:
        """Fold the records; events between undo/redo marks are taken as whole ranges (fast start-up)."""
        marks = self._conn.execute(
            "SELECT seq, kind, target FROM records WHERE kind != 'event' ORDER BY seq"
        ).fetchall()
        last = self.last_seq()
        t = Timeline([], [])
        prev = 0
        for seq, kind, target in [*marks, (last + 1, None, None)]:
            if seq > prev + 1:
                t.active.extend(range(prev + 1, seq))
                t.redo.clear()
                t.last_seq = seq - 1
            if kind is not None:
                t.apply_record(seq, kind, target)
            prev = seq
        return t

    def events(self, seqs: Sequence[int]) -> list[dict[str, Any]]:
        """The event JSON of these event records, in the order given."""
        out: list[dict[str, Any]] = []
        if not seqs:
            return out
        found: dict[int, dict[str, Any]] = {}
        low, high = min(seqs), max(seqs)
        for seq, text in self._conn.execute(
            "SELECT seq, event FROM records WHERE kind = 'event' AND seq BETWEEN ? AND ?", (low, high)
        ):
            found[seq] = json.loads(text)
        for s in seqs:
            if s not in found:
                raise JournalError(f"record {s} is not an event")
            out.append(found[s])
        return out

    def event(self, seq: int) -> dict[str, Any]:
        return self.events([seq])[0]

    def record_sessions(self, seqs: Sequence[int]) -> dict[int, int | None]:
        """The session of each given record."""
        if not seqs:
            return {}
        rows = self._conn.execute("SELECT seq, session FROM records WHERE seq BETWEEN ? AND ?", (min(seqs), max(seqs)))
        wanted = set(seqs)
        return {seq: session for seq, session in rows if seq in wanted}

    def records(self) -> Iterator[Record]:
        for seq, at, kind, session, source, event, target in self._conn.execute(
            "SELECT seq, at, kind, session, source, event, target FROM records ORDER BY seq"
        ):
            yield Record(seq, at, kind, session, source, json.loads(event) if event is not None else None, target)

    def sessions(self) -> list[tuple[int, int, str, list[str]]]:
        """``(id, first_seq, started_at, players)`` of every session, oldest first."""
        return [(i, s, at, json.loads(p)) for i, s, at, p in
                self._conn.execute("SELECT id, first_seq, started_at, players FROM sessions ORDER BY id")]

    def latest_snapshot(self, active: Sequence[int], after: int = 0) -> tuple[int, dict[str, Any]] | None:
        """The newest snapshot whose event is in effect and is later than ``after``."""
        for (seq,) in self._conn.execute("SELECT seq FROM snapshots WHERE seq > ? ORDER BY seq DESC", (after,)):
            i = bisect.bisect_left(active, seq)  # active is in ascending order
            if i < len(active) and active[i] == seq:
                text = self._conn.execute("SELECT state FROM snapshots WHERE seq = ?", (seq,)).fetchone()[0]
                return seq, json.loads(text)
        return None

    def integrity_check(self) -> list[str]:
        return [r[0] for r in self._conn.execute("PRAGMA integrity_check").fetchall()]


def _check_header(p: Path) -> None:
    try:
        with p.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except OSError as e:
        raise JournalError(f"cannot read journal {str(p)!r}: {e.strerror}") from None
    if head != SQLITE_HEADER:
        raise _damaged(p, "the file does not start with the SQLite header")


def _damaged(p: Path, detail: str) -> JournalError:
    return JournalError(
        f"journal {str(p)!r} is damaged ({detail}); refusing to start. The file is kept exactly as it "
        f"is: restore a backup, or move it aside to start a new journal"
    )


def _lock(p: Path) -> int:
    """An exclusive lock beside the journal so that two services never write one file."""
    lock_path = p.with_name(p.name + ".lock")
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise JournalError(f"cannot create the lock file {str(lock_path)!r}: {e.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise JournalError(
            f"journal {str(p)!r} is in use by another xian-table service (lock {str(lock_path)!r})"
        ) from None
    return fd
