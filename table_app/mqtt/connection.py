"""The MQTT bridge's connection: one thread owns it, connects (again, with backoff, while the
broker is away: the table plays on), publishes what the :class:`~table_app.mqtt.outbox.Outbox`
owes, and counts a message delivered only when paho's ``on_publish`` reports the broker's
acknowledgement. Messages in flight when a connection drops go back to the outbox (at least
once). Each connection is a fresh paho client (MQTT 5, clean start): nothing a lost connection
left in paho's own queue can be resent after the newer retained views.

paho's network thread calls :meth:`Connection._on_connect` and the other callbacks; commands on
``cmd`` go to the :class:`~table_app.mqtt.answers.CommandDesk`. Every shared field is guarded by
the bridge's one condition.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
from collections.abc import Callable

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode
from paho.mqtt.subscribeoptions import SubscribeOptions

from table_app.mqtt.answers import CommandDesk
from table_app.mqtt.link import link_state, network_alive, say_offline
from table_app.mqtt.messages import Outgoing, status_message
from table_app.mqtt.outbox import Outbox
from table_app.mqtt.roster_link import RosterLink
from table_app.mqtt.topics import HA_ONLINE, HA_STATUS, QOS, BrokerURL, Topics
from table_app.system.fault_log import FaultLog

log = logging.getLogger(__name__)

BEAT_S = 1.0  # the connection thread wakes at least this often (the watchdog's heartbeat)
CONNACK_TIMEOUT = 10.0  # seconds to wait for the broker to answer CONNECT


class Connection:
    """The connection thread's loop (:meth:`run`) and paho's callbacks, over the bridge's
    ``cond`` and ``outbox``. ``commands`` False leaves ``cmd`` unsubscribed; ``ha_prefix`` None
    leaves Home Assistant's status unheard."""

    def __init__(self, cond: threading.Condition, outbox: Outbox, desk: CommandDesk, roster: RosterLink,
                 faults: FaultLog, url: BrokerURL, topics: Topics, *, client_id: str, commands: bool,
                 ha_prefix: str | None, keepalive: int, min_backoff: float, max_backoff: float,
                 max_inflight: int, heartbeat: Callable[[], None] | None) -> None:
        self.cond, self.outbox, self.desk, self.roster, self.faults = cond, outbox, desk, roster, faults
        self.url, self.topics, self.client_id = url, topics, client_id
        self.commands, self.ha_prefix, self.keepalive = commands, ha_prefix, keepalive
        self.min_backoff, self.max_backoff, self.max_inflight = min_backoff, max_backoff, max_inflight
        self.heartbeat = heartbeat  # systemd's watchdog: beaten every BEAT_S at least (sdnotify.part_heartbeat)
        self.inflight: dict[int, Outgoing] = {}
        self._early: set[int] = set()  # acks that came before publish() returned their mid
        self.sending = 0  # taken from the outbox, not yet handed to paho
        self._client: mqtt.Client | None = None
        self.link = "down"  # down | connecting | up | lost | refused
        self.listeners: list[Callable[[str, str], None]] = []
        self.closing = False
        self.deadline = 0.0  # when closing: how long to keep sending what is queued
        self._down_logged = False
        self.delivered = 0  # counters, for tests, the benchmark and logs
        self.connects = 0
        self.delivered_seq: int | None = None  # the seq of the last state the broker acknowledged

    # -- the link's state ---------------------------------------------------------------------

    def link_state(self) -> tuple[str, str]:
        return link_state(self.link, self.url, self.topics)

    def _set_link(self, link: str) -> None:
        """(Under ``cond``.) The connection's state, told to the listeners when it shows differently."""
        before = self.link_state()
        self.link = link
        now = self.link_state()
        if now != before:
            for fn in list(self.listeners):
                try:
                    fn(*now)
                except Exception:
                    log.exception("mqtt link listener %r failed", fn)

    def idle(self) -> bool:
        """(Under ``cond``.) Connected with nothing queued or unacknowledged."""
        return self.link == "up" and not self.outbox.has_work() and not self.inflight and not self.sending

    # -- the connection thread ----------------------------------------------------------------

    def run(self) -> None:
        backoff = self.min_backoff
        while True:
            with self.cond:
                if self.closing:
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
            with self.cond:
                answered = self.cond.wait_for(lambda: self.link != "connecting" or self.closing, CONNACK_TIMEOUT)
                if not answered:
                    self._set_link("lost")
                    log.warning("mqtt: no answer from the broker at %s; trying again", self.url.redacted())
                up = self.link == "up"
            if up:
                backoff = self.min_backoff
                self._serve(client)
            with self.cond:
                closing = self.closing
            if closing and self.link == "up":
                say_offline(client, status_message(self.topics, online=False), self.deadline)
            with contextlib.suppress(Exception):
                client.disconnect()
            client.loop_stop()
            self._connection_ended()
            if closing:
                return
            if self.link == "refused":
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
        client.reconnect_delay_set(3600, 3600)  # reconnecting is this thread's job, with a fresh client
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        with self.cond:
            self._client = client
            self._set_link("connecting")
        return client

    def _sleep(self, seconds: float) -> bool:
        """Wait before the next attempt; True when the bridge is closing."""
        end = time.monotonic() + seconds
        while True:
            self._beat()
            with self.cond:
                left = end - time.monotonic()
                if self.closing or left <= 0:
                    return self.closing
                self.cond.wait_for(lambda: self.closing, min(left, BEAT_S))

    def _beat(self) -> None:
        if self.heartbeat is not None:
            self.heartbeat()

    def _link_down(self, why: str) -> None:
        with self.cond:
            self._set_link("down")
            self.cond.notify_all()
        if not self._down_logged:
            log.warning("mqtt: %s; the table plays on and publishes when the broker is back", why)
            self._down_logged = True

    def _connection_ended(self) -> None:
        """What the broker did not acknowledge goes back to the outbox."""
        with self.cond:
            self.outbox.again(self.inflight.values())
            self.inflight.clear()
            self._early.clear()
            if self.link != "refused":
                self._set_link("down")
            self._client = None
            self.cond.notify_all()

    def _serve(self, client: mqtt.Client) -> None:
        """Publish while the connection lasts (and, when closing, until all is acknowledged)."""
        journal = self.outbox.journal
        while True:
            self._beat()
            roster = self.roster.take(self.connects)  # (xian/T/roster when due: reads the roster, not under the lock)
            if self.outbox.table_dirty:  # the change's one view, built outside the lock (a new session's reads the
                self.outbox.views.context()  # journal): the outbox's ask under the lock then finds it built
            with self.cond:
                if not self._wait_for_work(client):
                    return
                batch = self.outbox.take(self.max_inflight - len(self.inflight)) + ([roster] if roster else [])
                self.sending = len(batch)
                room = self.max_inflight - len(self.inflight) - len(batch)
            if journal is not None:  # (it reads the journal: outside the lock the service's notices take)
                batch += (more := journal.take(room))
                with self.cond:
                    self.sending += len(more)
                    journal.taken()
            for msg in batch:
                self._publish(client, msg)

    def _wait_for_work(self, client: mqtt.Client) -> bool:
        """(Under ``cond``.) Wait until something is owed and there is room in flight; False when
        the connection is over (lost, or closing with all sent or out of time)."""
        while True:
            if self.link == "up" and not network_alive(client):
                # paho's network thread died (whatever killed it): a fresh connection
                log.error("mqtt: the network thread stopped; connecting again")
                self._set_link("lost")
            if self.link != "up":
                return False
            if self.closing and (time.monotonic() >= self.deadline or not (self.outbox.has_work() or self.inflight)):
                return False
            work = self.outbox.has_work() or self.roster.owed(self.connects)
            if work and len(self.inflight) < self.max_inflight:
                return True
            self.cond.wait(0.5 if self.closing else BEAT_S)
            self._beat()

    def _publish(self, client: mqtt.Client, msg: Outgoing) -> None:
        try:
            props = None
            if msg.correlation is not None:
                props = Properties(PacketTypes.PUBLISH)  # type: ignore[no-untyped-call]
                props.CorrelationData = msg.correlation
            info = client.publish(msg.topic, msg.payload, qos=msg.qos, retain=msg.retain, properties=props)
        except Exception as e:  # paho raises on a payload it cannot send; never kill the thread
            self.faults.log(log, f"mqtt publish to {msg.topic}", e)
            with self.cond:
                self.sending -= 1
                self.cond.notify_all()
            return
        if info.rc != mqtt.MQTT_ERR_SUCCESS and info.rc != mqtt.MQTT_ERR_NO_CONN:
            log.warning("mqtt: publish to %s failed: %s", msg.topic, mqtt.error_string(info.rc))
        with self.cond:
            self.sending -= 1
            if info.mid in self._early:
                self._early.discard(info.mid)
                self._delivered(msg)
            else:
                self.inflight[info.mid] = msg

    def _delivered(self, msg: Outgoing) -> None:
        self.delivered += 1
        if msg.topic == self.topics.state:
            self.delivered_seq = msg.seq
        self.cond.notify_all()

    # -- paho callbacks (paho's network thread) ------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: mqtt.ConnectFlags, reason_code: ReasonCode,
                    properties: Properties | None) -> None:
        if client is not self._client:
            return
        if reason_code.is_failure:
            log.error("mqtt: the broker at %s refused the connection: %s", self.url.redacted(), reason_code)
            with self.cond:
                self._set_link("refused")
                self.cond.notify_all()
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
        with self.cond:
            self.connects += 1
            self._set_link("up")
            self.outbox.connected()
            self.cond.notify_all()

    def _on_disconnect(self, client: mqtt.Client, userdata: object, flags: mqtt.DisconnectFlags,
                       reason_code: ReasonCode, properties: Properties | None) -> None:
        if client is not self._client:
            return
        with self.cond:
            if self.link == "up" and not self.closing:
                log.warning("mqtt: lost the broker (%s); reconnecting", reason_code)
            if self.link != "refused":
                self._set_link("lost")
            self.cond.notify_all()

    def _on_publish(self, client: mqtt.Client, userdata: object, mid: int, reason_code: ReasonCode,
                    properties: Properties) -> None:
        if client is not self._client:
            return
        with self.cond:
            msg = self.inflight.pop(mid, None)
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
            self.faults.log(log, "mqtt message", e)
            if topic == self.topics.cmd:  # nothing was queued for it (CommandDesk.take): answer here
                with self.cond:
                    self.outbox.answers.put(self.desk.internal_error(None, None, e), admitted=False)
                    self.cond.notify_all()

    def _on_message_unguarded(self, message: mqtt.MQTTMessage) -> None:
        if message.topic == self.topics.cmd:
            if message.retain:  # a retained command is stale by definition: never apply it again
                log.warning("mqtt: ignored a retained command on %s (publish commands without retain)", message.topic)
                return
            self.desk.take(bytes(message.payload), message.properties)
        elif (self.ha_prefix is not None and message.topic == f"{self.ha_prefix}/{HA_STATUS}"
              and message.payload.strip().lower() == HA_ONLINE.encode()):
            with self.cond:
                self.outbox.discovery_dirty = True
                self.cond.notify_all()
