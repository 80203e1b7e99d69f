"""The seat display firmware under CPython against the real table and the real mosquitto:
the table's service and MQTT bridge publish, umqtt.simple (the copy flashed to the board)
subscribes as the display user, the real SSD1306 driver and our ST7789 driver write to
stand-in buses, and the frames they carried are compared with the golden frames."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from table_app.mqtt.bridge import MqttBridge
from table_app.mqtt.topics import Topics, parse_url
from tests.support.mqtt import (  # noqa: F401  (the fixtures are used by name)
    HAND,
    WAIT,
    broker_fixture,
    play,
    service_fixture,
)

SEAT = 2  # Cy, West


class Display:
    """One board: the firmware's app on stand-in pins, stepped with a clock the test moves."""

    def __init__(self, fw: Any, broker: Any, table: str, kind: str, seat: int = SEAT) -> None:
        self.fw = fw
        user = broker.users["display"]
        self.cfg = fw.config.check({
            "wifi_ssid": "den", "wifi_password": "pw", "host": "127.0.0.1", "port": broker.port, "user": user,
            "password": broker.passwords[user], "table": table, "seat": seat, "display": kind,
            "client_id": f"test-{kind}-{seat}"})
        self.now = 10_000
        self.app = fw.app.build(fw.machine, fw.network, self.cfg, fw.MQTTClient, self.now, fw.folder)
        self.driver = self.app.screen.driver

    def step(self, advance: int = 0) -> None:
        self.now += advance
        self.app.step(self.now)

    def frame(self) -> bytes:
        bus = self.driver.i2c if self.cfg["display"] == "ssd1306" else self.driver.spi
        return bytes(bus.frames[-1])

    def close(self) -> None:
        self.app.link.drop()


def until(displays: list[Display], pred: Any, advance: int = 0) -> None:
    """Step every display until ``pred()``; the clock stands still unless ``advance`` moves it
    (so no ping or timeout fires while the test waits on real sockets)."""
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        for d in displays:
            d.step(advance)
        if pred():
            return
        time.sleep(0.005)
    raise AssertionError(f"not reached within {WAIT} s: {[d.app.state.__dict__ for d in displays]}")


def showing(displays: list[Display], seq: int) -> Any:
    def ok() -> bool:
        return all(d.app.state.view is not None and d.app.state.view.get("seq") == seq and d.app.state.name
                   and d.app.state.table_online and d.app.state.link == "up" and not d.app.dirty
                   for d in displays)
    return ok


def check(displays: list[Display], screen: str, out: Path) -> None:
    from tests.seat_display.frames import check_golden, lcd_png, oled_png

    for d in displays:
        if d.cfg["display"] == "ssd1306":
            check_golden(oled_png(d.frame()), f"ssd1306-{screen}", out)
        else:
            check_golden(lcd_png(d.frame()), f"st7789-{screen}", out)
        assert d.app.screen.font.missing == 0, "a glyph the font lacks was drawn"


@pytest.fixture(name="table")
def table_fixture(broker: Any, service: Any) -> Any:
    bridge = MqttBridge(service, parse_url(broker.url("service")), Topics("xian", "den")).start()
    yield bridge
    bridge.stop()


def test_the_five_screens_from_the_real_table(fw, broker, service, table, tmp_path: Path) -> None:
    out = tmp_path / "frames"
    displays = [Display(fw, broker, "den", "ssd1306"), Display(fw, broker, "den", "st7789")]
    try:
        # idle: Bo (South) is to play; Cy waits
        play(service, HAND[:9])
        until(displays, showing(displays, service.seq))
        assert displays[0].app.state.view["name"] == "Cy" and displays[0].app.state.view["wind"] == "W"
        check(displays, "idle", out)

        # claim window: Bo discards; Cy may claim, 1.2 s of the 3 s window gone
        play(service, [{"type": "discard", "seat": 1}])
        until(displays, showing(displays, service.seq))
        assert all(d.app.state.claim_left_ms == 3000 for d in displays)
        for d in displays:
            d.step(1200)
        assert all(d.app.state.claim_left_ms == 1800 for d in displays)
        check(displays, "claim", out)

        # your turn: everyone passed, Cy draws and discards
        play(service, [{"type": "pass", "seat": s} for s in (2, 3, 0)])
        until(displays, showing(displays, service.seq))
        assert displays[0].app.state.view["your_turn"] and displays[0].app.state.claim_left_ms is None
        check(displays, "your-turn", out)

        # after a win: Cy wins on Di's discard
        play(service, [{"type": "discard", "seat": 2}, *[{"type": "pass", "seat": s} for s in (3, 0, 1)],
                       {"type": "discard", "seat": 3}, {"type": "claim", "seat": 2, "call": "win"},
                       {"type": "pass", "seat": 0}, {"type": "pass", "seat": 1},
                       {"type": "confirm_win", "wait": "plain"}])
        until(displays, showing(displays, service.seq))
        assert displays[0].app.state.view["winner"] == SEAT
        check(displays, "win", out)

        # offline: the broker goes away; the displays say so over the last view and keep trying
        broker.stop()
        until(displays, lambda: all(d.app.state.link == "broker" and not d.app.dirty for d in displays))
        check(displays, "offline", out)
        failures = [d.app.link.failures for d in displays]

        # ... and come back by themselves when it returns (the table republishes what it had)
        broker.start()
        until(displays, showing(displays, service.seq), advance=250)
        assert all(d.app.link.connects == 2 for d in displays)
        assert all(d.app.link.failures >= f for d, f in zip(displays, failures, strict=True))
        check(displays, "win", out)
    finally:
        for d in displays:
            d.close()
