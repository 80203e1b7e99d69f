"""Players across tables and Home Assistant, on a real parlour mosquitto with ``parlour serve``
as a real process: two real tables (TableService, its roster, its MQTT bridge logged in as
``table-T``) publish their rosters; the parlour links ``Ann`` at one and ``ann`` at the other
to one player; a player hidden at a table is left out of the leaderboard; Home Assistant's
discovery and each table's state arrive retained (occupied while a session is played), and
a retired table's are taken away."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from parlour import broker
from parlour.db import Database
from parlour.players import Links
from parlour.reports import Range, leaderboard_report
from parlour.sessions import Sessions
from table_app.bench.parlour_local import LocalParlourBroker
from table_app.core.roster import Roster
from table_app.core.service import TableService
from table_app.journal.journal import Journal
from table_app.mqtt.bridge import MqttBridge
from table_app.mqtt.broker_setup import set_password
from table_app.mqtt.topics import Topics, parse_url
from tests.parlour.test_serve import ROOT, Serve, add_table, wait_for
from tests.parlour.test_sessions import session
from tests.table_app.mqtt_helpers import Watcher


@contextlib.contextmanager
def real_table(tmp: Path, name: str) -> Iterator[TableService]:
    path = tmp / f"{name}.sqlite3"
    journal = Journal.open(path)
    roster = Roster.open(path)
    svc = TableService(journal, claim_window_s=0, roster=roster).start()
    try:
        yield svc
    finally:
        svc.stop()
        roster.close()
        journal.close()


def play(svc: TableService, players: list[str], hands: int, *, end: bool = True, **extra: object) -> None:
    for event in session(players, hands, end=end, **extra):
        assert isinstance(event, dict)
        answer = svc.call(event, source="test", timeout=30)
        assert answer.ok, answer.error


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "table_app.cli", "parlour", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)


def test_rosters_link_players_across_tables_the_hidden_are_left_out_and_home_assistant_sees_each_table(
        tmp_path: Path) -> None:
    db_spec = str(tmp_path / "parlour.sqlite3")
    with LocalParlourBroker(tmp_path) as b, real_table(tmp_path, "den") as den, real_table(tmp_path, "hall") as hall:
        passwords = {t: add_table(b, db_spec, t, tmp_path) for t in ("den", "hall")}
        set_password(b.dir / "passwd", broker.HA_USER, "ha-secret", add=True)
        b.reload()
        ha = Watcher(b.url(broker.HA_USER, "ha-secret"), ["homeassistant/#", "xian-parlour/#"])
        ha.wait_subscribed()
        serve = Serve(db_spec, b, tmp_path / "serve.log")
        serve.start()
        bridges = [MqttBridge(svc, parse_url(b.url(broker.table_user(t), passwords[t])), Topics("xian", t),
                              ha_prefix=None, max_backoff=0.5).start() for t, svc in (("den", den), ("hall", hall))]
        try:
            play(den, ["Ann", "Bo", "Cy", "Di"], 2)
            play(hall, ["ann", "Eve", "Fay", "Gus"], 1)
            assert den.roster is not None
            bo = den.roster.find("Bo")
            assert bo is not None
            den.roster.set_listed(bo.id, False)  # Bo's choice at den: published within CHECK_EVERY

            def linked() -> bool:
                with Database.open(db_spec) as db:
                    links = Links.load(db)
                    return len(links.by_roster) == 8 and len(links.hidden) == 1 and len(
                        db.x("SELECT * FROM sessions WHERE ended IS NOT NULL").fetchall()) == 2
            wait_for(linked, timeout=30)
            with Database.open(db_spec) as db:
                board = leaderboard_report(db, Range(None, None))
                den_scores = db.x("SELECT scores FROM sessions WHERE table_id = 'den'").fetchone()
                hall_scores = db.x("SELECT scores FROM sessions WHERE table_id = 'hall'").fetchone()
            assert den_scores is not None and hall_scores is not None
            names = [r.name for r in board]
            assert "Bo" not in names and sorted(names) == ["Ann", "Cy", "Di", "Eve", "Fay", "Gus"]
            ann = next(r for r in board if r.name == "Ann")
            with Database.open(db_spec) as db:
                links = Links.load(db)
                seats = {r.table: links.seats(r) for r in Sessions(db).rows()}
            assert seats["den"][0] == seats["hall"][0] == ann.player_id and None not in seats["den"]
            assert ann.tables == ["den", "hall"] and ann.sessions == 2 and ann.hands == 3
            assert ann.net == json.loads(str(den_scores[0]))[0] + json.loads(str(hall_scores[0]))[0]
            assert [r.net for r in board] == sorted((r.net for r in board), reverse=True)
            shown = json.loads(cli("leaderboard", "--json", "--db", db_spec).stdout)
            assert [r["name"] for r in shown["rows"]] == names

            occupied = "homeassistant/binary_sensor/xian_parlour_den/occupied/config"
            config = ha.wait_json(occupied)
            assert config["state_topic"] == "xian-parlour/den/state" and config["device_class"] == "occupancy"
            assert config["availability_topic"] == "xian/den/status"
            assert ha.wait_json("homeassistant/sensor/xian_parlour_hall/fee/config")["unit_of_measurement"]
            assert ha.wait_json("xian-parlour/den/state")["occupied"] == "OFF"
            play(den, ["Ann", "Cy", "Di", "Eve"], 1, end=False, fee={"mode": "session", "rate": 40, "tea": 5})
            state = ha.wait_json("xian-parlour/den/state", lambda s: s["occupied"] == "ON" and s["hands"] == 1)
            assert state["players"] == ["Ann", "Cy", "Di", "Eve"] and state["fee"] == 40 + 4 * 5  # the fee so far

            assert cli("tables", "retire", "hall", "--db", db_spec, "--broker-dir", str(b.dir),
                       "--broker-pid", str(b.proc.pid if b.proc else 0)).returncode == 0
            assert serve.stop() == 0
            serve.start()  # (a retired table's entities go at the next connect, or within the minute)
            assert ha.wait(lambda: ha.latest.get("homeassistant/sensor/xian_parlour_hall/fee/config") == b""
                           and ha.latest.get("xian-parlour/hall/state") == b"")
            assert ha.latest["homeassistant/binary_sensor/xian_parlour_den/occupied/config"]  # (den's stay)
            assert serve.stop() == 0
        finally:
            for bridge in bridges:
                bridge.stop()
            ha.close()
            if serve.proc is not None:
                serve.proc.kill()
                serve.proc.wait()
    log = (tmp_path / "serve.log").read_text()
    assert "not a roster" not in log and "Traceback" not in log


def test_the_fee_sensor_shows_the_final_bill_once_ended_and_nothing_when_idle() -> None:
    from datetime import UTC, datetime, timedelta

    from parlour.home_assistant import state
    from parlour.sessions import SessionRow

    start = datetime(2026, 12, 3, 18, 0, tzinfo=UTC)
    bill = {"mode": "hand", "units": 1, "fee": 10, "table": [3, 3, 2, 2], "tea": [2, 2, 2, 2], "total": 18}
    row = SessionRow("t01", "j", 1, 1, start.isoformat(), (start + timedelta(minutes=50)).isoformat(), 40,
                     (start + timedelta(minutes=50)).isoformat(), "ended", ["Ann", "Bo", "Cy", "Di"], [1, 2, 3, 4],
                     1, 1, [0, 0, 0, 0], 3000, {"mode": "hand", "rate": 10, "tea": 2}, bill, 10, 8, {})
    ended = state(row, start + timedelta(hours=1))
    assert ended["occupied"] == "OFF" and ended["fee"] == 18  # (docs: "its final bill once ended", as the floor)
    assert state(row, start + timedelta(hours=6))["fee"] == 0 and state(None)["fee"] == 0  # idle
