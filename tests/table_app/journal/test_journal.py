"""The journal on real SQLite files: durability settings, contiguous seqs, undo/redo records,
and a safe refusal (file untouched) for anything damaged or foreign."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from table_app.journal.journal import Journal, JournalError
from table_app.journal.timeline import timeline

SESSION = {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}


def _digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def _fill(path: Path, n: int = 5) -> list[int]:
    with Journal.open(path) as j:
        seq, session = j.append_event(SESSION, None, new_session=True)
        seqs = [seq]
        for i in range(n - 1):
            seqs.append(j.append_event({"type": "bets", "bets": [i, 0, 0, 0]}, session)[0])
    return seqs


def test_new_journal_is_wal_full_sync_and_ours(tmp_path: Path) -> None:
    path = tmp_path / "deep/dir/j.sqlite3"
    with Journal.open(path) as j:
        assert j._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert j._conn.execute("PRAGMA synchronous").fetchone()[0] == 2
        assert j.integrity_check() == ["ok"]
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # persistent in the file
    assert raw.execute("PRAGMA application_id").fetchone()[0] == 0x58494154


def test_seqs_are_contiguous_across_sessions_and_kinds(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as j:
        s1, sess1 = j.append_event(SESSION, None, new_session=True)
        s2, _ = j.append_event({"type": "bets", "bets": [0, 0, 0, 0]}, sess1)
        s3 = j.append_undo(s1, sess1)
        s4 = j.append_redo(s2, sess1)
        s5, sess2 = j.append_event(SESSION, sess1, new_session=True)
        assert [s1, s2, s3, s4, s5] == [1, 2, 3, 4, 5]
        assert (sess1, sess2) == (1, 2)
        assert [(i, first) for i, first, _, _ in j.sessions()] == [(1, 1), (2, 5)]
        assert [r.kind for r in j.records()] == ["event", "event", "undo", "redo", "event"]
        t = j.timeline()
        assert (t.active, t.redo, t.last_seq) == ([1, 2, 5], [], 5)
    # and they survive closing and reopening
    with Journal.open(path) as j:
        assert j.last_seq() == 5
        assert j.event(5) == SESSION


def test_timeline_folds_undo_and_redo() -> None:
    rows = [(1, "event", None), (2, "event", None), (3, "event", None), (4, "event", None),
            (5, "undo", 3), (6, "undo", 1), (7, "redo", 2), (8, "redo", 3)]
    t = timeline(rows)
    assert (t.active, t.redo) == ([1, 2, 3], [4])
    t.apply_record(9, "undo", 0)
    assert (t.active, t.redo) == ([], [1, 2, 3, 4])
    t.apply_record(10, "event", None)
    assert (t.active, t.redo) == ([10], [])


def test_a_redo_record_that_does_not_match_is_refused() -> None:
    with pytest.raises(JournalError, match="not the next undone event"):
        timeline([(1, "event", None), (2, "event", None), (3, "undo", 1), (4, "redo", 1)])


def test_undone_events_stay_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    seqs = _fill(path, 4)
    with Journal.open(path) as j:
        j.append_undo(seqs[0], 1)
        assert j.timeline().active == [1]
        assert [r.seq for r in j.records() if r.kind == "event"] == seqs  # audit trail intact


def test_a_garbage_file_is_refused_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"this is not a database, it is a shopping list\n" * 100)
    before = _digest(path)
    with pytest.raises(JournalError, match=r"damaged.*kept exactly as it is"):
        Journal.open(path)
    assert _digest(path) == before


def test_a_corrupted_page_is_refused_by_quick_check_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    _fill(path, 400)
    with Journal.open(path):
        pass  # checkpoints the WAL into the main file on close
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    # scribble over the middle of the records table's pages, leaving the header intact
    for off in range(2 * page + 100, len(data) - page, page):
        data[off:off + 200] = b"\xa5" * 200
    path.write_bytes(bytes(data))
    before = _digest(path)
    with pytest.raises(JournalError, match="damaged"):
        Journal.open(path)
    assert _digest(path) == before
    assert not (tmp_path / "j.sqlite3-wal").exists() or (tmp_path / "j.sqlite3-wal").stat().st_size == 0


def test_a_truncated_file_is_refused_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    _fill(path, 400)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    before = _digest(path)
    with pytest.raises(JournalError, match="damaged"):
        Journal.open(path)
    assert _digest(path) == before


def test_a_foreign_sqlite_file_is_refused_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE recipes (name TEXT)")
    con.execute("INSERT INTO recipes VALUES ('jiaozi')")
    con.commit()
    con.close()
    before = _digest(path)
    with pytest.raises(JournalError, match="not a xian-table journal"):
        Journal.open(path)
    assert _digest(path) == before


def test_a_gap_in_the_seqs_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    _fill(path, 5)
    con = sqlite3.connect(path)
    con.execute("DELETE FROM records WHERE seq = 3")
    con.commit()
    con.close()
    with pytest.raises(JournalError, match="record 3 is missing"):
        Journal.open(path)


def test_two_writers_cannot_open_one_journal(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path):
        with pytest.raises(JournalError, match="in use by another"):
            Journal.open(path)
        with Journal.open(path, readonly=True) as ro:  # readers are welcome
            assert ro.last_seq() == 0
    with Journal.open(path):
        pass  # the lock went with the first writer


def test_readonly_refuses_writes_and_missing_files(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with pytest.raises(JournalError, match="does not exist"):
        Journal.open(path, readonly=True)
    assert not path.exists()
    _fill(path, 2)
    with Journal.open(path, readonly=True) as ro, pytest.raises(JournalError, match="read-only"):
        ro.append_event(SESSION, None, new_session=True)


def test_snapshots_are_found_only_while_their_event_is_in_effect(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    seqs = _fill(path, 6)
    with Journal.open(path) as j:
        j.save_snapshot(seqs[2], {"at": 3})
        j.save_snapshot(seqs[4], {"at": 5})
        assert j.latest_snapshot(seqs) == (seqs[4], {"at": 5})
        assert j.latest_snapshot(seqs[:4]) == (seqs[2], {"at": 3})
        assert j.latest_snapshot(seqs[:2]) is None
        assert j.latest_snapshot(seqs, after=seqs[4]) is None


def test_a_failed_transaction_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as j:
        j.append_event(SESSION, None, new_session=True)
        with pytest.raises(TypeError):
            j.append_event({"type": "bets", "bets": {1, 2}}, 1)  # not JSON: fails inside the transaction
        assert j.last_seq() == 1
        assert j.append_event({"type": "bets", "bets": [0, 0, 0, 0]}, 1)[0] == 2


def test_the_journal_timeline_matches_the_plain_fold(tmp_path: Path) -> None:
    import random

    rng = random.Random(7)
    path = tmp_path / "j.sqlite3"
    rows: list[tuple[int, str, int | None]] = []
    with Journal.open(path) as j:
        j.append_event(SESSION, None, new_session=True)
        rows.append((1, "event", None))
        for _ in range(300):
            t = timeline(rows)
            r = rng.random()
            if r < 0.15 and t.active:
                target = rng.choice([0, *t.active[:-1]]) if rng.random() < 0.3 else (
                    t.active[-2] if len(t.active) > 1 else 0)
                rows.append((j.append_undo(target, 1), "undo", target))
            elif r < 0.3 and t.redo:
                rows.append((j.append_redo(t.redo[0], 1), "redo", t.redo[0]))
            else:
                rows.append((j.append_event({"type": "bets", "bets": [0, 0, 0, 0]}, 1)[0], "event", None))
            got = j.timeline()
            want = timeline(rows)
            assert (got.active, got.redo, got.last_seq) == (want.active, want.redo, want.last_seq)
    kinds = {k for _, k, _ in rows}
    assert kinds == {"event", "undo", "redo"}


def test_a_read_snapshot_sees_a_record_the_service_commits_meanwhile_in_all_its_reads_or_none(tmp_path: Path) -> None:
    """``history`` and ``export`` read the timeline, then its events, while the service writes:
    an undo committed between the two made ``history`` refuse "record N is not an event" (exit 4)
    on a healthy journal (issue 26's review: 13 of 62 runs). In one read snapshot, all or none."""
    with Journal.open(tmp_path / "j.sqlite3") as j:
        _, session = j.append_event(SESSION, None, new_session=True)
        first = j.append_event({"type": "bets", "bets": [1, 0, 0, 0]}, session)[0]
        reader = j.reader()
        try:
            t = reader.timeline()
            j.append_undo(first - 1, session)  # committed between the two reads, outside a snapshot
            assert reader.last_seq() == first + 1 and t.last_seq == first  # (the race, as it was)
            with reader.read_snapshot():
                t = reader.timeline()
                mark = j.append_event({"type": "bets", "bets": [2, 0, 0, 0]}, session)[0]
                assert reader.last_seq() == t.last_seq == first + 1  # not seen inside the snapshot
                assert reader.events(t.active) and mark not in t.active
            assert reader.last_seq() == mark  # seen after it
        finally:
            reader.close()
