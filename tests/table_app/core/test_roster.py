"""The roster (table_app/core/roster.py) on real journal files: names become stable ids carried in
the events, a known name picks its player, a rename keeps the record, ids are never given
twice, phones' names join it, a backup carries it, and a damaged roster never costs a hand."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import parse_event, replay
from engine.public import public_state
from table_app.core.roster import Roster, RosterError
from table_app.core.service import TableService
from table_app.journal.backup import backup_journal
from table_app.journal.journal import Journal

PLAYERS = ["欧阳诸葛司马东方", "Maximilianus", "阿强", "Bo"]


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "journal.sqlite3"


@pytest.fixture
def table(path: Path) -> Iterator[tuple[Journal, Roster, TableService]]:
    journal = Journal.open(path)
    roster = Roster.open(path)
    service = TableService(journal, claim_window_s=0, roster=roster).start()
    yield journal, roster, service
    service.stop()
    roster.close()
    journal.close()


def _events(path: Path, kind: str) -> list[dict[str, object]]:
    """The journal's events of this type, read with plain SQL."""
    con = sqlite3.connect(path)
    rows = [json.loads(e) for (e,) in con.execute("SELECT event FROM records WHERE kind = 'event' ORDER BY seq")]
    con.close()
    return [e for e in rows if e["type"] == kind]


def _new(service: TableService, players: list[str], **extra: object) -> None:
    answer = service.call({"type": "new_session", "players": players, "base": 1, **extra}, "touch", 10)
    assert answer.ok, answer.error


def test_a_new_session_carries_its_players_ids_and_the_roster_keeps_them(table, path: Path) -> None:
    _, roster, service = table
    _new(service, PLAYERS)
    event = _events(path, "new_session")[0]
    ids = event["player_ids"]
    assert isinstance(ids, list) and len(set(ids)) == 4 and all(type(i) is int and i >= 1 for i in ids)
    assert event["players"] == PLAYERS  # the names as they were played
    assert service.public["player_ids"] == ids
    by_id = {p.id: p for p in roster.players()}
    assert [by_id[i].name for i in ids] == PLAYERS
    assert all(by_id[i].first_played is not None and by_id[i].first_played == by_id[i].last_played for i in ids)


def test_a_known_name_picks_its_player_letters_case_aside(table, path: Path) -> None:
    _, roster, service = table
    _new(service, PLAYERS)
    _new(service, ["bo", "Cy", "阿强", "maximilianus"])
    first, second = (e["player_ids"] for e in _events(path, "new_session"))
    assert isinstance(first, list) and isinstance(second, list)
    assert second[0] == first[3] and second[2] == first[2] and second[3] == first[1]
    assert second[1] not in first  # Cy is new
    assert len(roster.players()) == 5
    assert roster.players()[0].last_played is not None  # the most recent first: this evening's four lead
    assert {p.name for p in roster.players()[:4]} == {"Bo", "Cy", "阿强", "Maximilianus"}


def test_renaming_keeps_the_id_and_the_events_keep_the_name_played_under(table, path: Path) -> None:
    _, roster, service = table
    _new(service, PLAYERS)
    ids = _events(path, "new_session")[0]["player_ids"]
    assert isinstance(ids, list)
    renamed = roster.rename(ids[2], "王小强")
    assert (renamed.id, renamed.name) == (ids[2], "王小强")
    _new(service, ["王小强", "Bo", "Cy", "Dee"])
    later = _events(path, "new_session")[1]
    assert later["player_ids"][0] == ids[2]  # type: ignore[index]
    assert _events(path, "new_session")[0]["players"][2] == "阿强"  # type: ignore[index]
    assert roster.find("阿强") is None
    with pytest.raises(RosterError) as taken:
        roster.rename(ids[2], "bo")
    assert taken.value.code == "roster.name_taken"
    with pytest.raises(RosterError) as bad:
        roster.rename(ids[2], "a\u202eb")
    assert bad.value.code == "roster.bad_name"
    with pytest.raises(RosterError) as unknown:
        roster.rename(999, "Zed")
    assert unknown.value.code == "roster.unknown"


def test_an_id_is_never_given_twice(path: Path) -> None:
    Journal.open(path).close()
    roster = Roster.open(path)
    old = roster.add("Ann")
    assert old is not None
    con = sqlite3.connect(path)
    con.execute("DELETE FROM players WHERE id = ?", (old.id,))
    con.commit()
    con.close()
    new = roster.add("Ann")
    assert new is not None and new.id > old.id
    roster.close()


