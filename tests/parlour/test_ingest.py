"""Ingest against a real journal's records, on real SQLite and PostgreSQL: each record once,
in chain order; forged, malformed and different copies refused and logged, never stored;
a journal with another id kept apart."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from parlour.db import Database
from parlour.ingest import Ingest
from parlour.records import parse
from tests.parlour.helpers import make_journal, records


@pytest.fixture(scope="module")
def recs(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, object]]:
    return records(make_journal(tmp_path_factory.mktemp("j") / "journal.sqlite3", hands=3))


def feed(ing: Ingest, table: str, items: list[dict[str, object]]) -> None:
    with ing.db.transaction():
        for r in items:
            ing.live(table, r)


def test_in_order_twice_and_shuffled_store_each_record_once(db: Database, recs: list[dict[str, object]]) -> None:
    ing = Ingest(db)
    feed(ing, "den", recs)
    feed(ing, "den", recs)
    shuffled = recs[:]
    random.Random(30).shuffle(shuffled)
    feed(ing, "hall", shuffled)  # every record whose predecessor is missing waits for it
    journal = str(recs[0]["journal"])
    expected = [parse(r) for r in recs]
    assert db.records("den", journal) == expected
    assert db.records("hall", journal) == expected
    assert ing.counts["stored"] == 2 * len(recs) and ing.counts["duplicate"] == len(recs)
    assert ing.held() == 0 and db.refusals() == []


def test_forged_malformed_and_different_records_are_refused(db: Database, recs: list[dict[str, object]]) -> None:
    ing = Ingest(db)
    journal = str(recs[0]["journal"])
    forged = dict(recs[3], event=str(recs[3]["event"]).replace("}", ",\"seat\":0}"))
    feed(ing, "den", [*recs[:3], forged, {"seq": "x"}, dict(recs[4], hash="XYZ")])
    assert [r.seq for r in db.records("den", journal)] == [1, 2, 3]
    feed(ing, "den", [dict(recs[1], at="2030-01-01T00:00:00.000+00:00")])  # a different copy of a stored one
    feed(ing, "den", recs[3:])
    assert db.records("den", journal) == [parse(r) for r in recs]
    reasons = [(seq, reason.split(":")[0]) for _, _, _, seq, reason in db.refusals("den")]
    assert reasons == [(4, "its hash does not follow the record before it (forged or damaged)"),
                       (None, "not a journal record"), (None, "not a journal record"),
                       (2, "differs from the stored record of the same journal and seq")]


def test_a_forged_record_held_ahead_is_refused_when_its_turn_comes(db: Database,
                                                                    recs: list[dict[str, object]]) -> None:
    ing = Ingest(db)
    journal = str(recs[0]["journal"])
    forged = dict(recs[5], source="someone else")
    feed(ing, "den", [recs[0], forged, recs[6], recs[1], recs[2], recs[3], recs[4]])
    assert [r.seq for r in db.records("den", journal)] == [1, 2, 3, 4, 5]  # 6 forged: 7 waits
    assert ing.held() == 1 and [r[3] for r in db.refusals("den")] == [6]
    feed(ing, "den", recs[5:])
    assert db.records("den", journal) == [parse(r) for r in recs] and ing.held() == 0


def test_another_journal_of_the_same_table_is_kept_apart(db: Database, recs: list[dict[str, object]],
                                                         tmp_path: Path) -> None:
    other = records(make_journal(tmp_path / "new-card.sqlite3"))
    ing = Ingest(db)
    feed(ing, "den", recs[:10])
    feed(ing, "den", other)
    feed(ing, "den", recs[10:])  # the old card back: still its own journal
    rows = {j.journal: (j.records, j.highest) for j in db.journals("den")}
    assert rows == {recs[0]["journal"]: (len(recs), len(recs)), other[0]["journal"]: (len(other), len(other))}
    forged_first = dict(other[0], journal="0" * 32)  # record 1's hash is its journal's id
    feed(ing, "den", [forged_first])
    assert db.refusals("den")[-1][4] == "its hash is not its journal's id"


def test_a_replay_answer_fills_the_gap_and_releases_what_was_held(db: Database,
                                                                  recs: list[dict[str, object]]) -> None:
    ing = Ingest(db)
    journal = str(recs[0]["journal"])
    key = ("den", journal)
    feed(ing, "den", recs[:5] + recs[20:25])
    assert ing.tip(key) == 5 and ing.first_held(key) == 21 and ing.highest[key] == 25
    answer = {"journal": journal, "request": "r1", "records": [{k: v for k, v in r.items() if k != "journal"}
                                                                for r in recs[5:20]],
              "last": len(recs), "done": True}
    with db.transaction():
        got = ing.replay("den", answer)
    assert got is not None and (got.records, got.last, got.done) == (15, len(recs), True)
    assert ing.tip(key) == 25 and ing.held() == 0 and ing.highest[key] == len(recs)
    assert db.journals("den")[0].highest == len(recs)
    with db.transaction():
        assert ing.replay("den", dict(answer, records=[dict(recs[30], journal="1" * 32)])) is None
    assert "another journal" in db.refusals("den")[-1][4]


def test_a_flood_of_bad_records_is_counted_not_kept_row_by_row(db: Database) -> None:
    from parlour.ingest import MAX_REFUSALS_A_MINUTE

    ing = Ingest(db)
    with db.transaction():
        for i in range(MAX_REFUSALS_A_MINUTE + 50):
            ing.live("den", {"seq": i})
    assert ing.counts["refused"] == MAX_REFUSALS_A_MINUTE + 50
    assert len(db.refusals("den")) <= MAX_REFUSALS_A_MINUTE * 2  # (a minute may turn during the loop)
