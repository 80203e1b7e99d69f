"""Real MQTT clients and a scripted hand for the MQTT, web and seat display tests."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from table_app.core.service import TableService
from table_app.journal.journal import Journal
from table_app.mqtt.local_broker import LocalBroker
from table_app.mqtt.topics import parse_url

WAIT = 15.0  # seconds: an upper bound for things that take milliseconds, never a timing assertion

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
HAND = [
    {"type": "new_session", "players": PLAYERS, "base": 1},
    {"type": "seating", "method": "C", "east": 0},
    {"type": "bets", "bets": [0, 0, 0, 0]},
    {"type": "roll", "dice": [3, 4]},
    {"type": "roll", "dice": [2, 2]},
    {"type": "discard", "seat": 0},
    {"type": "pass", "seat": 1},
    {"type": "pass", "seat": 2},
    {"type": "pass", "seat": 3},
    {"type": "discard", "seat": 1},
    {"type": "claim", "seat": 3, "call": "pong"},
    {"type": "pass", "seat": 2},
    {"type": "pass", "seat": 0},
    {"type": "discard", "seat": 3},
    {"type": "claim", "seat": 2, "call": "win"},
    {"type": "pass", "seat": 0},
    {"type": "pass", "seat": 1},
    {"type": "confirm_win", "wait": "plain"},
]


class Watcher:
    """A real paho client that records what it receives: the latest payload per topic and
    every message in order."""

    def __init__(self, url: str, topics: list[str] | str = "#", *, protocol: int = mqtt.MQTTv311,
                 client_id: str = "") -> None:
        u = parse_url(url)
        self.cond = threading.Condition()
        self.latest: dict[str, bytes] = {}
        self.messages: list[tuple[str, bytes, bool]] = []
        self.connect_result: Any = None
        self.subscribed = False
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=protocol)
        if u.username:
            self.client.username_pw_set(u.username, u.password)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe
        self._topics = [topics] if isinstance(topics, str) else topics
        self.client.connect(u.host, u.port, keepalive=30)
        self.client.loop_start()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        with self.cond:
            self.connect_result = rc
            self.cond.notify_all()
        if rc.is_failure:
            client.disconnect()  # refused: stop here rather than retry
            return
        if self._topics:
            client.subscribe([(t, 1) for t in self._topics])

    def _on_subscribe(self, client: Any, userdata: Any, mid: Any, rcs: Any, props: Any) -> None:
        with self.cond:
            self.subscribed = True
            self.cond.notify_all()

    def _on_message(self, client: Any, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        with self.cond:
            self.latest[msg.topic] = msg.payload
            self.messages.append((msg.topic, msg.payload, bool(msg.retain)))
            self.cond.notify_all()

    def wait(self, pred: Callable[[], bool], timeout: float = WAIT) -> bool:
        with self.cond:
            return self.cond.wait_for(pred, timeout)

    def wait_connected(self) -> Any:
        assert self.wait(lambda: self.connect_result is not None), "no CONNACK"
        return self.connect_result

    def wait_subscribed(self) -> None:
        assert self.wait(lambda: self.subscribed), "no SUBACK"

    def json(self, topic: str) -> Any:
        with self.cond:
            return json.loads(self.latest[topic])

    def wait_json(self, topic: str, pred: Callable[[Any], bool] = lambda _: True) -> Any:
        def ok() -> bool:
            return topic in self.latest and pred(json.loads(self.latest[topic]))
        assert self.wait(ok), f"nothing matching on {topic}; latest: {self.latest.get(topic)!r}"
        return self.json(topic)

    def of(self, topic: str) -> list[Any]:
        with self.cond:
            return [json.loads(p) for t, p, _ in self.messages if t == topic]

    def publish(self, topic: str, payload: str | bytes, retain: bool = False) -> Any:
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        info.wait_for_publish(WAIT)
        return info

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture(name="broker")
def broker_fixture(tmp_path: Path) -> Iterator[LocalBroker]:
    with LocalBroker(tmp_path) as b:
        yield b


@pytest.fixture(name="service")
def service_fixture(tmp_path: Path) -> Iterator[TableService]:
    journal = Journal.open(tmp_path / "journal.sqlite3")
    svc = TableService(journal, claim_window_s=0).start()
    yield svc
    svc.stop()
    journal.close()


@pytest.fixture(name="watchers")
def watchers_fixture() -> Iterator[Callable[..., Watcher]]:
    made: list[Watcher] = []

    def make(*args: Any, **kw: Any) -> Watcher:
        w = Watcher(*args, **kw)
        made.append(w)
        return w

    yield make
    for w in made:
        w.close()


def play(service: TableService, events: list[dict[str, Any]]) -> None:
    for ev in events:
        answer = service.call(ev, source="test", timeout=WAIT)
        assert answer.ok, (ev, answer.error)


def until(pred: Callable[[], bool], timeout: float = WAIT) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.01)
    return pred()


class Cable:
    """A TCP forwarder between the table and the broker that a test can unplug and plug
    back in, so the broker stays up for the other clients while the table loses it."""

    def __init__(self, upstream_port: int) -> None:
        import socket

        self._socket = socket
        self.upstream = upstream_port
        self.port = 0
        self._server: Any = None
        self._conns: list[Any] = []
        self._lock = threading.Lock()
        self.plug()

    def plug(self) -> None:
        s = self._socket.socket()
        s.setsockopt(self._socket.SOL_SOCKET, self._socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", self.port))
        s.listen()
        self.port = s.getsockname()[1]
        self._server = s
        threading.Thread(target=self._accept, args=(s,), daemon=True).start()

    def unplug(self) -> None:
        with self._lock:
            server, conns, self._server, self._conns = self._server, self._conns, None, []
        if server is not None:
            with contextlib.suppress(OSError):
                server.shutdown(self._socket.SHUT_RDWR)  # wakes the thread blocked in accept()
            server.close()
        for c in conns:
            with contextlib.suppress(OSError):
                c.shutdown(self._socket.SHUT_RDWR)
            c.close()

    def _accept(self, server: Any) -> None:
        while True:
            try:
                down, _ = server.accept()
            except OSError:
                return
            try:
                up = self._socket.create_connection(("127.0.0.1", self.upstream))
            except OSError:
                down.close()
                continue
            with self._lock:
                self._conns += [down, up]
            for a, b in ((down, up), (up, down)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(a: Any, b: Any) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                b.shutdown(2)


def chained(records: list[Any], prev: bytes | None = None) -> bool:
    """Whether journal records on the wire follow one another by the table's hash chain, the
    first following ``prev`` (the hash before it; record 1's: ``chain.ZERO``)."""
    from table_app.journal import chain
    from table_app.journal import wire as journal_wire
    prev = chain.ZERO if prev is None else prev
    for r in records:
        if not journal_wire.follows(prev, r):
            return False
        prev = bytes.fromhex(r["hash"])
    return True
