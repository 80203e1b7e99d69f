"""Issue 26: the ``-wal`` check never refuses a healthy journal that the table is writing.

``history``, ``export``, ``doctor`` and ``xian-table backup`` (its daily timer may fire at a
busy moment) check the ``-wal`` (``journal_file.check_wal``) while ``serve`` keeps
committing. That check reads the file with one plain ``read()``, without SQLite's locks, so
it is not a snapshot: once SQLite has checkpointed and started the log over, it writes each
new transaction over the frames of the older log, in place, and a read that is slower than
the writer at that spot can hold the frame being written half old and half new, followed by
frames the writer finished after the read passed it (a commit, and the next transaction
running on from it). :func:`table_app.journal.wal.verify` rightly calls that damage in a file at
rest, so the live journal was refused, exit 4, no backup made.

A read is slower than the writer when the ``-wal``'s pages are not in the page cache (memory
pressure on a Pi evicts clean pages; here ``posix_fadvise(DONTNEED)`` drops them before
each check). A real ``serve --stdin`` commits as fast as it is fed, each answer read; the
test checks the live journal again and again and counts refusals: there must be none.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from table_app.journal import wal
from table_app.journal.file import JournalError, check_wal, settled_damage
from tests.reliability.helpers import ROOT, child_env
from tests.table_app.cli.test_serve_crash import build_script

HEADER = 32
FRAME = 24 + 4096
PAGE = 4096  # the page cache's unit: a read() copies the file page by page, the writer meanwhile going on


class Writer:
    """A real ``serve --stdin`` fed a scripted session flat out, its answers read as they come."""

    def __init__(self, work: Path) -> None:
        self.db = work / "table.sqlite3"
        config = work / "config.toml"
        config.write_text("[table]\nclaim_window_s = 0\n")
        self.stderr = (work / "serve-stderr.txt").open("wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "table_app.cli", "serve", "--stdin", "--db",
                                      str(self.db), "--config", str(config)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.stderr, cwd=ROOT, env=child_env(work))
        self.acked = 0
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._feed, daemon=True),
                        threading.Thread(target=self._read, daemon=True)]
        for t in self.threads:
            t.start()

    def _feed(self) -> None:
        assert self.proc.stdin is not None
        seed = 0
        try:
            while not self.stop.is_set():
                seed += 1
                for cmd in build_script(seed, hands=5):
                    self.proc.stdin.write((cmd if isinstance(cmd, str) else json.dumps(cmd)).encode() + b"\n")
                self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if json.loads(line).get("ok"):
                self.acked += 1

    def salts(self) -> bytes:
        """The ``-wal`` header's salts: they change each time SQLite starts the log over."""
        with self.db.with_name(self.db.name + "-wal").open("rb") as f:
            return f.read(HEADER)[16:24]

    def close(self) -> None:
        self.stop.set()
        self.proc.kill()
        self.proc.wait()
        self.stderr.close()


def evict(p: Path) -> None:
    """Drop the file's clean pages from the page cache, as memory pressure does."""
    fd = os.open(p, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def checks_while_writing(work: Path, seconds: float) -> dict[str, object]:
    writer = Writer(work)
    wal_file = writer.db.with_name(writer.db.name + "-wal")
    checks = restarts = 0
    refusals: list[str] = []
    try:
        deadline = time.monotonic() + 120
        while not (wal_file.exists() and wal_file.stat().st_size > HEADER) and time.monotonic() < deadline:
            time.sleep(0.05)
        first = writer.salts()
        while writer.salts() == first and time.monotonic() < deadline:  # the log started over at least once
            time.sleep(0.05)
        assert writer.salts() != first, "the -wal never started over: no checkpoint in two minutes"
        salts = writer.salts()
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            evict(wal_file)
            try:
                check_wal(writer.db)
            except JournalError as e:
                refusals.append(e.detail or str(e))
            checks += 1
            if (now := writer.salts()) != salts:
                salts = now
                restarts += 1
        assert writer.proc.poll() is None, (work / "serve-stderr.txt").read_text()
    finally:
        writer.close()
    return {"checks": checks, "refused": len(refusals), "restarts": restarts, "acked": writer.acked,
            "first_refusal": refusals[0] if refusals else None}


@pytest.mark.soak
@pytest.mark.timeout(900)
def test_soak_check_wal_never_refuses_the_live_journal(tmp_path: Path) -> None:
    tally = checks_while_writing(tmp_path, seconds=180)
    print("live -wal checks:", tally)
    assert tally["refused"] == 0, tally


def test_a_read_torn_by_the_writer_looks_damaged_so_check_wal_judges_only_a_read_that_stays(tmp_path: Path) -> None:
    """The cause, deterministically: real SQLite starts its log over after a checkpoint and
    overwrites the older frames in place; a read that copied the file's first pages after
    commit 1 and the rest after commit 3 (a read() is not atomic against a writer) holds the
    first frame of commit 2 half old, half new, then commit 2's sound commit frame and commit
    3 running on from it. wal.verify calls that damage — rightly, for a file at rest — so
    ``check_wal`` must not refuse a live journal on one read (re-read: damage stays, a torn
    read does not)."""
    db = tmp_path / "j.sqlite3"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("CREATE TABLE t(x)")
    for _ in range(60):
        conn.execute("INSERT INTO t VALUES (?)", (os.urandom(6000),))
    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")  # all in the file: the next write starts the log over
    wal_file = db.with_name(db.name + "-wal")
    snapshots = []
    for _ in range(3):
        conn.execute("INSERT INTO t VALUES (?)", (os.urandom(6000),))
        snapshots.append(wal_file.read_bytes())
    conn.close()
    assert all(wal.verify(s) is None for s in snapshots)  # each a sound log, read at rest
    first, third = snapshots[0], snapshots[2]
    frames_1 = next(i for i in range(1, 60) if first[HEADER + i * FRAME:HEADER + (i + 1) * FRAME]
                    != third[HEADER + i * FRAME:HEADER + (i + 1) * FRAME])  # commit 2's first frame (from 0)
    start = HEADER + frames_1 * FRAME
    cut = (start // PAGE + 1) * PAGE  # the first page boundary inside that frame
    assert cut < start + FRAME
    torn = first[:cut] + third[cut:]
    found = wal.verify(torn)
    assert found is not None and found.frame == frames_1 + 1 and not found.one_bit
    # check_wal judges only a read that stays the same: the torn read, then the log at rest
    # (sound); real damage reads the same twice; a log that changes at every read is no verdict
    def reads(*seq: bytes | None) -> Callable[[], bytes | None]:
        it = iter(seq)
        return lambda: next(it)

    assert settled_damage(reads(torn, third), db, settle_s=0) is None
    assert settled_damage(reads(torn, None), db, settle_s=0) is None  # (checkpointed and gone meanwhile)
    assert settled_damage(reads(torn, torn), db, settle_s=0) == found
    other = first[:cut + PAGE] + third[cut + PAGE:]
    assert wal.verify(other) is not None and other != torn
    with pytest.raises(JournalError, match="changed at each of 3 reads"):
        settled_damage(reads(torn, other, torn), db, settle_s=0)
    # and the real file: a torn -wal at rest is refused (it reads the same), a sound one passes
    wal_file.write_bytes(torn)
    with pytest.raises(JournalError, match="damaged"):
        check_wal(db)
    wal_file.write_bytes(third)
    check_wal(db)
