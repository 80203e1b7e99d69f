"""Players' names as bitmaps on ``seat/<n>/name``: rendered by the table, published retained
only when they change (and again after a reconnect), read by the seat displays."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from table_app.mqtt.bridge import MqttBridge
from table_app.mqtt.names import SIZES, NameBitmaps, _font_path, name_payload, render_name
from table_app.mqtt.topics import Topics, parse_url
from tests.support.mqtt import (  # noqa: F401  (the fixtures are used by name)
    HAND,
    WAIT,
    Watcher,
    broker_fixture,
    play,
    service_fixture,
    watchers_fixture,
)

FONT = _font_path()
pytestmark = pytest.mark.skipif(FONT is None, reason="no CJK font (fonts-noto-cjk)")


def ink(width: int, rows: bytes, height: int) -> int:
    stride = (width + 7) // 8
    assert len(rows) == stride * height
    return sum(bin(b).count("1") for b in rows)


@pytest.mark.parametrize(("height", "widest"), SIZES)
def test_any_script_renders_within_the_screen(height: int, widest: int) -> None:
    assert FONT is not None
    for name in ("Cy", "王小明", "Ζωή", "😀x"):
        width, rows = render_name(name, height, widest, FONT)
        assert 0 < width <= widest and ink(width, rows, height) > 0, name
    width, rows = render_name("长" * 40, height, widest, FONT)
    assert width <= widest
    assert render_name("", height, widest, FONT) == (0, b"")


def test_a_long_name_is_cut_with_an_ellipsis() -> None:
    assert FONT is not None
    name = "Bartholomew"
    full_w, _ = render_name(name, 16, 1000, FONT)
    cut = render_name(name, 16, 60, FONT)
    assert full_w > 60 >= cut[0]
    # what is shown is the longest beginning of the name that fits with "…" after it
    fits = [k for k in range(len(name)) if render_name(name[:k] + "…", 16, 1000, FONT)[0] <= 60]
    assert cut == render_name(name[:max(fits)] + "…", 16, 1000, FONT)


def test_the_payload_decodes_to_the_bitmaps() -> None:
    payload = json.loads(name_payload(1, "Bo", FONT))
    assert (payload["schema"], payload["seat"], payload["name"]) == (1, 1, "Bo")
    assert [b["h"] for b in payload["bitmaps"]] == [h for h, _ in SIZES]
    for bm in payload["bitmaps"]:
        assert FONT is not None
        assert (bm["w"], base64.b64decode(bm["bits"])) == render_name("Bo", bm["h"], dict(SIZES)[bm["h"]], FONT)
    assert json.loads(name_payload(1, "Bo", None))["bitmaps"] == []  # no font: no bitmaps, never a crash


def test_only_changed_names_are_sent_until_the_next_connection() -> None:
    t = Topics("xian", "n")
    names = NameBitmaps()
    first = names.changed(t, {"players": ["Ann", "Bo", "Cy", "Di"]})
    assert [m.topic for m in first] == [t.seat_name(s) for s in range(4)] and all(m.retain for m in first)
    assert names.changed(t, {"players": ["Ann", "Bo", "Cy", "Di"]}) == []
    again = names.changed(t, {"players": ["Ann", "Bob", "Cy", "Di"]})
    assert [m.topic for m in again] == [t.seat_name(1)]
    names.forget()
    assert len(names.changed(t, {"players": ["Ann", "Bob", "Cy", "Di"]})) == 4


def test_the_bridge_publishes_names_once_and_again_after_the_broker_restarts(broker, service, watchers,
                                                                             tmp_path: Path) -> None:
    topics = Topics("xian", "names")
    bridge = MqttBridge(service, parse_url(broker.url("service")), topics).start()
    try:
        w: Watcher = watchers(broker.url("display"), "xian/names/#")
        w.wait_subscribed()

        def names() -> int:
            return sum(t.endswith("/name") for t, _, _ in w.messages)

        # the empty names of the state before the session first (a bridge that connects late,
        # on a busy machine, would otherwise publish the players' names only)
        assert w.wait(lambda: names() >= 4)
        play(service, HAND[:9])
        assert bridge.wait_idle(WAIT)
        assert w.wait_json(topics.seat_name(2), lambda p: p["name"] == "Cy")["bitmaps"]
        assert w.wait(lambda: names() >= 8)  # (seat 3's may still be on its way when seat 2's has arrived)
        names_seen = [t for t, _, _ in w.messages if t.endswith("/name")]
        assert w.wait(lambda: topics.seat(3) in w.latest)
        # the empty names of the state before the session, then the four players', once each
        assert sorted(names_seen) == sorted([topics.seat_name(s) for s in range(4)] * 2)
        play(service, HAND[9:12])
        assert bridge.wait_idle(WAIT)
        assert [t for t, _, _ in w.messages if t.endswith("/name")] == names_seen  # unchanged: not sent again
        broker.stop()
        broker.start()  # no persistence: the retained names are gone until the table sends them again
        late: Watcher = watchers(broker.url("display"), topics.seat_name(0))
        assert late.wait_json(topics.seat_name(0), lambda p: p["name"] == "Ann")["bitmaps"]
    finally:
        bridge.stop()
