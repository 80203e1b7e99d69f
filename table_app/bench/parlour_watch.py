"""The rig's own eyes on the parlour database and on the tables' journals: it reads both
directly (the journals with ``table_app/journal/journal.py``, read-only, the hash chain checked;
the parlour's ``records`` over a connection of its own), never through the parlour service.

:class:`Watch` polls the parlour's records every ``poll_s`` and notes when each (table, seq)
was first seen there: with the record's own ``at`` (the table's commit time, same clock)
that is the event → parlour database time, to within the poll interval.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import cast

from table_app.journal import file as journal_file
from table_app.journal.journal import Journal

Row = tuple[str, int, str, str, int | None, str, str | None, int | None, str]
"""journal id, seq, at, kind, session, source, event (stored text), target, hash (hex)"""

_JOURNAL_SQL = "SELECT seq, at, kind, session, source, event, target, hash FROM records ORDER BY seq"
_PARLOUR_SQL = ("SELECT journal_id, seq, at, kind, session, source, event, target, hash FROM records "
                "WHERE table_id = ? ORDER BY journal_id, seq")


def journal_rows(path: Path) -> list[Row]:
    """Every record of the table's journal, as stored, with its journal id (record 1's hash).
    The journal is opened read-only by ``Journal.open``, which checks the file and its hash
    chain first (a damaged journal fails here, not in the comparison)."""
    Journal.open(path, readonly=True).close()
    with contextlib.closing(journal_file.connect(Path(path), "ro")) as conn:
        rows = conn.execute(_JOURNAL_SQL).fetchall()
    if not rows:
        return []
    jid = bytes(rows[0][7]).hex()
    return [(jid, s, at, k, sess, src, ev, tgt, bytes(h).hex()) for s, at, k, sess, src, ev, tgt, h in rows]


def journal_last(path: Path) -> int:
    with contextlib.closing(journal_file.connect(Path(path), "ro")) as conn:
        return int(conn.execute("SELECT coalesce(max(seq), 0) FROM records").fetchone()[0])


def at_time(at: str) -> float:
    """A journal ``at`` (ISO 8601 with milliseconds and offset) as ``time.time()`` seconds."""
    return datetime.fromisoformat(at).timestamp()


def _int(value: object) -> int:
    if not isinstance(value, int):
        raise TypeError(f"expected an integer from the parlour database, got {value!r}")
    return value


class ParlourReader:
    """A connection of the rig's own to the parlour database (a SQLite file or a PostgreSQL URL)."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.pg = spec.startswith(("postgresql://", "postgres://"))
        self._conn: object = None

    def _execute(self, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        if self._conn is None:
            if self.pg:
                import psycopg

                self._conn = psycopg.connect(self.spec, autocommit=True)
            else:
                self._conn = sqlite3.connect(f"file:{self.spec}?mode=ro", uri=True, timeout=30)
        if self.pg:
            sql = sql.replace("?", "%s")
        try:
            return list(self._conn.execute(sql, tuple(params)).fetchall())  # type: ignore[attr-defined]
        except Exception:
            self.close()  # (a database restarted under us: a fresh connection next time)
            raise

    def rows(self, table: str) -> list[Row]:
        """The parlour's records of ``table``, as stored (the types as read: an integer
        stored as text would differ from the journal's, and be reported)."""
        return [cast(Row, tuple(r)) for r in self._execute(_PARLOUR_SQL, (table,))]

    def seqs_after(self, table: str, after: int) -> list[int]:
        return [_int(s) for (s,) in self._execute("SELECT seq FROM records WHERE table_id = ? AND seq > ?",
                                                  (table, after))]

    def count(self, table: str) -> int:
        return _int(self._execute("SELECT count(*) FROM records WHERE table_id = ?", (table,))[0][0])

    def size_bytes(self) -> int:
        if self.pg:
            return _int(self._execute("SELECT pg_database_size(current_database())")[0][0])
        # (what the records take, not what SQLite's write-ahead log holds for a while: up to 4 MB
        # that a checkpoint writes into the file)
        with contextlib.closing(sqlite3.connect(self.spec, timeout=30)) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return sum(p.stat().st_size for p in Path(self.spec).parent.glob(Path(self.spec).name + "*"))

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()  # type: ignore[attr-defined]
            self._conn = None


class Watch:
    """Polls the parlour's records: :attr:`first_seen` ``{table: {seq: time}}``."""

    def __init__(self, spec: str, tables: Sequence[str], poll_s: float = 0.05) -> None:
        self.reader = ParlourReader(spec)
        self.tables = list(tables)
        self.poll_s = poll_s
        self.first_seen: dict[str, dict[int, float]] = {t: {} for t in self.tables}
        self._high = dict.fromkeys(self.tables, 0)  # the highest seq below which every record was seen
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="parlour-watch")
        self.errors = 0

    def start(self) -> Watch:
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.poll_s):
            for t in self.tables:
                try:
                    seqs = self.reader.seqs_after(t, self._high[t])
                except Exception:  # (the database is not there yet, or restarting)
                    self.errors += 1
                    break
                now = time.time()
                seen = self.first_seen[t]
                for s in seqs:
                    seen.setdefault(s, now)
                while self._high[t] + 1 in seen:
                    self._high[t] += 1

    def high(self, table: str) -> int:
        return self._high[table]

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
        self.reader.close()
