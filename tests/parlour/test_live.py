"""The floor view's fold (parlour/live.py) against a real table: a TableService
plays, its journal's records go through the parlour's Ingest into a real database, and the
fold's public state must equal the table's own after every batch — through undos (one that
reaches back before a new session too), a restart that folds again from the database, and
a table that goes offline."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from engine.fees import bill_so_far
from parlour.db import Database
from parlour.ingest import Ingest
from parlour.live import Live, seconds_between
from table_app.core.service import TableService
from table_app.journal.journal import Journal
from tests.parlour.helpers import records
from tests.table_app.mqtt_helpers import HAND, play


class Table:
    """A real table (its service and journal) and the parlour's copy: ``sync()`` sends its new
    records through Ingest in one transaction and tells the fold, as the service's worker does."""

    def __init__(self, tmp: Path, db: Database, live: Live, table: str = "t1") -> None:
        self.path = tmp / f"{table}.sqlite3"
        self.journal = Journal.open(self.path)
        self.service = TableService(self.journal, claim_window_s=0).start()
        self.ingest, self.live, self.table, self.sent = Ingest(db), live, table, 0

    def sync(self) -> None:
        recs = records(self.path)[self.sent:]
        self.sent += len(recs)
        with self.ingest.db.transaction():
            for r in recs:
                self.ingest.live(self.table, r)
        self.live.committed(self.ingest.stored)
        self.ingest.stored.clear()

    def step(self, *events: dict[str, Any]) -> None:
        play(self.service, list(events))
        self.sync()

    def same(self) -> bool:
        _, pub, seq = self.live.public(self.table)
        return pub == self.service.public and seq == self.service.seq

    def close(self) -> None:
        self.service.stop()
        self.journal.close()


def test_the_fold_follows_every_batch_and_each_undo_refolds_the_session(tmp_path: Path, db: Database) -> None:
    live = Live(lambda: db).load()
    t = Table(tmp_path, db, live)
    try:
        assert live.tile("t1")["phase"] == "idle"
        for event in HAND[:6]:
            t.step(event)
            assert t.same()
        rebuilt = live.folds_rebuilt
        t.step({"type": "undo"})
        assert t.same() and live.folds_rebuilt == rebuilt + 1  # (an undo: the session folded again)
        t.step({"type": "redo"})
        assert t.same()
        t.step(*HAND[6:])  # the hand won: settled
        assert t.same()
        tile = live.tile("t1")
        assert tile["phase"] == "hand_over" and tile["hands"] == 1 and tile["players"] == HAND[0]["players"]
        assert tile["scores"] == list(t.service.public["scores"]) and sum(tile["scores"]) == 0  # type: ignore[arg-type]
        first = tile["started"]
        t.step({"type": "end_session"}, HAND[0])  # a second session …
        assert t.same() and live.tile("t1")["hands"] == 0 and live.tile("t1")["started"] != first
        t.step({"type": "undo"})  # … undone: the first one is in effect again, ended
        assert t.same() and live.tile("t1")["phase"] == "ended" and live.tile("t1")["started"] == first
        assert live.tile("t1")["hands"] == 1
    finally:
        t.close()


def test_a_restart_folds_each_table_again_from_the_database(tmp_path: Path, db: Database) -> None:
    live = Live(lambda: db).load()
    t = Table(tmp_path, db, live)
    try:
        t.step(*HAND[:9])
        t.step({"type": "undo"}, {"type": "undo"})
        again = Live(lambda: db).load()  # the parlour service started again
        assert again.public("t1")[1:] == live.public("t1")[1:]
        assert again.public("t1")[1] == t.service.public
        assert again.tile("t1")["started"] == live.tile("t1")["started"]
        t.live = again  # the new one follows the records from here
        t.step(*HAND[7:])
        assert t.same()
    finally:
        t.close()


def test_a_table_offline_and_its_last_time_seen(tmp_path: Path) -> None:
    with Database.open(tmp_path / "p.sqlite3") as db:
        db.add_table("t2", "table-t2")
        db.seen("t2", "2026-12-03T18:00:00.000+00:00", "online")
        live = Live(lambda: db).load()
        assert live.tile("t2")["online"] is True and live.tile("t2")["seen"] == "2026-12-03T18:00:00.000+00:00"
        v = live.version
        live.seen("t2", "2026-12-03T18:05:00.000+00:00", "offline")
        assert live.wait(v, 0) > v
        tile = live.tile("t2")
        assert tile["online"] is False and tile["seen"] == "2026-12-03T18:05:00.000+00:00"
        live.seen("t2", "2026-12-03T18:06:00.000+00:00", None)  # a message without a status: still offline
        assert live.tile("t2")["online"] is False
        db.seen("t2", "2026-12-03T18:05:00.000+00:00", "offline")  # (what the service wrote meanwhile)
        assert Live(lambda: db).load().tile("t2")["online"] is False  # a restart reads it back
        assert seconds_between("2026-12-03T18:00:00.000+00:00", "2026-12-03T18:05:00.000+00:00") == 300


def test_the_fee_so_far_then_the_tables_own_bill(tmp_path: Path, db: Database) -> None:
    """By the hour: the fee so far bills the hours begun since the session's new_session record
    (the parlour's clock); once the session ends, the floor shows the table's own bill."""
    now = [""]
    live = Live(lambda: db, clock=lambda: now[0]).load()
    t = Table(tmp_path, db, live)
    try:
        fee = {"mode": "hour", "rate": 30, "min": 0, "cap": None, "payer": "aa", "tea": 3}
        t.step({**HAND[0], "fee": fee}, *HAND[1:])  # a hand settled
        started = live.tile("t1")["started"]
        assert isinstance(started, str)
        now[0] = (datetime.fromisoformat(started) + timedelta(minutes=90)).isoformat()
        so_far = live.tile("t1")["fee"]
        assert so_far == bill_so_far(t.service.public, 90 * 60).to_json()  # type: ignore[union-attr]
        assert so_far["units"] == 2 and so_far["fee"] == 60 and so_far["total"] == 72  # type: ignore[index]
        t.step({"type": "end_session"})
        house = t.service.public["house"]
        assert house is not None and live.tile("t1")["fee"] == house and live.tile("t1")["phase"] == "ended"
    finally:
        t.close()
