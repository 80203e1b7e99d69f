"""The parlour link's table side on a real mosquitto: every journal record on ``xian/T/journal``
in seq order, chained as the journal is; ``journal_replay`` answered in bounded chunks, bad
requests refused, and none of it journaled."""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from table_app.bench.mqtt import next_command
from table_app.core.service import TableService
from table_app.journal import file as journal_file
from table_app.journal import wire as journal_wire
from table_app.mqtt.bridge import MqttBridge
from table_app.mqtt.journal_link import CHUNK_RECORDS
from table_app.mqtt.local_broker import free_port
from table_app.mqtt.parlour_bridge import QUEUED_BYTES, QUEUED_MESSAGES
from table_app.mqtt.topics import Topics, parse_url
from tests.support.mqtt import (  # noqa: F401  (the fixtures are used by name)
    HAND,
    WAIT,
    Cable,
    Watcher,
    chained,
    play,
    service_fixture,
    watchers_fixture,
)


@contextlib.contextmanager
def open_broker(tmp: Path, name: str = "open", extra: str = "") -> Iterator[int]:
    """A mosquitto that lets anyone read and write (the parlour link's topics are not in the
    table broker's ACL for displays: only the bridge reads them there)."""
    port = free_port()
    conf = tmp / f"{name}.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n{extra}", encoding="utf-8")
    proc = subprocess.Popen([shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c", str(conf)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + WAIT
        while True:
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            assert time.monotonic() < end and proc.poll() is None, "mosquitto did not start"
            time.sleep(0.02)
        yield port
    finally:
        proc.terminate()
        proc.wait(10)


def stored(service: TableService) -> tuple[str | None, list[journal_wire.WireRecord]]:
    path = service.journal_reader().path
    with contextlib.closing(journal_file.connect(path, "ro")) as conn:
        jid = journal_wire.journal_id(conn)
        return jid, journal_wire.read_records(conn, jid or "", 1, 10**9, 10**9)


def play_tracked(service: TableService, events: int) -> None:
    service.call({"type": "new_session", "players": ["Ann", "Bo", "Cy", "Di"], "base": 1}, source="test")
    service.call({"type": "seating", "method": "C", "east": 0}, source="test")
    for _ in range(events - 2):
        answer = service.call(next_command(service.public), source="test", timeout=WAIT)
        assert answer.ok, answer.error


@pytest.fixture(name="link")
def link_fixture(tmp_path: Path, service: TableService, watchers: Any) -> Iterator[tuple[Watcher, Topics]]:
    with open_broker(tmp_path) as port:
        t = Topics("xian", "p1")
        watcher = watchers(f"mqtt://127.0.0.1:{port}", [t.journal, t.journal_replay, t.cmd_result])
        watcher.wait_subscribed()
        bridge = MqttBridge(service, parse_url(f"mqtt://127.0.0.1:{port}"), t, ha_prefix=None, max_backoff=0.5)
        bridge.start()
        try:
            yield watcher, t
        finally:
            bridge.stop()


def test_every_record_is_published_in_order_as_stored_and_chained(service, link) -> None:
    watcher, t = link
    assert service.seq == 0
    play(service, HAND[:6])
    assert service.call({"type": "undo"}, source="test").ok
    assert service.call({"type": "redo"}, source="test").ok
    play(service, HAND[6:])
    jid, records = stored(service)
    assert len(records) == len(HAND) + 2 and jid is not None and len(jid) == journal_wire.ID_CHARS
    assert watcher.wait(lambda: len(watcher.of(t.journal)) >= len(records))
    got = watcher.of(t.journal)
    assert got == [json.loads(json.dumps(r)) for r in records]  # every column exactly as stored, in seq order
    assert [r["kind"] for r in got[5:8]] == ["event", "undo", "redo"]
    assert {r["journal"] for r in got} == {jid} and jid == got[0]["hash"]
    assert isinstance(got[0]["event"], str) and got[6]["event"] is None and got[6]["target"] == 5
    assert chained(got)
    got[3]["source"] = "forged"
    assert not chained(got)


def ask(watcher: Watcher, t: Topics, **kw: Any) -> None:
    watcher.publish(t.cmd, json.dumps({"type": "journal_replay", **kw}))


def test_a_replay_returns_exactly_the_range_asked_in_bounded_chunks(service, link) -> None:
    watcher, t = link
    play_tracked(service, 2 * CHUNK_RECORDS + 60)
    jid, records = stored(service)
    last = len(records)
    ask(watcher, t, journal=jid, request="r1", **{"from": 7, "to": 7 + 2 * CHUNK_RECORDS + 20})
    assert watcher.wait(lambda: any(c["done"] for c in watcher.of(t.journal_replay) if c["request"] == "r1"))
    chunks = [c for c in watcher.of(t.journal_replay) if c["request"] == "r1"]
    assert [len(c["records"]) for c in chunks] == [CHUNK_RECORDS, CHUNK_RECORDS, 21]
    assert [c["done"] for c in chunks] == [False, False, True]
    assert {c["journal"] for c in chunks} == {jid} and {c["last"] for c in chunks} == {last}
    assert all(len(json.dumps(c).encode()) <= 256 * 1024 for c in chunks)
    got = [r for c in chunks for r in c["records"]]
    assert got == [json.loads(json.dumps(r)) for r in records[6:7 + 2 * CHUNK_RECORDS + 20]]
    prev = bytes.fromhex(records[5]["hash"] or "")
    for r in got:  # the chain checks from the record before the range
        assert journal_wire.follows(prev, r)
        prev = bytes.fromhex(r["hash"])
    # past the end: what there is, and the table's last seq
    ask(watcher, t, journal=jid, request=2, **{"from": last - 1, "to": last + 100})
    assert watcher.wait(lambda: any(c["request"] == 2 for c in watcher.of(t.journal_replay)))
    (tail,) = [c for c in watcher.of(t.journal_replay) if c["request"] == 2]
    assert [r["seq"] for r in tail["records"]] == [last - 1, last] and tail["done"] and tail["last"] == last
    ask(watcher, t, journal=jid, request="far", **{"from": last + 5, "to": last + 9})
    assert watcher.wait(lambda: any(c["request"] == "far" for c in watcher.of(t.journal_replay)))
    (far,) = [c for c in watcher.of(t.journal_replay) if c["request"] == "far"]
    assert far["records"] == [] and far["done"] and far["last"] == last
    assert service.seq == last  # nothing journaled


def test_bad_replay_requests_are_refused_and_never_journaled(service, link) -> None:
    watcher, t = link
    play(service, HAND[:4])
    jid, _ = stored(service)
    bad = [
        ({"journal": jid, "from": 1, "to": 2001, "request": "a", "transaction": 1}, "invalid"),
        ({"journal": jid, "from": 0, "to": 3, "request": "b", "transaction": 2}, "invalid"),
        ({"journal": jid, "from": 5, "to": 3, "request": "c", "transaction": 3}, "invalid"),
        ({"journal": jid, "from": 1, "to": 3, "transaction": 4}, "invalid"),
        ({"journal": jid, "from": True, "to": 3, "request": "e", "transaction": 5}, "invalid"),
        ({"journal": "0" * 32, "from": 1, "to": 3, "request": "f", "transaction": 6}, "journal.other"),
        ({"from": 1, "to": 3, "request": "g", "transaction": 7}, "invalid"),
    ]
    for req, _ in bad:
        ask(watcher, t, **req)
    assert watcher.wait(lambda: len(watcher.of(t.cmd_result)) >= len(bad)), watcher.of(t.cmd_result)
    answers = {a["transaction"]: a for a in watcher.of(t.cmd_result)}
    for req, code in bad:
        answer = answers[req["transaction"]]
        assert answer["status"] == "error" and answer["code"] == code, answer
    assert answers[6]["params"]["journal"] == jid
    assert "less than 2000" in answers[1]["error"]
    # a range of 1,999 more is taken (to - from < 2000)
    ask(watcher, t, journal=jid, **{"from": 1, "to": 2000, "request": "ok"})
    assert watcher.wait(lambda: any(c["request"] == "ok" for c in watcher.of(t.journal_replay)))
    assert watcher.of(t.journal_replay)[-1]["records"][-1]["seq"] == 4
    assert not watcher.of(t.journal_replay)[:-1]  # no refusal had a chunk
    assert service.seq == 4 and len(stored(service)[1]) == 4


def test_records_committed_while_the_broker_is_away_go_out_when_it_is_back(tmp_path, service, watchers) -> None:
    t = Topics("xian", "p2")
    with open_broker(tmp_path) as port:
        watcher = watchers(f"mqtt://127.0.0.1:{port}", [t.journal])
        watcher.wait_subscribed()
        cable = Cable(port)
        cable.unplug()
        bridge = MqttBridge(service, parse_url(f"mqtt://127.0.0.1:{cable.port}"), t, ha_prefix=None,
                            max_backoff=0.3).start()
        try:
            play(service, HAND[:5])  # no broker: the table plays on
            time.sleep(0.5)
            assert watcher.of(t.journal) == []
            cable.plug()
            play(service, HAND[5:])
            assert watcher.wait(lambda: len(watcher.of(t.journal)) >= len(HAND))
            assert [r["seq"] for r in watcher.of(t.journal)] == list(range(1, len(HAND) + 1))
        finally:
            bridge.stop()
            cable.unplug()


def test_the_parlour_queue_holds_two_hours_of_a_fast_table(tmp_path, service, watchers) -> None:
    """What the bridge queues per journal record on xian/T/# (everything it carries), against
    the limits parlour-join writes: two hours of a fast table (one record a second) must fit
    (docs/mqtt.md, the queue's size)."""
    t = Topics("xian", "p3")
    with open_broker(tmp_path) as port:
        watcher = watchers(f"mqtt://127.0.0.1:{port}", [f"{t.base}/#"])
        watcher.wait_subscribed()
        bridge = MqttBridge(service, parse_url(f"mqtt://127.0.0.1:{port}"), t, ha_prefix=None).start()
        try:
            play_tracked(service, 600)
            assert bridge.wait_idle(WAIT)
            assert watcher.wait(lambda: len(watcher.of(t.journal)) >= 600)
            time.sleep(0.5)
        finally:
            bridge.stop()
        with watcher.cond:
            sent = [(topic, payload) for topic, payload, _ in watcher.messages if topic != t.status]
    per_record = len(sent) / service.seq
    bytes_per_record = sum(len(topic) + len(payload) + 8 for topic, payload in sent) / service.seq
    two_hours = 2 * 3600  # records, at one a second
    # (the figures themselves vary with the machine's pace, as the bridge folds views together:
    # no range is asserted on them, only that the limits hold two hours of what was sent)
    assert QUEUED_MESSAGES / per_record >= two_hours and QUEUED_BYTES / bytes_per_record >= two_hours
    print(f"per journal record: {per_record:.2f} messages, {bytes_per_record:.0f} bytes; the queue holds "
          f"{QUEUED_MESSAGES / per_record:,.0f} and {QUEUED_BYTES / bytes_per_record:,.0f} records")


def test_records_too_far_behind_are_passed_over_for_the_parlour_to_ask(tmp_path, service, watchers) -> None:
    t = Topics("xian", "p4")
    with open_broker(tmp_path) as port:
        watcher = watchers(f"mqtt://127.0.0.1:{port}", [t.journal, t.event])
        watcher.wait_subscribed()
        cable = Cable(port)
        cable.unplug()
        bridge = MqttBridge(service, parse_url(f"mqtt://127.0.0.1:{cable.port}"), t, ha_prefix=None,
                            max_backoff=0.3, queue_size=5).start()
        try:
            play(service, HAND[:12])  # the broker away: 12 records, 5 kept in reach
            cable.plug()
            assert bridge.wait_idle(WAIT)
            assert watcher.wait(lambda: len(watcher.of(t.journal)) >= 5)
            time.sleep(0.3)
            assert [r["seq"] for r in watcher.of(t.journal)] == [8, 9, 10, 11, 12]
            play(service, HAND[12:])
            assert watcher.wait(lambda: watcher.of(t.journal)[-1]["seq"] == len(HAND))
            assert [r["seq"] for r in watcher.of(t.journal)] == [*range(8, len(HAND) + 1)]
            assert chained(watcher.of(t.journal), bytes.fromhex(stored(service)[1][6]["hash"]))
        finally:
            bridge.stop()
            cable.unplug()


