"""The parlour database: SQLite (a file, the default) or PostgreSQL (a ``postgresql://`` URL).

One schema, made by numbered migrations (:data:`MIGRATIONS`, each applied once, in order,
inside one transaction, and noted in ``schema_version``). The SQL is written once, portable:
``?`` placeholders (``%s`` for psycopg), ``ON CONFLICT DO NOTHING``, window functions; the few
words that differ are the :class:`Dialect`'s. Times are ISO 8601 text in UTC, hashes and
journal ids 32 hex characters, so a row reads the same in both.

- ``tables``: one row a table (``id`` is its ``table.id``), its broker user, when it was added
  and retired, when last seen and its last status (``online``/``offline``).
- ``journals``: each (table, journal id) ever seen, when first seen, the highest seq the table
  said it has beyond the stored ones (``highest``: from records held for a gap and replay
  answers' ``last``; :meth:`Database.journals` gives the larger of it and the last stored).
- ``records``: the records, key (table, journal, seq), the chain's columns as the table stores them.
- ``refusals``: what was refused and why (a malformed or forged record, a different copy).
- ``sessions``, ``session_scans``: every session folded from the records, and where each
  journal's fold stands (:mod:`parlour.sessions`; made again from the records).
- ``players``, ``roster_links``: the parlour's players (one a name, letters' case aside) and
  which table's roster id is which of them, listed or not (:mod:`parlour.players`).
- ``floor``: where the owner placed each table on the floor plan (``parlour tables place``).
- ``settings``: the parlour's own settings by name (the owner's key of the floor view).

>>> with Database.open(":memory:") as db:
...     db.version()
3
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol, cast

from parlour.records import Record
from table_app.config.file import user_data_dir

DEFAULT_NAME = "parlour.sqlite3"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def default_path() -> Path:
    return user_data_dir() / DEFAULT_NAME


def is_url(spec: str) -> bool:
    return spec.startswith(("postgresql://", "postgres://"))


@dataclass(frozen=True)
class Dialect:
    name: str
    serial: str  # an id column that numbers itself
    placeholder: str


SQLITE = Dialect("sqlite", "INTEGER PRIMARY KEY", "?")
POSTGRES = Dialect("postgresql", "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "%s")

# Each migration: its number and its statements ({serial} filled by the dialect). Never edit
# one that shipped; add the next.
MIGRATIONS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (1, (
        """CREATE TABLE tables (
            id TEXT PRIMARY KEY,
            mqtt_user TEXT,
            added TEXT NOT NULL,
            retired TEXT,
            last_seen TEXT,
            status TEXT
        )""",
        """CREATE TABLE journals (
            table_id TEXT NOT NULL REFERENCES tables (id),
            journal_id TEXT NOT NULL,
            first_seen TEXT NOT NULL,
            highest BIGINT NOT NULL DEFAULT 0,
            PRIMARY KEY (table_id, journal_id)
        )""",
        """CREATE TABLE records (
            table_id TEXT NOT NULL,
            journal_id TEXT NOT NULL,
            seq BIGINT NOT NULL,
            at TEXT NOT NULL,
            kind TEXT NOT NULL,
            session BIGINT,
            source TEXT NOT NULL,
            event TEXT,
            target BIGINT,
            hash TEXT NOT NULL,
            PRIMARY KEY (table_id, journal_id, seq),
            FOREIGN KEY (table_id, journal_id) REFERENCES journals (table_id, journal_id)
        )""",
        """CREATE TABLE refusals (
            id {serial},
            at TEXT NOT NULL,
            table_id TEXT NOT NULL,
            journal_id TEXT,
            seq BIGINT,
            reason TEXT NOT NULL,
            payload TEXT
        )""",
        "CREATE INDEX refusals_table ON refusals (table_id, at)",
    )),
    (2, (  # issue 31: the sessions folded from the records (parlour/sessions.py), the players across tables
        """CREATE TABLE sessions (
            table_id TEXT NOT NULL,
            journal_id TEXT NOT NULL,
            first_seq BIGINT NOT NULL,
            number BIGINT NOT NULL,
            started TEXT NOT NULL,
            ended TEXT,
            last_seq BIGINT NOT NULL,
            last_at TEXT NOT NULL,
            phase TEXT NOT NULL,
            players TEXT NOT NULL,
            player_ids TEXT NOT NULL,
            hands BIGINT NOT NULL,
            rounds BIGINT NOT NULL,
            scores TEXT NOT NULL,
            seconds BIGINT,
            fee TEXT,
            bill TEXT,
            table_fee BIGINT NOT NULL,
            tea BIGINT NOT NULL,
            stats TEXT NOT NULL,
            PRIMARY KEY (table_id, journal_id, first_seq)
        )""",
        "CREATE INDEX sessions_started ON sessions (started)",
        "CREATE INDEX sessions_table ON sessions (table_id, started)",
        """CREATE TABLE session_scans (
            table_id TEXT NOT NULL,
            journal_id TEXT NOT NULL,
            last_seq BIGINT NOT NULL,
            last_hash TEXT,
            cursor TEXT NOT NULL,
            PRIMARY KEY (table_id, journal_id)
        )""",
        """CREATE TABLE players (
            id {serial},
            name TEXT NOT NULL,
            folded TEXT NOT NULL UNIQUE,
            first_seen TEXT NOT NULL
        )""",
        """CREATE TABLE roster_links (
            table_id TEXT NOT NULL,
            roster_id BIGINT NOT NULL,
            player_id BIGINT NOT NULL REFERENCES players (id),
            name TEXT NOT NULL,
            listed BIGINT NOT NULL,
            seen TEXT NOT NULL,
            PRIMARY KEY (table_id, roster_id)
        )""",
        "CREATE INDEX roster_links_player ON roster_links (player_id)",
    )),
    (3, (  # the floor view (issue 31): where each table stands on the owner's floor plan; the owner's key
        """CREATE TABLE floor (
            table_id TEXT PRIMARY KEY,
            col INTEGER NOT NULL,
            row INTEGER NOT NULL
        )""",
        """CREATE TABLE settings (
            name TEXT PRIMARY KEY,
            value TEXT NOT NULL
        )""",
    )),
)
LATEST = MIGRATIONS[-1][0]
MAX_REFUSAL_PAYLOAD = 2000  # characters of a refused message kept with its reason


class _Cursor(Protocol):
    rowcount: int

    def fetchone(self) -> tuple[object, ...] | None: ...

    def fetchall(self) -> list[tuple[object, ...]]: ...


class _Conn(Protocol):
    def execute(self, sql: str, params: Sequence[object] = ...) -> _Cursor: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class JournalRow:
    table: str
    journal: str
    first_seen: str
    highest: int
    records: int
    last_stored: int


@dataclass(frozen=True)
class TableRow:
    id: str
    user: str | None
    added: str
    retired: str | None
    last_seen: str | None
    status: str | None


class Database:
    """One connection; not shared between threads (the service's worker owns its own)."""

    def __init__(self, conn: _Conn, dialect: Dialect, where: str) -> None:
        self._conn = conn
        self.dialect = dialect
        self.where = where
        self._depth = 0

    @classmethod
    def open(cls, spec: str | Path | None = None, *, migrate: bool = True) -> Database:
        """``spec``: a ``postgresql://`` URL, a file, or None (the default file)."""
        if isinstance(spec, str) and is_url(spec):
            import psycopg

            db = cls(cast(_Conn, psycopg.connect(spec, autocommit=True)), POSTGRES, _safe_url(spec))
        else:
            path = default_path() if spec is None else Path(spec)
            if str(path) != ":memory:":
                path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=30)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            db = cls(cast(_Conn, conn), SQLITE, str(path))
        if migrate:
            db.migrate()
        return db

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def x(self, sql: str, params: Sequence[object] = ()) -> _Cursor:
        """One statement (``?`` placeholders, whatever the database)."""
        return self._x(sql, params)

    def _x(self, sql: str, params: Sequence[object] = ()) -> _Cursor:
        if self.dialect.placeholder != "?":
            sql = sql.replace("?", self.dialect.placeholder)
        return self._conn.execute(sql, tuple(params))

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction (nested calls join the outer one); written (COMMIT) when it ends."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._conn.execute("BEGIN IMMEDIATE" if self.dialect is SQLITE else "BEGIN")
        self._depth = 1
        try:
            yield
        except BaseException:
            self._depth = 0
            self._conn.execute("ROLLBACK")
            raise
        self._depth = 0
        self._conn.execute("COMMIT")

    # -- the schema

    def version(self) -> int:
        try:
            row = self._x("SELECT max(version) FROM schema_version").fetchone()
        except Exception:  # no such table yet (sqlite3 and psycopg raise their own kinds)
            return 0
        return int(row[0] or 0) if row else 0  # type: ignore[call-overload]

    def migrate(self) -> list[int]:
        """Apply the migrations not applied yet; returns their numbers."""
        with self.transaction():
            if self.dialect is POSTGRES:
                self._x("SELECT pg_advisory_xact_lock(3030)")  # two parlour processes starting at once
            self._x("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied TEXT NOT NULL)")
            have = {int(v) for (v,) in self._x("SELECT version FROM schema_version").fetchall()}  # type: ignore[call-overload]
            done = []
            for number, statements in MIGRATIONS:
                if number in have:
                    continue
                for sql in statements:
                    self._x(sql.format(serial=self.dialect.serial))
                self._x("INSERT INTO schema_version (version, applied) VALUES (?, ?)", (number, now()))
                done.append(number)
        return done

    # -- tables

    def table(self, table: str) -> TableRow | None:
        row = self._x("SELECT id, mqtt_user, added, retired, last_seen, status FROM tables WHERE id = ?",
                      (table,)).fetchone()
        return None if row is None else TableRow(*row)  # type: ignore[arg-type]

    def tables(self) -> list[TableRow]:
        rows = self._x("SELECT id, mqtt_user, added, retired, last_seen, status FROM tables ORDER BY id").fetchall()
        return [TableRow(*r) for r in rows]  # type: ignore[arg-type]

    def add_table(self, table: str, user: str | None, at: str | None = None) -> None:
        """A new table, or a retired one back (its records kept): not retired from now."""
        with self.transaction():
            self._x("INSERT INTO tables (id, mqtt_user, added) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    (table, user, at or now()))
            self._x("UPDATE tables SET mqtt_user = ?, retired = NULL WHERE id = ?", (user, table))

    def ensure_table(self, table: str, at: str | None = None) -> bool:
        """A table heard of without ``tables add`` (its broker let it in): listed, no user. True if new."""
        cur = self._x("INSERT INTO tables (id, added) VALUES (?, ?) ON CONFLICT DO NOTHING", (table, at or now()))
        return cur.rowcount == 1

    def retire_table(self, table: str, at: str | None = None) -> bool:
        cur = self._x("UPDATE tables SET retired = ? WHERE id = ? AND retired IS NULL", (at or now(), table))
        return cur.rowcount == 1

    def seen(self, table: str, at: str, status: str | None = None) -> None:
        if status is None:
            self._x("UPDATE tables SET last_seen = ? WHERE id = ?", (at, table))
        else:
            self._x("UPDATE tables SET last_seen = ?, status = ? WHERE id = ?", (at, status, table))

    # -- journals and records

    def ensure_journal(self, table: str, journal: str, at: str | None = None) -> bool:
        """True if the journal is new to the parlour."""
        self.ensure_table(table, at)
        cur = self._x("INSERT INTO journals (table_id, journal_id, first_seen) VALUES (?, ?, ?) "
                      "ON CONFLICT DO NOTHING", (table, journal, at or now()))
        return cur.rowcount == 1

    def raise_highest(self, table: str, journal: str, seq: int) -> None:
        self._x("UPDATE journals SET highest = ? WHERE table_id = ? AND journal_id = ? AND highest < ?",
                (seq, table, journal, seq))

    def insert(self, table: str, rec: Record) -> bool:
        """Store ``rec`` unless (table, journal, seq) is there already; True if stored now."""
        cur = self._x("INSERT INTO records (table_id, journal_id, seq, at, kind, session, source, event, target, hash) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", (table, *rec.row()))
        return cur.rowcount == 1

    def stored(self, table: str, journal: str, seq: int) -> Record | None:
        row = self._x("SELECT journal_id, seq, at, kind, session, source, event, target, hash FROM records "
                      "WHERE table_id = ? AND journal_id = ? AND seq = ?", (table, journal, seq)).fetchone()
        return None if row is None else Record(*row)  # type: ignore[arg-type]

    def tip(self, table: str, journal: str) -> tuple[int, str | None]:
        """The highest stored seq of the journal and its hash ((0, None) with none)."""
        row = self._x("SELECT seq, hash FROM records WHERE table_id = ? AND journal_id = ? ORDER BY seq DESC LIMIT 1",
                      (table, journal)).fetchone()
        return (0, None) if row is None else (int(row[0]), str(row[1]))  # type: ignore[call-overload]

    def ranges(self, table: str, journal: str) -> list[tuple[int, int]]:
        """The stored seqs as runs ``(first, last)``, in order (gaps and islands)."""
        rows = self._x("SELECT min(seq), max(seq) FROM (SELECT seq, seq - ROW_NUMBER() OVER (ORDER BY seq) AS grp "
                       "FROM records WHERE table_id = ? AND journal_id = ?) AS runs GROUP BY grp ORDER BY 1",
                       (table, journal)).fetchall()
        return [(int(a), int(b)) for a, b in rows]  # type: ignore[call-overload]

    def journals(self, table: str | None = None) -> list[JournalRow]:
        where = "" if table is None else "WHERE j.table_id = ? "
        rows = self._x("SELECT j.table_id, j.journal_id, j.first_seen, j.highest, count(r.seq), "
                       "coalesce(max(r.seq), 0) "
                       "FROM journals j LEFT JOIN records r ON r.table_id = j.table_id AND r.journal_id = j.journal_id "
                       f"{where}GROUP BY j.table_id, j.journal_id, j.first_seen, j.highest "
                       "ORDER BY j.table_id, j.first_seen", () if table is None else (table,)).fetchall()
        out = []
        for t, j, f, h, n, m in rows:
            high, count, last = int(h), int(n), int(m)  # type: ignore[call-overload]
            out.append(JournalRow(str(t), str(j), str(f), max(high, last), count, last))
        return out

    def records(self, table: str, journal: str) -> list[Record]:
        rows = self._x("SELECT journal_id, seq, at, kind, session, source, event, target, hash FROM records "
                       "WHERE table_id = ? AND journal_id = ? ORDER BY seq", (table, journal)).fetchall()
        return [Record(*r) for r in rows]  # type: ignore[arg-type]

    def records_from(self, table: str, journal: str, seq: int) -> list[Record]:
        rows = self._x("SELECT journal_id, seq, at, kind, session, source, event, target, hash FROM records "
                       "WHERE table_id = ? AND journal_id = ? AND seq >= ? ORDER BY seq",
                       (table, journal, seq)).fetchall()
        return [Record(*r) for r in rows]  # type: ignore[arg-type]

    def tip_at(self, table: str, journal: str) -> tuple[int, str]:
        """The highest stored seq of the journal and its time ((0, "") with none)."""
        row = self._x("SELECT seq, at FROM records WHERE table_id = ? AND journal_id = ? ORDER BY seq DESC LIMIT 1",
                      (table, journal)).fetchone()
        return (0, "") if row is None else (int(row[0]), str(row[1]))  # type: ignore[call-overload]

    def marks(self, table: str, journal: str) -> list[tuple[int, str, int | None]]:
        """The journal's undo and redo records: ``(seq, kind, target)`` in order."""
        rows = self._x("SELECT seq, kind, target FROM records WHERE table_id = ? AND journal_id = ? "
                       "AND kind <> 'event' ORDER BY seq", (table, journal)).fetchall()
        return [(int(s), str(k), None if t is None else int(t)) for s, k, t in rows]  # type: ignore[call-overload]

    def session_starts(self, table: str, journal: str) -> list[tuple[int, int, str]]:
        """Each session's ``new_session`` record, ``(seq, session, at)`` in order: a session's first event."""
        rows = self._x("SELECT r.seq, r.session, r.at FROM records r JOIN (SELECT session, min(seq) AS first "
                       "FROM records WHERE table_id = ? AND journal_id = ? AND kind = 'event' AND session IS NOT NULL "
                       "GROUP BY session) s ON r.seq = s.first WHERE r.table_id = ? AND r.journal_id = ? "
                       "AND r.event LIKE ? ORDER BY r.seq",
                       (table, journal, table, journal, '%"new_session"%')).fetchall()
        return [(int(q), int(s), str(a)) for q, s, a in rows]  # type: ignore[call-overload]

    # -- the floor plan and the settings

    def place(self, table: str, col: int, row: int) -> None:
        self._x("INSERT INTO floor (table_id, col, row) VALUES (?, ?, ?) ON CONFLICT (table_id) "
                "DO UPDATE SET col = excluded.col, row = excluded.row", (table, col, row))

    def unplace(self, table: str) -> bool:
        return self._x("DELETE FROM floor WHERE table_id = ?", (table,)).rowcount == 1

    def floor(self) -> dict[str, tuple[int, int]]:
        """Where the owner placed tables: table → (column, row), both from 1."""
        rows = self._x("SELECT table_id, col, row FROM floor").fetchall()
        return {str(t): (int(c), int(r)) for t, c, r in rows}  # type: ignore[call-overload]

    def setting(self, name: str) -> str | None:
        row = self._x("SELECT value FROM settings WHERE name = ?", (name,)).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, name: str, value: str) -> None:
        self._x("INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) "
                "DO UPDATE SET value = excluded.value", (name, value))

    def refuse(self, table: str, reason: str, *, journal: str | None = None, seq: int | None = None,
               payload: str | None = None, at: str | None = None) -> None:
        self._x("INSERT INTO refusals (at, table_id, journal_id, seq, reason, payload) VALUES (?, ?, ?, ?, ?, ?)",
                (at or now(), table, journal, seq, reason,
                 None if payload is None else payload[:MAX_REFUSAL_PAYLOAD]))

    def refusals(self, table: str | None = None) -> list[tuple[str, str, str | None, int | None, str]]:
        where = "" if table is None else " WHERE table_id = ?"
        rows = self._x(f"SELECT at, table_id, journal_id, seq, reason FROM refusals{where} ORDER BY id",
                       () if table is None else (table,)).fetchall()
        return [tuple(r) for r in rows]  # type: ignore[misc]


def _safe_url(url: str) -> str:
    """A database URL without its password, for logs."""
    scheme, sep, rest = url.partition("://")
    cred, at, host = rest.rpartition("@")
    return f"{scheme}{sep}{cred.split(':', 1)[0]}@{host}" if at else url
