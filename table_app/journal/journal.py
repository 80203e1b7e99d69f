"""The journal: every event a table accepted, durable on disk before anyone is told.

One SQLite file (stdlib ``sqlite3``) in WAL mode with ``synchronous=FULL``: a commit
returns only after the write-ahead log is fsynced, so an acknowledged event survives a
power cut. Each command is one transaction (a press that became two events: both records).

Records are numbered ``seq`` 1, 2, 3, … with no gaps, across sessions. A record is

- ``event``: an engine event (JSON) that was applied;
- ``undo``: the table went back to the state after event ``target`` (0: an empty table);
  the undone events stay in the file, so the history stays auditable;
- ``redo``: the undone event ``target`` was applied again.

Every record carries ``hash``, a link of the hash chain (``table_app/journal/chain.py``): a byte
changed anywhere in a record afterwards is found and the record named.

:func:`table_app.journal.timeline.timeline` turns the records into the events in effect
(``active``) and the events that ``redo`` can bring back, in order. A new event empties the redo
list.

Snapshots (``state`` JSON after an event, sealed with a hash) let start-up skip replaying
long sessions; a snapshot is valid while its event is in effect (see ``docs/journal.md``).

Opening checks the file first (``table_app/journal/file.py``): it must exist (a new journal
is made only where no file is), be readable — and writable for the service —, be SQLite,
pass ``PRAGMA quick_check``, be a xian-table journal of a known schema, and have its records
numbered without a gap and matching the hash chain, each value of its column's type; its
``-wal`` must not hide a damaged frame (``table_app/journal/wal.py``), and the service's disk must
have room. The service's checks run on a private
copy, so a file it refuses is left byte for byte as it was, its ``-wal`` and ``-shm`` too;
readers check over a read-only connection, which never writes the file or its ``-wal``.
"""

from __future__ import annotations

import bisect
import contextlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from table_app.journal import chain, synced_mark
from table_app.journal import file as journal_file
from table_app.journal.file import APPLICATION_ID, SCHEMA_VERSION, SQLITE_HEADER, JournalError
from table_app.journal.timeline import Timeline

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "SQLITE_HEADER", "Journal", "JournalError", "Record"]

