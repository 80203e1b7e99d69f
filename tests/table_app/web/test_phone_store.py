"""The phones' file beside the journal (issue 27): written whole and atomically, read back at
start; a damaged, foreign or too-big file is refused with one log line, set aside, and the
table starts as if there were none (never a crash); the taps the journal shows applied are
known again after a restart."""

from __future__ import annotations

import json
import logging
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from table_app.compose import kept_phones
from table_app.core.service import ManualClock, TableService
from table_app.core.sources import phone_source
from table_app.journal.journal import Journal
from table_app.web.phone_store import PhoneStore, Saved, store_path
from table_app.web.phones import Phones
from table_app.web.taps import Taps, applied_taps

GOOD = Saved("T" * 22, "K" * 22, {0: ("0a" * 32, 1733212345.5), 3: ("ff" * 32, 1733212399.0)})


def test_the_file_is_written_whole_private_and_read_back(tmp_path: Path) -> None:
    path = store_path(tmp_path / "table.sqlite3")
    assert path.name == "table.sqlite3.phones.json"
    store = PhoneStore(path)
    store.save(GOOD)
    assert store.load() == GOOD
    assert oct(path.stat().st_mode & 0o777) == "0o600"  # (the join token and the key are secrets)
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no temporary file left
    text = path.read_text()
    assert "secret" not in text and json.loads(text)["seats"][0] == {"seat": 0, "digest": "0a" * 32,
                                                                       "since": 1733212345.5}
    later = Saved("U" * 22, "K" * 22, {})
    store.save(later)
    assert store.load() == later


@pytest.mark.parametrize("content", [
    b'{"format": "xian-table phones", "version": 1, "token": "TTTTTTTTTTTTTTTTTTTTTT", "ke',  # cut short
    b"\xff\xfe not utf-8",
    b'{"format": "something else", "version": 1}',  # a foreign file
    b'{"format": "xian-table phones", "version": 2, "token": "x", "key": "y", "seats": []}',
    b'{"format": "xian-table phones", "version": 1, "token": "short", "key": "KKKKKKKKKKKKKKKKKKKKKK", "seats": []}',
    b'{"format": "xian-table phones", "version": 1, "token": "TTTTTTTTTTTTTTTTTTTTTT", '
    b'"key": "KKKKKKKKKKKKKKKKKKKKKK", "seats": [{"seat": 7, "digest": "00", "since": 1}]}',
    b'{"format": "xian-table phones", "version": 1, "token": "TTTTTTTTTTTTTTTTTTTTTT", '
    b'"key": "KKKKKKKKKKKKKKKKKKKKKK", "seats": [{"seat": 1, "digest": "' + b"ab" * 32 + b'", "since": NaN}]}',
    b"[" * 100_000,  # too big (and too deep)
    b"",
])
def test_a_damaged_or_foreign_file_is_refused_and_set_aside(tmp_path: Path, content: bytes,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    path = store_path(tmp_path / "table.sqlite3")
    path.write_bytes(content)
    with caplog.at_level(logging.WARNING):
        assert PhoneStore(path).load() is None
    assert any("refused" in r.getMessage() and str(path) in r.getMessage() for r in caplog.records)
    assert not path.exists() and path.with_name(path.name + ".refused").read_bytes() == content
    phones = Phones.kept(PhoneStore(path))  # the table starts as with no file: new codes, no seats
    assert phones.taken() == [False] * 4 and len(phones.token) >= 22 and PhoneStore(path).load() is not None


def test_a_write_killed_midway_leaves_the_old_file_or_the_new(tmp_path: Path) -> None:
    """A child saves two states in turn as fast as it can and is killed by SIGKILL at some
    moment: the file read back is always one of the two, whole (a leftover temp file is ignored)."""
    path = store_path(tmp_path / "table.sqlite3")
    PhoneStore(path).save(GOOD)
    other = Saved("V" * 22, "W" * 22, {1: ("cd" * 32, 1.0)})
    code = ("import sys\nfrom pathlib import Path\nfrom table_app.web.phone_store import PhoneStore, Saved\n"
            f"store = PhoneStore(Path({str(path)!r}))\n"
            f"states = [Saved({GOOD.token!r}, {GOOD.key!r}, {GOOD.seats!r}), Saved({other.token!r}, {other.key!r}, "
            f"{other.seats!r})]\nprint('go', flush=True)\n"
            "i = 0\nwhile True:\n    store.save(states[i % 2])\n    i += 1\n")
    for delay in (0.05, 0.13, 0.21):
        child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None and child.stdout.readline() == "go\n"
        time.sleep(delay)
        child.send_signal(signal.SIGKILL)
        child.wait(10)
        assert PhoneStore(path).load() in (GOOD, other)


def test_the_phones_come_back_with_their_seats_codes_and_a_new_code_on_demand(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "table.sqlite3")
    try:
        phones, _ = kept_phones(journal)
        secrets = [phones.join(seat).secret for seat in range(4)]
        assert phones.leave(secrets[3]) == 3
        again, _ = kept_phones(journal)  # a restart
        assert (again.token, again.key) == (phones.token, phones.key)
        assert [again.seat_of(s) for s in secrets] == [0, 1, 2, None]
        renewed, _ = kept_phones(journal, new_code=True)  # serve --new-code
        assert renewed.token != phones.token and renewed.key != phones.key
        assert [renewed.seat_of(s) for s in secrets] == [0, 1, 2, None]  # the seats stay
        assert kept_phones(journal)[0].token == renewed.token
        renewed.new_session()  # a new session started at the table: a new code, no seats, kept so
        after, _ = kept_phones(journal)
        assert after.token == renewed.token != phones.token and after.taken() == [False] * 4
    finally:
        journal.close()


def test_a_file_that_cannot_be_written_does_not_stop_the_phones(tmp_path: Path,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    phones = Phones(store=PhoneStore(not_a_folder / "t.phones.json"))  # (every write fails: ENOTDIR)
    with caplog.at_level(logging.WARNING):
        secret = phones.join(1).secret
    assert phones.seat_of(secret) == 1 and "not kept through a restart" in caplog.text


def test_the_taps_the_journal_shows_applied_are_known_after_a_restart(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "table.sqlite3")
    service = TableService(journal, clock=ManualClock(), dice=lambda: (3, 4)).start()
    try:
        start = {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}
        assert service.call(start, phone_source(0, "tap-new-session-1"), timeout=10).ok
        seating = service.call({"type": "seating", "method": "C", "east": 2}, phone_source(2, "tap-seating-22"),
                               timeout=10)
        assert service.call({"type": "state"}, "touch", timeout=10).ok
        assert service.call({"type": "press", "seat": None, "button": "DICE"}, "gpio", timeout=10).ok
    finally:
        service.stop()
    applied = applied_taps(journal)
    journal.close()
    assert applied == [(0, "tap-new-session-1", 1), (2, "tap-seating-22", seating.seq)]
    taps = Taps()
    taps.restore(applied)
    known = taps.find(2, "tap-seating-22")
    assert known is not None and known[0] is None and known[1].result(0).seq == seating.seq
    assert taps.find(2, "tap-new-session-1") is None  # (a tap is its seat's)
