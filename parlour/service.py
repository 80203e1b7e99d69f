"""``xian-table parlour serve``: one MQTT session on every table, one worker on the database.

The MQTT side (paho's network thread) only takes messages in: a fixed client id, a persistent
session (MQTT 3.1.1 ``clean_session`` false) and QoS 1 subscriptions, so what the tables send
while the service is down waits in the parlour broker and arrives when it is back. Every
message goes into a bounded queue (:data:`QUEUE`) and is acknowledged to the broker only once
the worker has committed it to the database (paho's ``manual_ack``): a crash before the commit
loses nothing, the broker sends it again. A message that finds the queue full is let go
(acknowledged, counted, logged): the replay brings its record back from the table.

The worker (the main thread) takes the queue in batches, one transaction each, then
acknowledges them; a database that fails (gone, locked, full) is retried with a growing pause,
reopened, and meanwhile the queue fills and no more — the network thread never waits on it.
A message that cannot be understood is refused and logged, never stops the worker. Between
batches it asks the tables for their gaps (:mod:`parlour.gaps`) and writes when
each table was last seen. SIGTERM ends it after the batch in hand.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from parlour.db import Database, now
from parlour.derived import Derived
from parlour.gaps import Replayer
from parlour.ingest import Ingest
from parlour.records import Record
from table_app.mqtt.messages import Outgoing
from table_app.mqtt.topics import HA_PREFIX, BrokerURL
from table_app.system.bounded import BoundedInputError, parse_command
from table_app.system.sdnotify import Notifier

log = logging.getLogger("xian.parlour")

QUEUE = 20_000  # messages waiting for the worker
BATCH = 500  # messages a transaction
MAX_RECORD_BYTES = 80 * 1024
MAX_REPLAY_BYTES = 320 * 1024  # a chunk: at most 200 records and 256 KiB
STATS_EVERY = 60.0
CLIENT_ID = "xian-parlour"
LINK_TOPICS = "$SYS/broker/connection/+/state"  # a table's bridge: connection parlour-T (notifications)
LINK_PREFIX = "$SYS/broker/connection/parlour-"


@dataclass
class Item:
    topic: str
    payload: bytes
    mid: int
    qos: int
    generation: int


@dataclass
class Settings:
    db: str | Path | None
    broker: BrokerURL
    client_id: str = CLIENT_ID
    prefix: str = "xian"
    cafile: Path | None = None
    queue_size: int = QUEUE
    keepalive: int = 30
    ha_prefix: str | None = HA_PREFIX  # Home Assistant's discovery (None: none)


def db_errors() -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = [sqlite3.Error]
    try:
        import psycopg

        errors.append(psycopg.Error)
    except ImportError:
        pass
    return tuple(errors)


class Parlour:
    def __init__(self, settings: Settings) -> None:
        self.s = settings
        self.stop = threading.Event()
        self.q: queue.Queue[Item] = queue.Queue(maxsize=settings.queue_size)
        self.counts: Counter[str] = Counter()
        self.generation = 0
        self.connected = threading.Event()
        self.unreachable = False  # (said once in the log)
        self.db = Database.open(settings.db)
        self.ingest = Ingest(self.db)
        self.replayer = Replayer(self._publish, settings.prefix)
        self.derived = Derived(self.db, self._send, prefix=settings.prefix, ha_prefix=settings.ha_prefix,
                               refuse=self.ingest.refuse)
        self._seen: dict[str, tuple[str, str | None]] = {}
        self._db_errors = db_errors()
        self.notifier: Notifier | None = None
        self.on_commit: Callable[[list[tuple[str, Record]]], None] | None = None  # the floor view's fold
        self.on_seen: Callable[[str, str, str | None], None] | None = None  # … and each table's link
        self.client = self._client()

    # -- MQTT (paho's thread)

    def _client(self) -> mqtt.Client:
        b = self.s.broker
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=self.s.client_id, clean_session=False,
                        protocol=mqtt.MQTTv311, manual_ack=True)
        if b.username:
            c.username_pw_set(b.username, b.password)
        if b.tls:
            c.tls_set(ca_certs=str(self.s.cafile) if self.s.cafile else None)
        c.reconnect_delay_set(1, 8)  # (as the tables' bridges: back within 8 s of the broker, catch-up < 10 s)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_connect_fail = self._on_connect_fail
        c.on_message = self._on_message
        return c

    def _topics(self) -> list[tuple[str, int]]:
        p = self.s.prefix
        return [(f"{p}/+/journal", 1), (f"{p}/+/journal/replay", 1), (f"{p}/+/status", 1), (f"{p}/+/state", 0),
                (f"{p}/+/cmd/result", 1), (f"{p}/+/roster", 1), (LINK_TOPICS, 1)]

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: mqtt.ConnectFlags,
                    rc: ReasonCode, props: object) -> None:
        if rc.is_failure:
            log.error("the parlour broker refused the connection: %s", rc)
            return
        self.generation += 1
        self.unreachable = False
        log.info("connected to the parlour broker %s:%d (session %s)", self.s.broker.host, self.s.broker.port,
                 "resumed" if flags.session_present else "new")
        client.subscribe(self._topics())
        self.derived.connected()
        self.connected.set()

    def _on_connect_fail(self, client: mqtt.Client, userdata: object) -> None:
        """No broker answers (paho tries again): said once, not in silence, until it is reached."""
        if not self.unreachable and not self.stop.is_set():
            self.unreachable = True
            log.error("cannot reach the parlour broker %s:%d (is mosquitto running? --broker): trying again",
                      self.s.broker.host, self.s.broker.port)

    def _on_disconnect(self, client: mqtt.Client, userdata: object, flags: object, rc: ReasonCode,
                       props: object) -> None:
        self.connected.clear()
        self.generation += 1  # acks owed to the old connection are not sent on the new one
        if not self.stop.is_set():
            log.warning("lost the parlour broker (%s): connecting again", rc)

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        try:
            self.q.put_nowait(Item(msg.topic, bytes(msg.payload), msg.mid, msg.qos, self.generation))
        except queue.Full:
            self.counts["let_go"] += 1
            if self.counts["let_go"] in (1, 10, 100) or self.counts["let_go"] % 1000 == 0:
                log.warning("the worker is behind (%d messages queued): %d let go so far (the replay brings "
                            "their records back)", self.q.qsize(), self.counts["let_go"])
            if msg.qos:
                client.ack(msg.mid, msg.qos)

    def _publish(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1)

    def _send(self, msg: Outgoing) -> None:
        self.client.publish(msg.topic, msg.payload, qos=msg.qos, retain=msg.retain)

    # -- the worker (the main thread)

    def run(self, notifier: Notifier | None = None) -> int:
        b = self.s.broker
        self.client.connect_async(b.host, b.port, keepalive=self.s.keepalive)
        self.client.loop_start()
        self.notifier = notifier
        if notifier:
            notifier.ready(f"storing the tables' journals in {self.db.where}")
        last_stats = time.monotonic()
        self._guarded(self.derived.start)
        try:
            while not self.stop.is_set():
                batch = self._take()
                if batch:
                    self._process(batch)
                self._guarded(self._tick)
                if notifier:
                    notifier.watchdog()
                if time.monotonic() - last_stats >= STATS_EVERY:
                    self._stats()
                    last_stats = time.monotonic()
        finally:
            if notifier:
                notifier.stopping()
            self.client.disconnect()
            self.client.loop_stop()
            self._stats()
            self.db.close()
        return 0

    def _take(self) -> list[Item]:
        try:
            batch = [self.q.get(timeout=0.05)]
        except queue.Empty:
            return []
        while len(batch) < BATCH:
            try:
                batch.append(self.q.get_nowait())
            except queue.Empty:
                break
        return batch

    def _process(self, batch: list[Item]) -> None:
        pause = 1.0
        while True:
            self.ingest.stored.clear()
            try:
                with self.db.transaction():
                    for item in batch:
                        self._handle(item)
                    self._flush_seen()
                    self._derive()
                break
            except self._db_errors as e:
                log.error("the database failed (%s): trying again in %.0f s; %d messages wait", e, pause,
                          self.q.qsize())
                if self._pause(pause):
                    return  # not acknowledged: the broker sends them again at the next start
                pause = min(pause * 2, 30.0)
                self._reopen()
        if self.on_commit is not None:
            self._guarded(self._tell_floor)
        self.ingest.stored.clear()
        gen = self.generation
        for item in batch:
            if item.qos and item.generation == gen:
                self.client.ack(item.mid, item.qos)

    def _pause(self, seconds: float) -> bool:
        """Wait (the watchdog fed: a database that is down is not a stalled service); True if stopped."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if self.stop.wait(min(1.0, end - time.monotonic())):
                return True
            if self.notifier:
                self.notifier.watchdog()
        return self.stop.is_set()

    def _reopen(self) -> None:
        with contextlib.suppress(*self._db_errors):
            self.db.close()
        try:
            self.db = Database.open(self.s.db)
        except self._db_errors as e:
            log.error("cannot open the database %s again: %s", self.db.where, e)
            return
        self.ingest.db = self.db
        self.ingest.forget()
        self.derived.db = self.db

    def _guarded(self, step: Callable[[], object]) -> None:
        try:
            step()
        except self._db_errors as e:
            log.error("the database failed (%s)", e)
            self._reopen()

    def _tell_floor(self) -> None:
        """The floor's fold of what the batch stored: a bug there is logged, never stops the records."""
        assert self.on_commit is not None
        try:
            self.on_commit(self.ingest.stored)
        except self._db_errors:
            raise
        except Exception:
            log.exception("the floor could not take the batch's records in; it shows them after its next fold")

    def _derive(self) -> None:
        """The sessions of the journals this batch stored records of (in its transaction)."""
        try:
            self.derived.batch(self.ingest.touched)
        except self._db_errors:
            raise
        except Exception:  # a bug in what is derived must not stop the records
            log.exception("the sessions could not be brought up to the records; they are folded again later")
            self.derived.sessions.forget()
        self.ingest.touched.clear()

    def _tick(self) -> None:
        if self.connected.is_set():
            self.replayer.tick(self.ingest)
        try:
            self.derived.tick(self.connected.is_set())
        except self._db_errors:
            raise
        except Exception:
            log.exception("could not publish to Home Assistant")

    def _handle(self, item: Item) -> None:
        parts = item.topic.split("/")
        self.counts["messages"] += 1
        if item.topic.startswith(LINK_PREFIX):
            self._link(item.topic[len(LINK_PREFIX):].split("/")[0], item.payload)
            return
        if len(parts) < 3 or parts[0] != self.s.prefix:
            return
        table, rest = parts[1], "/".join(parts[2:])
        try:
            self._route(table, rest, item.payload)
        except self._db_errors:
            raise
        except Exception:  # a bug must not stop the parlour: the message is logged and dropped
            log.exception("table %s: could not handle a message on %s", table, item.topic)
            self.ingest.forget()

    def _route(self, table: str, rest: str, payload: bytes) -> None:
        at = now()
        if rest == "status":
            status = payload.decode("utf-8", "replace")[:20]
            self._seen[table] = (at, status if status in ("online", "offline") else None)
            if status in ("online", "offline"):
                self.replayer.status(table, status == "online")
            return
        self._seen.setdefault(table, (at, None))
        self._seen[table] = (at, self._seen[table][1])
        if rest == "state":
            return
        if rest == "roster":
            self.derived.roster(table, payload)
            return
        limit = MAX_REPLAY_BYTES if rest == "journal/replay" else MAX_RECORD_BYTES
        try:
            obj = parse_command(payload, max_bytes=limit, strings=False)
        except BoundedInputError as e:
            if rest in ("journal", "journal/replay"):
                self.db.ensure_table(table)
                self.ingest.refuse(table, f"not JSON: {e}", payload[:2000])
            return
        if rest == "journal":
            self.ingest.live(table, obj, payload)
        elif rest == "journal/replay":
            answer = self.ingest.replay(table, obj, payload)
            if answer is not None:
                self.replayer.answered(answer)
        elif rest == "cmd/result":
            self.replayer.result(table, obj, self.ingest)

    def _link(self, table: str, payload: bytes) -> None:
        up = payload.strip() == b"1"
        log.info("table %s: its bridge to the parlour is %s", table, "up" if up else "down")
        self.replayer.status(table, up)
        if not up:
            self._seen[table] = (self._seen.get(table, (now(), None))[0], "offline")

    def _flush_seen(self) -> None:
        for table, (at, status) in self._seen.items():
            self.db.ensure_table(table)
            self.db.seen(table, at, status)
            if self.on_seen is not None:  # (the floor view: a time shown, whether or not this commits)
                self.on_seen(table, at, status)
        self._seen.clear()

    def _stats(self) -> None:
        c = self.ingest.counts
        log.info("records stored %d, twice %d, refused %d, held %d now, let go %d; replay requests %d; "
                 "messages %d, queued %d, let go at the queue %d", c["stored"], c["duplicate"], c["refused"],
                 self.ingest.held(), c["let_go"], self.replayer.sent, self.counts["messages"], self.q.qsize(),
                 self.counts["let_go"])
