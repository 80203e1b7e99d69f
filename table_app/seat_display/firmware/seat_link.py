# Wi-Fi and the broker: join, connect, subscribe, notice a dead link, reconnect by itself.
#
# umqtt.simple does the MQTT; this keeps it alive. A step never blocks longer than one
# connection attempt (CONNECT_TIMEOUT_S), so the screen can say what is wrong while it
# retries: "wifi" (no network), "broker" (no answer from the broker), else "up".
# umqtt.simple hides PINGRESP, so the socket is wrapped to count what arrives: nothing for
# DEAD_MS despite pings means the link is gone even if no error says so.
from seat_time import ticks_add, ticks_diff

WIFI_RETRY_MS = 10000
MIN_BACKOFF_MS = 500
MAX_BACKOFF_MS = 8000
CONNECT_TIMEOUT_S = 5
READ_TIMEOUT_S = 5  # a message that stops half-way
KEEPALIVE_S = 30
PING_MS = 10000
DEAD_MS = 25000
MAX_MESSAGES_PER_STEP = 8


class Counted:
    """The broker socket, counting the bytes that arrive; blocking reads get a timeout."""

    def __init__(self, sock):
        self.sock = sock
        self.received = 0

    def read(self, n):
        data = self.sock.read(n)
        if data:
            self.received += len(data)
        return data

    def write(self, buf, n=None):
        return self.sock.write(buf) if n is None else self.sock.write(buf, n)

    def setblocking(self, flag):
        if flag:
            self.sock.settimeout(READ_TIMEOUT_S)
        else:
            self.sock.setblocking(False)

    def settimeout(self, t):
        self.sock.settimeout(t)

    def close(self):
        self.sock.close()


class Link:
    """``step(now)`` returns "up", "wifi" or "broker"; messages go to ``on_message(topic, msg)``."""

    def __init__(self, wlan, ssid, password, make_client, topics, on_message, now):
        self.wlan = wlan
        self.ssid = ssid
        self.password = password
        self.make_client = make_client
        self.topics = topics
        self.on_message = on_message
        self.client = None
        self.next_wifi = now
        self.next_try = now
        self.backoff = MIN_BACKOFF_MS
        self.pinged = now
        self.heard = now
        self.seen = 0
        self.connects = 0
        self.failures = 0
        self.last_error = None

    def step(self, now):
        if not self.wlan.isconnected():
            self.drop()
            if ticks_diff(now, self.next_wifi) >= 0:
                self.next_wifi = ticks_add(now, WIFI_RETRY_MS)
                try:
                    self.wlan.connect(self.ssid, self.password)
                except OSError as e:
                    self.last_error = repr(e)
            return "wifi"
        if self.client is None:
            if ticks_diff(now, self.next_try) < 0:
                return "broker"
            return "up" if self._connect(now) else "broker"
        try:
            for _ in range(MAX_MESSAGES_PER_STEP):
                if self.client.check_msg() is None:
                    break
            sock = self.client.sock
            if sock.received != self.seen:
                self.seen = sock.received
                self.heard = now
            if ticks_diff(now, self.heard) >= DEAD_MS:
                raise OSError("the broker went silent")
            if ticks_diff(now, self.pinged) >= PING_MS:
                self.client.ping()
                self.pinged = now
        except Exception as e:  # umqtt raises OSError, MQTTException, IndexError, AssertionError
            self._failed(now, e)
            return "broker"
        return "up"

    def _connect(self, now):
        client = self.make_client()
        client.set_callback(self.on_message)
        try:
            client.connect(True, CONNECT_TIMEOUT_S)
            client.sock = Counted(client.sock)
            self.client = client  # before subscribing: retained messages arrive with the SUBACKs
            for topic in self.topics:
                client.subscribe(topic)
        except Exception as e:
            self.client = client
            self._failed(now, e)
            return False
        self.connects += 1
        self.backoff = MIN_BACKOFF_MS
        self.pinged = self.heard = now
        self.seen = client.sock.received
        return True

    def _failed(self, now, e):
        self.last_error = repr(e)
        self.failures += 1
        self.drop()
        self.next_try = ticks_add(now, self.backoff)
        self.backoff = min(self.backoff * 2, MAX_BACKOFF_MS)

    def drop(self):
        if self.client is not None:
            try:  # noqa: SIM105 - MicroPython has no contextlib
                self.client.sock.close()
            except Exception:  # already closed or never opened
                pass
            self.client = None
