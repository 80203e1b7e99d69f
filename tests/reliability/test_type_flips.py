"""Issue 26, item 2: a value whose type changed on disk is found, even inside a sealed block.

SQLite keeps each value's type in the record's header as a *serial type*: text of n bytes is
2n+13, a blob of n bytes 2n+12 — one bit apart. The block digests (``chain_blocks``) gather
each column with ``group_concat``, which writes a blob with the same bytes as the text, so
one flipped bit turned record 500's ``kind`` into a BLOB that the digest of its block did not
see: ``serve`` started (exit 0) while ``history`` and ``export`` refused "record 500 is not an
event". Here the serial type of each column of record 500 — inside the first sealed block of
1,024 records — is changed in the file itself (TEXT↔BLOB, and INTEGER↔TEXT or NULL→INTEGER
where the value keeps its length), and a real ``serve`` must refuse, naming record 500.
"""

from __future__ import annotations

import shutil
import sqlite3
import struct
from pathlib import Path

import pytest

from table_app.bench.service import scripted_session
from table_app.core.service import TableService
from table_app.journal.journal import Journal
from tests.reliability.helpers import fingerprint, lines, records_leaf_pages, serve

# 1,281 events, then a second session: record 500 lies in the first sealed block, in a session
# that a start does not replay (only the last one is)
EVENTS = scripted_session(8, seed=10) + scripted_session(1, seed=11)
SEQ = 500
COLUMNS = ("seq", "at", "kind", "session", "source", "event", "target", "hash")


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("types") / "journal.sqlite3"
    with Journal.open(path) as j, TableService(j, claim_window_s=0) as svc:
        for ev in EVENTS:
            assert svc.call(ev, source="test").ok
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT kind, target FROM records WHERE seq = ?", (SEQ,)).fetchone() == ("event", None)
        assert conn.execute("SELECT min(last_seq) FROM chain_blocks").fetchone()[0] == 1024
    finally:
        conn.close()
    return path


def varint(data: bytes, at: int) -> tuple[int, int]:
    """An SQLite varint at ``at``: its value and the offset after it."""
    value = 0
    for i in range(8):
        value = (value << 7) | (data[at + i] & 0x7F)
        if data[at + i] < 0x80:
            return value, at + i + 1
    return (value << 8) | data[at + 8], at + 9


def serial_types(path: Path, seq: int) -> dict[str, tuple[int, int]]:
    """Where each column's serial type of record ``seq`` is in the file: ``{column: (offset, type)}``
    (each a one-byte varint here), found on the records table's leaf pages."""
    data, _, pages = records_leaf_pages(path)
    for base, header in pages:
        cells = struct.unpack(">H", data[header + 3:header + 5])[0]
        for n in range(cells):
            cell = base + struct.unpack(">H", data[header + 8 + 2 * n:header + 10 + 2 * n])[0]
            _, at = varint(data, cell)
            rowid, at = varint(data, at)
            if rowid != seq:
                continue
            _, at = varint(data, at)  # the record header's size
            found = {}
            for column in COLUMNS:
                serial, after = varint(data, at)
                assert after == at + 1, "a serial type of more than one byte"
                found[column] = (at, serial)
                at = after
            return found
    raise AssertionError(f"record {seq} not found")


def flips(path: Path) -> list[tuple[str, str, int, int]]:
    """``(column, change, offset, new serial type)`` for each column of record SEQ."""
    out = []
    for column, (at, serial) in serial_types(path, SEQ).items():
        if serial >= 12:  # text ↔ blob: the low bit
            out.append((column, "TEXT→BLOB" if serial % 2 else "BLOB→TEXT", at, serial ^ 1))
        elif serial in (8, 9):  # the integer 0 or 1 (no bytes) → empty text: one bit
            out.append((column, "INTEGER→TEXT", at, serial | 4))
        elif serial == 1:  # a one-byte integer ↔ one byte of text
            out.append((column, "INTEGER→TEXT", at, 15))
        elif serial == 0 and column != "seq":  # NULL → the integer 0 (no bytes either)
            out.append((column, "NULL→INTEGER", at, 8))
    return out


def test_record_500_has_a_type_to_flip_in_every_column(journal: Path) -> None:
    assert [c for c, *_ in flips(journal)] == list(COLUMNS[1:])


@pytest.mark.parametrize("column", COLUMNS[1:])
def test_a_value_whose_type_flipped_in_a_sealed_block_is_refused_and_named(journal: Path, tmp_path: Path,
                                                                          column: str) -> None:
    (_, change, at, serial), = [f for f in flips(journal) if f[0] == column]
    db = tmp_path / journal.name
    shutil.copyfile(journal, db)
    data = bytearray(db.read_bytes())
    data[at] = serial
    db.write_bytes(bytes(data))
    before = fingerprint(db)
    proc = serve(tmp_path, "--stdin", "--db", str(db), input=lines({"type": "state"}))
    err = proc.stderr.decode()
    assert proc.returncode == 4, f"{column} {change}: exit {proc.returncode}, {err}"
    assert "is damaged" in err and f"record {SEQ}" in err and "Traceback" not in err, err
    assert fingerprint(db) == before
