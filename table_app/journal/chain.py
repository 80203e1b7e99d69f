"""The journal's hash chain: each record sealed with a hash of itself and of the record before.

``h(0)`` is 16 zero bytes; ``h(n) = BLAKE2b-128(h(n-1) + canonical(record n))``, kept in the
record's ``hash`` column. ``canonical`` is the record's seven columns — seq, time, kind,
session, source, event, target — written as SQLite's ``quote()`` writes them, joined by
``,``, in UTF-8. So the check lets SQLite build each record's text (``CANONICAL_SQL``) and
Python only hashes bytes, and any byte that changes in a record — a digit of its seq, a
letter of its event, its type on disk — changes that text: the first record whose hash does
not match is the one a refusal names. A record that is missing breaks the numbering and is
named too.

What it is not: a signature. Whoever can write the file can compute a new chain. It finds
what happens to a table's file — an SD card that flips or loses bytes, a file edited by
hand, a copy cut short — that ``PRAGMA quick_check`` (which looks at the file's structure,
not at the values in it) lets through.

>>> a = link(ZERO, canonical(1, "2026-12-01T20:00:00.000+00:00", "event", 1, "stdin", '{"type":"pass"}', None))
>>> len(a), a == link(ZERO, canonical(1, "2026-12-01T20:00:00.000+00:00", "event", 1, "stdin",
...                                     '{"type":"pasS"}', None))
(16, False)
>>> canonical(7, "t", "undo", None, "it's", None, 3)
b"7,'t','undo',NULL,'it''s',NULL,3"
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass

ZERO = bytes(16)
HASH_BYTES = 16
COLUMNS = ("seq", "at", "kind", "session", "source", "event", "target")
# The same text as canonical(), built by SQLite; CAST to BLOB so that a record whose text a
# flipped byte made into invalid UTF-8 still comes back (as bytes) to be hashed and named.
CANONICAL_SQL = "CAST(" + " || ',' || ".join(f"quote({c})" for c in COLUMNS) + " AS BLOB)"


def quote(value: int | str | None) -> str:
    """A value as SQLite's ``quote()`` writes it (integers, text and NULL: what a record holds)."""
    if value is None:
        return "NULL"
    if type(value) is int:
        return str(value)
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    raise TypeError(f"a journal record holds integers, text or NULL, not {type(value).__name__}")


def canonical(seq: int, at: str, kind: str, session: int | None, source: str, event: str | None,
              target: int | None) -> bytes:
    return ",".join(map(quote, (seq, at, kind, session, source, event, target))).encode("utf-8")


def link(prev: bytes, data: bytes) -> bytes:
    return hashlib.blake2b(prev + data, digest_size=HASH_BYTES).digest()


def snapshot_seal(record_hash: bytes, state: str) -> bytes:
    """A snapshot's hash: its state text, tied to the record it was taken after."""
    return link(record_hash, state.encode("utf-8"))


# Blocks: every BLOCK records the journal also keeps one digest of them all — each column
# gathered by SQLite with group_concat, in seq order, the hashes included — so that a start
# checks a long journal in a fraction of the time a record-by-record walk takes (185,935
# records: about 0.2 s against 1.1 s here). A block that does not match is walked record
# by record, which names the record; a block row that is itself damaged while its records
# all match is only an index: it is reported as stale and made again by the service.
# group_concat writes a BLOB with the bytes of the TEXT it was, and one bit turns a text's
# serial type into a blob's on disk (issue 26), so the same pass also counts the records with
# a value not of its column's type — by comparisons, which SQLite orders NULL < numbers <
# TEXT < BLOB (``x < x''``: not a BLOB; ``x >= x''``: a BLOB; ``x < ''``: a number), about a
# third of what a typeof() of every value costs. A block with any is walked, and the walk,
# whose quote() writes a blob as X'…', names the record. Not in the digest: old digests stay
# valid.
BLOCK = 1024
_MISTYPED_SQL = ("sum(NOT (at < x'' AND kind < x'' AND source < x'' AND ifnull(event < x'', 1) AND hash >= x'' "
                 "AND ifnull(session < '', 1) AND ifnull(target < '', 1)))")
_BLOCK_SQL = f"""
SELECT count(*), min(seq), max(seq), {_MISTYPED_SQL}, CAST(group_concat(seq, ',') AS BLOB),
       CAST(group_concat(ifnull(at, 'N'), x'1e') AS BLOB), CAST(group_concat(ifnull(kind, 'N'), ',') AS BLOB),
       CAST(group_concat(ifnull(session, 'N'), ',') AS BLOB), CAST(group_concat(ifnull(source, 'N'), x'1e') AS BLOB),
       CAST(group_concat(ifnull(event, 'N'), x'1e') AS BLOB), CAST(group_concat(ifnull(target, 'N'), ',') AS BLOB),
       CAST(group_concat(ifnull(hex(hash), 'N'), ',') AS BLOB)
FROM (SELECT * FROM records WHERE seq BETWEEN ? AND ? ORDER BY seq)
"""  # (as BLOBs: a byte a flip made into bad UTF-8 is hashed, not a decoding error)


