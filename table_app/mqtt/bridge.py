"""The table on MQTT: an observer of :class:`~table_app.core.service.TableService` that publishes
the retained ``state``, the four retained seat views, the ``event`` stream and ``status``;
and the ``cmd`` topic, whose commands go to the service and are each answered once, on
``cmd/result`` or the command's own reply topic (:mod:`table_app.mqtt.answers`).

The table never waits on the broker. The observer only records the notice under a lock and
returns: the retained topics keep just their latest value (a new state replaces one not yet
sent), the event stream waits in a bounded queue (the oldest is dropped and counted when it
is full); the answers wait in a queue of their own, sent before the events and never
dropped (bounded at intake: a command beyond it is answered busy). One thread of the bridge
owns the connection and publishes; while the broker is away the table plays on. On every
(re)connect the bridge publishes ``online``, the discovery configs and the latest retained
views again, then the queued answers and events. A message counts as delivered only when
paho's ``on_publish`` reports the broker's acknowledgement; events and answers not
acknowledged when a connection drops are queued again (at least once; each event carries its
journal ``seq``, each answer its command's ``transaction``). The parlour link's ``journal``
and ``journal_replay``: :mod:`table_app.mqtt.journal_link`.

Each connection is a fresh paho client (MQTT 5, clean start): nothing a lost connection
left in paho's own queue can be resent after the newer retained views.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode
from paho.mqtt.subscribeoptions import SubscribeOptions

from table_app.mqtt.answers import ANSWER_LIMIT, AnswerQueue, CommandDesk
from table_app.mqtt.discovery import discovery_messages
from table_app.mqtt.journal_link import JournalLink
from table_app.mqtt.link import link_state, network_alive, say_offline
from table_app.mqtt.messages import Outgoing, event_message, status_message, table_messages
from table_app.mqtt.names import NameBitmaps
from table_app.mqtt.roster_link import RosterLink
from table_app.mqtt.topics import HA_ONLINE, HA_PREFIX, HA_STATUS, QOS, BrokerURL, Topics
from table_app.present.money import Money
from table_app.system.fault_log import FAULTS, FaultLog
from table_app.views.table_views import TableViews

if TYPE_CHECKING:
    from table_app.core.notices import Notice
    from table_app.core.service import TableService

log = logging.getLogger(__name__)

COMMAND_SOURCE = "mqtt"
BEAT_S = 1.0  # the connection thread wakes at least this often (the watchdog's heartbeat)
CONNACK_TIMEOUT = 10.0  # seconds to wait for the broker to answer CONNECT


class MqttBridge:
    """Publishes a :class:`TableService` to a broker and takes commands from it.

    ``service`` needs ``subscribe``, ``submit``, ``seq`` and ``public``. ``views``: the table's
    one view per change, shared with the other front ends (None: one of its own, with ``money``,
    a point's value beside the points). ``ha_prefix`` None
    turns Home Assistant discovery off; ``commands`` False leaves ``cmd`` unsubscribed.
    ``queue_size``: events queued (then the oldest is dropped); ``answer_limit``: answers owed at
    once (then a command is answered busy); ``faults``: where handler failures are logged (the
    process's :data:`~table_app.system.fault_log.FAULTS`); ``journal`` False: no ``journal`` topic, no
    replays, no ``roster`` (else ``service`` needs ``journal_reader``).
    """

    def __init__(self, service: TableService, url: BrokerURL, topics: Topics, *, ha_prefix: str | None = HA_PREFIX,
                 commands: bool = True, client_id: str | None = None, queue_size: int = 1000,
                 max_inflight: int = 100, keepalive: int = 30, min_backoff: float = 0.2,
                 max_backoff: float = 5.0, heartbeat: Callable[[], None] | None = None,
                 answer_limit: int = ANSWER_LIMIT, faults: FaultLog | None = None,
                 money: Money | None = None, journal: bool = True, views: TableViews | None = None) -> None:
        if queue_size < 1 or max_inflight < 1:
            raise ValueError("queue_size and max_inflight must be at least 1")
        self.service = service
        self.url = url
        self.topics = topics
        self._own_views = views is None  # (stopped with the bridge)
        self.views = views if views is not None else TableViews(service, money)
        self.ha_prefix = ha_prefix
        self.commands = commands
        self.client_id = client_id or f"xian-table-{topics.table}-{uuid.uuid4().hex[:8]}"
        self.keepalive = keepalive
        self.min_backoff, self.max_backoff = min_backoff, max_backoff
        self.max_inflight = max_inflight
        self.heartbeat = heartbeat  # systemd's watchdog: beaten every BEAT_S at least (sdnotify.part_heartbeat)
        self._cond = threading.Condition()
        self._table_dirty = True  # (from the start: the table as it is)
        self._discovery_dirty = False
        self._republish = False
        self._queue: deque[Notice | Outgoing] = deque(maxlen=queue_size)  # the event stream
        self._answers = AnswerQueue(answer_limit)
        self._faults = FAULTS if faults is None else faults
        self._journal = JournalLink.of(service, topics, self._faults, queue_size) if journal else None
        self._roster = RosterLink.of(service, topics, journal)  # the roster for the parlour (roster_link.py)
        self._desk = CommandDesk(topics, service, self._cond, self._answers, self._faults, COMMAND_SOURCE,
                                 self._journal.ask if self._journal is not None else None)
        self._inflight: dict[int, Outgoing] = {}
        self._names = NameBitmaps()  # the players' names as bitmaps for the seat displays
        self._early: set[int] = set()  # acks that came before publish() returned their mid
        self._sending = 0  # taken from the queue, not yet handed to paho
        self._client: mqtt.Client | None = None
        self._link = "down"  # down | connecting | up | lost | refused
        self._link_listeners: list[Callable[[str, str], None]] = []
        self._closing = False
        self._deadline = 0.0
        self._thread: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._down_logged = False
        self.delivered = 0  # counters, for tests, the benchmark and logs
        self.dropped = 0
        self.connects = 0
        self.delivered_seq: int | None = None  # the seq of the last state the broker acknowledged

    # -- life cycle ----------------------------------------------------------------------

    def start(self) -> MqttBridge:
        if self._thread is not None:
            return self
        self._unsubscribe = self.views.subscribe(self)
        self._thread = threading.Thread(target=self._run, name="mqtt-bridge", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Send what is queued (up to ``timeout`` seconds), publish ``offline``, disconnect."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._own_views:
            self.views.stop()
        if self._thread is None:
            return
        with self._cond:
            self._closing = True
            self._deadline = time.monotonic() + timeout
            self._cond.notify_all()
        self._thread.join(timeout + 2)
        self._thread = None
        if self._journal is not None:
            self._journal.close()
        self._faults.flush()

    def __enter__(self) -> MqttBridge:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def connected(self) -> bool:
        return self._link == "up"

    def add_listener(self, fn: Callable[[str, str], None]) -> None:
        """Hear the link state — ``connecting``, ``online``, ``offline``, ``denied`` — and a
        detail line, from the bridge's threads (the touchscreen's Settings and ``serve`` show it)."""
        self._link_listeners.append(fn)
        fn(*self._link_state())

    def _link_state(self) -> tuple[str, str]:
        return link_state(self._link, self.url, self.topics)

    def _set_link(self, link: str) -> None:
        """(Under ``self._cond``.) The connection's state, told to the listeners when it shows differently."""
        before = self._link_state()
        self._link = link
        now = self._link_state()
        if now != before:
            for fn in list(self._link_listeners):
                try:
                    fn(*now)
                except Exception:
                    log.exception("mqtt link listener %r failed", fn)

    def wait_idle(self, timeout: float) -> bool:
        """Wait until connected with nothing queued or unacknowledged; False on timeout."""
        end = time.monotonic() + timeout
        with self._cond:
            while not (self._link == "up" and not self._has_work() and not self._inflight and not self._sending):
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    # -- the observer (called on the service thread: never blocks) -----------------------

    def __call__(self, notice: Notice) -> None:
        if not notice.changed:  # a refused press, the seating dice: nothing to publish
            return
        with self._cond:
            self._table_dirty = True
            if self._journal is not None:
                self._journal.committed(notice.seq)
            self._enqueue(notice)
            self._cond.notify_all()

    def _enqueue(self, item: Notice | Outgoing) -> None:
        if len(self._queue) == self._queue.maxlen:
            self.dropped += 1
            if self.dropped == 1 or self.dropped % 1000 == 0:
                log.warning("mqtt: outgoing queue full, dropped the oldest message (%d so far)", self.dropped)
        self._queue.append(item)

    # -- the connection thread -----------------------------------------------------------

    def _run(self) -> None:
        backoff = self.min_backoff
        while True:
            with self._cond:
                if self._closing:
                    return
            client = self._new_client()
            try:
                client.connect(self.url.host, self.url.port, self.keepalive, clean_start=True)
            except (OSError, ValueError) as e:
                self._link_down(f"cannot reach the broker at {self.url.redacted()}: {e}")
                if self._sleep(backoff):
                    return
                backoff = min(backoff * 2, self.max_backoff)
                continue
            sock = client.socket()
            if isinstance(sock, socket.socket):  # small messages: send each at once (no Nagle delay)
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            client.loop_start()
            with self._cond:
                answered = self._cond.wait_for(lambda: self._link != "connecting" or self._closing,
                                               CONNACK_TIMEOUT)
                if not answered:
                    self._set_link("lost")
                    log.warning("mqtt: no answer from the broker at %s; trying again", self.url.redacted())
                up = self._link == "up"
            if up:
                backoff = self.min_backoff
                self._serve(client)
            with self._cond:
                closing = self._closing
            if closing and self._link == "up":
                say_offline(client, status_message(self.topics, online=False), self._deadline)
            with contextlib.suppress(Exception):
                client.disconnect()
            client.loop_stop()
            self._connection_ended()
            if closing:
                return
            if self._link == "refused":
                backoff = self.max_backoff
            if self._sleep(backoff):
                return
            backoff = min(backoff * 2, self.max_backoff)

    def _new_client(self) -> mqtt.Client:
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=self.client_id, protocol=mqtt.MQTTv5)
        if self.url.username:
            client.username_pw_set(self.url.username, self.url.password)
        if self.url.tls:
            client.tls_set()
        will = status_message(self.topics, online=False)
        client.will_set(will.topic, will.payload, qos=QOS, retain=True)
        client.reconnect_delay_set(3600, 3600)  # reconnecting is this bridge's job, with a fresh client
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        with self._cond:
            self._client = client
            self._set_link("connecting")
        return client

    def _sleep(self, seconds: float) -> bool:
        """Wait before the next attempt; True when the bridge is closing."""
        end = time.monotonic() + seconds
        while True:
            self._beat()
            with self._cond:
                left = end - time.monotonic()
                if self._closing or left <= 0:
                    return self._closing
                self._cond.wait_for(lambda: self._closing, min(left, BEAT_S))

    def _beat(self) -> None:
        if self.heartbeat is not None:
            self.heartbeat()

    def _link_down(self, why: str) -> None:
        with self._cond:
            self._set_link("down")
            self._cond.notify_all()
        if not self._down_logged:
            log.warning("mqtt: %s; the table plays on and publishes when the broker is back", why)
            self._down_logged = True

    def _connection_ended(self) -> None:
        """Events and answers the broker did not acknowledge go back to the front of their queues
        (the answers all of them)."""
        with self._cond:
            again = [m for m in self._inflight.values() if not m.retain]
            self._inflight.clear()
            self._early.clear()
            for m in reversed(again):
                if m.answer:
                    self._answers.queue.appendleft(m)
                elif len(self._queue) < (self._queue.maxlen or 0):
                    self._queue.appendleft(m)
            if self._link != "refused":
                self._set_link("down")
            self._client = None
            self._cond.notify_all()

    def _has_work(self) -> bool:
        return bool(self._republish or self._table_dirty or self._discovery_dirty or self._answers or self._queue
                    or (self._journal is not None and self._journal.has_work()))

    def _serve(self, client: mqtt.Client) -> None:
        """Publish while the connection lasts (and, when closing, until all is acknowledged)."""
        while True:
            self._beat()
            roster = self._roster.take(self.connects)  # (xian/T/roster when due: reads the roster, not under the lock)
            with self._cond:
                while True:
                    if self._link == "up" and not network_alive(client):
                        # paho's network thread died (whatever killed it): a fresh connection
                        log.error("mqtt: the network thread stopped; connecting again")
                        self._set_link("lost")
                    if self._link != "up":
                        return
                    if self._closing and (time.monotonic() >= self._deadline
                                          or not (self._has_work() or self._inflight)):
                        return
                    work = self._has_work() or self._roster.owed(self.connects)
                    if work and len(self._inflight) < self.max_inflight:
                        break
                    self._cond.wait(0.5 if self._closing else BEAT_S)
                    self._beat()
                batch = self._take(self.max_inflight - len(self._inflight)) + ([roster] if roster else [])
                self._sending = len(batch)
                room = self.max_inflight - len(self._inflight) - len(batch)
            if self._journal is not None:  # (it reads the journal: outside the lock the service's notices take)
                batch += (more := self._journal.take(room))
                with self._cond:
                    self._sending += len(more)
                    self._journal.taken()
            for msg in batch:
                self._publish(client, msg)

    def _take(self, room: int) -> list[Outgoing]:
        out: list[Outgoing] = []
        if self._republish:
            out.append(status_message(self.topics, online=True))
            self._republish = False
            self._names.forget()
            self._discovery_dirty = self.ha_prefix is not None
            self._table_dirty = True
        if self._discovery_dirty:
            out.extend(discovery_messages(self.topics, self.ha_prefix or HA_PREFIX))
            self._discovery_dirty = False
        if self._table_dirty:  # state and the seat views: the one view of the latest change
            context = self.views.context()
            out.extend(table_messages(self.topics, context))
            try:
                out.extend(self._names.changed(self.topics, context.public))
            except Exception:  # the names' bitmaps are extra: never let them stop the table's own topics
                log.exception("mqtt: rendering the players' names failed")
            self._table_dirty = False
        while self._answers.queue and len(out) < room:  # answers before the event stream
            out.append(self._answers.queue.popleft())
        while self._queue and len(out) < room:
            item = self._queue.popleft()
            if not isinstance(item, Outgoing):
                item = event_message(self.topics, seq=item.seq, kind=item.kind,
                                     event=None if item.event is None else item.event.to_json(), at=item.at,
                                     source=item.source, undone=item.undone, effects=item.effects)
            out.append(item)
        return out

    def _publish(self, client: mqtt.Client, msg: Outgoing) -> None:
        try:
            props = None
            if msg.correlation is not None:
                props = Properties(PacketTypes.PUBLISH)  # type: ignore[no-untyped-call]
                props.CorrelationData = msg.correlation
            info = client.publish(msg.topic, msg.payload, qos=msg.qos, retain=msg.retain, properties=props)
        except Exception as e:  # paho raises on a payload it cannot send; never kill the thread
            self._faults.log(log, f"mqtt publish to {msg.topic}", e)
            with self._cond:
                self._sending -= 1
                self._cond.notify_all()
            return
        if info.rc != mqtt.MQTT_ERR_SUCCESS and info.rc != mqtt.MQTT_ERR_NO_CONN:
            log.warning("mqtt: publish to %s failed: %s", msg.topic, mqtt.error_string(info.rc))
        with self._cond:
            self._sending -= 1
            if info.mid in self._early:
                self._early.discard(info.mid)
                self._delivered(msg)
            else:
                self._inflight[info.mid] = msg

    def _delivered(self, msg: Outgoing) -> None:
        self.delivered += 1
        if msg.topic == self.topics.state:
            self.delivered_seq = msg.seq
        self._cond.notify_all()

    # -- paho callbacks (paho's network thread) --------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: mqtt.ConnectFlags, reason_code: ReasonCode,
                    properties: Properties | None) -> None:
        if client is not self._client:
            return
        if reason_code.is_failure:
            log.error("mqtt: the broker at %s refused the connection: %s", self.url.redacted(), reason_code)
            with self._cond:
                self._set_link("refused")
                self._cond.notify_all()
            return
        subs = []
        if self.commands:
            # retain-as-published: a command published *with* retain keeps its flag when it is
            # delivered live too, so the bridge can refuse it then as well as at a reconnect
            subs.append((self.topics.cmd, SubscribeOptions(qos=QOS, retainAsPublished=True)))
        if self.ha_prefix is not None:
            subs.append((f"{self.ha_prefix}/{HA_STATUS}", SubscribeOptions(qos=QOS)))
        if subs:
            client.subscribe(subs)
        log.info("mqtt: connected to %s as %r; publishing under %s/", self.url.redacted(), self.url.username,
                 self.topics.base)
        self._down_logged = False
        with self._cond:
            self.connects += 1
            self._set_link("up")
            self._republish = True
            self._cond.notify_all()

    def _on_disconnect(self, client: mqtt.Client, userdata: object, flags: mqtt.DisconnectFlags,
                       reason_code: ReasonCode, properties: Properties | None) -> None:
        if client is not self._client:
            return
        with self._cond:
            if self._link == "up" and not self._closing:
                log.warning("mqtt: lost the broker (%s); reconnecting", reason_code)
            if self._link != "refused":
                self._set_link("lost")
            self._cond.notify_all()

    def _on_publish(self, client: mqtt.Client, userdata: object, mid: int, reason_code: ReasonCode,
                    properties: Properties) -> None:
        if client is not self._client:
            return
        with self._cond:
            msg = self._inflight.pop(mid, None)
            if msg is None:
                self._early.add(mid)
                return
            if reason_code.is_failure:
                log.error("mqtt: the broker refused our publish to %s: %s (check its ACL)", msg.topic, reason_code)
            self._delivered(msg)

    def _on_message(self, client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        # paho's network thread: whatever one message does, it lives on (else no more commands, no more state)
        try:
            self._on_message_unguarded(message)
        except Exception as e:
            topic = "?"
            with contextlib.suppress(Exception):  # (the topic itself may be what fails to decode)
                topic = message.topic
            self._faults.log(log, "mqtt message", e)
            if topic == self.topics.cmd:  # nothing was queued for it (CommandDesk.take): answer here
                with self._cond:
                    self._answers.put(self._desk.internal_error(None, None, e), admitted=False)
                    self._cond.notify_all()

    def _on_message_unguarded(self, message: mqtt.MQTTMessage) -> None:
        if message.topic == self.topics.cmd:
            if message.retain:  # a retained command is stale by definition: never apply it again
                log.warning("mqtt: ignored a retained command on %s (publish commands without retain)", message.topic)
                return
            self._desk.take(bytes(message.payload), message.properties)
        elif (self.ha_prefix is not None and message.topic == f"{self.ha_prefix}/{HA_STATUS}"
              and message.payload.strip().lower() == HA_ONLINE.encode()):
            with self._cond:
                self._discovery_dirty = True
                self._cond.notify_all()
