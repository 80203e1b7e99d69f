"""Simulated buttons (keys) and the CJK font search, without Kivy."""

from __future__ import annotations

import random
from pathlib import Path

from engine import replay
from table_app.ui.fonts import find_cjk_font
from table_app.ui.sim import KEYS, broker_answers, press_command

START = [
    {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
    {"type": "seating", "method": "C", "east": 0},
]


def test_every_seat_has_five_keys_and_the_dice_have_space() -> None:
    assert sorted(s for s, _ in KEYS.values() if s is not None) == sorted([0, 1, 2, 3] * 5)
    assert KEYS["1"] == (0, "TURN") and KEYS["b"] == (3, "HU")


def test_presses_mean_what_the_phase_makes_them() -> None:
    p = replay(START).public()
    roll = press_command(p, None, "DICE", random.Random(3))
    assert roll is not None and roll["type"] == "roll" and roll["seat"] == 0
    assert press_command(p, 2, "TURN") is None  # not seat 2's roll
    p = replay([*START, {"type": "roll", "dice": [4, 6]}, {"type": "roll", "dice": [2, 3]}]).public()
    assert press_command(p, 0, "TURN") == {"type": "discard", "seat": 0}
    assert press_command(p, 0, "GANG") == {"type": "kong", "seat": 0, "kind": "concealed"}
    assert press_command(p, 0, "HU") == {"type": "win", "seat": 0}
    assert press_command(p, 0, "PENG") is None


def test_a_closed_port_is_offline() -> None:
    assert broker_answers("127.0.0.1", 9, timeout=0.2) is False


def test_the_font_is_found_or_named(tmp_path: Path) -> None:
    font = tmp_path / "my.ttf"
    font.write_bytes(b"\0")
    assert find_cjk_font({"XIAN_TABLE_FONT": str(font)}) == str(font)
    assert find_cjk_font({"XIAN_TABLE_FONT": str(tmp_path / "missing.ttf")}) is None
    assert find_cjk_font({}, known=(str(font),)) == str(font)
    found = find_cjk_font({})  # this machine has fonts-noto-cjk (scripts/setup.sh installs it)
    assert found is not None and Path(found).is_file()
