"""Issue 28, item 13 with the real service, its journal and its clock: the 下家's one press
"I drew and discarded" during the claims is journaled as its answer and held; the claim window
keeps its deadline for the others; when the window closes (the service's own ``resolve``) or
the last seat answers, the draw and the discard are made in that one step — across a restart
and an undo too (docs/rules.md §17, the quick 下家)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from table_app.core.service import SERVICE_SOURCE, ManualClock, Notice, TableService
from table_app.journal.journal import Journal

START = [{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
         {"type": "seating", "method": "C", "east": 0},
         {"type": "bets", "bets": [0, 0, 0, 0]},
         {"type": "roll", "dice": [3, 4]},
         {"type": "roll", "dice": [2, 5]}]  # dealt: seat 0 to discard (tracked mode)
TURN1 = {"type": "press", "seat": 1, "button": "TURN"}


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "journal.sqlite3"


@pytest.fixture
def journal(path: Path) -> Iterator[Journal]:
    j = Journal.open(path)
    yield j
    j.close()


def to_claims(journal: Journal, clock: ManualClock, window: float = 3.0) -> TableService:
    svc = TableService(journal, claim_window_s=window, clock=clock).start()
    for e in START:
        assert svc.call(e).ok
    assert svc.call({"type": "discard", "seat": 0}).ok
    return svc


def state(svc: TableService) -> dict:
    answer = svc.call({"type": "state"})
    assert answer.ok and answer.state is not None
    return dict(answer.state)


def records(path: Path) -> list[tuple[str, dict]]:
    con = sqlite3.connect(path)
    rows = con.execute("SELECT source, event FROM records WHERE kind = 'event' ORDER BY seq").fetchall()
    con.close()
    return [(src, json.loads(ev)) for src, ev in rows]


def test_the_held_press_keeps_the_window_and_its_close_makes_the_draw(journal: Journal, path: Path) -> None:
    clock = ManualClock()
    svc = to_claims(journal, clock)
    heard: list[Notice] = []
    svc.subscribe(heard.append)
    opened = svc.claim_deadline
    clock.advance(1.0)
    answer = svc.call(TURN1, "gpio")
    assert answer.ok and answer.state is not None
    claims = answer.state["claims"]
    assert claims is not None and claims["held"] == 1 and claims["waiting"] == [2, 3] and claims["next"] is None
    assert svc.claim_deadline == opened and heard[-1].claim_deadline == opened  # the others keep their 2 s
    clock.advance(1.9)
    assert state(svc)["phase"] == "claims"
    clock.advance(0.1)  # the window closes: the service's resolve, with the held draw and discard
    after = state(svc)
    svc.stop()
    assert after["phase"] == "claims" and after["claims"]["from"] == 1 and after["claims"]["held"] is None
    assert after["seats"][1]["concealed"] == 13 and after["seats"][1]["discards"] == [None]
    assert records(path)[-2:] == [("gpio press 1:TURN", {"type": "pass", "seat": 1, "drew": True}),
                                  (SERVICE_SOURCE, {"type": "resolve"})]
    closing = [n for n in heard if n.event is not None and n.event.TYPE == "resolve"]
    assert len(closing) == 1 and closing[0].has("drew") and closing[0].has("claims_open")
    assert closing[0].claim_deadline == 3.0 + 3.0  # the 下家's discard opens the next window in full


def test_another_seat_pongs_in_the_window_and_takes_the_tile(journal: Journal, path: Path) -> None:
    clock = ManualClock()
    svc = to_claims(journal, clock)
    assert svc.call(TURN1, "gpio").ok
    clock.advance(2.5)  # seat 3 was about to lose its last 2.5 s: now it keeps them
    assert svc.call({"type": "press", "seat": 3, "button": "PENG"}, "gpio").ok
    clock.advance(0.5)
    after = state(svc)
    svc.stop()
    assert after["phase"] == "turn" and after["turn"] == 3 and after["seats"][3]["melds"][-1]["kind"] == "pong"
    assert after["seats"][1]["concealed"] == 13 and after["seats"][1]["discards"] == []


def test_the_last_answer_closes_without_the_services_resolve(journal: Journal, path: Path) -> None:
    clock = ManualClock()
    svc = to_claims(journal, clock, window=0)  # no timer: the press waits for every answer
    assert svc.call(TURN1, "gpio").ok
    clock.advance(1000)
    assert state(svc)["claims"]["held"] == 1
    assert svc.call({"type": "press", "seat": 2, "button": "TURN"}, "gpio").ok
    last = svc.call({"type": "pass", "seat": 3}, "phone")
    svc.stop()
    assert last.ok and last.state is not None and last.state["claims"]["from"] == 1
    assert [src for src, _ in records(path)].count(SERVICE_SOURCE) == 0


def test_a_restart_keeps_the_held_answer_and_gives_a_full_window(path: Path) -> None:
    clock = ManualClock()
    with Journal.open(path) as j:
        svc = to_claims(j, clock)
        assert svc.call(TURN1, "gpio").ok
        clock.advance(2.0)
        svc.stop()
    with Journal.open(path) as j:
        svc = TableService(j, claim_window_s=3.0, clock=clock).start()
        assert state(svc)["claims"]["held"] == 1 and svc.claim_deadline == clock.now() + 3.0
        clock.advance(2.9)
        assert state(svc)["phase"] == "claims"
        clock.advance(0.1)
        after = state(svc)
        svc.stop()
    assert after["claims"]["from"] == 1 and after["seats"][1]["discards"] == [None]


def test_undo_takes_the_held_answer_back(journal: Journal, path: Path) -> None:
    clock = ManualClock()
    svc = to_claims(journal, clock)
    assert svc.call(TURN1, "gpio").ok
    refused = svc.call(TURN1, "gpio")  # a second press is not a second answer
    assert not refused.ok and refused.code == "press.held"
    clock.advance(2.0)
    asked = svc.call({**TURN1, "held": True}, "gpio")  # a held TURN puts the undo of its own step up
    assert asked.ok and state(svc)["claims"]["held"] == 1
    undone = svc.call({**TURN1, "held": True}, "gpio")  # held again by the same seat: its own step, undone
    assert undone.ok and undone.state is not None
    claims = undone.state["claims"]
    assert claims is not None and claims["held"] is None and claims["next"] == 1 and claims["waiting"] == [1, 2, 3]
    assert svc.claim_deadline == clock.now() + 3.0  # a full window again
    clock.advance(3.0)  # nobody answered: the 下家 draws, and is to discard (its press was taken back)
    after = state(svc)
    svc.stop()
    assert after["phase"] == "turn" and after["turn"] == 1
