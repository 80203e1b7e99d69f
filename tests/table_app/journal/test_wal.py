"""table_app/journal/wal.py against -wal files SQLite wrote: damage refused, unfinished writes let be."""

from __future__ import annotations

import random
import shutil
import sqlite3
import struct
from pathlib import Path

import pytest

from table_app.journal import wal

PAGE = 512  # small pages: small frames, so every bit of one can be tried in a test's time
FRAME = wal.FRAME_HEADER + PAGE


def live_wal(folder: Path, transactions: int, *, restart_after: int | None = None, last_rows: int = 1) -> bytes:
    """The -wal of a database after ``transactions`` commits (one row each; ``last_rows`` in the
    last), copied while its connection is open (closing would checkpoint it away).
    ``restart_after``: the log is checkpointed and started over after that many commits, so
    older frames follow the new ones."""
    db = folder / "w.sqlite3"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute(f"PRAGMA page_size = {PAGE}")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, s TEXT)")
    for n in range(transactions):
        if n == restart_after:
            conn.execute("PRAGMA wal_checkpoint(RESTART)")
        rows = last_rows if n == transactions - 1 else 1
        conn.execute("BEGIN")
        conn.executemany("INSERT INTO t (s) VALUES (?)", [(f"row {n} " * 20,)] * rows)
        conn.execute("COMMIT")
    data = (folder / "w.sqlite3-wal").read_bytes()
    shutil.copyfile(db, folder / "copy.sqlite3")
    conn.close()
    return data


def frames(data: bytes) -> list[tuple[int, int]]:
    """(offset, commit field) of each frame with the header's salts."""
    return [(at, struct.unpack(">I", data[at + 4:at + 8])[0]) for at in range(wal.HEADER, len(data) - FRAME + 1, FRAME)
            if data[at + 8:at + 16] == data[16:24]]


def flip(data: bytes, offset: int, bit: int) -> bytes:
    b = bytearray(data)
    b[offset] ^= 1 << bit
    return bytes(b)


def rows_sqlite_reads(folder: Path, data: bytes) -> int:
    """How many rows SQLite reads from the database copy with this -wal beside it."""
    (folder / "copy.sqlite3-wal").write_bytes(data)
    (folder / "copy.sqlite3-shm").unlink(missing_ok=True)
    conn = sqlite3.connect(folder / "copy.sqlite3")
    try:
        return int(conn.execute("SELECT count(*) FROM t").fetchone()[0])
    finally:
        conn.close()
        for s in ("-wal", "-shm"):
            (folder / f"copy.sqlite3{s}").unlink(missing_ok=True)


def test_a_sound_wal_passes(tmp_path: Path) -> None:
    data = live_wal(tmp_path, 12)
    assert len(frames(data)) >= 12 and wal.verify(data) is None


def test_every_bit_of_the_header_is_refused_when_commits_follow(tmp_path: Path) -> None:
    data = live_wal(tmp_path, 5)
    for bit in range(wal.HEADER * 8):
        bad = flip(data, bit // 8, bit % 8)
        found = wal.verify(bad)
        assert found is not None and found.frame == 0 and found.lost_commits >= 5, bit
        assert "w-wal header: one flipped bit" in found.describe("w-wal")


def test_bits_of_a_middle_frame_are_refused_naming_it_and_what_sqlite_would_drop(tmp_path: Path) -> None:
    data = live_wal(tmp_path, 12)
    at, _ = frames(data)[5]
    rng = random.Random(26)
    seen = 0
    for _ in range(300):
        i = rng.randrange(FRAME)
        bad = flip(data, at + i, rng.randrange(8))
        found = wal.verify(bad)
        if found is None:  # a bit the checksum cannot see: then SQLite reads every row
            assert rows_sqlite_reads(tmp_path, bad) == 12
            continue
        assert found.one_bit and found.frame == 6 and found.lost_commits >= 6
        if seen < 5:  # (what the refusal saves: SQLite itself would read fewer rows)
            assert rows_sqlite_reads(tmp_path, bad) < 12
        seen += 1
    assert seen > 290


def test_a_scrambled_frame_followed_by_later_transactions_is_damage(tmp_path: Path) -> None:
    """More than one bit: no repair, but a commit and a transaction after it prove the loss."""
    data = live_wal(tmp_path, 12)
    at, _ = frames(data)[4]
    bad = bytearray(data)
    bad[at + 100:at + 200] = random.Random(1).randbytes(100)
    found = wal.verify(bytes(bad))
    assert found is not None and not found.one_bit and found.frame == 5
    assert "its checksum does not match" in found.describe("x-wal")


def test_an_unfinished_last_transaction_is_a_torn_tail(tmp_path: Path) -> None:
    """As a power cut leaves it: the last transaction's frames partly there — cut short,
    scrambled, its commit frame there but an earlier frame not (sectors landed out of order)."""
    data = live_wal(tmp_path, 6)
    live = frames(data)
    last_commit = live[-1][0]
    assert live[-1][1] != 0
    cut_short = data[:last_commit + FRAME // 2]
    assert wal.verify(cut_short) is None
    scrambled = bytearray(data)
    scrambled[last_commit + 40:last_commit + 90] = bytes(50)
    assert wal.verify(bytes(scrambled)) is None


def test_a_last_transaction_whose_commit_frame_landed_before_an_earlier_frame_is_a_torn_tail(
        tmp_path: Path) -> None:
    """Sectors of one sync land in any order: the last transaction's commit frame on disk, one
    of its earlier frames not (zeros where the file grew). SQLite drops the transaction; it was
    never acknowledged (its fsync did not return), so that is right, and not damage."""
    data = live_wal(tmp_path, 6, last_rows=8)
    live = frames(data)
    commits = [i for i, (_, commit) in enumerate(live) if commit]
    first_of_last = commits[-2] + 1
    assert commits[-1] - first_of_last >= 1  # the last transaction has two frames or more
    at = live[first_of_last][0]
    lost = data[:at] + bytes(FRAME) + data[at + FRAME:]
    assert wal.verify(lost) is None
    assert rows_sqlite_reads(tmp_path, lost) == 5
    # the same frame one flipped bit away from sound: a whole write that was damaged afterwards
    found = wal.verify(flip(data, at + 200, 5))
    assert found is not None and found.one_bit and found.frame == first_of_last + 1 and found.lost_commits == 1


def test_older_frames_after_a_restart_are_not_damage(tmp_path: Path) -> None:
    data = live_wal(tmp_path, 10, restart_after=6)
    ours = frames(data)
    everything = (len(data) - wal.HEADER) // FRAME
    assert len(ours) < everything  # frames of the log before the restart follow
    assert wal.verify(data) is None
    old = wal.HEADER + len(ours) * FRAME
    assert wal.verify(flip(data, old + 300, 3)) is None  # damage in a frame SQLite never reads


@pytest.mark.parametrize("size", [0, 10, wal.HEADER, wal.HEADER + 100])
def test_a_wal_with_no_frame_is_sound(size: int) -> None:
    assert wal.verify(bytes(size)) is None
