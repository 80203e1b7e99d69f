"""The parlour broker's ACL with a real mosquitto bridge, as a table's broker makes one (the
contract's settings): the table's topics go out, its commands come in, the bridge's state
(notifications) reaches the service, which marks the table offline when the link goes."""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import subprocess
import time
from pathlib import Path

from parlour import broker
from parlour.db import Database
from parlour.records import parse
from table_app.bench.parlour_local import LocalParlourBroker
from table_app.mqtt.local_broker import free_port
from tests.parlour.helpers import make_journal, records
from tests.parlour.test_serve import Serve, add_table, stored, wait_for
from tests.table_app.mqtt_helpers import Watcher


def table_broker(tmp: Path, parlour_port: int, password: str) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    conf = tmp / "table-broker.conf"
    conf.write_text("\n".join([
        f"listener {port} 127.0.0.1", "allow_anonymous true", "persistence false",
        "connection parlour-den", f"address 127.0.0.1:{parlour_port}", f"remote_username {broker.table_user('den')}",
        f"remote_password {password}", "remote_clientid parlour-den", "cleansession false", "notifications true",
        "restart_timeout 1", "topic xian/den/# out 1", "topic xian/den/cmd in 1", ""]), encoding="utf-8")
    proc = subprocess.Popen([shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c", str(conf)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def listening() -> bool:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
        return False

    wait_for(listening)
    return proc, port


def test_a_bridged_table_is_stored_hears_its_commands_and_goes_offline_with_its_link(
        tmp_path: Path, db_spec: str) -> None:
    journal = records(make_journal(tmp_path / "den.sqlite3", hands=2))
    jid = str(journal[0]["journal"])
    with LocalParlourBroker(tmp_path) as b:
        password = add_table(b, db_spec, "den", tmp_path)
        serve = Serve(db_spec, b, tmp_path / "serve.log")
        serve.start()
        proc, port = table_broker(tmp_path, b.port, password)
        try:
            local = Watcher(f"mqtt://127.0.0.1:{port}", ["xian/den/cmd"])
            local.wait_subscribed()
            wait_for(lambda: b"its bridge to the parlour is up" in serve.log.read_bytes())
            local.client.publish("xian/den/status", b"online", qos=1, retain=True)
            for r in journal[:-5]:  # the last five never sent: the probe asks for them
                local.client.publish("xian/den/journal", json.dumps(r), qos=1)
            # the parlour's replay request comes in over the bridge
            wait_for(lambda: any(b'"journal_replay"' in p for t, p, _ in local.messages))
            wait_for(lambda: len(stored(db_spec, "den", jid)) == len(journal) - 5)
            assert stored(db_spec, "den", jid) == [parse(r) for r in journal[:-5]]
            proc.terminate()  # the table's broker goes: its bridge's will says so
            proc.wait(10)
            wait_for(lambda: b"its bridge to the parlour is down" in serve.log.read_bytes())
            wait_for(lambda: _status(db_spec) == "offline")
            assert serve.stop() == 0
        finally:
            if proc.poll() is None:
                proc.kill()
            if serve.proc is not None:
                serve.proc.kill()
                serve.proc.wait()


def _status(db_spec: str) -> str | None:
    time.sleep(0.1)
    with Database.open(db_spec) as db:
        t = db.table("den")
        return None if t is None else t.status
