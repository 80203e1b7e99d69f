"""Every MQTT command gets exactly one answer, where only its client reads it (issue 26).

Real mosquitto (the shipped config and ACL, a free loopback port), real paho clients, a
real service and journal. The flood sends what a misbehaving client might, as fast as paho
can publish, while a second client sends probes: each probe's answer must arrive on the
second client's own reply topic.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from table_app.core.service import TableService
from table_app.mqtt.bridge import MqttBridge
from table_app.mqtt.local_broker import LocalBroker
from table_app.mqtt.topics import Topics, parse_url
from table_app.system.fault_log import FaultLog
from tests.support.mqtt import (  # noqa: F401  (the fixtures are used by name)
    HAND,
    WAIT,
    broker_fixture,
    play,
    service_fixture,
    watchers_fixture,
)


def bridge_for(service: TableService, broker: LocalBroker, table: str, **kw: Any) -> MqttBridge:
    kw.setdefault("max_backoff", 1.0)
    kw.setdefault("ha_prefix", None)
    return MqttBridge(service, parse_url(broker.url("service")), Topics("xian", table), **kw).start()


@dataclass
class Received:
    topic: str
    body: Any
    correlation: bytes | None = None


@dataclass
class Client:
    """A remote client (user ``remote``) with its own client id, recording what it receives."""

    url: str
    client_id: str
    protocol: int = mqtt.MQTTv311
    subscribe: list[str] = field(default_factory=list)
    got: list[Received] = field(default_factory=list)

    def __post_init__(self) -> None:
        u = parse_url(self.url)
        self.cond = threading.Condition()
        self.ready = False
        self.c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=self.client_id, protocol=self.protocol)
        self.c.max_queued_messages_set(0)
        self.c.username_pw_set(u.username, u.password)
        self.c.on_connect = self._on_connect
        self.c.on_subscribe = self._on_subscribe
        self.c.on_message = self._on_message
        self.c.connect(u.host, u.port, 30)
        self.c.loop_start()
        with self.cond:
            assert self.cond.wait_for(lambda: self.ready, WAIT), f"{self.client_id}: not subscribed"

    def _on_connect(self, client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        assert not rc.is_failure, rc
        if self.subscribe:
            client.subscribe([(t, 1) for t in self.subscribe])
        else:
            with self.cond:
                self.ready = True
                self.cond.notify_all()

    def _on_subscribe(self, client: Any, userdata: Any, mid: Any, rcs: Any, props: Any) -> None:
        with self.cond:
            self.ready = True
            self.cond.notify_all()

    def _on_message(self, client: Any, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        corr = getattr(msg.properties, "CorrelationData", None) if msg.properties is not None else None
        try:
            body = json.loads(msg.payload)
        except ValueError:
            body = {"raw": bytes(msg.payload)}  # (status: online)
        with self.cond:
            self.got.append(Received(msg.topic, body, corr))
            self.cond.notify_all()

    def send(self, topic: str, payload: bytes | str, properties: Properties | None = None) -> mqtt.MQTTMessageInfo:
        return self.c.publish(topic, payload, qos=1, properties=properties)

    def wait(self, pred: Callable[[], bool], timeout: float = WAIT) -> bool:
        with self.cond:
            return self.cond.wait_for(pred, timeout)

    def answers(self, topic: str) -> list[Any]:
        with self.cond:
            return [r.body for r in self.got if r.topic == topic]

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


@pytest.fixture(name="clients")
def clients_fixture() -> Iterator[Callable[..., Client]]:
    made: list[Client] = []

    def make(*args: Any, **kw: Any) -> Client:
        made.append(Client(*args, **kw))
        return made[-1]

    yield make
    for c in made:
        c.close()


def reply_topic(t: Topics, client_id: str) -> str:
    return f"{t.cmd_result}/{client_id}"


# -- lone surrogates: every answer can be encoded -------------------------------------------

SURROGATES = [
    # the answer echoes the transaction, a lone surrogate
    b'{"type": "state", "transaction": "\\ud800"}',
    b'{"type": "pass", "seat": 1, "transaction": "\\udfff"}',
    # the refusal quotes the bad string
    b'{"type": "bogus\\ud800", "transaction": "s-3"}',
    b'{"type": "pass", "seat": "\\ud83d", "transaction": "s-4"}',
    b'{"type": "new_session", "players": ["\\ud800", "b", "c", "d"], "base": 1, "transaction": "s-5"}',
]


def test_commands_carrying_lone_surrogates_are_each_answered(broker, service, clients) -> None:
    t = Topics("xian", "s1")
    bridge = bridge_for(service, broker, "s1")
    try:
        play(service, HAND[:2])
        b = clients(broker.url("remote"), "surr-b", subscribe=[t.cmd_result])
        assert bridge.wait_idle(WAIT)
        for n, payload in enumerate(SURROGATES, 1):
            b.send(t.cmd, payload)
            assert b.wait(lambda n=n: len(b.answers(t.cmd_result)) >= n), (payload, b.answers(t.cmd_result))
        # and the next plain command is answered as well: one answer each, in order
        b.send(t.cmd, json.dumps({"type": "state", "transaction": "after"}))
        assert b.wait(lambda: len(b.answers(t.cmd_result)) == len(SURROGATES) + 1)
        answers = b.answers(t.cmd_result)
        assert answers[-1]["transaction"] == "after" and answers[-1]["status"] == "ok"
        for a in answers[2:5]:  # refusals, with their own transaction and no internal error
            assert a["status"] == "error" and "internal error" not in a["error"], a
        assert [a["transaction"] for a in answers[2:5]] == ["s-3", "s-4", "s-5"]
        assert service.public["players"] == HAND[0]["players"]
    finally:
        bridge.stop()


# -- a bursty two-client flood ----------------------------------------------------------------

FLOOD = [b"not json", b"\xff\xfe", b"[1, 2]", json.dumps({"type": "state"}).encode(),
         json.dumps({"type": "bets", "bets": [0, 0, 0, 1]}).encode(),  # a commit each while bets are allowed
         json.dumps({"type": "confirm_win", "wait": "plain"}).encode(), json.dumps({"type": "bogus"}).encode()]


FINAL_GRACE_S = 5.0
"""How long A's last command is waited for once every probe is answered, when the broker said it
dropped messages on their way to the table (it may have been one of them)."""


@dataclass
class FloodResult:
    sent: int
    probes: int
    answered: int  # probes answered (distinct transactions)
    repeated: int  # probes answered more than once
    final: Any  # the flood's last command's answer, or None
    dropped_for_table: bool = False  # the broker said it dropped messages on their way to the table

    def final_answered_or_dropped_by_the_broker(self) -> bool:
        """A's last command was answered (ok, or busy at the table's intake) — or it never reached
        the table: a client flooding faster than the table reads fills the broker's queue for the
        table's client (max_queued_messages, 1,000) and mosquitto drops what comes beyond, saying
        so in its log. What the table never received it cannot answer (docs/mqtt.md)."""
        if self.final is not None:
            return bool(self.final["status"] == "ok" or self.final.get("code") == "service.busy")
        return self.dropped_for_table


def flood(broker: LocalBroker, t: Topics, clients: Callable[..., Client], *, commands: int, probes: int,
          mode: str) -> FloodResult:
    """Client A floods ``commands`` commands (the last with transaction ``A-final``) as fast as
    paho publishes; client B sends ``probes`` probes spread through the flood. ``mode``:
    ``shared`` (B names no reply and reads ``cmd/result``), ``reply_to`` (MQTT 3.1.1, a reply
    topic in the command) or ``v5`` (a response topic and correlation data)."""
    a_reply = reply_topic(t, "flood-a")
    # (A reads only its own reply topic: a client that also reads the shared topic through a
    # flood of its own fills its queue at the broker, which then drops what comes for it)
    a = clients(broker.url("remote"), "flood-a", subscribe=[a_reply])
    b_topic = t.cmd_result if mode == "shared" else reply_topic(t, "probe-b")
    b = clients(broker.url("remote"), "probe-b", protocol=mqtt.MQTTv5 if mode == "v5" else mqtt.MQTTv311,
                subscribe=[b_topic])
    every = max(1, commands // probes)
    sent_probes = 0
    for i in range(commands - 1):
        a.send(t.cmd, FLOOD[i % len(FLOOD)])
        if i % every == every // 2 and sent_probes < probes:
            body: dict[str, object] = {"type": "state", "transaction": f"B-{sent_probes}"}
            props = None
            if mode == "reply_to":
                body["reply_to"] = b_topic
            elif mode == "v5":
                props = Properties(PacketTypes.PUBLISH)
                props.ResponseTopic = b_topic
                props.CorrelationData = f"corr-{sent_probes}".encode()
            b.send(t.cmd, json.dumps(body), props)
            sent_probes += 1
    a.send(t.cmd, json.dumps({"type": "state", "transaction": "A-final", "reply_to": a_reply}))

    def probes_answered() -> set[str]:
        return {str(x.get("transaction")) for x in b.answers(b_topic)
                if str(x.get("transaction", "")).startswith("B-")}

    def final() -> Any:
        return next((x for x in a.answers(a_reply) if x.get("transaction") == "A-final"), None)

    def dropped_lines() -> list[str]:
        return [line for line in broker.log_file.read_text(errors="replace").splitlines()
                if "Outgoing messages are being dropped for client" in line]

    def dropped_for_table() -> bool:
        return any(not line.rstrip(".").endswith((" flood-a", " probe-b")) for line in dropped_lines())

    end = time.monotonic() + 60
    all_probes_at: float | None = None  # when the last probe's answer came
    while time.monotonic() < end and final() is None:
        if all_probes_at is None and len(probes_answered()) == sent_probes:
            all_probes_at = time.monotonic()
        if all_probes_at is not None and time.monotonic() - all_probes_at > FINAL_GRACE_S and dropped_for_table():
            break  # (the broker dropped some of A's flood on its way to the table: the final may never come)
        time.sleep(0.05)
    while time.monotonic() < end and len(probes_answered()) < sent_probes:
        time.sleep(0.05)
    time.sleep(0.5)  # a repeat would come now
    got = [x.get("transaction") for x in b.answers(b_topic) if str(x.get("transaction", "")).startswith("B-")]
    a.close()  # (the next round's clients take the same ids)
    b.close()
    return FloodResult(commands, sent_probes, len(set(got)), len(got) - len(set(got)), final(), dropped_for_table())


@pytest.mark.parametrize("mode", ["reply_to", "v5"])
def test_a_bursty_flood_never_loses_another_clients_answers(broker, service, clients, mode) -> None:
    t = Topics("xian", f"fl-{mode}")
    bridge = bridge_for(service, broker, t.table)
    try:
        play(service, HAND[:2])  # betting: the flood's bets commit, so the event stream is busy too
        assert bridge.wait_idle(WAIT)
        r = flood(broker, t, clients, commands=2000, probes=40, mode=mode)
        print(f"flood {mode}: {r}")
        assert r.probes == 40 and r.answered == r.probes and r.repeated == 0, r
        assert r.final_answered_or_dropped_by_the_broker(), r
    finally:
        bridge.stop()


@pytest.mark.soak
@pytest.mark.parametrize("mode", ["reply_to", "v5"])
def test_a_long_bursty_flood_never_loses_another_clients_answers(broker, service, clients, mode) -> None:
    t = Topics("xian", f"soak-{mode}")
    bridge = bridge_for(service, broker, t.table)
    try:
        play(service, HAND[:2])
        assert bridge.wait_idle(WAIT)
        for _ in range(5):
            r = flood(broker, t, clients, commands=20_000, probes=200, mode=mode)
            print(f"soak {mode}: {r}")
            assert r.answered == r.probes and r.repeated == 0, r
            assert r.final_answered_or_dropped_by_the_broker(), r
    finally:
        bridge.stop()


# -- reply topics: MQTT 5 response topic, 3.1.1 reply_to ---------------------------------------

def test_an_mqtt5_response_topic_and_correlation_data_come_back(broker, service, clients) -> None:
    t = Topics("xian", "v5")
    bridge = bridge_for(service, broker, "v5")
    try:
        play(service, HAND[:1])
        mine = reply_topic(t, "v5-client")
        c = clients(broker.url("remote"), "v5-client", protocol=mqtt.MQTTv5, subscribe=[mine, t.cmd_result])
        assert bridge.wait_idle(WAIT)
        props = Properties(PacketTypes.PUBLISH)
        props.ResponseTopic = mine
        props.CorrelationData = b"\x00\xffcorr-1"
        c.send(t.cmd, json.dumps({**HAND[1], "transaction": "v5-1"}), props)
        assert c.wait(lambda: len(c.got) == 1)
        time.sleep(0.3)  # nothing on the shared topic as well
        assert len(c.got) == 1
        got = c.got[0]
        assert got.topic == mine and got.correlation == b"\x00\xffcorr-1"
        assert got.body["status"] == "ok" and got.body["transaction"] == "v5-1" and got.body["data"]["seq"] == 2
        # a refusal comes back the same way; without correlation data, none is sent
        props = Properties(PacketTypes.PUBLISH)
        props.ResponseTopic = mine
        c.send(t.cmd, b"not json", props)
        assert c.wait(lambda: len(c.got) == 2)
        assert c.got[1].topic == mine and c.got[1].correlation is None and c.got[1].body["status"] == "error"
        # a response topic outside <base>/cmd/result/ is refused, on the shared topic
        for bad in (t.state, f"{t.cmd_result}/a/b", t.cmd_result, "elsewhere/x", f"{t.cmd_result}/"):
            props = Properties(PacketTypes.PUBLISH)
            props.ResponseTopic = bad
            props.CorrelationData = b"bad"
            n = len(c.got)
            c.send(t.cmd, json.dumps({**HAND[2], "transaction": "bad"}), props)
            assert c.wait(lambda n=n: len(c.got) == n + 1), bad
            assert c.got[-1].topic == t.cmd_result and c.got[-1].body["status"] == "error", bad
            last = c.got[-1].body
            assert last["code"] == "invalid" and "ResponseTopic" in last["error"] and last["transaction"] == "bad"
        assert service.seq == 2
    finally:
        bridge.stop()


def test_a_mqtt311_client_names_its_reply_topic(broker, service, clients) -> None:
    t = Topics("xian", "r311")
    bridge = bridge_for(service, broker, "r311")
    try:
        play(service, HAND[:1])
        mine = reply_topic(t, "phone-7")
        c = clients(broker.url("remote"), "phone-7", subscribe=[mine, t.cmd_result])
        other = clients(broker.url("remote"), "phone-8", subscribe=[t.cmd_result])
        assert bridge.wait_idle(WAIT)
        c.send(t.cmd, json.dumps({**HAND[1], "transaction": 7, "reply_to": mine}))
        assert c.wait(lambda: len(c.got) == 1)
        assert c.got[0].topic == mine and c.got[0].body["transaction"] == 7 and c.got[0].body["status"] == "ok"
        assert service.seq == 2
        # a reply topic anywhere else is refused (on the shared topic), and changes nothing
        for bad in (t.state, t.seat(1), f"{t.cmd_result}/x/y", f"{t.cmd_result}/+", f"{t.cmd_result}/#",
                    f"{t.cmd_result}/", "other/cmd/result/x", 5, ["x"], f"{t.cmd_result}/a\u0000",
                    f"{t.cmd_result}/\ud800", f"{t.cmd_result}/" + "x" * 200):
            n = len(c.got)
            c.send(t.cmd, json.dumps({**HAND[2], "transaction": "bad", "reply_to": bad}))
            assert c.wait(lambda n=n: len(c.got) == n + 1), bad
            a = c.got[-1]
            assert a.topic == t.cmd_result and a.body["status"] == "error", (bad, a)
            assert a.body["code"] == "invalid" and "reply_to" in a.body["error"], (bad, a)
        assert service.seq == 2
        time.sleep(0.3)
        assert not [x for x in other.got if x.body.get("transaction") == 7]  # phone-8 never saw phone-7's answer
    finally:
        bridge.stop()


# -- tracebacks: once per kind --------------------------------------------------------------

def test_a_failure_is_logged_with_its_traceback_once_then_counted(broker, service, clients, caplog,
                                                                   monkeypatch) -> None:
    """Bad messages log no traceback each: a lone surrogate none at all (it is answered), and a
    failure inside the bridge (here the service's ``submit`` raising) one traceback per kind,
    then a count; every message is still answered."""
    t = Topics("xian", "tb")
    faults = FaultLog()  # its own counts (the process's one may have seen this kind in another test)
    bridge = bridge_for(service, broker, "tb", faults=faults)
    try:
        c = clients(broker.url("remote"), "tb-client", subscribe=[t.cmd_result])
        assert bridge.wait_idle(WAIT)
        caplog.set_level(logging.INFO)
        for _ in range(50):
            c.send(t.cmd, b'{"type": "state", "transaction": "\\ud800"}')
        assert c.wait(lambda: len(c.answers(t.cmd_result)) == 50), len(c.answers(t.cmd_result))
        assert [r.getMessage() for r in caplog.records if r.exc_info] == []

        def broken(*args: Any, **kw: Any) -> Any:
            raise RuntimeError("the service is not running")

        monkeypatch.setattr(service, "submit", broken)  # a fault inside the handler, every message
        for n in range(50):
            c.send(t.cmd, json.dumps({"type": "state", "transaction": n}))
        assert c.wait(lambda: len(c.answers(t.cmd_result)) == 100)
        answers = c.answers(t.cmd_result)[50:]
        assert sorted(a["transaction"] for a in answers) == list(range(50))
        assert all(a["status"] == "error" and "internal error" in a["error"] for a in answers)
        tracebacks = [r for r in caplog.records if r.exc_info]
        assert len(tracebacks) == 1, [r.getMessage() for r in tracebacks]
        assert faults.count("mqtt command", RuntimeError) == 50
    finally:
        monkeypatch.undo()
        bridge.stop()
    # the count is logged (here at the stop; else at most once a minute), in one line
    summary = [r.getMessage() for r in caplog.records if "49 more like this" in r.getMessage()]
    assert len(summary) == 1 and "RuntimeError" in summary[0], summary


# -- the ACL: only the client reads its reply topic ----------------------------------------

def test_with_the_shipped_acl_only_the_client_reads_its_reply_topic(broker, service, clients) -> None:
    assert "pattern read xian/+/cmd/result/%c" in (broker.data_dir / "acl").read_text()  # the broker's own ACL
    t = Topics("xian", "acl")
    bridge = bridge_for(service, broker, "acl")
    try:
        mine = reply_topic(t, "phone-7")
        c = clients(broker.url("remote"), "phone-7", subscribe=[mine, "xian/#"])
        snoop = clients(broker.url("remote"), "phone-8", subscribe=["xian/#", mine])
        dash = clients(broker.url("display"), "dash", subscribe=["xian/#"])
        assert bridge.wait_idle(WAIT)
        c.send(t.cmd, json.dumps({**HAND[0], "transaction": "mine", "reply_to": mine}))
        assert c.wait(lambda: any(r.topic == mine for r in c.got))
        c.send(t.cmd, json.dumps({"type": "state", "transaction": "shared"}))
        for w in (c, snoop, dash):  # everyone still reads the table and the shared answers
            assert w.wait(lambda w=w: any(r.topic == t.cmd_result for r in w.got)), w.client_id
            assert any(r.topic == t.state for r in w.got)
        assert not [r for r in snoop.got + dash.got if r.topic == mine]
    finally:
        bridge.stop()
