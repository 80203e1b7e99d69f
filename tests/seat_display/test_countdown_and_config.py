"""The claim countdown and the configuration file: the firmware's own modules under CPython."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


def test_the_countdown_runs_from_when_can_claim_turned_true(fw) -> None:
    c = fw.countdown.ClaimCountdown(3)
    c.update({"can_claim": False}, 1000)
    assert c.left_ms(1000) is None
    c.update({"can_claim": True}, 2000)
    assert [c.left_ms(t) for t in (2000, 3200, 4999, 5000, 9000)] == [3000, 1800, 1, 0, 0]
    c.update({"can_claim": True, "seq": 12}, 2500)  # another seat passed: the same window goes on
    assert c.left_ms(3200) == 1800
    c.update({"can_claim": False}, 3300)
    assert c.left_ms(3300) is None
    c.update({"can_claim": True}, 10_000)  # the next discard: a new window
    assert c.left_ms(10_000) == 3000


def test_the_tables_claim_left_wins_over_the_default(fw) -> None:
    c = fw.countdown.ClaimCountdown(3)
    c.update({"can_claim": True, fw.countdown.FIELD: 5}, 0)
    assert c.left_ms(1000) == 4000 and c.window_ms == 5000
    c.update({"can_claim": True, "claim_left": 1.5}, 2000)  # each view restarts the count from the table's figure
    assert c.left_ms(2000) == 1500 and c.window_ms == 5000


def test_the_countdown_survives_the_tick_counter_wrapping(fw) -> None:
    c = fw.countdown.ClaimCountdown(3)
    near_wrap = (1 << 30) - 1000
    c.update({"can_claim": True}, near_wrap)
    assert c.left_ms(fw.countdown.ticks_add(near_wrap, 2000)) == 1000


def test_the_config_file_fills_defaults_and_names_what_is_wrong(fw, tmp_path: Path) -> None:
    path = tmp_path / "seat_config.json"
    path.write_text(json.dumps({"wifi_ssid": "home", "host": "pi.local", "seat": 1}))
    cfg = fw.config.load(str(path))
    assert (cfg["port"], cfg["display"], cfg["pins"]["sda"], cfg["claim_window_s"]) == (1883, "ssd1306", 4, 3)
    path.write_text(json.dumps({"wifi_ssid": "home", "host": "pi", "display": "st7789", "pins": {"dc": 8}}))
    assert fw.config.load(str(path))["pins"] == {**fw.config.PINS["st7789"], "dc": 8}
    for bad, words in [({"wifi_ssid": "h", "host": "pi", "seat": 4}, "seat must be 0-3, got 4"),
                       ({"wifi_ssid": "h", "host": "pi", "colour": 1}, "unknown key 'colour'"),
                       ({"wifi_ssid": "h", "host": "pi", "display": "lcd"}, "display must be"),
                       ({"host": "pi"}, "wifi_ssid and host are required")]:
        with pytest.raises(ValueError, match=words):
            fw.config.check(bad)
