"""The fee in the service (issue 31): the config's default filled into a ``new_session``, an
``end_session`` stamped with the session's length from the journal's own times, the fee event
undone, and a ``fee`` command over MQTT (a real mosquitto) kept as the table's default across
a restart."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from engine.fees import FeeSetting, bill_so_far
from table_app.compose import Table
from table_app.config.file import ConfigError, parse_config
from table_app.core.house_fee import HouseFee, session_started
from table_app.core.service import TableService
from table_app.journal.journal import Journal
from table_app.mqtt.bridge import MqttBridge
from table_app.mqtt.local_broker import LocalBroker
from table_app.mqtt.topics import Topics, parse_url
from tests.support.mqtt import broker_fixture, watchers_fixture  # noqa: F401  (fixtures, by name)

NEW = {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}
SEATED = {"type": "seating", "method": "C", "east": 0}
WON = {"type": "score_hand", "winner": 2, "how": "self_drawn"}  # seat 2 wins 9, the others pay 3 each
HOURLY = FeeSetting("hour", 30, min=40, cap=100, tea=5)
T0 = "2026-12-03T10:00:00.000+00:00"


def _journaled(path: Path) -> list[dict[str, Any]]:
    con = sqlite3.connect(path)
    rows = [json.loads(e) for (e,) in con.execute("SELECT event FROM records WHERE kind = 'event' ORDER BY seq")]
    con.close()
    return rows


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "journal.sqlite3"


def _service(path: Path, fees: HouseFee) -> TableService:
    svc = TableService(Journal.open(path), claim_window_s=0)
    svc.fees = fees
    return svc.start()


def _close(svc: TableService) -> None:
    svc.stop()
    svc._journal.close()
    if svc.fees is not None:
        svc.fees.close()


def test_the_configs_fee_goes_into_a_new_session_that_names_none(path: Path) -> None:
    cfg = parse_config('[fee]\nmode = "hour"\nrate = 30\nmin = 40\ncap = 100\ntea = 5\n', "t.toml")
    assert cfg.fee_setting() == HOURLY
    Journal.open(path).close()
    svc = _service(path, HouseFee(path, cfg.fee_setting()))
    try:
        assert svc.call(NEW).ok
        assert svc.public["fee"] == HOURLY.to_json()
        own = {"mode": "session", "rate": 50, "min": 0, "cap": None, "payer": "winners", "tea": 0}
        assert svc.call({**NEW, "fee": own}).ok  # a session that names its own keeps it
        assert svc.public["fee"] == own
    finally:
        _close(svc)
    assert [e.get("fee") for e in _journaled(path)] == [HOURLY.to_json(), own]  # journaled as played


def test_a_config_whose_fee_keys_do_not_go_together_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"t\.toml: \[fee\]: 'min' \(50\) must not be above 'cap' \(10\)"):
        parse_config('[fee]\nmode = "hand"\nrate = 5\nmin = 50\ncap = 10\n', "t.toml")
    assert parse_config('[fee]\nrate = 5\n', "t.toml").fee_setting() is None  # mode "" (the default): no fee


def test_the_end_of_a_session_is_stamped_with_its_length_from_the_journals_times(path: Path) -> None:
    with Journal.open(path) as j:  # the session began at T0 (the import path writes the records' times)
        j.append_imported([(T0, {**NEW, "fee": HOURLY.to_json()}), (T0, SEATED), (T0, WON)], source="test")
    start = datetime.fromisoformat(T0).timestamp()
    svc = _service(path, HouseFee(path, None, now=lambda: start + 5400.7))  # 1 h 30 min later
    try:
        with svc.journal_reader() as reader:  # what a screen's "fee so far" reads
            assert session_started(reader, svc.seq) == start and session_started(reader, 0) is None
        so_far = bill_so_far(svc.public, 1800)
        assert so_far is not None and so_far.fee == 40  # half an hour in: 1 hour begun, the minimum
        assert svc.call({"type": "end_session"}).ok
        house = svc.public["house"]
    finally:
        _close(svc)
    assert _journaled(path)[-1] == {"type": "end_session", "seconds": 5400}
    # 2 started hours × 30 = 60, between the minimum 40 and the cap 100; AA 15 each; tea 5 each
    assert house == {"mode": "hour", "units": 2, "fee": 60, "table": [15, 15, 15, 15], "tea": [5, 5, 5, 5],
                     "total": 80}


def test_an_end_that_says_its_length_and_a_real_clock(path: Path) -> None:
    Journal.open(path).close()
    svc = _service(path, HouseFee(path, HOURLY))  # the real clock: the session lasts well under a minute
    try:
        for ev in (NEW, SEATED, WON, {"type": "end_session"}):
            assert svc.call(ev).ok
        assert svc.call({"type": "undo"}).ok
        assert svc.call({"type": "end_session", "seconds": 7300}).ok  # given: kept as it is
        assert svc.public["house"] is not None and svc.public["house"]["units"] == 3
    finally:
        _close(svc)
    ends = [e for e in _journaled(path) if e["type"] == "end_session"]
    assert 0 <= ends[0]["seconds"] < 60 and ends[1] == {"type": "end_session", "seconds": 7300}


def test_a_fee_event_is_undone_like_any_event(path: Path) -> None:
    Journal.open(path).close()
    svc = _service(path, HouseFee(path, None))
    try:
        for ev in (NEW, SEATED):
            assert svc.call(ev).ok
        assert svc.public["fee"] is None
        assert svc.call({"type": "fee", "fee": {"mode": "round", "rate": 20}}).ok
        assert svc.public["fee"] == {"mode": "round", "rate": 20, "min": 0, "cap": None, "payer": "aa", "tea": 0}
        assert svc.call({"type": "undo"}).ok
        assert svc.public["fee"] is None
        assert svc.call({"type": "redo"}).ok
        assert svc.public["fee"] is not None and svc.public["fee"]["mode"] == "round"
        refused = svc.call({"type": "fee", "fee": {"mode": "round", "rate": -1}}, source="touch")
        assert not refused.ok and "'rate' must be a whole number 0..1,000,000, got -1" in (refused.error or "")
        assert svc.fees is not None and svc.fees.default is None  # the touchscreen's fee is the session's only
    finally:
        _close(svc)


def test_a_fee_from_mqtt_sets_the_session_and_the_default_and_survives_a_restart(broker: LocalBroker, path: Path,
                                                                                  watchers: Any) -> None:
    t = Topics("xian", "t1")
    cfg = parse_config('[fee]\nmode = "hand"\nrate = 5\n', "t.toml")
    Journal.open(path).close()
    svc = _service(path, HouseFee(path, cfg.fee_setting()))
    bridge = MqttBridge(svc, parse_url(broker.url("service")), t, max_backoff=1.0).start()
    remote = watchers(broker.url("remote"), [t.cmd_result])
    remote.wait_subscribed()
    sent = {"mode": "hour", "rate": 30, "min": 20, "cap": None, "payer": "big_winner", "tea": 2}
    try:
        assert svc.call(NEW).ok and svc.call(SEATED).ok
        assert svc.public["fee"] == {**sent, "mode": "hand", "rate": 5, "min": 0, "payer": "aa", "tea": 0}
        remote.publish(t.cmd, json.dumps({"type": "fee", "fee": sent, "transaction": "f1"}))
        assert remote.wait(lambda: len(remote.of(t.cmd_result)) == 1)
        assert remote.of(t.cmd_result)[0]["status"] == "ok"
        assert svc.public["fee"] == sent  # the session in play
        assert svc.call({"type": "end_session"}).ok
        # no session in play: the command is kept as the default only, and answered ok
        remote.publish(t.cmd, json.dumps({"type": "fee", "fee": {**sent, "rate": 40}, "transaction": "f2"}))
        assert remote.wait(lambda: len(remote.of(t.cmd_result)) == 2)
        assert remote.of(t.cmd_result)[1]["status"] == "ok" and svc.public["phase"] == "ended"
        remote.publish(t.cmd, json.dumps({"type": "fee", "fee": {"mode": "day", "rate": 1}, "transaction": "f3"}))
        assert remote.wait(lambda: len(remote.of(t.cmd_result)) == 3)
        assert "'mode' must be one of hour, hand, round, session" in remote.of(t.cmd_result)[2]["error"]
        remote.publish(t.cmd, json.dumps({"type": "fee", "transaction": "f4"}))  # (no setting named: not "no fee")
        assert remote.wait(lambda: len(remote.of(t.cmd_result)) == 4)
        assert "missing field 'fee'" in remote.of(t.cmd_result)[3]["error"]
        assert svc.fees is not None and svc.fees.default == FeeSetting.from_json({**sent, "rate": 40})
    finally:
        bridge.stop()
        _close(svc)
    events = _journaled(path)
    assert [e["type"] for e in events] == ["new_session", "seating", "fee", "end_session"]
    svc = _service(path, HouseFee(path, cfg.fee_setting()))  # a restart: the parlour's default wins over [fee]
    try:
        assert svc.fees is not None and svc.fees.default == FeeSetting.from_json({**sent, "rate": 40})
        assert svc.call(NEW).ok
        assert svc.public["fee"] == {**sent, "rate": 40}
    finally:
        _close(svc)


def test_the_table_reads_its_fee_default_from_the_config(tmp_path: Path) -> None:
    conf = tmp_path / "config.toml"
    conf.write_text('[fee]\nmode = "round"\nrate = 20\npayer = "winners"\n', encoding="utf-8")
    with Table.open(config=str(conf), db=str(tmp_path / "j.sqlite3")) as table:
        table.service.start()
        assert table.service.call(NEW).ok
        assert table.service.public["fee"] == {"mode": "round", "rate": 20, "min": 0, "cap": None,
                                               "payer": "winners", "tea": 0}

