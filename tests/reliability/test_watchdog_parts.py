"""systemd's watchdog is fed only while every part that is switched on is alive (issue 16):
the service loop, the MQTT bridge, the panel's link — each beats from its own thread, and a
part that hangs stops the pings (systemd then restarts the unit)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from firmware_bridge.bridge import PanelBridge
from table_app.core.service import TableService
from table_app.journal.journal import Journal
from table_app.mqtt.bridge import MqttBridge
from table_app.mqtt.topics import Topics, parse_url
from table_app.system.sdnotify import Notifier, Watchdog
from tests.support.mqtt import broker_fixture  # noqa: F401  (the fixture is used by name)
from tests.table_app.system.test_sdnotify import FakeSystemd, systemd  # noqa: F401


def test_parts_join_and_leave_what_the_pings_wait_for() -> None:
    dog = Watchdog(Notifier(None), interval_s=None, sources=("service",))
    dog.beat("service")
    assert dog.ready_sent
    dog.watch("mqtt")
    assert dog.sources == {"service", "mqtt"}
    dog.unwatch("mqtt")
    dog.unwatch("service")  # the last source stays: a watchdog always watches something
    assert dog.sources == {"service"}


def test_a_hung_mqtt_bridge_stops_the_pings(tmp_path: Path, broker, systemd: FakeSystemd) -> None:  # noqa: F811
    dog = Watchdog(Notifier(systemd.env_value), interval_s=0.4, sources=("service",))
    journal = Journal.open(tmp_path / "j.sqlite3")
    service = TableService(journal, heartbeat=dog.heartbeat("service"), heartbeat_s=0.05).start()
    dog.watch("mqtt")
    bridge = MqttBridge(service, parse_url(broker.url("service")), Topics("xian", "dog"), ha_prefix=None,
                        heartbeat=dog.heartbeat("mqtt"))
    release = threading.Event()
    hang = threading.Event()

    def listener(state: str, detail: str) -> None:  # e.g. a screen's callback that hangs
        if hang.is_set() and state != "online":
            release.wait(30)

    bridge.add_listener(listener)
    try:
        bridge.start()
        assert bridge.wait_idle(10)
        systemd.wait_for("WATCHDOG=1")
        systemd.wait_for("WATCHDOG=1")  # both the service and the bridge beat
        hang.set()
        broker.stop()  # the link goes down: the listener hangs the bridge's threads
        time.sleep(0.6)  # (the last pings of before)
        systemd.drain()
        pings = dog.pings
        time.sleep(1.5)  # almost four watchdog intervals: systemd would restart the unit now
        assert dog.pings == pings and systemd.drain() == []
        release.set()
        systemd.wait_for("WATCHDOG=1")  # the bridge beats again: so do the pings
    finally:
        release.set()
        bridge.stop()
        service.stop()
        journal.close()


def test_the_panel_link_beats_even_with_no_panel_plugged_in(tmp_path: Path, systemd: FakeSystemd) -> None:  # noqa: F811
    dog = Watchdog(Notifier(systemd.env_value), interval_s=0.4, sources=("panel",))
    bridge = PanelBridge(str(tmp_path / "no-such-device"), lambda frame: None, heartbeat=dog.heartbeat("panel"),
                         retry_s=0.05)
    try:
        bridge.start()
        assert systemd.wait_for("READY=1")
        systemd.wait_for("WATCHDOG=1")
    finally:
        bridge.stop()
    systemd.drain()
    time.sleep(0.5)
    assert systemd.drain() == []  # the link's thread has stopped: no beats, no pings
