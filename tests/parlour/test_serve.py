"""``xian-table parlour serve`` as a real process, on a real parlour mosquitto, with SQLite and
a real PostgreSQL: records from a real journal published as a table's bridge would (lost,
twice, forged), the gaps asked for with ``journal_replay`` and answered from the journal file
(by :class:`FakeTable`, which answers as the contract says: the table's own ``journal_replay``
is the mirror helper's), the service stopped and restarted (its persistent session brings
what was sent meanwhile), the broker restarted, a new journal kept apart."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from parlour import broker
from parlour.db import Database
from parlour.records import parse
from table_app.bench.parlour_local import LocalParlourBroker
from tests.parlour.helpers import make_journal, records

WAIT = 30.0  # seconds: a bound for what takes a fraction of one
ROOT = Path(__file__).resolve().parents[3]


def wait_for(what: Callable[[], bool], timeout: float = WAIT) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if what():
            return
        time.sleep(0.05)
    raise AssertionError("not within the time allowed")


class FakeTable:
    """A table's side of the link: publishes records as table-T, answers replay requests from
    its journal file in chunks of at most 200 records (the contract), ``journal.other`` for
    another journal."""

    def __init__(self, b: LocalParlourBroker, table: str, password: str, journal: list[dict[str, object]]) -> None:
        self.table, self.journal = table, journal
        self.requests: list[dict[str, object]] = []
        self.ready = threading.Event()
        self.c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bridge-{table}")
        self.c.username_pw_set(broker.table_user(table), password)
        self.c.on_connect = lambda c, u, f, rc, p: c.subscribe(f"xian/{table}/cmd", 1)
        self.c.on_subscribe = lambda *a: self.ready.set()
        self.c.on_message = self._on_message
        self.c.connect("127.0.0.1", b.port)
        self.c.loop_start()
        assert self.ready.wait(WAIT)

    def publish(self, topic: str, payload: object, *, wait: bool = True) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload, separators=(",", ":")).encode()
        info = self.c.publish(f"xian/{self.table}/{topic}", data, qos=1)
        if wait:  # (not from paho's own thread: it would wait for itself)
            info.wait_for_publish(WAIT)

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        req = json.loads(msg.payload)
        self.requests.append(req)
        jid = self.journal[0]["journal"]
        assert req["type"] == "journal_replay" and req["to"] - req["from"] < 2000
        if req["journal"] != jid:
            self.publish("cmd/result", {"status": "error", "error": "another journal", "code": "journal.other",
                                        "params": {"journal": jid}, "transaction": req["transaction"]}, wait=False)
            return
        wanted = [r for r in self.journal if req["from"] <= r["seq"] <= req["to"]]  # type: ignore[operator]
        chunks = [wanted[i:i + 200] for i in range(0, len(wanted), 200)] or [[]]
        for i, chunk in enumerate(chunks):
            self.publish("journal/replay", {"journal": jid, "request": req["request"], "records": chunk,
                                            "last": self.journal[-1]["seq"], "done": i == len(chunks) - 1}, wait=False)

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


class Serve:
    def __init__(self, db_spec: str, b: LocalParlourBroker, log: Path) -> None:
        self.argv = [sys.executable, "-m", "table_app.cli", "parlour", "serve", "--db", db_spec,
                     "--broker", f"mqtt://{broker.SERVICE_USER}@127.0.0.1:{b.port}",
                     "--password-file", str(b.dir / broker.SERVICE_PASSWORD), "-v"]
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(self.argv, stdout=out, stderr=out, cwd=ROOT, env=dict(os.environ))
        wait_for(lambda: b"connected to the parlour broker" in self.log.read_bytes())

    def stop(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        rc = self.proc.wait(timeout=WAIT)
        self.proc = None
        return rc


@pytest.fixture
def rig(tmp_path: Path, db_spec: str) -> Iterator[tuple[LocalParlourBroker, Serve, str]]:
    with LocalParlourBroker(tmp_path) as b:
        serve = Serve(db_spec, b, tmp_path / "serve.log")
        try:
            yield b, serve, db_spec
        finally:
            if serve.proc is not None:
                serve.proc.kill()
                serve.proc.wait()


def add_table(b: LocalParlourBroker, db_spec: str, table: str, tmp_path: Path) -> str:
    pw_file = tmp_path / f"{table}.password"
    proc = subprocess.run([sys.executable, "-m", "table_app.cli", "parlour", "tables", "add", table, "--db", db_spec,
                           "--broker-dir", str(b.dir), "--broker-pid", str(b.proc.pid if b.proc else 0),
                           "--host", "parlour.local", "--write-password", str(pw_file)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert f"xian-table parlour-join parlour.local:1883 --user table-{table} --password-file" in proc.stdout
    time.sleep(0.3)  # mosquitto reads the files again after SIGHUP
    return pw_file.read_text(encoding="utf-8").strip()


def stored(db_spec: str, table: str, journal: str) -> list[object]:
    with Database.open(db_spec) as db:
        return list(db.records(table, journal))


def test_the_parlour_copy_equals_the_journal(rig: tuple[LocalParlourBroker, Serve, str], tmp_path: Path) -> None:
    b, serve, db_spec = rig
    journal = records(make_journal(tmp_path / "den.sqlite3", hands=20))  # over 200 records: chunks
    jid = str(journal[0]["journal"])
    expected = [parse(r) for r in journal]
    table = FakeTable(b, "den", add_table(b, db_spec, "den", tmp_path), journal)
    serve.start()
    n = len(journal)
    forged = dict(journal[30], event=str(journal[30]["event"]).replace("}", ',"seat":3}'))
    for r in journal[:20] + journal[25:30] + [forged] + journal[24:28]:  # 20–23 lost; 30 forged; 24–27 twice
        table.publish("journal", r)
    table.publish("status", b"online")
    # the gap 21–24 and everything after the forged record are asked for (its "last" says how far)
    wait_for(lambda: len(stored(db_spec, "den", jid)) == n)
    assert stored(db_spec, "den", jid) == expected
    assert all(r["to"] - r["from"] < 2000 for r in table.requests)  # type: ignore[operator]
    with Database.open(db_spec) as db:
        refusals = db.refusals("den")
        assert [(r[3], r[4]) for r in refusals] == [(31, "its hash does not follow the record before it "
                                                         "(forged or damaged)")]
        den = db.table("den")
        assert den is not None and den.status == "online" and den.last_seen is not None
    assert serve.stop() == 0
    assert "records stored" in serve.log.read_text()

    # while the service is down: a new journal (a new SD card), a broker restart in between
    other = records(make_journal(tmp_path / "den-new.sqlite3", hands=1))
    table.journal = other
    for r in other[:10]:
        table.publish("journal", r)
    table.close()
    b.restart()  # persistence on: the service's session and its queue survive
    table = FakeTable(b, "den", (tmp_path / "den.password").read_text().strip(), other)
    for r in other[10:]:
        table.publish("journal", r)
    serve.start()
    wait_for(lambda: len(stored(db_spec, "den", str(other[0]["journal"]))) == len(other))
    assert stored(db_spec, "den", str(other[0]["journal"])) == [parse(r) for r in other]
    assert stored(db_spec, "den", jid) == expected  # the old journal untouched, apart
    assert serve.stop() == 0
    table.close()


def test_a_table_writes_only_its_own_topics_and_retired_tables_cannot_log_in(
        rig: tuple[LocalParlourBroker, Serve, str], tmp_path: Path) -> None:
    b, serve, db_spec = rig
    journal = records(make_journal(tmp_path / "hall.sqlite3"))
    hall_pw = add_table(b, db_spec, "hall", tmp_path)
    add_table(b, db_spec, "den", tmp_path)
    serve.start()
    hall = FakeTable(b, "hall", hall_pw, journal)
    hall.table = "den"  # hall pretends to be den: the broker drops what it writes there
    for r in journal[:5]:
        hall.publish("journal", r)
    hall.table = "hall"
    for r in journal:
        hall.publish("journal", r)
    wait_for(lambda: len(stored(db_spec, "hall", str(journal[0]["journal"]))) == len(journal))
    assert stored(db_spec, "den", str(journal[0]["journal"])) == []
    hall.close()
    proc = subprocess.run([sys.executable, "-m", "table_app.cli", "parlour", "tables", "retire", "hall", "--db",
                           db_spec, "--broker-dir", str(b.dir), "--broker-pid", str(b.proc.pid if b.proc else 0)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0 and "retired" in proc.stdout, proc.stderr
    time.sleep(0.3)
    c = mqtt.Client(CallbackAPIVersion.VERSION2)
    c.username_pw_set("table-hall", hall_pw)
    assert c.connect("127.0.0.1", b.port) == 0
    c.loop_start()
    wait_for(lambda: not c.is_connected() and c._state != 0)  # refused: not authorised
    c.loop_stop()
    listing = subprocess.run([sys.executable, "-m", "table_app.cli", "parlour", "tables", "list", "--db", db_spec],
                             capture_output=True, text=True, cwd=ROOT, timeout=60).stdout
    lines = {line.split()[0]: line.split() for line in listing.splitlines()[1:] if not line.startswith(" ")}
    assert lines["hall"][1] == "retired" and lines["hall"][-2] == str(len(journal)) and lines["hall"][-1] == "0"
    assert lines["den"][1] == "-"
    assert serve.stop() == 0


def test_a_database_that_goes_away_stalls_nothing_and_loses_nothing(tmp_path: Path) -> None:
    from table_app.bench.parlour_local import LocalPostgres

    journal = records(make_journal(tmp_path / "den.sqlite3", hands=6))
    jid = str(journal[0]["journal"])
    with LocalPostgres() as pg, LocalParlourBroker(tmp_path) as b:
        serve = Serve(pg.url, b, tmp_path / "serve.log")
        table = FakeTable(b, "den", add_table(b, pg.url, "den", tmp_path), journal)
        serve.start()
        try:
            for r in journal[:40]:
                table.publish("journal", r)
            wait_for(lambda: len(stored(pg.url, "den", jid)) == 40)
            pg.stop()
            for r in journal[40:]:
                table.publish("journal", r)  # the broker takes them; the service cannot store them
            wait_for(lambda: b"the database failed" in serve.log.read_bytes())
            time.sleep(1)
            assert serve.proc is not None and serve.proc.poll() is None
            pg.start()
            wait_for(lambda: len(stored(pg.url, "den", jid)) == len(journal))
            assert stored(pg.url, "den", jid) == [parse(r) for r in journal]
            assert serve.stop() == 0
        finally:
            if serve.proc is not None:
                serve.proc.kill()
                serve.proc.wait()
            table.close()


def test_messages_are_acknowledged_only_once_stored(tmp_path: Path) -> None:
    """A service killed while its database is locked loses nothing: the messages it had taken
    were not acknowledged, so the broker sends them again. (The table here answers no replay:
    only the broker can bring them back.)"""
    import sqlite3

    db_file = tmp_path / "parlour.sqlite3"
    journal = records(make_journal(tmp_path / "den.sqlite3", hands=4))
    jid = str(journal[0]["journal"])
    with LocalParlourBroker(tmp_path) as b:
        password = add_table(b, str(db_file), "den", tmp_path)
        serve = Serve(str(db_file), b, tmp_path / "serve.log")
        serve.start()
        pub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bridge-den")
        pub.username_pw_set("table-den", password)
        pub.connect("127.0.0.1", b.port)
        pub.loop_start()
        try:
            for r in journal[:10]:
                pub.publish("xian/den/journal", json.dumps(r), qos=1).wait_for_publish(WAIT)
            wait_for(lambda: len(stored(str(db_file), "den", jid)) == 10)
            lock = sqlite3.connect(db_file, isolation_level=None)
            lock.execute("BEGIN EXCLUSIVE")  # the worker's next commit waits
            for r in journal[10:]:
                pub.publish("xian/den/journal", json.dumps(r), qos=1).wait_for_publish(WAIT)
            time.sleep(1.0)  # the service has them in its queue, none stored
            assert serve.proc is not None
            serve.proc.kill()
            serve.proc.wait()
            serve.proc = None
            lock.execute("ROLLBACK")
            lock.close()
            assert len(stored(str(db_file), "den", jid)) == 10
            serve.start()
            wait_for(lambda: len(stored(str(db_file), "den", jid)) == len(journal))
            assert stored(str(db_file), "den", jid) == [parse(r) for r in journal]
            assert serve.stop() == 0
        finally:
            pub.loop_stop()
            if serve.proc is not None:
                serve.proc.kill()
                serve.proc.wait()


def test_serve_without_its_database_says_so_and_exits_1() -> None:
    from table_app.mqtt.local_broker import free_port

    proc = subprocess.run([sys.executable, "-m", "table_app.cli", "parlour", "serve", "--db",
                           f"postgresql://parlour@127.0.0.1:{free_port()}/none", "--broker", "mqtt://a:b@127.0.0.1:1"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 1 and proc.stderr.startswith("xian-table parlour: cannot open the database:"), proc.stderr
