"""The parlour against a real table: a TableService with its MQTT bridge (the mirror's side:
records on ``xian/T/journal``, ``journal_replay`` answered from its journal) logged in to a
real parlour mosquitto as ``table-T`` — no bridge in between, the ACL the same — and
``xian-table parlour serve`` as a real process. Records written before the table's link
started are found by the probe at its ``online``; records cut from the link are asked for;
at the end the parlour's copy equals the journal record by record."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from parlour import broker
from parlour.records import parse
from table_app.bench.mqtt import next_command
from table_app.bench.parlour_local import LocalParlourBroker
from table_app.core.service import TableService
from table_app.journal import file as journal_file
from table_app.journal import wire as journal_wire
from table_app.journal.journal import Journal
from table_app.mqtt.bridge import MqttBridge
from table_app.mqtt.topics import Topics, parse_url
from tests.parlour.test_serve import Serve, add_table, stored, wait_for


def journal_records(service: TableService) -> tuple[str, list[object]]:
    path = service.journal_reader().path
    with contextlib.closing(journal_file.connect(path, "ro")) as conn:
        jid = journal_wire.journal_id(conn)
        assert jid is not None
        return jid, [parse(r) for r in journal_wire.read_records(conn, jid, 1, 10**9, 10**9)]


def play_events(service: TableService, n: int, *, start: bool = False) -> None:
    if start:
        service.call({"type": "new_session", "players": ["Ann", "Bo", "Cy", "Di"], "base": 1}, source="test")
        service.call({"type": "seating", "method": "C", "east": 0}, source="test")
        n -= 2
    for _ in range(n):
        answer = service.call(next_command(service.public), source="test", timeout=30)
        assert answer.ok, answer.error


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableService]:
    journal = Journal.open(tmp_path / "journal.sqlite3")
    svc = TableService(journal, claim_window_s=0).start()
    yield svc
    svc.stop()
    journal.close()


def test_the_copy_equals_a_real_tables_journal(tmp_path: Path, db_spec: str, table: TableService) -> None:
    play_events(table, 300, start=True)  # before the table's link: never published of its own accord
    with LocalParlourBroker(tmp_path) as b:
        password = add_table(b, db_spec, "den", tmp_path)
        serve = Serve(db_spec, b, tmp_path / "serve.log")
        serve.start()
        bridge = MqttBridge(table, parse_url(f"mqtt://{broker.table_user('den')}:{password}@127.0.0.1:{b.port}"),
                            Topics("xian", "den"), ha_prefix=None, max_backoff=0.5)
        bridge.start()
        try:
            play_events(table, 100)
            jid, expected = journal_records(table)
            wait_for(lambda: len(stored(db_spec, "den", jid)) == len(expected), timeout=60)
            assert stored(db_spec, "den", jid) == expected
            bridge.stop()  # the link cut: what is played meanwhile is never published live
            play_events(table, 50)
            bridge = MqttBridge(table, parse_url(f"mqtt://{broker.table_user('den')}:{password}@127.0.0.1:{b.port}"),
                                Topics("xian", "den"), ha_prefix=None, max_backoff=0.5)
            bridge.start()
            play_events(table, 20)
            jid, expected = journal_records(table)
            wait_for(lambda: len(stored(db_spec, "den", jid)) == len(expected), timeout=60)
            assert stored(db_spec, "den", jid) == expected
            assert serve.stop() == 0
        finally:
            bridge.stop()
            if serve.proc is not None:
                serve.proc.kill()
                serve.proc.wait()
    log = (tmp_path / "serve.log").read_text()
    assert "refused" not in log.split("records stored")[0]
