"""The table page says what an undo took back (issue 27: "a notice on every screen of what was
undone"), in its language, until the next step — in headless Chromium against real pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.chromium import phone_table

pytestmark = pytest.mark.browser

START = [
    {"type": "new_session", "players": ["阿明", "阿华", "阿强", "阿芳"], "base": 1},
    {"type": "seating", "method": "C", "east": 0},
    {"type": "roll", "dice": [4, 6]}, {"type": "roll", "dice": [2, 3]},
    {"type": "discard", "seat": 0},
]


@pytest.mark.slow
def test_the_table_page_says_what_an_undo_took_back(tmp_path: Path) -> None:
    with phone_table(tmp_path, "t-undone") as (_journal, service, pages, browser):
        for ev in START:
            assert service.call(ev, "touch", timeout=10).ok
        zh = browser.page(f"http://127.0.0.1:{pages.port}/table", width=800, height=480)
        en = browser.page(f"http://127.0.0.1:{pages.port}/table?lang=en", width=390, height=844)
        for page in (zh, en):
            page.wait(f"document.body.dataset.seq === '{service.seq}'", "the table now")
            assert page.js("getComputedStyle(document.getElementById('undone')).display") == "none"  # nothing undone
        assert service.call({"type": "undo"}, "touch", timeout=10).ok  # (from any input: the touchscreen here)
        zh.wait("document.getElementById('undone').textContent === '撤销了：阿明 出牌（在触摸屏上）'",
                "what was undone (zh)")
        en.wait("document.getElementById('undone').textContent === 'Undone: 阿明 discards (on the touchscreen)'",
                "what was undone (en)")
        assert zh.js("getComputedStyle(document.getElementById('undone')).display") != "none"
        assert service.call({"type": "discard", "seat": 0}, "touch", timeout=10).ok  # the next step: it goes
        for page in (zh, en):
            page.wait("document.getElementById('undone').textContent === ''", "the notice gone after the next step")
