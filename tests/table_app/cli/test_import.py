"""``xian-table import``: what it refuses, and that a refusal writes nothing (table_app/exchange/read.py,
table_app/cli/import_.py); and once through the real command line, export then import."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from table_app.cli import main
from table_app.core.roster import Roster
from table_app.journal.journal import Journal
from tests.table_app.exchange.sessions import full_session, tracked_session, write_journal


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """A good export's lines: a full-tile session and a tracked one."""
    tmp = tmp_path_factory.mktemp("import")
    rng = random.Random(29)
    write_journal(tmp / "a.sqlite3", [full_session(rng, 2), tracked_session(rng, 2)], rng)
    out = tmp / "a.jsonl"
    assert main(["export", "--db", str(tmp / "a.sqlite3"), "--format", "mjai", "--out", str(out)]) == 0
    return out.read_text(encoding="utf-8").splitlines()


def _import(tmp_path: Path, text: str | bytes, capsys: pytest.CaptureFixture[str], db: Path | None = None,
            ) -> tuple[int, str]:
    f = tmp_path / "in.jsonl"
    f.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    code = main(["import", str(f), "--db", str(db or tmp_path / "new.sqlite3")])
    return code, capsys.readouterr().err


def _edit(lines: list[str], kind: str, change: Callable[[dict[str, Any]], None]) -> tuple[str, int]:
    """The export with the first record of type ``kind`` changed; the text and that line's number."""
    out = list(lines)
    n = next(i for i, line in enumerate(out) if json.loads(line)["type"] == kind)
    record = json.loads(out[n])
    change(record)
    out[n] = json.dumps(record, ensure_ascii=False)
    return "\n".join(out) + "\n", n + 1


def _dahai_tile(r: dict[str, Any]) -> None:
    r["pai"] = "P" if r["pai"] != "P" else "E"


def _discard_seat(r: dict[str, Any]) -> None:
    r["xian"]["seat"] = (r["xian"]["seat"] + 1) % 4
    r["actor"] = r["xian"]["seat"]


CASES: list[tuple[str, Callable[[list[str]], tuple[str | bytes, int]], str]] = [
    ("empty", lambda lines: ("", 1), "the file is empty"),
    ("not JSON", lambda lines: ("{not json\n", 1), "not JSON"),
    ("not an export", lambda lines: ('{"type": "start_game"}\n', 1), "not a xian-table export"),
    ("another version", lambda lines: (lines[0].replace('"version":1', '"version":2') + "\n", 1), "version 2"),
    ("a line too long", lambda lines: (lines[0] + "\n" + "x" * 70_000 + "\n", 2), "longer than 65,536 bytes"),
    ("too deep", lambda lines: (lines[0] + "\n" + "[" * 100 + "]" * 100 + "\n", 2), "levels deep"),
    ("not UTF-8", lambda lines: (lines[0].encode() + b"\n\xff\xfe\n", 2), "not UTF-8"),
    ("an mjai record edited", lambda lines: _edit(lines, "tsumo", _dahai_tile), "the events give"),
    ("an event the table refuses", lambda lines: _edit(lines, "dahai", _discard_seat), "the table refuses"),
    ("a control character in a name", lambda lines: _edit(lines, "start_game",
                                                          lambda r: r["xian"]["players"].__setitem__(0, "a\x1b[2J")),
     "control character"),
    ("a record no event made", lambda lines: ("\n".join([*lines[:3], '{"type": "tsumo", "actor": 0, "pai": "1m"}',
                                                         *lines[3:]]) + "\n", 4), "a record no event made"),
    ("cut short", lambda lines: ("\n".join(lines[:-40]) + "\n", len(lines) - 40), "before its footer"),
    ("the footer's count", lambda lines: ("\n".join([*lines[:-1], lines[-1].replace('"records":', '"records":1')])
                                          + "\n", len(lines)), "the footer counts"),
    ("a line after the footer", lambda lines: ("\n".join([*lines, lines[-1]]) + "\n", len(lines) + 1),
     "a line after the footer"),
    ("a bad time", lambda lines: _edit(lines, "xian_seating", lambda r: r.__setitem__("xian_at", "yesterday")),
     "'xian_at' must be a time"),
]


