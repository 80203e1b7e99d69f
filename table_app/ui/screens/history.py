"""The history of this session in sentences ("阿华 碰 阿明的 三条"), newest on top, with where
each came from (screen, buttons, keys…); undo the last, redo, or go back to any row — each
after a yes.

The rows are a RecycleView's: widgets for the rows in sight only (about six at 800×480), each
shown again with another row's words as the list scrolls — a long session's history costs the
screen no more widgets than a short one's (issue 28's memory after an evening)."""

from __future__ import annotations

from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from table_app.journal.session_history import Entry, History
from table_app.present.history import describe, source_word
from table_app.present.words import tr
from table_app.ui.dialogs import ConfirmDialog
from table_app.ui.screens import Base, app

SHOWN = 200  # the newest events listed (the journal's history keeps more: KEPT)


class HistoryRow(BoxLayout):  # type: ignore[misc]  # Kivy is untyped
    """One row, its words given by the RecycleView (``seq``, ``text``, ``source``): the sentence,
    where it came from, and 回到这里 (back to just after it)."""

    seq = NumericProperty(0)
    text = StringProperty("")
    source = StringProperty("")

    def undo_to(self) -> None:
        screen = app().made("history")
        if screen is not None:
            screen.undo_to(self.seq, self.text)


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
        shown = self.sentences(self.history.in_effect)[-SHOWN:]  # (read from the start: a claim names the discard)
        self.ids.events.data = [{"seq": seq, "text": text, "source": source} for seq, text, source in reversed(shown)]
        self.ids.undo.disabled = not self.history.in_effect
        self.ids.redo.disabled = not self.history.redo

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