log = logging.getLogger(__name__)

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
    hash BLOB,
    CHECK ((kind = 'event') = (event IS NOT NULL)),
    CHECK ((kind = 'event') = (target IS NULL))
);
CREATE INDEX marks ON records (seq) WHERE kind != 'event';
CREATE TABLE snapshots (
    seq INTEGER PRIMARY KEY REFERENCES records(seq),
    state TEXT NOT NULL,
    hash BLOB
);
CREATE TABLE chain_blocks (
    last_seq INTEGER PRIMARY KEY,
    digest BLOB NOT NULL
);
"""
_BLOCKS_TABLE = _SCHEMA[_SCHEMA.index("CREATE TABLE chain_blocks"):].rstrip().rstrip(";")


@dataclass(frozen=True)
class Record:
    seq: int
    at: str
    kind: str  # event | undo | redo
    session: int | None
    source: str
    event: dict[str, object] | None
    target: int | None


def _now() -> str:
    return datetime.fromtimestamp(time.time(), UTC).isoformat(timespec="milliseconds")


class Journal:
    """One open journal file. Not thread-safe: the table service is its only writer."""

    def __init__(self, path: Path, conn: sqlite3.Connection, readonly: bool, lock_fd: int | None,
                 version: int = SCHEMA_VERSION) -> None:
        self.path = path
        self._conn = conn
        self.readonly = readonly
        self._lock_fd = lock_fd
        self.version = version
        self.records_checked = 0  # how many records the opening checks walked (chain and numbering)

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, readonly: bool = False, create: bool = True) -> Journal:
        """Open and check a journal (the service: also create one where no file exists);
        raise :class:`JournalError` if it cannot be used, the file left as it was."""
        p = Path(path)
        if readonly:
            if not journal_file.inspect(p, writer=False):
                raise JournalError(f"journal {str(p)!r} does not exist")
            journal_file.check_wal(p)
            conn = journal_file.connect(p, "ro")
            try:
                facts = journal_file.check(conn, p)
            except BaseException:
                conn.close()
                raise
            journal = cls(p, conn, True, None, facts.version)
            journal.records_checked = facts.records
            return journal
        exists = journal_file.inspect(p, writer=True)
        if not exists and not create:
            raise JournalError(f"journal {str(p)!r} does not exist")
        journal_file.check_room(p)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise JournalError(f"cannot create the journal's folder {str(p.parent)!r}: {e.strerror}") from None
        lock_fd = journal_file.lock(p)
        try:
            if not journal_file.inspect(p, writer=True):  # looked at again under the lock
                journal_file.create(p, _SCHEMA)
            facts = journal_file.check_private_copy(p)
            if facts.version == 1:  # about to be upgraded in place: the full check first
                facts = journal_file.check_private_copy(p, integrity=True)
            return cls._open_writer(p, lock_fd, facts)
        except BaseException:
            os.close(lock_fd)
            raise

    @classmethod
    def _open_writer(cls, p: Path, lock_fd: int, facts: journal_file.Facts) -> Journal:
        """The real file, read-write, once its copy passed every check."""
        conn = journal_file.connect(p, "rw")
        journal = cls(p, conn, False, lock_fd, facts.version)
        journal.records_checked = facts.records
        try:
            c = conn
            c.execute("PRAGMA busy_timeout = 5000")
            try:  # SQLite opens a file it may not write read-only without a word: ask it to write
                c.execute("BEGIN IMMEDIATE")
                c.execute("ROLLBACK")
            except sqlite3.OperationalError as e:
                raise JournalError(f"journal {str(p)!r} cannot be written ({e}); refusing to start — the file is "
                                   f"kept as it is") from None
            mode = c.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise JournalError(f"journal {str(p)!r}: cannot switch to WAL mode (journal_mode is {mode})")
            c.execute("PRAGMA synchronous = FULL")
            if c.execute("PRAGMA synchronous").fetchone()[0] != 2:
                raise JournalError(f"journal {str(p)!r}: cannot set synchronous = FULL")
            if facts.version == 1:
                journal._upgrade_from_1()
            else:
                journal._reseal(facts.stale_blocks)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as e:  # (an error's text may quote damaged bytes)
            conn.close()
            raise journal_file.damaged(p, " ".join(str(e).split())) from None
        except BaseException:
            conn.close()
            raise
        return journal

    def _upgrade_from_1(self) -> None:
        """Schema 1 → 2 in one transaction: a hash for every record as it is now (it passed
        ``integrity_check`` on the copy just before), snapshots dropped (caches, remade)."""
        c = self._conn
        with self._transaction():
            c.execute("ALTER TABLE records ADD COLUMN hash BLOB")
            c.execute("ALTER TABLE snapshots ADD COLUMN hash BLOB")
            c.execute("DELETE FROM snapshots")
            prev = chain.ZERO
            links = []
            for seq, data in c.execute(f"SELECT seq, {chain.CANONICAL_SQL} FROM records ORDER BY seq").fetchall():
                prev = chain.link(prev, data)
                links.append((prev, seq))
            c.executemany("UPDATE records SET hash = ? WHERE seq = ?", links)
            c.execute(_BLOCKS_TABLE)
            chain.seal_blocks(c)
            c.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        self.version = SCHEMA_VERSION
        log.warning("journal %s: upgraded from schema 1 to %d (a hash chain over its %d records)", self.path,
                    SCHEMA_VERSION, len(links))

    def _reseal(self, stale: Sequence[int]) -> None:
        """Block digests that did not match records that all do (a damaged index, not damaged
        records) are made again, as are any the journal lacks."""
        c = self._conn
        if not stale and c.execute("SELECT coalesce(max(last_seq), 0) FROM chain_blocks").fetchone()[0] + \
                chain.BLOCK > c.execute("SELECT coalesce(max(seq), 0) FROM records").fetchone()[0]:
            return
        with self._transaction():
            c.executemany("DELETE FROM chain_blocks WHERE last_seq = ?", [(last,) for last in stale])
            c.execute("DELETE FROM chain_blocks WHERE last_seq > (SELECT coalesce(max(seq), 0) FROM records)")
            for last in stale:
                c.execute("INSERT INTO chain_blocks (last_seq, digest) VALUES (?, ?)",
                          (last, chain.block_digest(c, last)[0]))
            chain.seal_blocks(c)
        if stale:
            log.warning("journal %s: the block digests ending at records %s did not match their records, which all "
                        "match the hash chain; they were made again", self.path, ", ".join(map(str, stale)))

    def close(self) -> None:
        mark = synced_mark.take(self._conn) if self._lock_fd is not None else None  # the service's journal
        try:
            self._conn.close()  # (the last checkpoint)
        except sqlite3.Error:
            mark = None
        synced_mark.write(self.path, mark)  # after every write of the journal: for doctor's read-back
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
        with journal_file.immediate(self._conn) as c:
            yield c

    @staticmethod
    def _insert(c: sqlite3.Connection, seq: int, prev: bytes, kind: str, session: int | None, source: str,
                event: str | None, target: int | None, at: str | None = None) -> bytes:
        """Record ``seq``, linked to ``prev``, the hash of the record before it; its own hash."""
        at = at or _now()
        digest = chain.link(prev, chain.canonical(seq, at, kind, session, source, event, target))
        c.execute("INSERT INTO records (seq, at, kind, session, source, event, target, hash) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (seq, at, kind, session, source, event, target, digest))
        if seq % chain.BLOCK == 0:
            chain.seal_blocks(c)
        return digest

    @staticmethod
    def _tail(c: sqlite3.Connection) -> tuple[int, bytes]:
        """The next seq and the hash it links to (read inside the write transaction: never stale)."""
        row = c.execute("SELECT seq, hash FROM records ORDER BY seq DESC LIMIT 1").fetchone()
        return (1, chain.ZERO) if row is None else (int(row[0]) + 1, bytes(row[1]))

    def append_event(self, event: Mapping[str, object], session: int | None, *, source: str = "",
                     new_session: bool = False) -> tuple[int, int | None]:
        """Append an applied event; returns ``(seq, session)`` once it is durable.

        With ``new_session`` a session row is created and the event belongs to it.
        """
        seqs, session = self.append_events([event], session, source=source, new_session=new_session)
        return seqs[0], session

    def append_events(self, events: Sequence[Mapping[str, object]], session: int | None, *, source: str = "",
                      new_session: bool = False) -> tuple[list[int], int | None]:
        """Append events applied together (a press's two: the quick 下家's resolve and discard) in
        one transaction — one commit, one fsync; their seqs and the session once all are durable.
        ``new_session``: the first event starts a session."""
        texts = [json.dumps(event, ensure_ascii=False, separators=(",", ":")) for event in events]
        seqs = []
        with self._transaction() as c:
            seq, prev = self._tail(c)
            if new_session:
                cur = c.execute("INSERT INTO sessions (first_seq, started_at, players) VALUES (?, ?, ?)",
                                (seq, t0 := _now(), json.dumps(events[0].get("players", []), ensure_ascii=False)))
                session = cur.lastrowid
            for text in texts:  # (a session's start is its first record's time, to the millisecond: import keeps it)
                prev = self._insert(c, seq, prev, "event", session, source, text, None, t0 if new_session else None)
                seqs.append(seq)
                seq += 1
        return seqs, session

    def append_imported(self, events: Iterable[tuple[str, Mapping[str, object]]], *, source: str) -> int:
        """``xian-table import``: ``(at, event)`` pairs into an EMPTY journal, in one transaction (all or none)."""
        with self._transaction() as c:
            first, prev = self._tail(c)
            if first != 1:
                raise JournalError(f"journal {str(self.path)!r} holds {first - 1:,} records: import needs an empty one")
            session = None
            for seq, (at, event) in enumerate(events, first):
                if event.get("type") == "new_session":  # (it starts a session, as the service's does)
                    session = c.execute("INSERT INTO sessions (first_seq, started_at, players) VALUES (?, ?, ?)", (
                        seq, at, json.dumps(event.get("players", []), ensure_ascii=False))).lastrowid
                prev = self._insert(c, seq, prev, "event", session, source, json.dumps(
                    event, ensure_ascii=False, separators=(",", ":")), None, at)
        return self.last_seq()

    def append_undo(self, target: int, session: int | None, *, source: str = "") -> int:
        return self._append_mark("undo", target, session, source)

    def append_redo(self, target: int, session: int | None, *, source: str = "") -> int:
        return self._append_mark("redo", target, session, source)

    def _append_mark(self, kind: str, target: int, session: int | None, source: str) -> int:
        with self._transaction() as c:
            seq, prev = self._tail(c)
            self._insert(c, seq, prev, kind, session, source, None, target)
        return seq

    def save_snapshot(self, seq: int, state: dict[str, object]) -> None:
        """Keep the engine state after event ``seq`` so start-up need not replay up to it."""
        text = json.dumps(state, separators=(",", ":"))
        with self._transaction() as c:
            record_hash = c.execute("SELECT hash FROM records WHERE seq = ?", (seq,)).fetchone()[0]
            c.execute("INSERT OR REPLACE INTO snapshots (seq, state, hash) VALUES (?, ?, ?)",
                      (seq, text, chain.snapshot_seal(bytes(record_hash), text)))
        synced_mark.write(self.path, synced_mark.take(self._conn))

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

    def events(self, seqs: Sequence[int]) -> list[dict[str, object]]:
        """The event JSON of these event records, in the order given."""
        out: list[dict[str, object]] = []
        if not seqs:
            return out
        found: dict[int, dict[str, object]] = {}
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

    def event(self, seq: int) -> dict[str, object]:
        return self.events([seq])[0]

    def sources(self, seqs: Sequence[int]) -> dict[int, str]:
        """Where each of these records came from (the input: ``touch``, ``gpio press 1:TURN`` …)."""
        if not seqs:
            return {}
        wanted = set(seqs)
        rows = self._conn.execute("SELECT seq, source FROM records WHERE seq BETWEEN ? AND ?", (min(seqs), max(seqs)))
        return {seq: source for seq, source in rows if seq in wanted}

    @contextlib.contextmanager
    def read_snapshot(self) -> Iterator[None]:
        """One read transaction around several reads (the timeline, then its events), so that a
        record the service commits meanwhile is seen by all of them or by none (WAL: the
        service never waits for it). For a read-only connection; the writer has no need."""
        c = self._conn
        c.execute("BEGIN")
        try:
            yield
        finally:
            with contextlib.suppress(sqlite3.Error):
                c.execute("COMMIT")

    def reader(self) -> Journal:
        """A read-only connection of its own to this (already checked) journal, for another
        thread to read while the service writes (WAL: readers and the writer never wait)."""
        return Journal(self.path, journal_file.connect(self.path, "ro"), True, None, self.version)

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

    def latest_snapshot(self, active: Sequence[int], after: int = 0) -> tuple[int, dict[str, object]] | None:
        """The newest sound snapshot whose event is in effect and is later than ``after``.

        A snapshot that does not match its seal is passed over (and logged): it is only a
        cache, and the replay from an older one, or from the session's start, is exact.
        """
        sealed = self.version >= 2
        for (seq,) in self._conn.execute("SELECT seq FROM snapshots WHERE seq > ? ORDER BY seq DESC", (after,)):
            i = bisect.bisect_left(active, seq)  # active is in ascending order
            if i < len(active) and active[i] == seq:
                if not sealed:
                    text = self._conn.execute("SELECT state FROM snapshots WHERE seq = ?", (seq,)).fetchone()[0]
                    return seq, json.loads(text)
                row = self._conn.execute(
                    "SELECT s.state, s.hash, r.hash FROM snapshots s JOIN records r ON r.seq = s.seq WHERE s.seq = ?",
                    (seq,)).fetchone()
                try:
                    if row is not None and isinstance(row[0], str) and \
                            row[1] == chain.snapshot_seal(bytes(row[2]), row[0]):
                        return seq, json.loads(row[0])
                except (TypeError, ValueError):
                    pass
                log.warning("journal %s: the snapshot after record %d does not match its seal; replaying instead",
                            self.path, seq)
        return None

    def integrity_check(self) -> list[str]:
        return [r[0] for r in self._conn.execute("PRAGMA integrity_check").fetchall()]
