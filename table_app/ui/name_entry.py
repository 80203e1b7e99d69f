"""Typing a name on the touchscreen: the one function the screens call (:func:`ask_name`).

The pinyin name keyboard (``table_app/ui/name_keyboard.py``, issue 28 item 2: 汉字 from
pinyin, Latin letters too) takes this place when it lands: ``ask_name``'s body becomes
``NameKeyboard(lang, on_done, initial=initial).open()``. Until then a plain text field in a
dialog (Kivy's own keyboard, or the system's).
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.app import App
from kivy.uix.textinput import TextInput

from table_app.present.words import tr
from table_app.ui.dialogs import Dialog
from table_app.ui.widgets import BigButton


def ask_name(lang: str, on_done: Callable[[str], None], initial: str = "", title: str = "") -> None:
    """Ask for a name; ``on_done(name)`` with what was typed (trimmed, not empty) after OK."""
    NameDialog(lang, on_done, initial, title).open()


class NameDialog(Dialog):
    """A question, one text field, Cancel and OK (the stand-in for the name keyboard)."""

    def __init__(self, lang: str, on_done: Callable[[str], None], initial: str = "", title: str = "") -> None:
        super().__init__(title, size_hint=(0.8, 0.55), pos_hint={"top": 0.98})  # (above a docked keyboard)
        app = App.get_running_app()
        self.on_done = on_done
        self.field = TextInput(text=initial, multiline=False, write_tab=False, font_size=app.fs_m,
                               size_hint_y=None, height=app.touch, padding=(app.mm, (app.touch - app.line_m) / 2))
        self.field.bind(on_text_validate=lambda *_: self.done())
        self.box.add_widget(self.field)
        cancel = BigButton(text=tr("cancel", lang), action="cancel", style="plain")
        cancel.bind(on_release=lambda *_: self.dismiss())
        ok = BigButton(text=tr("ok", lang), action="name_ok", style="go")
        ok.bind(on_release=lambda *_: self.done())
        self.row(cancel, ok)
        self.ids["field"], self.ids["ok"] = self.field, ok

    def on_open(self) -> None:
        self.field.focus = True

    def done(self) -> None:
        name = self.field.text.strip()
        self.dismiss()
        if name:
            self.on_done(name)
