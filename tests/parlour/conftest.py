"""The parlour's fixtures: its database on real SQLite and on a real PostgreSQL server that
the tests start themselves (initdb in a temporary folder, a free port), one per session,
a fresh database for each test."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from parlour.db import Database
from table_app.bench.parlour_local import LocalPostgres

_names = itertools.count(1)


@pytest.fixture(scope="session")
def postgres() -> Iterator[LocalPostgres]:
    with LocalPostgres() as pg:  # (a folder of its own: pytest's may be made private by other runs)
        yield pg


def fresh_pg_url(pg: LocalPostgres) -> str:
    import psycopg

    name = f"t{next(_names)}"
    with psycopg.connect(pg.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return pg.url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=["sqlite", "postgresql"])
def db_spec(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a parlour database is: a file, or a URL on the session's PostgreSQL server."""
    if request.param == "sqlite":
        return str(tmp_path / "parlour.sqlite3")
    return fresh_pg_url(request.getfixturevalue("postgres"))


@pytest.fixture
def db(db_spec: str) -> Iterator[Database]:
    with Database.open(db_spec) as d:
        yield d
