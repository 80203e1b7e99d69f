"""Backups of a journal that is being written: consistent copies, pruning, the CLI."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from table_app.backup import BackupError, backup_journal, backups_in, check_copy
from table_app.bench.service import scripted_session
from table_app.journal import Journal
from table_app.service import Notice, TableService

SESSION = scripted_session(3, seed=7)


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    return tmp_path / "state" / "journal.sqlite3"


class BusyTable:
    """A running TableService fed the scripted session over and over by a writer thread."""

    def __init__(self, path: Path) -> None:
        self.journal = Journal.open(path)
        self.service = TableService(self.journal, claim_window_s=0)
        self.states: dict[int, dict[str, Any]] = {}  # seq -> public state after it
        self.service.subscribe(self._seen)
        self.stop = threading.Event()
        self.writes = threading.Semaphore(0)
        self.thread = threading.Thread(target=self._write, daemon=True)

    def _seen(self, notice: Notice) -> None:
        self.states[notice.seq] = notice.state
        self.writes.release()

    def _write(self) -> None:
        n = 0
        while not self.stop.is_set():
            for event in SESSION:
                if self.stop.is_set():
                    return
                self.service.call(event, source="test")  # refused ones (the service resolved first) write nothing
                n += 1
                if n % 50 == 0:
                    self.service.call({"type": "undo"}, source="test")

    def wait_writes(self, n: int) -> None:
        for _ in range(n):
            assert self.writes.acquire(timeout=30)

    def __enter__(self) -> BusyTable:
        self.service.start()
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(30)
        self.service.stop()
        self.journal.close()


def records(path: Path) -> list[tuple[Any, ...]]:
    con = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        return con.execute("SELECT seq, kind, session, source, event, target FROM records ORDER BY seq").fetchall()
    finally:
        con.close()


def test_backups_of_a_busy_journal_are_sound_and_replay_to_the_state_at_their_last_event(
        journal_path: Path, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    made = []
    with BusyTable(journal_path) as table:
        for i in range(6):
            table.wait_writes(40)  # the writer commits between and during the copies
            stamp = datetime(2026, 12, 1, 3, 0, tzinfo=UTC) + timedelta(minutes=i)
            made.append(backup_journal(journal_path, folder, keep=10, now=lambda s=stamp: s))
        table.wait_writes(10)
        states = dict(table.states)
    assert [r.path for r in made] == backups_in(folder)
    seqs = [r.last_seq for r in made]
    assert seqs == sorted(seqs) and seqs[0] >= 40 and len(set(seqs)) == 6
    original = records(journal_path)
    for r in made:
        assert check_copy(r.path) == ["ok"]
        assert not Path(str(r.path) + "-wal").exists()  # a single self-contained file
        assert records(r.path) == original[:r.last_seq]  # exactly a prefix: no torn commit
        with Journal.open(r.path) as copy:  # the table restarted from the backup
            restored = TableService(copy, claim_window_s=0)
            assert restored.seq == r.last_seq
            assert restored.public == states[r.last_seq]


def test_keep_prunes_to_the_newest_n(journal_path: Path, tmp_path: Path) -> None:
    with Journal.open(journal_path) as j:
        j.append_event({"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}, None,
                       new_session=True)
    folder = tmp_path / "b"
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for day in range(5):
        result = backup_journal(journal_path, folder, keep=3, now=lambda d=day: start + timedelta(days=d))
    assert [p.name for p in backups_in(folder)] == [
        "journal-20260103T000000Z.sqlite3", "journal-20260104T000000Z.sqlite3", "journal-20260105T000000Z.sqlite3"]
    assert [p.name for p in result.removed] == ["journal-20260102T000000Z.sqlite3"]
    (folder / "notes.txt").write_text("mine")  # other files in the folder are never touched
    same = backup_journal(journal_path, folder, keep=3, now=lambda: start + timedelta(days=4))
    assert same.path.name == "journal-20260105T000000Z-1.sqlite3"  # same second: a new name, not overwritten
    assert backups_in(folder)[-1] == same.path and (folder / "notes.txt").exists()


def test_a_file_destination_is_written_as_named(journal_path: Path, tmp_path: Path) -> None:
    Journal.open(journal_path).close()
    result = backup_journal(journal_path, tmp_path / "copy.sqlite3")
    assert result.path == tmp_path / "copy.sqlite3" and result.last_seq == 0
    assert check_copy(result.path) == ["ok"]


def test_refuses_what_is_not_a_journal(tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="does not exist"):
        backup_journal(tmp_path / "missing.sqlite3", tmp_path / "out")
    (tmp_path / "text").write_text("hello")
    with pytest.raises(BackupError, match="not an SQLite file"):
        backup_journal(tmp_path / "text", tmp_path / "out")
    sqlite3.connect(tmp_path / "other.db").execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(BackupError, match="not a xian-table journal"):
        backup_journal(tmp_path / "other.db", tmp_path / "out", keep=2)
    assert backups_in(tmp_path / "out") == [] and not list((tmp_path / "out").iterdir())  # no temporary left


def test_a_root_reader_gives_the_sidecar_files_back_to_the_journal_owner(journal_path: Path, tmp_path: Path) -> None:
    """Reading a WAL journal creates -wal/-shm; made by root they would lock the service out."""
    Journal.open(journal_path).close()  # clean close: no -wal, no -shm
    owner = (4321, 4321) if os.geteuid() == 0 else (os.getuid(), os.getgid())  # only root can give files away
    os.chown(journal_path, *owner)
    backup_journal(journal_path, tmp_path / "b", keep=1)
    sidecars = [Path(str(journal_path) + s) for s in ("-wal", "-shm")]
    assert any(p.exists() for p in sidecars)  # the read-only reader did create them
    for side in sidecars:
        if side.exists():
            assert (side.stat().st_uid, side.stat().st_gid) == owner


def test_cli_backup_defaults_to_backups_beside_the_journal(cli: Any, journal_path: Path, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[journal]\npath = "{journal_path}"\n')
    with Journal.open(journal_path) as j:
        j.append_event({"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}, None,
                       new_session=True)
    done = cli("backup", "--config", str(config), check=True)
    made = backups_in(journal_path.parent / "backups")
    assert len(made) == 1 and str(made[0]) in done.stdout and "1 records, integrity and hash chain ok" in done.stdout
    bad = cli("backup", "--config", str(config), "--keep", "0")
    assert bad.returncode == 2 and "--keep must be at least 1" in bad.stderr
    missing = cli("backup", "--db", str(tmp_path / "nope.sqlite3"), str(tmp_path / "x.sqlite3"))
    assert missing.returncode == 1 and "does not exist" in missing.stderr


@pytest.fixture(autouse=True)
def _no_stray_threads() -> Iterator[None]:
    before = set(threading.enumerate())
    yield
    leftover = [t for t in threading.enumerate() if t not in before and t.is_alive() and t.name == "table-service"]
    assert not leftover


def test_the_module_examples_run() -> None:
    import doctest

    import table_app.backup

    result = doctest.testmod(table_app.backup)
    assert result.attempted > 0 and result.failed == 0
