"""``xian-table parlour fee T|all``: the fee reaches a real table through the parlour mosquitto
and the table's own mosquitto bridged to it (as ``parlour-join`` makes it); the table applies
it to the session in play, keeps it as its default, and its answer comes back to the command."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from engine.fees import FeeSetting
from parlour import broker
from table_app.bench.parlour_local import LocalParlourBroker
from table_app.cli import main
from table_app.core.house_fee import HouseFee
from table_app.core.service import TableService
from table_app.journal.journal import Journal
from table_app.mqtt.bridge import MqttBridge
from table_app.mqtt.topics import Topics, parse_url
from tests.parlour.test_bridge_acl import table_broker
from tests.parlour.test_serve import add_table
from tests.table_app.mqtt_helpers import Watcher

NEW = {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}


def test_parlour_fee_reaches_a_bridged_table_and_is_answered(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "parlour.sqlite3")
    with LocalParlourBroker(tmp_path) as b:
        password = add_table(b, db, "den", tmp_path)
        link = Watcher(b.url(), ["$SYS/broker/connection/parlour-den/state"])
        proc, port = table_broker(tmp_path, b.port, password)
        journal = Journal.open(tmp_path / "den.sqlite3")
        svc = TableService(journal, claim_window_s=0)
        svc.fees = HouseFee(journal.path, None)
        svc.start()
        bridge = MqttBridge(svc, parse_url(f"mqtt://127.0.0.1:{port}"), Topics("xian", "den"), max_backoff=1.0).start()
        try:
            assert link.wait(lambda: link.latest.get("$SYS/broker/connection/parlour-den/state") == b"1")
            assert svc.call(NEW).ok and svc.public["fee"] is None
            capsys.readouterr()
            argv = ["--broker", f"mqtt://{broker.SERVICE_USER}@127.0.0.1:{b.port}",
                    "--password-file", str(b.dir / broker.SERVICE_PASSWORD), "--wait", "20"]
            assert main(["parlour", "fee", "den", "--mode", "hour", "--rate", "30", "--min", "20", "--payer",
                         "big_winner", *argv]) == 0
            out = capsys.readouterr().out
            assert "table den: Table fee 30 an hour · at least 20 · the big winner pays — its default now" in out
            sent = FeeSetting("hour", 30, min=20, payer="big_winner")
            assert svc.public["fee"] == sent.to_json() and svc.fees.default == sent
            assert main(["parlour", "fee", "all", "--none", "--db", db, *argv]) == 0  # every table added: den
            assert "table den: No table fee — its default now" in capsys.readouterr().out
            assert svc.public["fee"] is None and svc.fees.default is None
            assert main(["parlour", "fee", "den", "--mode", "hour", *argv]) == 2  # a fee needs its rate
            assert "give --mode and --rate" in capsys.readouterr().err
        finally:
            link.close()
            bridge.stop()
            svc.stop()
            svc.fees.close()
            journal.close()
            proc.terminate()
            with contextlib.suppress(Exception):
                proc.wait(10)
