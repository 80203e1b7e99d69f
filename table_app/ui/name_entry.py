"""Typing a name on the touchscreen: the one function the screens call (:func:`ask_name`).

The name keyboard (``table_app/ui/name_keyboard.py``, issue 28 item 2: pinyin with 汉字 to
tap, Latin letters too), so a table without phones can enter 欧阳诸葛; another keyboard would
take its place here alone.
"""

from __future__ import annotations

from collections.abc import Callable

from table_app.ui.name_keyboard import NameKeyboard


def ask_name(lang: str, on_done: Callable[[str], None], initial: str = "") -> None:
    """Ask for a name; ``on_done(name)`` with the name after 确定 OK (checked as the engine
    checks names), nothing after 取消 Cancel."""
    NameKeyboard(lang, on_done, initial=initial).open()
