"""``xian-table history`` and ``export`` on a journal written by the real ``serve --stdin``."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from engine import apply, new_table
from table_app.bench.service import scripted_session

FIRST = scripted_session(4, seed=3)  # four hands, several of them won
SECOND = scripted_session(2, seed=4, players=["Wang", "Li", "Zhang", "Zhao"])


def _hands(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each settled hand's settlement and totals, straight from the engine."""
    out, state = [], new_table()
    for e in events:
        before = state.phase
        state, _ = apply(state, e)
        if state.phase == "hand_over" and before != "hand_over":
            out.append({"settlement": state.last_settlement, "totals": list(state.scores), "hand": state.hand})
    return out


@pytest.fixture
def db(tmp_path: Path, cli: Any) -> Path:
    path = tmp_path / "t.sqlite3"
    # session 1 complete; a session started by mistake and undone; session 3 with two hands
    lines = [*FIRST, {"type": "new_session", "players": ["X", "Y", "Z", "W"], "base": 2}, {"type": "undo"},
             *SECOND]
    proc = cli("serve", "--stdin", "--db", str(path), input="".join(json.dumps(x) + "\n" for x in lines))
    assert proc.returncode == 0, proc.stderr
    assert all(json.loads(line)["ok"] for line in proc.stdout.splitlines())
    return path


def test_export_json_has_every_hand_with_transfers_and_totals(db: Path, cli: Any) -> None:
    proc = cli("export", "--db", str(db), "--format", "json", check=True)
    sessions = json.loads(proc.stdout)["sessions"]
    assert [(s["session"], s["in_effect"]) for s in sessions] == [(1, True), (2, False), (3, True)]
    for s, events in ((sessions[0], FIRST), (sessions[2], SECOND)):
        want = _hands(events)
        assert len(s["hands"]) == len(want)
        for got, w in zip(s["hands"], want, strict=True):
            assert got["hand"] == w["hand"]
            assert got["transfers"] == w["settlement"]["transfers"]
            assert got["deltas"] == w["settlement"]["deltas"]
            assert got["totals"] == w["totals"]
            assert sum(got["deltas"]) == 0
        assert s["totals"] == want[-1]["totals"]
    assert sessions[2]["players"] == ["Wang", "Li", "Zhang", "Zhao"]
    assert any(h["result"] == "win" and h["transfers"] for h in sessions[0]["hands"])


def test_export_csv_is_one_row_per_hand_ready_for_a_spreadsheet(db: Path, cli: Any) -> None:
    proc = cli("export", "--db", str(db), "--format", "csv", check=True)
    assert proc.stdout.startswith("\ufeff")  # the byte-order mark that makes Excel read UTF-8
    rows = list(csv.DictReader(io.StringIO(proc.stdout.removeprefix("\ufeff"))))
    want = _hands(FIRST) + _hands(SECOND)
    assert len(rows) == len(want)
    assert [int(r["session"]) for r in rows] == [1] * len(_hands(FIRST)) + [3] * len(_hands(SECOND))
    for r, w in zip(rows, want, strict=True):
        assert [int(r[f"total_{s}"]) for s in range(4)] == w["totals"]
        assert [int(r[f"delta_{s}"]) for s in range(4)] == w["settlement"]["deltas"]
        assert r["result"] == w["settlement"]["result"]
        assert r["transfers"].count("→") == len(w["settlement"]["transfers"])
    win = next(r for r in rows if r["result"] == "win")
    assert win["winner"] in (win["player_0"], win["player_1"], win["player_2"], win["player_3"])


def test_export_one_session_and_refuse_an_unknown_one(db: Path, cli: Any) -> None:
    proc = cli("export", "--db", str(db), "--format", "json", "--session", "3", check=True)
    assert [s["session"] for s in json.loads(proc.stdout)["sessions"]] == [3]
    bad = cli("export", "--db", str(db), "--format", "csv", "--session", "9")
    assert bad.returncode == 2 and "no session 9" in bad.stderr


def test_history_one_line_per_session_and_hand(db: Path, cli: Any) -> None:
    out = cli("history", "--db", str(db), check=True).stdout.splitlines()
    sessions = [line for line in out if line.startswith("session ")]
    hands = [line for line in out if line.startswith("  hand ")]
    assert len(sessions) == 3 and len(hands) == len(_hands(FIRST)) + len(_hands(SECOND))
    assert "(undone)" in sessions[1]
    final = _hands(FIRST)[-1]["totals"]
    assert "totals " + " ".join(f"{v:+d}" for v in final) in sessions[0]
    assert "Wang · Li · Zhang · Zhao" in sessions[2]


def test_history_and_export_refuse_a_missing_journal(tmp_path: Path, cli: Any) -> None:
    for args in (("history",), ("export", "--format", "csv")):
        proc = cli(*args, "--db", str(tmp_path / "none.sqlite3"))
        assert proc.returncode == 4 and "does not exist" in proc.stderr
    assert not (tmp_path / "none.sqlite3").exists()


def test_history_of_an_empty_journal(tmp_path: Path, cli: Any) -> None:
    path = tmp_path / "t.sqlite3"
    cli("serve", "--stdin", "--db", str(path), input="", check=True)
    assert cli("history", "--db", str(path), check=True).stdout.strip() == "no sessions in the journal yet"