def block_digest(conn: sqlite3.Connection, last: int) -> tuple[bytes, bool]:
    """The digest of the block of records ending at ``last``, and whether it holds exactly
    the records ``last - BLOCK + 1`` … ``last``, each value of its column's type."""
    first = last - BLOCK + 1
    count, low, high, mistyped, *columns = conn.execute(_BLOCK_SQL, (first, last)).fetchone()
    h = hashlib.blake2b(digest_size=HASH_BYTES)
    for value in columns:
        data = value if isinstance(value, bytes) else str(value).encode("utf-8", "surrogateescape")
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.digest(), (count, low, high, mistyped) == (BLOCK, first, last, 0)


def seal_blocks(conn: sqlite3.Connection) -> int:
    """Add the digest of every full block not sealed yet (inside the caller's transaction)."""
    last_sealed = conn.execute("SELECT coalesce(max(last_seq), 0) FROM chain_blocks").fetchone()[0]
    last_record = conn.execute("SELECT coalesce(max(seq), 0) FROM records").fetchone()[0]
    added = 0
    for last in range(last_sealed + BLOCK, last_record + 1, BLOCK):
        conn.execute("INSERT OR REPLACE INTO chain_blocks (last_seq, digest) VALUES (?, ?)",
                     (last, block_digest(conn, last)[0]))
        added += 1
    return added


@dataclass(frozen=True)
class ChainReport:
    """What the walk along the records found: how many, the last hash, or the first problem."""

    records: int
    last_hash: bytes
    problem: str | None = None
    bad_seq: int | None = None  # the record named by the problem
    stale_blocks: tuple[int, ...] = ()  # block rows (by last seq) that did not match records that do


def verify(conn: sqlite3.Connection, *, chained: bool = True) -> ChainReport:
    """Every record in order: numbered 1, 2, 3, … without a gap and (``chained``) matching
    its hash — whole blocks by their digests, the rest record by record. Stops at the first
    problem, naming the record."""
    if not chained:
        return _walk(conn, 1, None, ZERO, chained=False)
    prev, done, stale = ZERO, 0, []
    blocks = []
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'chain_blocks'").fetchone() is not None:
        blocks = conn.execute("SELECT last_seq, digest FROM chain_blocks ORDER BY last_seq").fetchall()
    for last, digest in blocks:
        if last != done + BLOCK:
            break  # blocks run from record 1 without a gap; past a gap the records are walked
        ours, whole = block_digest(conn, last)
        if whole and ours == digest:
            prev = bytes(conn.execute("SELECT hash FROM records WHERE seq = ?", (last,)).fetchone()[0])
        else:
            report = _walk(conn, done + 1, last, prev)
            if report.problem:
                return report
            stale.append(last)
            prev = report.last_hash
        done = last
    report = _walk(conn, done + 1, None, prev)
    return ChainReport(report.records, report.last_hash, report.problem, report.bad_seq, tuple(stale))


def _walk(conn: sqlite3.Connection, first: int, last: int | None, prev: bytes, *, chained: bool = True) -> ChainReport:
    """Records ``first`` … ``last`` (or the end) one by one, linked from ``prev``."""
    expected = first
    upto = "" if last is None else f" AND seq <= {int(last)}"
    # (a hash stored as TEXT would not decode: read as an empty BLOB, which matches nothing)
    stored_hash = "CASE typeof(hash) WHEN 'text' THEN x'' ELSE hash END"
    cur = conn.execute(f"SELECT seq, {stored_hash if chained else 'NULL'}, {CANONICAL_SQL if chained else 'NULL'} "
                       f"FROM records WHERE seq >= ?{upto} ORDER BY seq", (first,))
    blake = hashlib.blake2b
    for seq, stored, data in cur:  # a hot loop at start: kept to the bone
        if seq != expected:
            return ChainReport(expected - 1, prev, f"record {expected} is missing (the next record is {seq}): "
                                                   f"records must be numbered without a gap", expected)
        if chained:
            prev = blake(prev + data, digest_size=HASH_BYTES).digest()
            if stored != prev:
                why = "has no hash" if stored is None else "does not match the hash chain"
                return ChainReport(seq - 1, prev, f"record {seq} {why}: it was changed after it was written", seq)
        expected += 1
    if last is not None and expected != last + 1:
        return ChainReport(expected - 1, prev, f"record {expected} is missing: records must be numbered without "
                                               f"a gap", expected)
    return ChainReport(expected - 1, prev)


def verify_sessions(conn: sqlite3.Connection) -> str | None:
    """Each session row must be its ``new_session`` record, and each such record have its row.

    The sessions table only indexes the records (where each session starts, its players),
    so the records, which the chain seals, are the truth it is checked against.
    """
    rows = conn.execute("SELECT s.id, s.first_seq, s.players, r.kind, r.session, r.event FROM sessions s "
                        "LEFT JOIN records r ON r.seq = s.first_seq ORDER BY s.id").fetchall()
    firsts = set()
    for sid, first, players, kind, session, event in rows:
        firsts.add(first)
        try:
            data = json.loads(event) if kind == "event" else None
            ok = (session == sid and isinstance(data, dict) and data.get("type") == "new_session"
                  and data.get("players") == json.loads(players))
        except (TypeError, ValueError):
            ok = False
        if not ok:
            return f"session {sid} does not match its first record {first}"
    starts = "SELECT seq FROM records WHERE kind = 'event' AND event LIKE '{\"type\":\"new_session\",%'"
    for (seq,) in conn.execute(starts):
        if seq not in firsts:
            return f"record {seq} starts a session that the sessions table does not list"
    return None
