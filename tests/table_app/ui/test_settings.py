"""The settings screen speaks the screen's language: every setting by a name a player reads
(no config keys), a refused value whole in the screen's language, a claim window of 0 said to
be no limit, and the money a point is worth set, saved and shown."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.table_app.ui.conftest import UI

pytestmark = pytest.mark.kivy

KEY = re.compile(r"\b[a-z]+\.[a-z_]+\b")  # a config key, mqtt.url or table.claim_window_s


def settings(ui: UI, tmp_path: Path, lang: str) -> Any:
    ui.app.config_path = tmp_path / "config.toml"
    ui.app.links["mqtt"] = "off · no broker set (mqtt.url or --mqtt): the table runs without MQTT"
    ui.app.lang = lang
    ui.app.goto("settings")
    ui.frames(2)
    return ui.screen


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_config_key_is_shown_and_a_bad_table_name_is_refused_in_words(ui: UI, tmp_path: Path, lang: str) -> None:
    s = settings(ui, tmp_path, lang)
    shown = [w.text for w in s.walk() if hasattr(w, "text") and isinstance(w.text, str)]
    assert not [t for t in shown if KEY.search(t.replace("journal.sqlite3", ""))], shown
    s.ids.table_id.text = "den table!"
    ui.tap(s.ids.save)
    note = s.ids.note
    want = {"zh": "牌桌名：只能用字母、数字、- 或 _（1 到 64 个），不能有空格",
            "en": "Table name: use 1–64 letters, digits, - or _ (no spaces)"}[lang]
    assert note.text == want and not ui.app.config_path.exists()
    note.texture_update()  # whole: no "…", and inside its label
    assert not note.shorten and note.texture_size[0] <= note.width and note.texture_size[1] <= note.height


def test_a_claim_window_of_0_says_no_limit_and_what_that_means(ui: UI, tmp_path: Path) -> None:
    s = settings(ui, tmp_path, "zh")
    while ui.service.claim_window_s > 0:
        ui.tap(ui.find("claim_down"))
    assert s.ids.claim.text == "不限时"
    assert s.ids.note.text == "0 秒 = 不限时：等每家都表态（吃碰杠胡或过）才继续。"
    ui.tap(ui.find("claim_up"))
    assert s.ids.claim.text == "1 秒" and s.ids.note.text == ""


def test_money_per_point_is_set_saved_and_shown_beside_the_points(ui: UI, tmp_path: Path) -> None:
    from table_app.config.file import load_config

    s = settings(ui, tmp_path, "en")
    assert s.ids.money.text == "points only"
    for _ in range(3):
        ui.tap(ui.find("money_up"))
    assert s.ids.money.text == "0.5\xa0yuan" and ui.app.money_per_point == "0.5"
    ui.tap(s.ids.save)
    assert load_config(ui.app.config_path).money_per_point == "0.5"
    for ev in ({"type": "new_session", "players": ["Ann", "Bo", "Cy", "Di"], "base": 1},
               {"type": "seating", "method": "C", "east": 0},
               {"type": "score_hand", "winner": 2, "how": "self_drawn"}, {"type": "end_session"}):
        assert ui.service.call(ev, source="test").ok
    ui.settled()
    assert ui.screen.name == "final"
    assert ui.screen.ids.settle_head.text == "Settle up (fewest payments)\n0.5 yuan a point"
    settle = ui.screen.ids.settle.text.replace("\xa0", " ")  # (no-break spaces keep an amount whole)
    assert settle.split("\n") == ["Ann pays Cy 2 (1 yuan)", "Bo pays Cy 2 (1 yuan)", "Di pays Cy 2 (1 yuan)"]
