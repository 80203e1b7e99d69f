"""Backups of a journal that is being written: consistent copies, pruning, the CLI."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from table_app.bench.service import scripted_session
from table_app.core.service import Notice, TableService
from table_app.journal.backup import BackupError, backup_journal, backups_in, check_copy
from table_app.journal.journal import Journal

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


NEW_SESSION = {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}


def test_keep_prunes_to_the_newest_n(journal_path: Path, tmp_path: Path) -> None:
    with Journal.open(journal_path) as j:
        j.append_event(NEW_SESSION, None, new_session=True)
    folder = tmp_path / "b"
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for day in range(5):
        result = backup_journal(journal_path, folder, keep=3, now=lambda d=day: start + timedelta(days=d))
    assert [p.name for p in backups_in(folder)] == [
        "journal-000003-20260103T000000Z.sqlite3", "journal-000004-20260104T000000Z.sqlite3",
        "journal-000005-20260105T000000Z.sqlite3"]
    assert [p.name for p in result.removed] == ["journal-000002-20260102T000000Z.sqlite3"]
    (folder / "notes.txt").write_text("mine")  # other files in the folder are never touched
    same = backup_journal(journal_path, folder, keep=3, now=lambda: start + timedelta(days=4))
    assert same.path.name == "journal-000006-20260105T000000Z.sqlite3"  # same second: a new name, not overwritten
    assert backups_in(folder)[-1] == same.path and (folder / "notes.txt").exists()
    assert sorted(p.name for p in folder.iterdir()) == sorted([p.name for p in backups_in(folder)] + ["notes.txt"])


def shifted(days: float) -> Callable[[], datetime]:
    """The real clock, ``days`` off: a Pi without a real-time clock boots with an old one."""
    return lambda: datetime.now(UTC) + timedelta(days=days)


def test_backups_while_the_clock_is_behind_keep_the_newest_copies(journal_path: Path, tmp_path: Path) -> None:
    """The clock right, 30 days behind the newest backup, right again, behind again, ahead and back:
    each backup is kept, the newest copies (the most records) are the ones kept, none fails."""
    folder = tmp_path / "b"
    made: list[int] = []  # records in each backup, in the order made
    with Journal.open(journal_path) as j:
        for days in (0, -30, 0, -30, 400, -30):
            for _ in range(3):
                j.append_event(NEW_SESSION, None, new_session=True)
                result = backup_journal(journal_path, folder, keep=3, now=shifted(days))
                made.append(result.last_seq)
                assert result.path.is_file() and result.path not in result.removed
                assert result.path == backups_in(folder)[-1]
                kept = [len(records(p)) for p in backups_in(folder)]
                assert kept == made[-3:]  # oldest first: the three newest by content
    assert made == list(range(1, 19))


def test_names_differ_when_the_clock_repeats_a_time(journal_path: Path, tmp_path: Path) -> None:
    Journal.open(journal_path).close()
    folder = tmp_path / "b"
    stopped = datetime(2026, 1, 1, tzinfo=UTC)
    folder.mkdir()
    paths = [backup_journal(journal_path, folder, now=lambda: stopped).path for _ in range(4)]
    assert len(set(paths)) == 4 and backups_in(folder) == paths


def test_backups_from_before_the_numbers_count_as_older(journal_path: Path, tmp_path: Path) -> None:
    """An installed table's folder has journal-TIME.sqlite3 files, some maybe from a clock far ahead."""
    Journal.open(journal_path).close()
    folder = tmp_path / "b"
    folder.mkdir()
    legacy = ["journal-20991231T000000Z.sqlite3", "journal-20260101T000000Z-1.sqlite3",
              "journal-20260101T000000Z.sqlite3"]
    for name in legacy:
        backup_journal(journal_path, folder / name)
    assert [p.name for p in backups_in(folder)] == [legacy[2], legacy[1], legacy[0]]
    result = backup_journal(journal_path, folder, keep=2, now=shifted(-30))
    assert result.path.name.startswith("journal-000001-")
    assert [p.name for p in result.removed] == [legacy[2], legacy[1]]
    assert backups_in(folder) == [folder / legacy[0], result.path]


def test_two_backups_into_one_folder_at_once_take_turns_for_their_numbers(journal_path: Path, tmp_path: Path) -> None:
    """The daily timer and a backup by hand: each process copies, then takes the folder's lock
    to choose its number, rename and prune."""
    with Journal.open(journal_path) as j:
        j.append_event(NEW_SESSION, None, new_session=True)
    folder = tmp_path / "b"
    folder.mkdir()
    argv = [sys.executable, "-m", "table_app.cli", "backup", "--db", str(journal_path), "--keep", "3", str(folder)]
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # held here: the processes copy, then wait for their turn
        procs = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(4)]
        deadline = time.monotonic() + 60
        while len(list(folder.glob(".journal-backup.tmp-*"))) < 4 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)
        assert len(list(folder.glob(".journal-backup.tmp-*"))) == 4 and backups_in(folder) == []
        assert all(p.poll() is None for p in procs)
    finally:
        os.close(fd)
    outs = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], outs
    assert [p.name.split("-")[1] for p in backups_in(folder)] == ["000002", "000003", "000004"]
    assert sum("removed 1 older backup" in out for out, _ in outs) == 1
    assert sorted(p.name for p in folder.iterdir()) == [p.name for p in backups_in(folder)]  # no temporary left


def test_cli_backup_with_the_clock_behind_exits_0_and_keeps_the_new_copy(
        cli_main: Callable[..., tuple[int, str, str]], journal_path: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import table_app.journal.backup

    with Journal.open(journal_path) as j:
        j.append_event(NEW_SESSION, None, new_session=True)
    folder = tmp_path / "b"
    for days in (0, -30, -30, 0, -30):
        monkeypatch.setattr(table_app.journal.backup, "utc_now", shifted(days))
        with Journal.open(journal_path) as j:
            j.append_event(NEW_SESSION, None, new_session=True)
        code, out, err = cli_main("backup", "--db", str(journal_path), "--keep", "2", str(folder))
        assert (code, err) == (0, "")
        assert str(backups_in(folder)[-1]) in out
    assert [len(records(p)) for p in backups_in(folder)] == [5, 6]


@pytest.fixture
def cli_main(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """``xian-table ARGS`` in this process (so that the backup module's clock can be shifted)."""
    from table_app.cli import main

    def run(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        out = capsys.readouterr()
        return code, out.out, out.err
    return run


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
