"""Issue 26, item 8: the last record on disk, marked beside the journal and read back by ``doctor``.

A card that acknowledges a flush it did not do is played here by putting back an older copy of
the journal file after the service stopped (what such a card shows after a power cut: the
journal as it was some writes ago), while the mark the service wrote at its clean stop stays.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from table_app.bench.service import scripted_session
from table_app.core.service import TableService
from table_app.doctor.check import ERROR, OK
from table_app.doctor.storage import check_journal
from table_app.journal import synced_mark
from table_app.journal.journal import Journal
from tests.reliability.helpers import SESSION, answers, lines, serve

EVENTS = scripted_session(1, seed=8)


def play(db: Path, events: list[dict[str, object]]) -> int:
    with Journal.open(db) as j, TableService(j, claim_window_s=0) as svc:
        for ev in events:
            assert svc.call(ev, source="test").ok
        return j.last_seq()


def test_serve_marks_its_last_record_at_a_clean_stop_and_doctor_reads_it_back(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    proc = serve(tmp_path, "--stdin", "--db", str(db), input=lines(SESSION, {"type": "state"}))
    assert proc.returncode == 0 and answers(proc.stdout)[-1]["seq"] == 1
    mark = synced_mark.read(db)
    assert mark is not None and mark.seq == 1
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT hash FROM records WHERE seq = 1").fetchone()[0] == mark.hash == mark.first
    conn.close()
    check = check_journal(db)
    assert check.level == OK and "read-back of record 1 " in check.message, check


def test_a_journal_older_than_its_mark_is_an_error_in_doctor(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    early = play(db, EVENTS[:40])
    shutil.copyfile(db, tmp_path / "as-the-card-kept-it.sqlite3")  # (closed: all in the file, no -wal)
    last = play(db, EVENTS[40:])
    assert synced_mark.read(db) is not None and synced_mark.read(db).seq == last > early  # type: ignore[union-attr]
    shutil.copyfile(tmp_path / "as-the-card-kept-it.sqlite3", db)
    check = check_journal(db)
    assert check.level == ERROR, check
    assert f"record {last:,}" in check.message and f"ends at record {early:,}" in check.message
    assert "lost writes it had confirmed" in check.message and "replace it" in check.fix
    # the next clean stop renews the mark, and the read-back is sound again
    play(db, [])
    assert check_journal(db).level == OK


def test_a_record_that_differs_from_its_mark_is_an_error(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    last = play(db, EVENTS[:30])
    mark = synced_mark.read(db)
    assert mark is not None
    synced_mark.write(db, synced_mark.Mark(last, bytes(16), mark.first, mark.at))
    check = check_journal(db)
    assert check.level == ERROR and "its hash differs" in check.message, check


@pytest.mark.parametrize("mark", ["", "{not json", '{"seq": 0, "hash": "", "first": "", "at": ""}', "other"])
def test_no_mark_a_garbled_one_or_another_journals_is_no_finding(tmp_path: Path, mark: str) -> None:
    db = tmp_path / "table.sqlite3"
    play(db, EVENTS[:20])
    if mark == "other":  # the mark of a journal moved aside
        other = tmp_path / "other.sqlite3"
        play(other, EVENTS[:25])
        shutil.copyfile(synced_mark.path_of(other), synced_mark.path_of(db))
    elif mark:
        synced_mark.path_of(db).write_text(mark)
    else:
        synced_mark.path_of(db).unlink()
    check = check_journal(db)
    assert check.level == OK and "read-back" not in check.message, check


def test_a_mark_that_cannot_be_written_is_only_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "table.sqlite3"
    synced_mark.path_of(db).mkdir()  # the mark's name taken by a folder: the rename fails
    last = play(db, EVENTS[:10])
    assert "cannot write the synced mark" in caplog.text
    assert not list(tmp_path.glob(".*.tmp"))
    with Journal.open(db, readonly=True) as j:
        assert j.last_seq() == last
