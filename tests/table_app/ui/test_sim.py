"""Simulated buttons (keys) and the CJK font search, without Kivy."""

from __future__ import annotations

from pathlib import Path

import pytest

from table_app.present.fonts import find_cjk_font
from table_app.ui.sim import KEYS

pytestmark = pytest.mark.kivy

START = [
    {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
    {"type": "seating", "method": "C", "east": 0},
]


def test_every_seat_has_five_keys_and_the_dice_have_space() -> None:
    assert sorted(s for s, _ in KEYS.values() if s is not None) == sorted([0, 1, 2, 3] * 5)
    assert KEYS["1"] == (0, "TURN") and KEYS["b"] == (3, "HU")


def test_the_font_is_found_or_named(tmp_path: Path) -> None:
    font = tmp_path / "my.ttf"
    font.write_bytes(b"\0")
    assert find_cjk_font({"XIAN_TABLE_FONT": str(font)}) == str(font)
    assert find_cjk_font({"XIAN_TABLE_FONT": str(tmp_path / "missing.ttf")}) is None
    assert find_cjk_font({}, known=(str(font),)) == str(font)
    found = find_cjk_font({})  # this machine has fonts-noto-cjk (scripts/setup.sh installs it)
    assert found is not None and Path(found).is_file()