def test_a_name_event_from_a_phone_joins_the_roster_with_its_id(table, path: Path) -> None:
    _, roster, service = table
    _new(service, PLAYERS)
    answer = service.call({"type": "name", "seat": 1, "name": "Nguyễn Thị"}, "phone 1", 10, remote=True)
    assert answer.ok, answer.error
    named = _events(path, "name")[0]
    player = roster.find("Nguyễn Thị")
    assert player is not None and named["player_id"] == player.id
    assert service.public["player_ids"][1] == player.id
    assert player.first_played is not None  # named a seat of this session: plays in it
    assert service.call({"type": "end_session"}, "touch", 10).ok
    assert roster.add("Ōta") is not None and roster.find("Ōta").first_played is None  # type: ignore[union-attr]


@pytest.mark.parametrize("seating", [{"type": "seating", "method": "B", "rolls": [[2, 3], [6, 6], [1, 2], [4, 5]]},
                                     {"type": "seating", "method": "C", "drew": ["S", "W", "E", "N"]}])
def test_seating_moves_the_ids_with_the_players(table, seating: dict[str, object]) -> None:
    _, _, service = table
    _new(service, PLAYERS)
    ids = list(service.public["player_ids"])
    answer = service.call(seating, "touch", 10)
    assert answer.ok, answer.error
    moved = service.public
    for seat in range(4):
        assert ids[PLAYERS.index(moved["players"][seat])] == moved["player_ids"][seat]
    assert moved["players"] != PLAYERS


def test_an_old_journal_without_ids_replays_and_restarts(path: Path) -> None:
    old = [{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
           {"type": "name", "seat": 0, "name": "Al"}]
    state = replay(old)
    assert public_state(state)["player_ids"] == [None] * 4
    assert parse_event(old[0]).to_json() == old[0]  # no player_ids written where none were given
    journal = Journal.open(path)
    service = TableService(journal, claim_window_s=0).start()  # (a table without a roster: names only)
    for e in old:
        assert service.call(e, "stdin", 10).ok
    service.stop()
    journal.close()
    assert "player_ids" not in _events(path, "new_session")[0]
    journal = Journal.open(path)
    roster = Roster.open(path)  # the roster arrives in an existing journal
    service = TableService(journal, claim_window_s=0, roster=roster).start()
    assert service.public["players"] == ["Al", "B", "C", "D"]
    _new(service, ["Al", "B", "C", "D"])
    assert all(isinstance(i, int) for i in service.public["player_ids"])
    service.stop()
    roster.close()
    journal.close()


def test_a_damaged_roster_never_costs_a_hand(path: Path) -> None:
    Journal.open(path).close()
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE players (x)")  # a table of another shape where the roster should be
    con.commit()
    con.close()
    journal = Journal.open(path)
    roster = Roster.open(path)
    service = TableService(journal, claim_window_s=0, roster=roster).start()
    _new(service, PLAYERS)  # played on, without ids
    assert service.public["players"] == PLAYERS and service.public["player_ids"] == [None] * 4
    assert "player_ids" not in _events(path, "new_session")[0]
    assert "roster" in roster.problem and roster.players() == []
    service.stop()
    roster.close()
    journal.close()


def test_rows_that_are_not_players_are_passed_over(path: Path) -> None:
    Journal.open(path).close()
    roster = Roster.open(path)
    assert roster.add("Ann") is not None
    con = sqlite3.connect(path)
    con.execute("PRAGMA ignore_check_constraints = 1")
    con.execute("INSERT INTO players (name, added_at) VALUES ('a\u202eb', 'x'), (X'4142', 'x'), ('Bo', X'00')")
    con.commit()
    con.close()
    assert [p.name for p in roster.players()] == ["Ann"]
    roster.close()


def test_a_read_only_roster_reads_and_adds_nothing(path: Path) -> None:
    journal = Journal.open(path)
    Roster.open(path).add("Ann")
    reader = Roster.open(path, readonly=True)
    assert [p.name for p in reader.players()] == ["Ann"]
    assert reader.ids(["Bo"]) == [None]
    with pytest.raises(RosterError):
        reader.rename(1, "Anne")
    reader.close()
    journal.close()


def test_a_backup_carries_the_roster(table, path: Path, tmp_path: Path) -> None:
    _, _, service = table
    _new(service, PLAYERS)
    result = backup_journal(path, tmp_path / "copy.sqlite3")
    copy = Roster.open(result.path, readonly=True)
    assert sorted(p.name for p in copy.players()) == sorted(PLAYERS)
    copy.close()
