"""The touchscreen's name keyboard (ui/name_keyboard.py) under Xvfb: a name typed by taps,
pinyin to 汉字 and Latin letters, cancel, refusals in the screen's language, and every key a
touch target inside the window at 800×480 and 1280×720."""

from __future__ import annotations

from typing import Any

import pytest

from table_app.ui.name_keyboard import NameKeyboard
from tests.table_app.ui.conftest import UI

pytestmark = pytest.mark.kivy


def keyboard(ui: UI, lang: str, initial: str = "") -> tuple[Any, list[str]]:
    got: list[str] = []
    kb = NameKeyboard(lang, on_done=got.append, initial=initial).open()
    ui.frames(3)
    assert ui.modal() is kb
    return kb, got


def type_letters(ui: UI, kb: Any, letters: str) -> None:
    for k in letters:
        ui.tap(ui.find(f"key_{k}", root=kb))


def tap_candidate(ui: UI, kb: Any, text: str) -> None:
    shown = [w for w in kb.bar.children if w.text == text]
    assert shown, f"{text!r} is not on the candidate bar: {[w.text for w in reversed(kb.bar.children)]}"
    ui.tap(shown[0])


def test_a_chinese_name_by_taps(ui: UI) -> None:
    kb, got = keyboard(ui, "zh")
    type_letters(ui, kb, "ouyang")
    assert kb.composing.text == "ouyang"
    assert kb.bar.children[-1].text == "欧阳"  # (Kivy keeps a box's children last first)
    tap_candidate(ui, kb, "欧阳")
    type_letters(ui, kb, "zhuge")
    tap_candidate(ui, kb, "诸葛")
    assert kb.shown.text.startswith("欧阳诸葛") and kb.composing.text == ""
    ui.tap(ui.find("ok", root=kb))
    assert got == ["欧阳诸葛"]
    assert kb.get_parent_window() is None  # closed


def test_cancel_gives_nothing(ui: UI) -> None:
    kb, got = keyboard(ui, "zh", initial="阿明")
    type_letters(ui, kb, "hua")
    ui.tap(ui.find("cancel", root=kb))
    assert got == [] and kb.get_parent_window() is None


def test_the_next_name_starts_afresh_on_the_same_keys(ui: UI) -> None:
    from kivy.core.window import Window

    first, got = keyboard(ui, "zh")
    type_letters(ui, first, "li")
    tap_candidate(ui, first, "李")
    ui.tap(ui.find("ok", root=first))
    again, got_again = keyboard(ui, "zh")
    assert again is first  # (the widgets are kept)
    assert (again.entry.name, again.composing.text, again.hint.text) == ("", "", "打拼音，点上面的字")
    type_letters(ui, again, "wang")
    tap_candidate(ui, again, "王")
    Window.dispatch("on_key_down", 0, 0, "x", [])  # a real keyboard's letter reaches the open keyboard
    assert again.composing.text == "x"
    ui.tap(ui.find("backspace", root=again))
    ui.tap(ui.find("ok", root=again))
    assert (got, got_again) == (["李"], ["王"])
    other, _ = keyboard(ui, "en")
    assert other is not first  # another language: its own words
    other.dismiss()


def test_a_latin_name_and_paging(ui: UI) -> None:
    kb, got = keyboard(ui, "en")
    assert kb.entry.mode == "en" and kb.mode.text == "中"
    type_letters(ui, kb, "max")
    assert kb.shown.text.startswith("Max")  # (a name's first letter a capital by itself)
    ui.tap(ui.find("mode", root=kb))  # 中: a 汉字 after it, from pages further on
    type_letters(ui, kb, "x")
    first = [w.text for w in kb.bar.children]
    ui.tap(ui.find("more", root=kb))
    assert [w.text for w in kb.bar.children] != first and not kb.less.disabled
    ui.tap(ui.find("less", root=kb))
    assert [w.text for w in kb.bar.children] == first
    ui.tap(ui.find("space", root=kb))  # the first candidate
    ui.tap(ui.find("ok", root=kb))
    assert got == ["Max" + first[-1]]


def test_refusals_in_the_screens_language(ui: UI) -> None:
    kb, got = keyboard(ui, "zh")
    ui.tap(ui.find("ok", root=kb))
    assert kb.hint.text == "名字不能是空的" and got == []
    type_letters(ui, kb, "li")
    ui.tap(ui.find("ok", root=kb))
    assert kb.hint.text == "先给“li”选字（空格选第一个）" and got == []
    ui.tap(ui.find("backspace", root=kb))
    ui.tap(ui.find("backspace", root=kb))
    kb.dismiss()
    kb, got = keyboard(ui, "en", initial="欧阳诸葛司马东方")
    type_letters(ui, kb, "a")
    ui.tap(ui.find("ok", root=kb))
    assert kb.hint.text == "A name has at most 8 Chinese characters or 12 letters" and got == []
    ui.tap(ui.find("backspace", root=kb))
    ui.tap(ui.find("ok", root=kb))
    assert got == ["欧阳诸葛司马东方"]


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_every_key_is_a_touch_target_on_the_screen(ui: UI, size: tuple[int, int]) -> None:
    from kivy.core.window import Window

    Window.size = size
    ui.frames(3)
    kb, _ = keyboard(ui, "zh")
    type_letters(ui, kb, "zh")
    mm = ui.app.mm
    buttons = [w for w in kb.walk() if getattr(w, "action", "") and w.opacity > 0]
    assert len(buttons) >= 26 + 9
    w, h = Window.size
    for b in buttons:
        x, y = b.to_window(b.x, b.y)
        assert b.height >= 9 * mm and b.width >= 9 * mm, (b.action, b.text, b.size, mm)
        assert x >= 0 and x + b.width <= w + 0.5 and y >= 0 and y + b.height <= h + 0.5, (b.action, b.pos, b.size)
    kb.dismiss()