@pytest.mark.parametrize(("name", "make", "says"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_refused_naming_the_line_and_nothing_is_written(
        name: str, make: Callable[[list[str]], tuple[str | bytes, int]], says: str, export: list[str],
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, line = make(export)
    code, err = _import(tmp_path, text, capsys)
    assert code == 2, err
    assert f": line {line}: " in err and says in err and "nothing was imported" in err, err
    assert len(err) < 800 and err.count("\n") == 1  # one short line
    assert not (tmp_path / "new.sqlite3").exists()  # not even an empty journal was made


def test_an_empty_journal_that_exists_is_filled_and_a_used_one_refused(
        export: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite3"
    Journal.open(db).close()  # an empty journal, as a table that never played makes
    code, _ = _import(tmp_path, "\n".join(export) + "\n", capsys, db)
    assert code == 0
    with Journal.open(db, readonly=True) as j:
        held = j.last_seq()
    assert held == json.loads(export[-1])["events"]
    code, err = _import(tmp_path, "\n".join(export) + "\n", capsys, db)
    assert code == 4 and f"already holds {held:,} records" in err and "nothing was imported" in err
    with Journal.open(db, readonly=True) as j:
        assert j.last_seq() == held


def test_a_journal_a_table_is_running_on_is_never_written(export: list[str], tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite3"
    with Journal.open(db):  # the service holds it
        code, err = _import(tmp_path, "\n".join(export) + "\n", capsys, db)
    assert code == 4 and "in use" in err
    with Journal.open(db, readonly=True) as j:
        assert j.last_seq() == 0


def test_export_and_import_through_the_command_line(tmp_path: Path, cli: Any) -> None:
    """The real entry point in child processes: serve journals an evening, export writes it, import
    replays it into a new journal, and history and the CSV export say the same of both."""
    rng = random.Random(7)
    events = full_session(rng, 2)[:-3] + tracked_session(rng, 2)
    db, again, out = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3", tmp_path / "a.jsonl"
    served = cli("serve", "--stdin", "--db", str(db), input="".join(json.dumps(e) + "\n" for e in events))
    assert served.returncode == 0 and all(json.loads(x)["ok"] for x in served.stdout.splitlines()), served.stderr
    cli("export", "--db", str(db), "--format", "mjai", "--out", str(out), check=True)
    done = cli("import", str(out), "--db", str(again), check=True)
    assert f"imported {len(events):,} events" in done.stdout
    old, new = Roster.open(db, readonly=True), Roster.open(again, readonly=True)
    imported = {(p.id, p.name) for p in new.players()}
    assert imported == {(p.id, p.name) for p in old.players()} and len(imported) >= 4
    old.close()
    new.close()
    roster = Roster.open(again)  # the table's next new player gets a new id, never an imported player's
    fresh = roster.ids(["Someone new"])[0]
    roster.close()
    assert fresh is not None and fresh > max(pid for pid, _ in imported)
    assert cli("history", "--db", str(again), check=True).stdout == cli("history", "--db", str(db), check=True).stdout
    csv_a = cli("export", "--db", str(db), "--format", "csv", check=True).stdout
    assert csv_a.startswith("\ufeffsession,") and csv_a == cli("export", "--db", str(again), "--format", "csv",
                                                                check=True).stdout
    stdout = cli("export", "--db", str(db), "--format", "mjai", "--session", "2", check=True).stdout.splitlines()
    assert json.loads(stdout[0])["sessions"] == [2] and json.loads(stdout[1])["xian_session"] == 2
    assert cli("export", "--db", str(db), "--format", "mjai", "--session", "5").returncode == 2


def test_an_old_journal_with_a_control_character_exports_escaped_and_import_refuses_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An export reads journaled events as they were written (issue 26's old names); import takes
    them as new events, which the table refuses as the service would."""
    db, out = tmp_path / "old.sqlite3", tmp_path / "old.jsonl"
    with Journal.open(db) as journal:  # (as the code before issue 26 took them)
        journal.append_event({"type": "new_session", "players": ["\x1b[2J", "b", "c", "Di"], "base": 1}, None,
                             new_session=True)
    assert main(["export", "--db", str(db), "--format", "mjai", "--out", str(out)]) == 0
    data = out.read_bytes()
    assert b"\x1b" not in data and b"\\u001b[2J" in data
    code, err = _import(tmp_path, data, capsys)
    assert code == 2 and ": line 2: " in err and "control character (U+001B)" in err, err
    assert not (tmp_path / "new.sqlite3").exists()


def test_an_undone_session_is_not_exported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite3"
    with Journal.open(db) as j:
        _, session = j.append_event({"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}, None,
                                      new_session=True)
        j.append_undo(0, session)
        j.append_event({"type": "new_session", "players": ["E", "F", "G", "H"], "base": 2}, None, new_session=True)
    assert main(["export", "--db", str(db), "--format", "mjai", "--session", "1"]) == 2
    assert "session 1 was undone" in capsys.readouterr().err
    assert main(["export", "--db", str(db), "--format", "mjai"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["type"] for r in lines] == ["xian_header", "start_game", "xian_footer"]
    assert lines[0]["sessions"] == [2] and lines[1]["names"] == ["E", "F", "G", "H"]
    assert lines[2] == {"type": "xian_footer", "records": 3, "events": 1, "undone_left_out": 0}
