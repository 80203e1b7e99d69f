"""The history of this session in sentences ("阿华 碰 阿明的 三条"), newest on top, with where
each came from (screen, buttons, keys…); undo the last, redo, or go back to any row — each
after a yes."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout

from table_app.present.history import describe, source_word
from table_app.present.words import tr
from table_app.session_history import Entry, History
from table_app.ui.dialogs import ConfirmDialog
from table_app.ui.screens import Base, app
from table_app.ui.widgets import BigButton, Small

SHOWN = 40


class HistoryScreen(Base):
    history = History([], [])

    def sentences(self, entries: list[Entry]) -> list[tuple[int, str, str]]:
        """(seq, sentence, source) of these events, in their order."""
        a = app()
        winds = a.pub["winds"]
        east = winds.index("E") if "E" in winds else None
        said = describe([e.event for e in entries], a.pub["players"], a.lang, east)
        return [(e.seq, text, source_word(e.source, a.lang)) for e, text in zip(entries, said, strict=True)]

    def refresh(self) -> None:
        a = app()
        self.history = a.read_history()
        box = self.ids.events
        box.clear_widgets()
        for seq, text, source in reversed(self.sentences(self.history.in_effect)[-SHOWN:]):
            box.add_widget(self._row(seq, text, source))
        self.ids.undo.disabled = not self.history.in_effect
        self.ids.redo.disabled = not self.history.redo

    def _row(self, seq: int, text: str, source: str) -> BoxLayout:
        a = app()
        row = BoxLayout(size_hint_y=None, height=max(a.touch, 2 * a.line_s), spacing=a.mm)
        row.seq = seq
        label = Small(text=text, halign="left", valign="middle")
        label.bind(size=lambda w, s: setattr(w, "text_size", s))
        row.add_widget(label)
        row.add_widget(Small(text=source, size_hint_x=None, width=a.mm * 16, color=(0.7, 0.7, 0.7, 1)))
        b = BigButton(text=tr("undo_to", a.lang), size_hint_x=None, width=a.mm * 30, action="undo_to", seat=seq)
        b.bind(on_release=lambda *_: self.undo_to(seq, text))
        row.add_widget(b)
        return row

    def undo(self) -> None:
        a = app()
        if not self.history.in_effect:
            return
        what = self.sentences(self.history.in_effect)[-1][1]
        ConfirmDialog(tr("confirm_undo", a.lang, what=what), lambda: a.send({"type": "undo"}),
                      yes=tr("undo", a.lang)).open()

    def undo_to(self, seq: int, text: str) -> None:
        a = app()
        ConfirmDialog(tr("confirm_undo_to", a.lang, what=text), lambda: a.send({"type": "undo", "to": seq})).open()

    def redo(self) -> None:
        a = app()
        if not self.history.redo:
            return
        what = self.sentences(self.history.redo[:1])[0][1]
        ConfirmDialog(tr("confirm_redo", a.lang, what=what), lambda: a.send({"type": "redo"})).open()

