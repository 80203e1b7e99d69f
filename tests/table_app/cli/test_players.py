"""``xian-table players`` on a journal written by the real ``serve --stdin``: the stdin
commands got roster ids; the list, the most recent first; a rename keeps the id, and
``history`` still shows the name a session was played under."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from table_app.journal.journal import Journal


def test_players_lists_the_roster_and_renames_keeping_the_id(tmp_path: Path, cli: Any) -> None:
    path = tmp_path / "t.sqlite3"
    lines = [{"type": "new_session", "players": ["王小明", "Ana", "李雷", "Zoë"], "base": 1},
             {"type": "end_session"},
             {"type": "new_session", "players": ["Ana", "Bo", "李雷", "Cy"], "base": 1}]
    proc = cli("serve", "--stdin", "--db", str(path), input="".join(json.dumps(x) + "\n" for x in lines))
    assert proc.returncode == 0 and all(json.loads(x)["ok"] for x in proc.stdout.splitlines()), proc.stderr
    with Journal.open(path, readonly=True) as j:
        first, _, second = (r.event for r in j.records())
    assert first is not None and second is not None
    ids = dict(zip(first["players"], first["player_ids"], strict=True))  # type: ignore[call-overload]
    assert second["player_ids"][0] == ids["Ana"] and second["player_ids"][2] == ids["李雷"]  # type: ignore[index]

    listed = json.loads(cli("players", "--db", str(path), "--json", check=True).stdout)["players"]
    assert [p["name"] for p in listed][:4] == ["Cy", "Bo", "李雷", "Ana"]  # the last session's, newest id first
    assert {p["name"] for p in listed} == {"王小明", "Ana", "李雷", "Zoë", "Bo", "Cy"}
    assert all(p["first_played"] and p["last_played"] for p in listed)

    proc = cli("players", "rename", str(ids["李雷"]), "李小雷", "--db", str(path))
    assert proc.returncode == 0 and "李雷 → 李小雷" in proc.stdout, proc.stderr
    text = cli("players", "--db", str(path), check=True).stdout
    assert f"{ids['李雷']:>4}  李小雷" in text and "李雷 " not in text
    assert "李雷" in cli("history", "--db", str(path), check=True).stdout  # played as 李雷

    refused = cli("players", "rename", str(ids["Ana"]), "zoë", "--db", str(path))
    assert refused.returncode == 3 and "another player" in refused.stderr
    assert cli("players", "rename", "--db", str(path)).returncode == 2

    hidden = cli("players", "hide", "ana", "--db", str(path))  # (letters' case aside)
    assert hidden.returncode == 0 and "Ana: left out of the parlour's leaderboards" in hidden.stdout, hidden.stderr
    listed = {p["name"]: p["listed"] for p in json.loads(cli("players", "--db", str(path), "--json").stdout)["players"]}
    assert listed["Ana"] is False and listed["Bo"] is True
    assert "(hidden from the parlour's leaderboards)" in cli("players", "--db", str(path)).stdout
    assert cli("players", "show", str(ids["Ana"]), "--db", str(path)).returncode == 0
    assert json.loads(cli("players", "--db", str(path), "--json").stdout)["players"][3]["listed"] is True
    assert cli("players", "hide", "Nobody", "--db", str(path)).returncode == 3


def test_a_roster_from_before_listed_gets_the_column_everyone_listed(tmp_path: Path, cli: Any) -> None:
    import sqlite3

    path = tmp_path / "t.sqlite3"
    Journal.open(path).close()
    with sqlite3.connect(path) as c:  # the roster's table as issue 28 made it
        c.execute("CREATE TABLE players (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE COLLATE "
                  "NOCASE CHECK (typeof(name) = 'text'), added_at TEXT NOT NULL, first_played TEXT, last_played TEXT)")
        c.execute("INSERT INTO players (name, added_at) VALUES ('Ann', '2026-12-01T10:00:00+00:00')")
    assert json.loads(cli("players", "--db", str(path), "--json").stdout)["players"][0]["listed"] is True  # read-only
    assert cli("players", "hide", "Ann", "--db", str(path)).returncode == 0  # (the column added)
    assert json.loads(cli("players", "--db", str(path), "--json").stdout)["players"][0]["listed"] is False


def test_a_journal_from_before_the_roster_lists_nobody(tmp_path: Path, cli: Any) -> None:
    path = tmp_path / "old.sqlite3"
    Journal.open(path).close()
    proc = cli("players", "--db", str(path))
    assert proc.returncode == 0 and proc.stdout.strip() == "nobody in the roster yet" and not proc.stderr
