"""The rules of the next session, in words: each option of docs/rules.md with what it decides and
its value; a tap on the value moves to the next one. Chosen before the start (``new_session``
carries the changes); the defaults are the ``xian`` preset."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from engine.rules import XIAN, Rules
from table_app.present.rules import RULE_WORDS, rule_value_word
from table_app.ui.screens import Base, app
from table_app.ui.widgets import BigButton, Small, Text, breakable


def choices(option: str) -> list[Any]:
    """The values the screen offers for an option (the words of text.RULE_WORDS)."""
    return [list(v) if isinstance(v, tuple) else v for v in RULE_WORDS[option][2]]


class RulesScreen(Base):
    def refresh(self) -> None:
        a = app()
        i = 0 if a.lang == "zh" else 1
        box = self.ids.options
        box.clear_widgets()
        values = {**XIAN.to_json(), **a.rule_overrides}
        for option, (name, what, _) in RULE_WORDS.items():
            row = BoxLayout(size_hint_y=None, height=max(a.touch, a.line_m + a.line_s), spacing=a.mm)
            words = BoxLayout(orientation="vertical")
            head = Text(text=name[i], halign="left", valign="bottom", size_hint_y=None, height=a.line_m)
            expl = Small(text=what[i], halign="left", valign="top", shorten=True, size_hint_y=None, height=a.line_s)
            for w in (head, expl):
                w.bind(size=lambda w, s: setattr(w, "text_size", s))
                words.add_widget(w)
            row.add_widget(words)
            changed = option in a.rule_overrides
            b = BigButton(text=breakable(rule_value_word(option, values[option], a.lang)), action=f"rule_{option}",
                          style="go" if changed else "plain", size_hint=(None, None),
                          width=a.mm * 58, height=a.touch)
            b.bind(on_release=lambda _b, option=option: self.next_value(option))
            row.add_widget(b)
            box.add_widget(row)

    def next_value(self, option: str) -> None:
        a = app()
        now = {**XIAN.to_json(), **a.rule_overrides}[option]
        values = choices(option)
        nxt = values[(values.index(now) + 1) % len(values)] if now in values else values[0]
        overrides = dict(a.rule_overrides)
        overrides[option] = nxt
        a.rule_overrides = Rules.from_overrides(overrides).overrides()  # the engine's own check and form
        self.refresh()

    def reset(self) -> None:
        app().rule_overrides = {}
        self.refresh()
