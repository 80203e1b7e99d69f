"""The archive against the journal it summarises: sessions and hands equal a fresh replay,
undone events are marked, each replay step is the engine's state at that record, records
add up, a damaged or missing summary is made again, pages are bounded."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from table_app.archive import Archive
from table_app.cli.export import ledgers
from table_app.core.roster import Roster
from table_app.core.service import TableService
from table_app.journal.journal import Journal
from tests.table_app.archive.conftest import Table, evening, in_effect, state_after


def _same_as_a_fresh_replay(a: Archive, j: Journal) -> None:
    fresh = ledgers(j)  # (xian-table history's own replay of the events in effect)
    assert fresh
    for s in fresh:
        got = a.session(s.session)
        assert got.in_effect == s.in_effect
        if not s.in_effect:
            continue
        assert (got.totals, got.base, got.players, got.first_seq) == (s.totals, s.base, s.players, s.first_seq)
        assert got.finished == (s.phase == "ended")
        assert got.hands == len(s.hands)
        settled = [h for h in a.hands(s.session) if h.result != "unfinished"]
        assert [(h.hand, h.round, h.dealer, h.winner, h.kind, h.deltas, h.totals, h.transfers, h.last_seq)
                for h in settled] == [(h.hand, h.round, h.dealer, h.winner, h.kind, h.deltas, h.totals, h.transfers,
                                       h.seq) for h in s.hands]
        assert [h.result for h in settled] == [{"win": "win", "draw": "drawn"}[str(h.result)] for h in s.hands]
        assert got.ranking == sorted(range(4), key=lambda seat: (-got.totals[seat], seat))


def test_sessions_and_hands_equal_a_fresh_replay_as_events_land(table: Table) -> None:
    table.play(evening(3, seed=1))
    a = Archive(table.journal, table.roster)
    _same_as_a_fresh_replay(a, table.journal)
    table.play(evening(2, seed=2, players=("W", "X", "Y", "Z"), end=False)[:40])  # a second evening, mid-hand
    _same_as_a_fresh_replay(a, table.journal)
    assert a.rebuilds == 1  # the new events were added to the summary, not made again from all records
    page = a.sessions()
    assert [s.number for s in page.items] == [2, 1] and page.total == 2
    first, second = page.items[1], page.items[0]
    assert first.finished and first.ended is not None and not second.finished and second.ended is None
    assert sum(first.totals) == 0 and first.settle_up == public_state_settle_up(first.totals)
    assert first.player_ids == [table.roster.find(n).id for n in first.players]  # type: ignore[union-attr]
    hands = a.hands(2)
    assert hands[-1].result == "unfinished" and hands[-1].last_seq == table.journal.last_seq()
    a.close()


def public_state_settle_up(totals: list[int]) -> list[dict[str, int]]:
    from engine.scoring import settle_up

    return list(settle_up(totals))  # type: ignore[arg-type]


def test_an_undo_and_a_redo_change_the_summary_as_they_change_the_table(table: Table) -> None:
    events = evening(3, seed=4)
    a = Archive(table.journal, table.roster)
    table.play(events[:-1])
    assert a.session(1).hands == 3
    settled = a.hands(1)[-1].last_seq
    table.undo(settled - 1)  # the last hand's settlement taken back
    _same_as_a_fresh_replay(a, table.journal)
    assert a.session(1).hands == 2 and a.hands(1)[-1].result == "unfinished"
    table.redo()
    _same_as_a_fresh_replay(a, table.journal)
    assert a.session(1).hands == 3
    table.play([{"type": "end_session"}])
    table.play(evening(1, seed=5, players=("W", "X", "Y", "Z"), end=False)[:12])
    second = a.sessions().items[0].first_seq
    table.undo(second - 1)  # the second session taken back whole: the first in effect again
    _same_as_a_fresh_replay(a, table.journal)
    assert [s.number for s in a.sessions().items] == [1] and not a.session(2).in_effect
    assert a.rebuilds == 1
    a.close()


def test_undone_events_are_marked_and_each_step_is_the_engines_state_at_its_record(table: Table) -> None:
    events = evening(2, seed=7)
    last = table.play(events[:60])
    table.undo(last - 3)  # three events taken back …
    table.play(events[57:])  # … and played again (new records)
    a = Archive(table.journal, table.roster)
    hand = next(h for h in a.hands(1) if h.first_seq <= last <= h.last_seq)
    r = a.replay(1, hand.hand)
    assert [s.seq for s in r.steps if s.undone] == [last - 2, last - 1, last]
    assert all(s.source == "" or isinstance(s.source, str) for s in r.steps)
    for i, step in enumerate(r.steps):
        assert r.state_at(i) == state_after(table.path, step.seq), f"step {i} (record {step.seq})"
    assert r.state_at(0) == state_after(table.path, r.steps[0].seq)  # (going back)
    assert r.final()["last_settlement"] is not None and r.final()["phase"] == "hand_over"
    active = {seq for seq, _, _ in in_effect(table.path)}
    assert {s.seq for s in r.steps if not s.undone} <= active
    with pytest.raises(KeyError):
        a.replay(1, 99)
    with pytest.raises(KeyError):
        a.session(99)
    a.close()


def test_every_hand_of_a_long_simulated_journal_replays_to_its_settlement(tmp_path: Path) -> None:
    from table_app.bench.history import build

    path = tmp_path / "j.sqlite3"
    build(path, hands=45, seed=3)  # sessions of 20, a snapshot every 2,000 events (the bench's journal)
    with Journal.open(path) as j, Archive(j) as a:
        _same_as_a_fresh_replay(a, j)
        for s in a.sessions().items:
            for h in a.hands(s.number):
                r = a.replay(s.number, h.hand)
                assert r.state_at(0) == state_after(path, r.steps[0].seq)
                final = r.final()
                assert final["scores"] == h.totals and final["last_settlement"]["deltas"] == h.deltas  # type: ignore[index]


def test_records_add_up(table: Table) -> None:
    table.play(evening(3, seed=1))
    table.play(evening(2, seed=2, players=("阿明", "阿华", "小李", "老王")))
    a = Archive(table.journal, table.roster)
    board = a.leaderboard()
    assert sum(r.net for r in board) == 0
    assert {r.name for r in board} == {"阿明", "阿华", "阿强", "阿芳", "小李", "老王"}
    ming = table.roster.find("阿明")
    assert ming is not None
    rec = a.record(ming.id)
    (row,) = rec.periods
    assert (row.sessions, row.hands) == (2, 5)
    seats = [s.players.index("阿明") for s in a.sessions().items]
    assert row.net == sum(s.totals[seat] for s, seat in zip(a.sessions().items, seats, strict=True))
    wins = sum(1 for s, seat in zip(a.sessions().items, seats, strict=True) for h in a.hands(s.number)
               if h.winner == seat)
    assert row.wins == wins and row.self_draws <= row.wins
    for s in a.sessions().items:  # net points sum to zero across the players of each session
        assert sum(s.totals) == 0
    for player in table.roster.players():  # and each player's net is the totals of their seats
        seats = [(s, s.player_ids.index(player.id)) for s in a.sessions().items if player.id in s.player_ids]
        rec = a.record(player.id).periods[0]
        assert rec.net == sum(s.totals[seat] for s, seat in seats) and rec.sessions == len(seats)
        assert rec.hands == sum(s.hands for s, _ in seats)
    monthly = a.record(ming.id, "month")
    assert sum(r.net for r in monthly.periods) == row.net
    assert [r.player_id for r in a.leaderboard("day")] and sum(r.net for r in a.leaderboard("week")) == 0
    assert [s.number for s in a.sessions(player_id=table.roster.find("小李").id).items] == [2]  # type: ignore[union-attr]
    with pytest.raises(ValueError):
        a.record(ming.id, "year")
    a.close()


def test_sessions_without_ids_are_matched_by_name(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with Journal.open(path) as j:  # an older journal: the service had no roster
        svc = TableService(j, claim_window_s=0).start()
        for e in evening(2, seed=3):
            assert svc.call(e).ok
        svc.stop()
    roster = Roster.open(path)
    roster.ids(["阿华"])
    with Journal.open(path) as j, Archive(j, roster) as a:
        assert a.session(1).player_ids == [None] * 4
        (hua,) = [r for r in a.leaderboard() if r.name == "阿华"]
        assert hua.hands == 2 and a.record(hua.player_id).periods[0].net == hua.net
        assert [s.number for s in a.sessions(player_id=hua.player_id).items] == [1]
    roster.close()


@pytest.mark.parametrize("damage", [
    "DROP TABLE archive_hands",
    "DELETE FROM archive_hands WHERE hand = 2",
    "UPDATE archive_sessions SET data = replace(data, '\"hands\":3', '\"hands\":4')",
    "UPDATE archive_hands SET data = replace(data, '\"result\":\"win\"', '\"result\":\"drawn\"')",
    "UPDATE archive_meta SET data = replace(data, '\"version\":2', '\"version\":0')",
    "UPDATE archive_meta SET seal = x'00'",
    "DELETE FROM archive_meta",
])
def test_a_damaged_or_missing_summary_is_made_again(table: Table, damage: str) -> None:
    table.play(evening(3, seed=1))
    a = Archive(table.journal, table.roster)
    before = (a.sessions(), a.hands(1), a.leaderboard())
    con = sqlite3.connect(table.path)
    con.execute(damage)
    con.commit()
    con.close()
    after = Archive(table.journal, table.roster)
    assert (after.sessions(), after.hands(1), after.leaderboard()) == before
    assert after.rebuilds == 1
    a.close()
    after.close()


def test_a_summary_of_another_journal_is_not_trusted(table: Table, tmp_path: Path) -> None:
    table.play(evening(2, seed=1))
    Archive(table.journal).close()  # (its summary made)
    other = tmp_path / "other.sqlite3"
    with Journal.open(other) as j:  # another history (a restored backup that went on otherwise)
        svc = TableService(j, claim_window_s=0).start()
        for e in evening(3, seed=9, players=("W", "X", "Y", "Z")):
            assert svc.call(e).ok
        svc.stop()
        Archive(j).close()
    con = sqlite3.connect(other)  # the first journal's summary put in the other's file
    con.execute("ATTACH ? AS first", (str(table.path),))
    for t in ("archive_meta", "archive_sessions", "archive_hands", "archive_plays"):
        con.execute(f"DELETE FROM main.{t}")
        con.execute(f"INSERT INTO main.{t} SELECT * FROM first.{t}")
    con.commit()
    con.close()
    with Journal.open(other) as j, Archive(j) as a:
        assert a.session(1).players == ["W", "X", "Y", "Z"] and a.rebuilds == 1
        _same_as_a_fresh_replay(a, j)


def test_a_read_only_journal_is_left_as_it_is(table: Table) -> None:
    table.play(evening(2, seed=1))
    before = table.path.read_bytes()
    with Journal.open(table.path, readonly=True) as j, Archive(j) as a:
        assert a.session(1).hands == 2 and a.rebuilds == 1
        _same_as_a_fresh_replay(a, j)
    assert table.path.read_bytes() == before
    Archive(table.journal).close()  # the service's side keeps a summary in the file …
    Archive(table.journal).sessions()
    with Journal.open(table.path, readonly=True) as j, Archive(j) as a:
        assert a.session(1).hands == 2 and a.rebuilds == 0  # … which a reader then uses as it is


def test_pages_are_bounded(table: Table) -> None:
    for k in range(5):
        table.play(evening(1, seed=k))
    a = Archive(table.journal)
    page = a.sessions(page=0, per_page=2)
    assert ([s.number for s in page.items], page.pages, page.total) == ([5, 4], 3, 5)
    assert [s.number for s in a.sessions(page=2, per_page=2).items] == [1]
    assert a.sessions(page=7, per_page=2).items == []
    assert len(a.sessions(per_page=10_000).items) == 5 and a.sessions(per_page=10_000).pages == 1
    assert len(a.sessions(per_page=0).items) == 1  # at least one a page
    assert a.sessions(page=-3, per_page=2).page == 0
    assert Archive.sessions.__defaults__ == (0, 20, None)
    a.close()
