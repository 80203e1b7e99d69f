"""The display's link against the real mosquitto: Wi-Fi lost and back, a broker that goes
silent without closing the connection, the table's own will, and messages that do not parse."""

from __future__ import annotations

import socket
import threading

from table_app.mqtt.bridge import MqttBridge
from table_app.mqtt.topics import Topics, parse_url
from tests.seat_display.test_firmware_seat import Display, showing, table_fixture, until  # noqa: F401
from tests.support.mqtt import (  # noqa: F401  (the fixtures are used by name)
    HAND,
    WAIT,
    Watcher,
    broker_fixture,
    play,
    service_fixture,
)


class Stall:
    """A TCP forwarder to the broker that can go quiet: while ``quiet``, bytes either way are
    swallowed and the connection stays open, as when the Pi loses power behind a Wi-Fi router."""

    def __init__(self, upstream: int) -> None:
        self.quiet = False
        self.upstream_port = upstream
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.socks: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                down, _ = self.server.accept()
            except OSError:
                return
            up = socket.create_connection(("127.0.0.1", self.upstream_port))
            self.socks += [down, up]
            for a, b in ((down, up), (up, down)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                if not self.quiet:
                    b.sendall(data)
        except OSError:
            pass

    def close(self) -> None:
        self.server.close()
        for s in self.socks:
            s.close()


def test_wifi_lost_and_back(fw, broker, service, table) -> None:
    play(service, HAND[:9])
    d = Display(fw, broker, "den", "ssd1306")
    try:
        until([d], showing([d], service.seq))
        wlan = d.app.link.wlan
        fw.network.WLAN.up = False
        d.step(100)
        assert d.app.state.link == "wifi" and fw.screen.status_of(d.app.state)[:2] == ("无网络", "NO WI-FI")
        assert d.app.link.client is None and wlan.connects == 1  # asked to join again at once ...
        d.step(5000)
        assert wlan.connects == 1  # ... and then every 10 s, not on every step
        d.step(5000)
        assert wlan.connects == 2
        fw.network.WLAN.up = True
        until([d], showing([d], service.seq), advance=100)
        assert d.app.link.connects == 2
    finally:
        fw.network.WLAN.up = True
        d.close()


def test_a_silent_broker_is_noticed_and_left(fw, broker, service, table) -> None:
    play(service, HAND[:9])
    stall = Stall(broker.port)
    d = Display(fw, broker, "den", "ssd1306")
    d.app.link.make_client = fw.app.client_factory({**d.cfg, "port": stall.port}, fw.MQTTClient)
    try:
        until([d], showing([d], service.seq))
        stall.quiet = True
        for _ in range(fw.link.DEAD_MS // 1000 + 1):  # pings go out, nothing comes back
            d.step(1000)
            if d.app.state.link != "up":
                break
        assert d.app.state.link == "broker" and "silent" in d.app.link.last_error
        stall.quiet = False
        until([d], showing([d], service.seq), advance=100)
        assert d.app.link.connects == 2
    finally:
        d.close()
        stall.close()


def test_the_tables_will_shows_as_table_offline(fw, broker, service) -> None:
    bridge = MqttBridge(service, parse_url(broker.url("service")), Topics("xian", "will")).start()
    play(service, HAND[:9])
    d = Display(fw, broker, "will", "st7789")
    try:
        until([d], showing([d], service.seq))
        bridge.stop()  # the table says "offline" (its will says the same if it dies)
        until([d], lambda: d.app.state.table_online is False and not d.app.dirty)
        assert fw.screen.status_of(d.app.state)[:2] == ("桌子离线", "TABLE OFF") and d.app.state.link == "up"
    finally:
        d.close()


def test_a_message_that_does_not_parse_changes_nothing(fw, broker, service, table) -> None:
    play(service, HAND[:9])
    d = Display(fw, broker, "den", "ssd1306")
    try:
        until([d], showing([d], service.seq))
        frames = d.app.frames
        d.app.on_message(d.app.view_topic, b"{not json")
        d.app.on_message(d.app.name_topic, b'{"bitmaps": [{"h": 16, "w": 200, "bits": "AAAA"}]}')  # too short
        d.step()
        assert d.app.bad_messages == 2 and d.app.frames == frames and d.app.state.view["name"] == "Cy"
    finally:
        d.close()
