"""TableService on real journal files: commit before notice before answer, refusals leave
nothing, undo/redo, restart, snapshots, the claim window (manual clock), many threads."""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import apply, new_table, replay
from engine.public import public_state
from table_app.bench.service import scripted_session
from table_app.core.service import SERVICE_SOURCE, Answer, ManualClock, Notice, TableService
from table_app.journal.journal import Journal
from table_app.journal.timeline import timeline

SESSION = scripted_session(2, seed=11)
START = [{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
         {"type": "seating", "method": "C", "east": 0},
         {"type": "bets", "bets": [0, 0, 0, 0]},
         {"type": "roll", "dice": [3, 4]},
         {"type": "roll", "dice": [2, 5]}]  # dealt: seat 0 to discard


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "journal.sqlite3"


@pytest.fixture
def journal(path: Path) -> Iterator[Journal]:
    j = Journal.open(path)
    yield j
    j.close()


def _svc(journal: Journal, **kw: Any) -> TableService:
    kw.setdefault("claim_window_s", 0)
    return TableService(journal, **kw).start()


def _effective(path: Path) -> list[dict[str, Any]]:
    """The events in effect, read straight from the file with plain SQL and the plain fold."""
    con = sqlite3.connect(path)
    rows = con.execute("SELECT seq, kind, target FROM records ORDER BY seq").fetchall()
    t = timeline(rows)
    events = dict(con.execute("SELECT seq, event FROM records WHERE kind = 'event'").fetchall())
    con.close()
    import json

    return [json.loads(events[s]) for s in t.active]


def test_events_are_answered_with_seq_and_state_after_the_commit(journal: Journal, path: Path) -> None:
    svc = _svc(journal)
    answers = [svc.call(e) for e in SESSION[:40]]
    svc.stop()
    assert all(a.ok for a in answers)
    assert [a.seq for a in answers] == list(range(1, 41))
    for i in (0, 4, 39):
        assert answers[i].state == public_state(replay(SESSION[: i + 1]))
    assert _effective(path) == SESSION[:40]
    assert answers[-1].to_json() == {"ok": True, "seq": 40, "state": answers[-1].state}


def test_a_refused_event_is_answered_with_the_engine_error_and_leaves_nothing(journal: Journal, path: Path) -> None:
    notices: list[Notice] = []
    svc = _svc(journal)
    svc.subscribe(notices.append)
    for e in START:
        assert svc.call(e).ok
    before = (svc.public, svc.seq, len(notices))
    bad = [
        {"type": "discard", "seat": 2},  # not seat 2's turn
        {"type": "discard", "seat": 7},  # malformed
        {"type": "dance"},  # unknown type
        {"type": "pass", "seat": 1},  # wrong phase
        ["not", "an", "object"],
        {"type": "undo", "to": 99},
        {"type": "redo"},  # nothing undone
    ]
    answers = [svc.call(b) for b in bad]  # type: ignore[arg-type]
    svc.stop()
    assert all(not a.ok and a.error for a in answers)
    assert "turn" in (answers[0].error or "")
    assert "seat" in (answers[1].error or "") and "7" in (answers[1].error or "")
    assert answers[0].to_json() == {"ok": False, "error": answers[0].error, "code": "not_turn",
                                    "params": {"seat": 2, "phase": "turn", "turn": 0}}
    assert [a.code for a in answers[1:]] == ["invalid", "invalid", "phase", "invalid", "undo.bad_target",
                                            "redo.nothing"]
    assert (svc.public, svc.seq, len(notices)) == before
    assert Journal.open(path, readonly=True).last_seq() == len(START)


def test_durable_before_observers_before_the_sender(journal: Journal, path: Path) -> None:
    svc = TableService(journal, claim_window_s=0)
    seen: list[tuple[int, int, bool]] = []
    futures: dict[int, Any] = {}

    def observer(n: Notice) -> None:
        with sqlite3.connect(path) as other:  # another connection sees the committed record
            on_disk = other.execute("SELECT max(seq) FROM records").fetchone()[0]
        seen.append((n.seq, on_disk, futures[n.seq].done()))

    svc.subscribe(observer)
    for i, e in enumerate(START, 1):
        futures[i] = svc.submit(e)
    svc.start()
    assert [f.result(10).seq for f in futures.values()] == [1, 2, 3, 4, 5]
    svc.stop()
    assert seen == [(i, i, False) for i in range(1, 6)]


def test_a_failing_observer_does_not_stop_the_table(journal: Journal) -> None:
    svc = _svc(journal)

    def broken(n: Notice) -> None:
        raise RuntimeError("display unplugged")

    got: list[int] = []
    svc.subscribe(broken)
    unsubscribe = svc.subscribe(lambda n: got.append(n.seq))
    assert svc.call(START[0]).ok and svc.call(START[1]).ok
    unsubscribe()
    assert svc.call(START[2]).ok
    svc.stop()
    assert got == [1, 2]


def test_undo_last_and_back_to_a_seq_then_redo(journal: Journal, path: Path) -> None:
    svc = _svc(journal)
    notices: list[Notice] = []
    svc.subscribe(notices.append)
    for e in SESSION[:20]:
        assert svc.call(e).ok
    a = svc.call({"type": "undo"})
    assert a.ok and a.seq == 21 and a.state == public_state(replay(SESSION[:19]))
    assert notices[-1].kind == "undo" and notices[-1].undone == (20,)
    a = svc.call({"type": "undo", "to": 10})
    assert a.ok and a.seq == 22 and a.state == public_state(replay(SESSION[:10]))
    assert notices[-1].undone == tuple(range(11, 20))
    for k in range(11, 15):  # redo brings the undone events back one at a time, in order
        a = svc.call({"type": "redo"})
        assert a.ok and a.state == public_state(replay(SESSION[:k]))
        assert notices[-1].kind == "redo" and notices[-1].event.to_json() == SESSION[k - 1]
    assert svc.call(SESSION[14]).ok  # the same event as the next redo would give, but new:
    r = svc.call({"type": "redo"})
    assert not r.ok and "nothing to redo" in (r.error or "")
    svc.stop()
    assert _effective(path) == SESSION[:15]
    kinds = [k for (k,) in sqlite3.connect(path).execute("SELECT kind FROM records ORDER BY seq")]
    assert kinds == ["event"] * 20 + ["undo", "undo"] + ["redo"] * 4 + ["event"]  # the history stays auditable


def test_undo_to_zero_empties_the_table_and_bad_targets_are_refused(journal: Journal) -> None:
    svc = _svc(journal)
    assert not svc.call({"type": "undo"}).ok  # nothing yet
    for e in START:
        svc.call(e)
    assert svc.call({"type": "undo"}).seq == 6
    for bad in ({"type": "undo", "to": 5}, {"type": "undo", "to": 6}, {"type": "undo", "to": -1},
                {"type": "undo", "to": "3"}, {"type": "undo", "to": 2, "x": 1}, {"type": "redo", "x": 1}):
        a = svc.call(bad)
        assert not a.ok, bad
    a = svc.call({"type": "undo", "to": 0})
    assert a.ok and a.state == public_state(new_table())
    assert svc.call({"type": "redo"}).state == public_state(replay(START[:1]))
    svc.stop()


def test_restart_restores_state_and_the_redo_list(path: Path) -> None:
    with Journal.open(path) as j:
        svc = _svc(j)
        for e in SESSION[:30]:
            svc.call(e)
        svc.call({"type": "undo", "to": 25})
        svc.stop()
    with Journal.open(path) as j:
        svc = _svc(j)
        assert svc.public == public_state(replay(SESSION[:25]))
        assert svc.seq == 31
        a = svc.call({"type": "redo"})
        assert a.ok and a.seq == 32 and a.state == public_state(replay(SESSION[:26]))
        svc.stop()


def test_state_command_reads_without_writing(journal: Journal) -> None:
    svc = _svc(journal)
    for e in START[:2]:
        svc.call(e)
    a = svc.call({"type": "state"})
    svc.stop()
    assert (a.ok, a.seq, a.state) == (True, 2, public_state(replay(START[:2])))
    assert journal.last_seq() == 2


def test_snapshots_restore_the_same_state_and_are_ignored_once_undone(path: Path) -> None:
    events = scripted_session(3, seed=5)
    with Journal.open(path) as j:
        svc = _svc(j, snapshot_every=100)
        for e in events:
            assert svc.call(e).ok
        svc.stop()
        snaps = [s for (s,) in j._conn.execute("SELECT seq FROM snapshots")]
    assert len(snaps) >= len(events) // 100 - 1
    with Journal.open(path) as j:
        assert TableService(j, snapshot_every=100).public == public_state(replay(events))
        svc = _svc(j, snapshot_every=100)
        back = snaps[1] - 7  # before the second snapshot: it no longer counts
        assert svc.call({"type": "undo", "to": back}).state == public_state(replay(events[:back]))
        svc.stop()
    with Journal.open(path) as j:
        assert TableService(j, snapshot_every=100).public == public_state(replay(events[:back]))


def test_a_new_session_starts_over_and_start_up_replays_only_it(path: Path) -> None:
    first = scripted_session(1, seed=1)
    second = scripted_session(1, seed=2, players=["W", "X", "Y", "Z"])
    with Journal.open(path) as j:
        svc = _svc(j)
        for e in first + second[:10]:
            assert svc.call(e).ok
        svc.stop()
        assert [(i, s) for i, s, _, _ in j.sessions()] == [(1, 1), (2, len(first) + 1)]
    with Journal.open(path) as j:
        assert TableService(j).public == public_state(replay(first + second[:10])) == public_state(replay(second[:10]))


# --- the claim window -------------------------------------------------------------------


def _to_claims(journal: Journal, window: float, clock: ManualClock) -> TableService:
    svc = TableService(journal, claim_window_s=window, clock=clock).start()
    for e in START:
        assert svc.call(e).ok
    assert svc.call({"type": "discard", "seat": 0}).state["phase"] == "claims"  # type: ignore[index]
    return svc


def _sources(path: Path) -> list[tuple[str, str]]:
    con = sqlite3.connect(path)
    rows = con.execute("SELECT source, event FROM records WHERE kind = 'event' ORDER BY seq").fetchall()
    con.close()
    import json

    return [(src, json.loads(ev)["type"]) for src, ev in rows]


def test_the_claim_window_closes_after_the_timeout(journal: Journal, path: Path) -> None:
    clock = ManualClock()
    svc = _to_claims(journal, 3.0, clock)
    assert svc.call({"type": "claim", "seat": 2, "call": "pong"}).ok
    clock.advance(2.9)
    assert svc.call({"type": "state"}).state["phase"] == "claims"  # type: ignore[index]
    clock.advance(0.1)
    state = svc.call({"type": "state"}).state
    svc.stop()
    assert state is not None and state["phase"] == "turn" and state["turn"] == 2  # the pong took the discard
    assert _sources(path)[-1] == (SERVICE_SOURCE, "resolve")
    clock.advance(10)  # nothing more happens once the window has closed
    assert journal.last_seq() == len(START) + 3


def test_the_claim_window_closes_when_every_seat_has_answered(journal: Journal, path: Path) -> None:
    clock = ManualClock()
    svc = _to_claims(journal, 3.0, clock)
    for seat in (1, 2, 3):
        a = svc.call({"type": "pass", "seat": seat})
        assert a.ok
    assert a.state is not None and a.state["phase"] == "turn" and a.state["turn"] == 1  # the next seat drew
    clock.advance(5)
    svc.call({"type": "state"})
    svc.stop()
    # the engine closed the claims on the last answer; the service sent no resolve of its own
    assert [s for s, _ in _sources(path)].count(SERVICE_SOURCE) == 0
    assert journal.last_seq() == len(START) + 4


def test_no_timer_when_the_window_is_zero(journal: Journal) -> None:
    clock = ManualClock()
    svc = _to_claims(journal, 0, clock)
    clock.advance(1000)
    assert svc.call({"type": "state"}).state["phase"] == "claims"  # type: ignore[index]
    assert svc.call({"type": "resolve"}).state["phase"] == "turn"  # type: ignore[index]
    svc.stop()


def test_undoing_the_services_resolve_reopens_a_full_window(journal: Journal) -> None:
    clock = ManualClock()
    svc = _to_claims(journal, 3.0, clock)
    svc.call({"type": "claim", "seat": 3, "call": "pong"})
    clock.advance(3)
    assert svc.call({"type": "state"}).state["phase"] == "turn"  # type: ignore[index]
    assert svc.call({"type": "undo"}).state["phase"] == "claims"  # type: ignore[index]
    clock.advance(2)
    assert svc.call({"type": "state"}).state["phase"] == "claims"  # type: ignore[index]
    svc.call({"type": "claim", "seat": 1, "call": "chow"})  # a seat changes its mind in the new window
    clock.advance(1)
    state = svc.call({"type": "state"}).state
    svc.stop()
    assert state is not None and state["phase"] == "turn" and state["turn"] == 3  # pong beats chow


def test_a_window_open_at_restart_gets_a_fresh_timer(path: Path) -> None:
    clock = ManualClock()
    with Journal.open(path) as j:
        _to_claims(j, 3.0, clock).stop()
    with Journal.open(path) as j:
        svc = TableService(j, claim_window_s=3.0, clock=clock).start()
        clock.advance(2.5)
        assert svc.call({"type": "state"}).state["phase"] == "claims"  # type: ignore[index]
        clock.advance(0.5)
        assert svc.call({"type": "state"}).state["phase"] == "turn"  # type: ignore[index]
        svc.stop()


def test_the_real_clock_closes_the_window(journal: Journal) -> None:
    svc = TableService(journal, claim_window_s=0.2).start()
    for e in START:
        svc.call(e)
    svc.call({"type": "discard", "seat": 0})
    deadline = time.monotonic() + 10
    while svc.public["phase"] == "claims" and time.monotonic() < deadline:
        time.sleep(0.02)
    svc.stop()
    assert svc.public["phase"] == "turn"


# --- many threads at once ----------------------------------------------------------------


def test_many_threads_pressing_at_once_never_corrupt_the_table(journal: Journal, path: Path) -> None:
    """Four seat threads, a dealer-side thread and an undo thread press what they believe is
    right, from stale views, all at once; the one writer keeps every answer consistent."""
    svc = TableService(journal, claim_window_s=0).start()
    for e in START[:2]:
        assert svc.call(e).ok
    answers: list[tuple[dict[str, Any], Answer]] = []
    lock = threading.Lock()
    stop = threading.Event()

    def press(cmd: dict[str, Any]) -> None:
        a = svc.call(cmd, source="thread")
        with lock:
            answers.append((cmd, a))

    def seat(s: int) -> None:
        rng = random.Random(s)
        while not stop.is_set():
            phase = svc.public["phase"]
            cmds = [{"type": "discard", "seat": s}, {"type": "pass", "seat": s}]
            if phase == "claims" and rng.random() < 0.05:
                cmds.append({"type": "claim", "seat": s, "call": rng.choice(["pong", "chow"])})
            press(rng.choice(cmds))

    def table() -> None:
        rng = random.Random(9)
        while not stop.is_set():
            press(rng.choice([{"type": "bets", "bets": [0, 1, 0, 0]}, {"type": "roll", "dice": [3, 3]},
                              {"type": "next_hand"}, {"type": "resolve"}]))

    def undoer() -> None:
        while not stop.is_set():
            # queued back to back; the redo succeeds unless another thread's event got between
            undo, redo = {"type": "undo"}, {"type": "redo"}
            futures = [(undo, svc.submit(undo, "thread")), (redo, svc.submit(redo, "thread"))]
            for cmd, fut in futures:
                a = fut.result()
                with lock:
                    answers.append((cmd, a))
            time.sleep(0.01)

    threads = [threading.Thread(target=seat, args=(s,)) for s in range(4)]
    threads += [threading.Thread(target=table), threading.Thread(target=undoer)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 60
    while svc.public["hand"] < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    for t in threads:
        t.join()
    svc.stop()
    assert svc.public["hand"] >= 3, "the threads did not get through two hands"

    ok = sorted((a.seq, a.state) for _, a in answers if a.ok)  # type: ignore[type-var]
    last = journal.last_seq()
    assert [s for s, _ in ok] == list(range(3, last + 1))  # every record answered exactly once
    assert journal.integrity_check() == ["ok"]
    # each answer's state is exactly the state the journal implies at that record
    con = sqlite3.connect(path)
    rows = con.execute("SELECT seq, kind, target, event FROM records ORDER BY seq").fetchall()
    con.close()
    import json

    t = timeline([])
    events = {}
    states = {0: new_table()}
    state = new_table()
    by_seq = dict(ok)
    for seq, kind, target, ev in rows:
        if kind == "event":
            events[seq] = json.loads(ev)
            state, _ = apply(state, events[seq])
        elif kind == "undo":
            state = replay(events[s] for s in t.active[: t.cut_index(target)])
        else:
            state, _ = apply(state, events[target])
        t.apply_record(seq, kind, target)
        states[seq] = state
        if seq in by_seq:
            assert by_seq[seq] == public_state(state), f"answer for record {seq} does not match the journal"
    assert svc.public == public_state(state)
    assert {"event", "undo"} <= {k for _, k, _, _ in rows}
    assert sum(1 for _, a in answers if not a.ok) > 0  # plenty of stale presses were refused


def test_a_failed_commit_is_answered_as_an_error_and_nothing_changes(journal: Journal, path: Path) -> None:
    """A full disk, made real with SQLite's own page limit: the event is not acknowledged,
    not notified, not in memory; once there is room again the table goes on."""
    svc = _svc(journal)
    notices: list[Notice] = []
    svc.subscribe(notices.append)
    for e in START:
        assert svc.call(e).ok
    pages = journal._conn.execute("PRAGMA page_count").fetchone()[0]
    journal._conn.execute(f"PRAGMA max_page_count = {pages}")
    big = {"type": "new_session", "players": ["甲" * 3000, "乙" * 3000, "丙" * 3000, "丁" * 3000], "base": 1}
    a = svc.call(big)
    assert not a.ok and "journal write failed" in (a.error or "") and "full" in (a.error or "")
    assert svc.public == public_state(replay(START)) and svc.seq == len(START) and len(notices) == len(START)
    journal._conn.execute("PRAGMA max_page_count = 1073741823")
    b = svc.call({"type": "discard", "seat": 0})
    svc.stop()
    assert b.ok and b.seq == len(START) + 1
    assert _effective(path) == [*START, {"type": "discard", "seat": 0}]


def test_commands_after_stop_are_answered_not_left_waiting(journal: Journal) -> None:
    svc = _svc(journal)
    queued = [svc.submit(e) for e in START]
    svc.stop()
    assert all(f.result(10).ok for f in queued)  # queued before the stop: done
    late = svc.call(START[0], timeout=10)
    assert not late.ok and "stopped" in (late.error or "")
    assert journal.last_seq() == len(START)


def test_a_scored_hand_is_journaled_undone_and_redone(journal: Journal, path: Path) -> None:
    """Score-only mode: ``score_hand`` goes through the one writer like any event."""
    svc = _svc(journal)
    for ev in START[:2]:
        assert svc.call(ev).ok
    entry = {"type": "score_hand", "winner": 2, "how": "self_drawn", "wait": "closed"}
    ans = svc.call(entry)
    assert ans.ok and ans.state is not None and ans.state["scores"] == [-3, -3, 9, -3]
    assert _effective(path)[-1] == entry
    refused = svc.call({"type": "score_hand", "winner": 1, "how": "self_drawn"})  # the hand is over
    assert not refused.ok and refused.code == "phase"
    assert svc.call({"type": "undo"}).ok and svc.public["phase"] == "betting" and svc.public["scores"] == [0] * 4
    assert svc.call({"type": "redo"}).ok and svc.public["scores"] == [-3, -3, 9, -3]
    svc.stop()
    again = _svc(journal)
    assert again.public["phase"] == "hand_over" and again.public["last_settlement"]["wait"] == "closed"
    again.stop()
