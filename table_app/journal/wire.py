"""A journal's records as they leave the table for the parlour (docs/mqtt.md, the parlour link).

A journal is named by its **id**: the hex of record 1's hash (32 characters). Record 1 holds
its time (to the millisecond), so a table's reset or new SD card starts a new journal with a
new id. Two *tables* may share one (the parlour rig saw two tables start the same session in
the same millisecond): the parlour keys journals by (table, id), never by the id alone. A
journal with no records has none.

A record on the wire is the seven columns of :data:`table_app.journal.chain.COLUMNS` exactly as
stored (``event`` the stored JSON *text*, or null), its ``hash`` in hex and the journal's
id. Whoever holds the record before it checks it with :func:`follows` — the same hash chain
the table checks (``table_app/journal/chain.py``).

These read a connection of their own (``journal_file.connect(path, "ro")``): never the
service's, whose thread must not wait on anyone's reads.

>>> r = {"journal": "00" * 16, "seq": 1, "at": "2026-12-01T20:00:00.000+00:00", "kind": "event",
...      "session": 1, "source": "stdin", "event": '{"type":"pass"}', "target": None}
>>> r["hash"] = chain.link(chain.ZERO, chain.canonical(1, r["at"], "event", 1, "stdin", r["event"], None)).hex()
>>> follows(chain.ZERO, r), follows(chain.ZERO, {**r, "source": "stdiN"})
(True, False)
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import TypedDict

from table_app.journal import chain
from table_app.journal import file as journal_file

__all__ = ["ID_CHARS", "WireRecord", "follows", "journal_id", "journal_id_at", "last_seq", "read_records"]

ID_CHARS = 2 * chain.HASH_BYTES
_SELECT = "SELECT seq, at, kind, session, source, event, target, hash FROM records WHERE seq BETWEEN ? AND ? " \
          "ORDER BY seq LIMIT ?"


class WireRecord(TypedDict):
    """One record on the wire (``xian/T/journal``, a replay chunk's ``records``)."""

    journal: str
    seq: int
    at: str
    kind: str
    session: int | None
    source: str
    event: str | None
    target: int | None
    hash: str | None


def journal_id(conn: sqlite3.Connection) -> str | None:
    """The journal's id (record 1's hash in hex), or None while it has no records."""
    row = conn.execute("SELECT hash FROM records WHERE seq = 1").fetchone()
    return None if row is None or row[0] is None else bytes(row[0]).hex()


def journal_id_at(path: str | Path) -> str | None:
    """The id of the (already checked) journal at ``path``, read over a read-only connection."""
    with contextlib.closing(journal_file.connect(Path(path), "ro")) as conn:
        return journal_id(conn)


def last_seq(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT coalesce(max(seq), 0) FROM records").fetchone()[0])


def read_records(conn: sqlite3.Connection, jid: str, first: int, last: int, limit: int) -> list[WireRecord]:
    """Records ``first`` … ``last`` (at most ``limit`` of them) as the wire carries them, in seq order."""
    out: list[WireRecord] = []
    for seq, at, kind, session, source, event, target, digest in conn.execute(_SELECT, (first, last, limit)):
        out.append({"journal": jid, "seq": seq, "at": at, "kind": kind, "session": session, "source": source,
                    "event": event, "target": target, "hash": None if digest is None else bytes(digest).hex()})
    return out


def follows(prev: bytes, record: Mapping[str, object]) -> bool:
    """Whether ``record`` (as on the wire) links to ``prev``, the hash of the record before it."""
    try:
        text = chain.canonical(*(record[c] for c in chain.COLUMNS))  # type: ignore[arg-type]
        return bytes.fromhex(str(record["hash"])) == chain.link(prev, text)
    except (KeyError, TypeError, ValueError):
        return False
