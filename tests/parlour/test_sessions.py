"""The sessions folded from the parlour's records: incremental as records are stored, an undo
across a session's end, two journals of one table, and a fold made again from the records
equal to the one kept up record by record."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.table import push, replay
from parlour import sessions as sessions_module
from parlour.db import Database
from parlour.ingest import Ingest
from parlour.sessions import Sessions
from table_app.journal.journal import Journal
from tests.parlour.helpers import records
from tests.table_app.mqtt_helpers import HAND

PLAY = HAND[2:]  # a hand after the seating: bets … confirm_win (seat 2 wins on seat 3's discard)

Script = list[dict[str, object] | tuple[str, int]]  # an event, or ("undo", n back) / ("redo", n back)


def write(path: Path, script: Script) -> Path:
    """A real journal of ``script``: events, and undo/redo of the record ``n`` back."""
    with Journal.open(path) as j:
        session = None
        for step in script:
            if isinstance(step, tuple):
                kind, back = step
                target = j.last_seq() - back
                (j.append_undo if kind == "undo" else j.append_redo)(target, session, source="test")
                continue
            new = step["type"] == "new_session"
            _, s = j.append_event(step, None if new else session, source="test", new_session=new)
            session = s
    return path


def shifted(event: dict[str, object], by: int) -> dict[str, object]:
    return {**event, "seat": (event["seat"] + by) % 4} if "seat" in event else event  # type: ignore[operator]


def session(players: list[str], hands: int, *, end: bool = True, **extra: object) -> Script:
    """A session of ``hands`` won hands (each HAND's, turned to its dealer: the dealer's 对家 wins)."""
    out: Script = [{"type": "new_session", "players": players, "base": 1, **extra},
                   {"type": "seating", "method": "C", "east": 0}]
    state = replay(out)  # type: ignore[arg-type]
    for h in range(hands):
        if h:
            out.append({"type": "next_hand"})
            push(state, out[-1])  # type: ignore[arg-type]
        for event in PLAY:
            out.append(shifted(event, state.dealer or 0))
            push(state, out[-1])  # type: ignore[arg-type]
    if end:
        out.append({"type": "end_session"})
    return out


def feed(db: Database, sessions: Sessions, table: str, path: Path, *, each: bool) -> None:
    ing = Ingest(db)
    for r in records(path):
        with db.transaction():
            ing.live(table, r)
            if each:
                sessions.update(ing.touched)
                ing.touched.clear()
    if not each:
        with db.transaction():
            sessions.update(ing.touched)


def summary(sessions: Sessions) -> list[tuple[object, ...]]:
    return [(r.table, r.first_seq, r.number, r.ended is not None, r.hands, r.rounds, r.scores, r.players, r.stats)
            for r in sessions.rows()]


def test_sessions_are_folded_as_records_come_and_equal_a_fold_from_the_records(
        tmp_path: Path, db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sessions_module, "CHECKPOINT", 7)  # (the cursor kept every 7 records)
    one = session(["Ann", "Bo", "Cy", "Di"], 2)
    path = write(tmp_path / "j.sqlite3", [*one, *session(["Ann", "Eve", "Cy", "Di"], 1, end=False)])
    s = Sessions(db)
    feed(db, s, "den", path, each=True)
    rows = s.rows()
    assert [(r.number, r.hands, r.ended is not None, r.players[1]) for r in rows] == [(1, 2, True, "Bo"),
                                                                                     (2, 1, False, "Eve")]
    assert rows[0].scores == replay(one).scores and rows[1].scores == [0, 0, 1, -1]  # type: ignore[arg-type]
    assert rows[0].rounds == 1 and rows[0].phase == "ended" and rows[1].phase == "hand_over"
    cy = rows[0].stats['[2, null, "Cy"]']
    assert cy[:3] == [2, 1, 0] and cy[4] == rows[0].scores[2]  # hands, wins, self-draws … net
    assert s.current()["den"].number == 2
    kept = summary(s)
    resumed = Sessions(db)  # (a restart: from the last checkpoint, over the records after it)
    [(last,)] = db.x("SELECT last_seq FROM session_scans").fetchall()
    assert 0 < int(str(last)) < len(records(path)) and resumed.refresh() == 1 and resumed.rebuilds == 0
    assert summary(resumed) == kept
    db.x("DELETE FROM session_scans")  # stale: made again from the records
    again = Sessions(db)
    assert again.refresh() == 1 and again.rebuilds == 1
    assert summary(again) == kept
    assert again.refresh() == 0  # up to date: nothing to do


@pytest.fixture
def lite(tmp_path: Path) -> Iterator[Database]:
    """SQLite only (the first test runs on PostgreSQL too)."""
    with Database.open(tmp_path / "parlour.sqlite3") as d:
        yield d


def test_an_undo_across_a_sessions_end_opens_it_again(tmp_path: Path, lite: Database) -> None:
    db = lite
    two = session(["Ann", "Bo", "Cy", "Di"], 2)
    cut = two.index({"type": "next_hand"})
    script: Script = [*two[:cut], {"type": "end_session"}, ("undo", 1), *two[cut:]]
    path = write(tmp_path / "j.sqlite3", script)
    each = Sessions(db)
    feed(db, each, "den", path, each=True)
    rows = each.rows()
    assert [(r.hands, r.ended is not None) for r in rows] == [(2, True)]
    # record by record, the session was ended, opened again by the undo, and ended again
    partial = write(tmp_path / "p.sqlite3", script[:cut + 2])
    with Database.open(tmp_path / "other.sqlite3") as other:
        undone = Sessions(other)
        feed(other, undone, "den", partial, each=True)
        [opened] = undone.rows()
        assert opened.ended is None and opened.phase == "hand_over" and opened.hands == 1


def test_undoing_a_new_session_drops_it_and_two_journals_of_a_table_are_kept_apart(tmp_path: Path,
                                                                                   lite: Database) -> None:
    db = lite
    first = write(tmp_path / "a.sqlite3", [*session(["Ann", "Bo", "Cy", "Di"], 1),
                                           {"type": "new_session", "players": ["W", "X", "Y", "Z"], "base": 1},
                                           ("undo", 1)])
    second = write(tmp_path / "b.sqlite3", session(["Ann", "Bo", "Cy", "Di"], 1))
    s = Sessions(db)
    feed(db, s, "den", first, each=True)
    feed(db, s, "den", second, each=False)
    rows = s.rows()
    assert [(r.journal == rows[0].journal, r.number, r.hands, r.players[0]) for r in rows] == [
        (True, 1, 1, "Ann"), (False, 1, 1, "Ann")]
    assert rows[0].phase == "ended"  # the undone new_session: the first session as it ended
