"""The parlour database on real SQLite and a real PostgreSQL: the schema, the idempotent key,
the runs of stored records, the lists."""

from __future__ import annotations

from parlour.db import LATEST, MIGRATIONS, Database
from parlour.records import Record

J = "ab" * 16


def rec(seq: int, journal: str = J, event: str | None = '{"type":"pass"}') -> Record:
    return Record(journal, seq, f"2026-12-03T10:00:{seq % 60:02d}.000+00:00", "event", 1, "mqtt", event, None,
                  f"{seq:032x}")


def test_migrations_run_once_and_reopen(db_spec: str) -> None:
    with Database.open(db_spec, migrate=False) as db:
        assert db.version() == 0
        assert db.migrate() == [n for n, _ in MIGRATIONS]
        assert db.migrate() == []
    with Database.open(db_spec) as db:
        assert db.version() == LATEST


def test_records_are_stored_once_by_their_key(db: Database) -> None:
    db.ensure_journal("den", J)
    with db.transaction():
        assert db.insert("den", rec(1)) is True
        assert db.insert("den", rec(1)) is False
        assert db.insert("den", rec(1, event='{"type":"other"}')) is False  # the key decides; the caller compares
    assert db.stored("den", J, 1) == rec(1)
    assert db.records("den", J) == [rec(1)]
    db.ensure_journal("hall", J)
    assert db.insert("hall", rec(1)) is True  # another table's journal is apart
    assert [(j.table, j.records) for j in db.journals()] == [("den", 1), ("hall", 1)]


def test_ranges_and_tip(db: Database) -> None:
    db.ensure_journal("den", J)
    assert db.ranges("den", J) == [] and db.tip("den", J) == (0, None)
    for s in (1, 2, 3, 7, 8, 12):
        db.insert("den", rec(s))
    assert db.ranges("den", J) == [(1, 3), (7, 8), (12, 12)]
    assert db.tip("den", J) == (12, f"{12:032x}")


def test_a_rolled_back_transaction_stores_nothing(db: Database) -> None:
    db.ensure_journal("den", J)
    try:
        with db.transaction():
            db.insert("den", rec(1))
            raise RuntimeError("the worker failed half-way")
    except RuntimeError:
        pass
    assert db.records("den", J) == []


def test_tables_added_retired_seen_and_refusals(db: Database) -> None:
    db.add_table("den", "table-den", at="2026-12-03T09:00:00.000+00:00")
    assert db.ensure_table("den") is False and db.ensure_table("stray") is True
    db.seen("den", "2026-12-03T10:00:00.000+00:00", "online")
    assert db.retire_table("den") is True and db.retire_table("den") is False
    den = db.table("den")
    assert den is not None and (den.user, den.status, den.last_seen) == ("table-den", "online",
                                                                            "2026-12-03T10:00:00.000+00:00")
    assert den.retired is not None
    db.add_table("den", "table-den")
    assert db.table("den").retired is None  # type: ignore[union-attr]
    db.ensure_journal("den", J)
    db.raise_highest("den", J, 40)
    db.raise_highest("den", J, 30)
    assert db.journals("den")[0].highest == 40
    db.refuse("den", "forged", journal=J, seq=3, payload="x" * 5000)
    assert db.refusals("den") == [(db.refusals()[0][0], "den", J, 3, "forged")]
    assert [t.id for t in db.tables()] == ["den", "stray"]
