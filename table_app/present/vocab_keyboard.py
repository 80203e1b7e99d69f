"""The words of the touchscreen's name keyboard, zh and en (data only: gathered by
:mod:`table_app.present.words`)."""

from __future__ import annotations

from typing import Final

KEYBOARD: Final[dict[str, tuple[str, str]]] = {
    "kb_title": ("输入名字", "Type a name"),
    "kb_hint_zh": ("打拼音，点上面的字", "Type pinyin, tap a character above"),
    "kb_hint_en": ("打字母", "Type the letters"),
    "kb_zh": ("中", "中"),
    "kb_en": ("EN", "EN"),
    "kb_space": ("空格", "space"),
    "kb_shift": ("⇧", "⇧"),
    "kb_back": ("⇦", "⇦"),  # (⌫ is not in the CJK font)
    "kb_more": ("▶", "▶"),
    "kb_less": ("◀", "◀"),
    # refusals
    "kb_empty": ("名字不能是空的", "A name cannot be empty"),
    "kb_bad": ("名字里有不能用的字符", "The name has a character that cannot be used"),
    "kb_too_long": ("名字最多 8 个汉字或 12 个字母", "A name has at most 8 Chinese characters or 12 letters"),
    "kb_pick_first": ("先给“{typed}”选字（空格选第一个）",
                      "Pick a character for “{typed}” first (space takes the first)"),
}
