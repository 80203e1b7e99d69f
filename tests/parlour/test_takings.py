"""The takings by day, week and month from the sessions of two tables (imported journals with
their own times and fee settings): each session's bill as engine.fees makes it, the CSV's rows
summing to its ``all`` rows and to the sessions, the command line and the owner's routes
(the floor's server) giving the same."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

from engine.fees import FeeSetting, bill
from engine.public import house_bill, public_state
from engine.table import replay
from parlour.db import Database
from parlour.floor_routes import FloorServer
from parlour.ingest import Ingest
from parlour.live import Live
from parlour.owner_site import COOKIE, owner_key
from parlour.reports import takings_report
from parlour.sessions import Sessions
from parlour.takings import ALL, COLUMNS, write_csv
from table_app.journal.journal import Journal
from tests.parlour.helpers import get, records
from tests.parlour.test_serve import ROOT
from tests.parlour.test_sessions import Script, session

HAND_FEE = {"mode": "hand", "rate": 5, "tea": 2}
HOUR_FEE = {"mode": "hour", "rate": 30, "min": 20, "payer": "big_winner"}
SESSION_FEE = {"mode": "session", "rate": 50}
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def ended(script: Script, seconds: int) -> Script:
    assert script[-1] == {"type": "end_session"}
    return [*script[:-1], {"type": "end_session", "seconds": seconds}]


def imported(path: Path, sessions: list[tuple[str, Script]]) -> Path:
    """A journal of these sessions, each from its start (UTC, noon: the same day in any zone)."""
    events = []
    for start, script in sessions:
        t0 = datetime.fromisoformat(start)
        for i, event in enumerate(script):
            assert isinstance(event, dict)
            events.append(((t0 + timedelta(seconds=10 * i)).isoformat(timespec="milliseconds"), event))
    with Journal.open(path) as j:
        j.append_imported(events, source="test")
    return path


def load(db: Database, tmp: Path) -> Sessions:
    den = imported(tmp / "den.sqlite3", [
        ("2026-11-30T12:00:00+00:00", ended(session(PLAYERS, 2, fee=HAND_FEE), 5400)),  # Monday, week 49
        ("2026-12-03T12:00:00+00:00", ended(session(PLAYERS, 1, fee=HOUR_FEE), 1800))])
    hall = imported(tmp / "hall.sqlite3", [
        ("2026-11-20T12:00:00+00:00", ended(session(PLAYERS, 1, fee=SESSION_FEE), 600)),  # week 47
        ("2026-12-03T11:00:00+00:00", ended(session(PLAYERS, 3), 4000)),  # no fee
        ("2026-12-03T12:30:00+00:00", session(PLAYERS, 1, end=False, fee=HAND_FEE))])  # being played: not counted
    ing = Ingest(db)
    with db.transaction():
        for table, path in (("den", den), ("hall", hall)):
            for r in records(path):
                ing.live(table, r)
    s = Sessions(db)
    with db.transaction():
        s.update(ing.touched)
    return s


def test_each_sessions_bill_and_the_takings_by_day_week_and_month(tmp_path: Path, db: Database) -> None:
    s = load(db, tmp_path)
    rows = s.rows()
    assert [(r.table, r.started[:10], r.ended is not None) for r in rows] == [
        ("hall", "2026-11-20", True), ("den", "2026-11-30", True), ("hall", "2026-12-03", True),
        ("den", "2026-12-03", True), ("hall", "2026-12-03", False)]
    first = rows[1]
    expected = bill(FeeSetting.from_json(HAND_FEE), hands=2, rounds=first.rounds, seconds=5400, scores=first.scores)
    assert first.bill == expected.to_json() and (first.table_fee, first.tea) == (10, 8)
    table = replay(ended(session(PLAYERS, 2, fee=HAND_FEE), 5400))  # type: ignore[arg-type]
    assert first.bill == house_bill(table) and public_state(table)["house"] == first.bill  # the table's settle-up
    assert rows[3].table_fee == 30 and rows[3].bill is not None and rows[3].bill["table"] == [0, 0, 30, 0]
    assert (rows[0].table_fee, rows[2].table_fee, rows[2].bill, rows[4].bill) == (50, 0, None, None)

    by_day = {(t.period, t.table): t for t in takings_report(db, "day")}
    assert list(by_day) == [("2026-12-03", "den"), ("2026-12-03", "hall"), ("2026-12-03", ALL),
                            ("2026-11-30", "den"), ("2026-11-30", ALL), ("2026-11-20", "hall"), ("2026-11-20", ALL)]
    today = by_day[("2026-12-03", ALL)]
    assert (today.sessions, today.hands, today.table_fee, today.tea, today.total) == (2, 4, 30, 0, 30)
    assert today.hours == round((1800 + 4000) / 3600, 2)
    weeks = {(t.period, t.table): t.total for t in takings_report(db, "week")}
    assert weeks == {("2026-W49", "den"): 48, ("2026-W49", "hall"): 0, ("2026-W49", ALL): 48,
                     ("2026-W47", "hall"): 50, ("2026-W47", ALL): 50}
    months = {(t.period, t.table): t.sessions for t in takings_report(db, "month")}
    assert months == {("2026-12", "den"): 1, ("2026-12", "hall"): 1, ("2026-12", ALL): 2,
                      ("2026-11", "den"): 1, ("2026-11", "hall"): 1, ("2026-11", ALL): 2}


def test_the_csv_sums_equal_the_sessions_on_the_command_line_and_the_owners_routes(tmp_path: Path) -> None:
    spec = tmp_path / "parlour.sqlite3"
    with Database.open(spec) as db:
        sessions = load(db, tmp_path).rows()
        counted = [r for r in sessions if r.ended is not None]
        out = io.StringIO()
        write_csv(takings_report(db, "week"), out)
    text = out.getvalue()
    assert text.startswith("\ufeff")
    table = list(csv.DictReader(io.StringIO(text[1:])))
    assert list(table[0]) == list(COLUMNS)
    per_table = [r for r in table if r["table"] != ALL]
    for key in ("sessions", "hands", "table_fee", "tea", "total"):
        assert sum(int(r[key]) for r in per_table) == sum(int(r[key]) for r in table if r["table"] == ALL)
    assert sum(int(r["table_fee"]) for r in per_table) == sum(r.table_fee for r in counted) == 90
    assert sum(int(r["tea"]) for r in per_table) == sum(r.tea for r in counted) == 8
    assert sum(int(r["hands"]) for r in per_table) == sum(r.hands for r in counted)

    proc = subprocess.run([sys.executable, "-m", "table_app.cli", "parlour", "takings", "--period", "week",
                           "--csv", "-", "--db", str(spec)], capture_output=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0 and proc.stdout.decode("utf-8") == text, proc.stderr
    shown = json.loads(subprocess.run([sys.executable, "-m", "table_app.cli", "parlour", "takings", "--json",
                                       "--from", "2026-12-01", "--db", str(spec)], capture_output=True, cwd=ROOT,
                                      timeout=60).stdout)
    assert [(r["period"], r["table"], r["total"]) for r in shown["rows"]] == [
        ("2026-12-03", "den", 30), ("2026-12-03", "hall", 0), ("2026-12-03", ALL, 30)]

    with Database.open(spec) as db:
        live = Live(lambda: db).load()
        web = FloorServer(live, db.floor, owner_key(db), ("127.0.0.1", 0)).start()
        try:
            cookie = f"{COOKIE}={owner_key(db)}"
            status, headers, body = get(web, "/parlour/takings.csv?period=week", cookie)
            assert status == 200 and body.decode("utf-8") == text and "attachment" in headers["Content-Disposition"]
            status, _, body = get(web, "/parlour/takings.json?period=day&from=2026-12-03&to=2026-12-03", cookie)
            assert [r["total"] for r in json.loads(body)["rows"]] == [30, 0, 30]
            status, _, body = get(web, "/parlour/leaderboard.json", cookie)
            assert status == 200 and json.loads(body)["rows"] == []  # (no roster heard: nobody to name)
            status, _, page = get(web, "/parlour/takings?period=month&lang=en", cookie)
            assert status == 200 and b"<h1>Takings</h1>" in page and b"2026-11" in page and b"All" in page
            assert b'href="/parlour?lang=en"' in page  # (back to the floor in English)
            assert get(web, "/parlour/takings?period=year", cookie)[0] == 400
            # the calendar's first and last days are no bound (not an OverflowError and a dropped connection)
            status, _, body = get(web, "/parlour/takings.csv?period=week&from=0001-01-01&to=9999-12-31", cookie)
            assert status == 200 and body.decode("utf-8") == text
            assert get(web, "/parlour/leaderboard.json?to=9999-12-31", cookie)[0] == 200
            status, _, body = get(web, "/parlour/takings?from=" + "9" * 5000, cookie)  # a refusal quotes a piece
            assert status == 400 and len(body) < 400 and b"9" * 40 + "…".encode() in body
            assert get(web, "/parlour/takings.csv")[0] == 403  # the owner's only
        finally:
            web.stop()


