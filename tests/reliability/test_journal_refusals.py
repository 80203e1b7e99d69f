"""Issue 16, items 3 and 4: a journal the service will not use is left byte for byte as it was.

Each case is a real file refused by a real ``xian-table serve`` child with exit status 4; the
journal, its ``-wal`` and its ``-shm`` are compared by SHA-256 before and after, and no file
appears beside them. Before this work the service checked over a read-write connection —
SQLite checkpointed the ``-wal`` into a file it had just refused and deleted the ``-wal`` —
and it re-initialised a 0-byte file, and ran "ready" on a read-only one.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from table_app.bench.service import scripted_session
from table_app.journal.journal import Journal, JournalError
from tests.reliability.helpers import ROOT, SESSION, answers, child_env, fingerprint, folder_listing, lines, serve

EVENTS = scripted_session(12, seed=16)  # about 2,000 events: the -wal is checkpointed into the file on the way


def killed_mid_session(tmp_path: Path) -> Path:
    """A journal as SIGKILL leaves it: the file, a -wal with the latest commits, a -shm."""
    db = tmp_path / "table.sqlite3"
    proc = subprocess.Popen([sys.executable, "-m", "table_app.cli", "serve", "--stdin", "--db", str(db)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT,
                            env=child_env(tmp_path))
    assert proc.stdin is not None and proc.stdout is not None
    for ev in EVENTS:
        proc.stdin.write(json.dumps(ev).encode() + b"\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["ok"]
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    for s in ("-wal", "-shm"):
        assert db.with_name(db.name + s).exists()
    assert db.with_name(db.name + "-wal").stat().st_size > 0
    return db


def refused_untouched(tmp_path: Path, db: Path, *words: str) -> str:
    """Start the service on ``db``: exit 4, the reason on one line, every file as it was."""
    before, listing = fingerprint(db), folder_listing(db.parent)
    proc = serve(tmp_path, "--stdin", "--db", str(db), input=lines(SESSION))
    err = proc.stderr.decode()
    assert proc.returncode == 4, err
    assert fingerprint(db) == before
    assert folder_listing(db.parent) - {db.name + ".lock"} == listing - {db.name + ".lock"}
    assert proc.stdout == b"" and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    for w in words:
        assert w in err, err
    return err


def test_a_journal_cut_to_half_after_sigkill_is_refused_and_its_wal_kept(tmp_path: Path) -> None:
    db = killed_mid_session(tmp_path)
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])
    refused_untouched(tmp_path, db, "damaged", "kept exactly as it is")
    # readers refuse it too, in one line, and never write the file or its -wal
    before = fingerprint(db)
    for verb in ("history", "export"):
        proc = subprocess.run([sys.executable, "-m", "table_app.cli", verb, "--db", str(db),
                               *(["--format", "json"] if verb == "export" else [])],
                              capture_output=True, text=True, cwd=ROOT, env=child_env(tmp_path), timeout=120)
        assert proc.returncode == 4 and "Traceback" not in proc.stderr, proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1 and "damaged" in proc.stderr
        after = fingerprint(db)
        assert (after[db.name], after[db.name + "-wal"]) == (before[db.name], before[db.name + "-wal"])


def test_a_sound_journal_left_by_sigkill_opens_with_every_event(tmp_path: Path) -> None:
    """The other side of the checks: the private copy of the file and its -wal is the journal."""
    db = killed_mid_session(tmp_path)
    proc = serve(tmp_path, "--stdin", "--db", str(db), input=lines({"type": "state"}))
    assert proc.returncode == 0 and answers(proc.stdout)[0]["seq"] == len(EVENTS)


def test_a_zero_byte_journal_is_refused_not_started_over(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    db.write_bytes(b"")
    refused_untouched(tmp_path, db, "empty (0 bytes)")
    assert db.stat().st_size == 0


def test_a_file_that_is_not_sqlite_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    db.write_bytes(b"scores: Ann 12, Bo -4\n" * 300)
    db.with_name(db.name + "-wal").write_bytes(b"\x00" * 1000)
    refused_untouched(tmp_path, db, "damaged", "SQLite header")


def test_an_empty_sqlite_database_is_refused_not_made_into_a_journal(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE t (a)")
    conn.execute("DROP TABLE t")
    conn.commit()
    conn.close()
    assert db.stat().st_size > 0
    refused_untouched(tmp_path, db, "an empty SQLite database")


def test_a_wal_without_its_journal_is_never_adopted_by_a_new_one(tmp_path: Path) -> None:
    """A new journal only where no file exists: SQLite would replay a stray -wal into it."""
    old = killed_mid_session(tmp_path)
    os.rename(old, tmp_path / "moved-away.sqlite3")
    err = refused_untouched(tmp_path, old, "does not exist but table.sqlite3-wal does")
    assert "move table.sqlite3-wal away" in err
    assert not old.exists()


def test_a_journal_creation_cut_short_is_started_again_cleanly(tmp_path: Path) -> None:
    """The new journal is made under a temporary name and linked into place: a cut leaves
    only that temporary file, which the next start clears away."""
    db = tmp_path / "table.sqlite3"
    (tmp_path / ".table.sqlite3.new").write_bytes(b"SQLite format 3\x00" + bytes(100))
    proc = serve(tmp_path, "--stdin", "--db", str(db), input=lines(SESSION))
    assert proc.returncode == 0 and answers(proc.stdout)[0]["seq"] == 1
    assert folder_listing(tmp_path) - {"home"} == {"table.sqlite3", "table.sqlite3.lock", "table.sqlite3.synced"}


def as_another_user() -> list[str]:
    """The command prefix that makes a child unable to write what only its owner may: as root,
    drop every capability (the checkout and its .venv stay readable wherever CI put them)."""
    return ["setpriv", "--bounding-set=-all", "--inh-caps=-all"] if os.geteuid() == 0 else []


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_journal_is_refused_rather_than_run_ready(tmp_path: Path, what: str) -> None:
    folder = tmp_path / "state"
    folder.mkdir()
    db = folder / "table.sqlite3"
    proc = serve(tmp_path, "--stdin", "--db", str(db), input=lines(SESSION))
    assert proc.returncode == 0
    (folder / "table.sqlite3.lock").chmod(0o666)
    target = db if what == "file" else folder
    target.chmod(0o444 if what == "file" else 0o555)
    try:
        before, listing = fingerprint(db), folder_listing(folder)
        proc = subprocess.run([*as_another_user(), sys.executable, "-m", "table_app.cli", "serve", "--stdin",
                               "--db", str(db)], input=lines({"type": "state"}), capture_output=True, cwd=ROOT,
                              env=child_env(tmp_path), timeout=120)
        err = proc.stderr.decode()
        assert proc.returncode == 4, (proc.returncode, err, proc.stdout)
        assert "read-only" in err and "Traceback" not in err and proc.stdout == b""
        assert fingerprint(db) == before and folder_listing(folder) == listing
    finally:
        target.chmod(0o755 if what == "folder" else 0o644)


def test_readers_open_a_read_only_journal(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    with Journal.open(db) as j:
        j.append_event(SESSION, None, new_session=True)
    db.chmod(0o444)
    with Journal.open(db, readonly=True) as ro:
        assert ro.last_seq() == 1
    with pytest.raises(JournalError, match="does not exist"):
        Journal.open(tmp_path / "other.sqlite3", readonly=True)
