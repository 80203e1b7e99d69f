"""The history of this session in sentences ("阿华 碰 阿明的 三条"), newest on top, with where
each came from (screen, buttons, keys…); undo the last, redo, or go back to any row — each
after a yes."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout

from table_app.present import table as view
from table_app.present.words import tr
from table_app.ui.dialogs import ConfirmDialog
from table_app.ui.screens import Base, app
from table_app.ui.widgets import BigButton, Small

SHOWN = 40


class HistoryScreen(Base):
    def sentences(self) -> list[tuple[int, str, str]]:
        """(seq, sentence, source) of the events in effect, oldest first."""
        a = app()
        a.read_sources()
        events = [ev for _, ev, _ in a.in_effect]
        names = list(a.pub.get("players") or [""] * 4)
        winds = a.pub.get("winds") or []
        said = view.describe(events, names, a.lang, winds.index("E") if "E" in winds else None)
        return [(seq, text, view.source_text(src, a.lang)) for (seq, _, src), text in zip(a.in_effect, said,
                                                                                           strict=True)]

    def refresh(self) -> None:
        a = app()
        box = self.ids.events
        box.clear_widgets()
        rows = self.sentences()
        for seq, text, source in reversed(rows[-SHOWN:]):
            box.add_widget(self._row(seq, text, source))
        self.ids.undo.disabled = not a.in_effect
        self.ids.redo.disabled = not a.redo_list

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
        if not a.in_effect:
            return
        what = self.sentences()[-1][1]
        ConfirmDialog(tr("confirm_undo", a.lang, what=what), lambda: a.send({"type": "undo"}),
                      yes=tr("undo", a.lang)).open()

    def undo_to(self, seq: int, text: str) -> None:
        a = app()
        ConfirmDialog(tr("confirm_undo_to", a.lang, what=text), lambda: a.send({"type": "undo", "to": seq})).open()

    def redo(self) -> None:
        a = app()
        if not a.redo_list:
            return
        names = list(a.pub.get("players") or [""] * 4)
        winds = a.pub.get("winds") or []
        what = view.describe([a.redo_list[0][1]], names, a.lang, winds.index("E") if "E" in winds else None)[0]
        ConfirmDialog(tr("confirm_redo", a.lang, what=what), lambda: a.send({"type": "redo"})).open()

