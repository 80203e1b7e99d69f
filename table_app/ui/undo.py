"""The touchscreen's part of an undo (issue 28): the dialog of an undo a held TURN put up
(``table_app.core.consent``: a button's, the panel's, a ``--sim`` key's or a phone's), and the note
of what an undo took back and who decided it (after any undo: buttons, phones, History).

The dialog says what would be taken back, who makes it stand — the step's own seat holding
TURN again (or 确认 here, which is that seat's held TURN: only for its own step), or a second
seat holding TURN or agreeing on its phone — and when it lapses; 取消 drops it for everyone.
Its words and what 确认 sends are :mod:`table_app.present.forms.decide`'s, the phones' too.
It goes when the table changes (an undo, a step), when it lapses, or when a phone refuses it.
The note is not modal: it lies where it hides no button — on the table screen over the middle's
words (whose turn, the claim window, the hand), elsewhere over the top bar's title — for
:data:`NOTE_S` seconds, or until the next step, or a tap on it; the taps around it reach the
screen.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics import Color, RoundedRectangle
from kivy.uix.label import Label

from table_app.core.clock import seconds_left
from table_app.core.notices import Notice, Proposal
from table_app.present.forms import decide
from table_app.present.words import tr
from table_app.ui.dialogs import Dialog
from table_app.ui.palette import PANEL, TEXT
from table_app.ui.widgets import BigButton, Small

NOTE_S = 8.0  # how long the note of an undo stays
CHECK_S = 0.5  # how often the dialog looks whether its undo is still open


def _app() -> Any:
    return App.get_running_app()


class UndoAsk(Dialog):
    """An undo put up: 取消, and 确认 when it is the proposer's own step."""

    def __init__(self, proposal: Proposal) -> None:
        super().__init__("", size_hint=(0.9, 0.66), auto_dismiss=False)
        app = _app()
        self.proposal = p = proposal
        lang = app.lang
        ask = decide.undo_ask(p.seat, p.step, app.pub["players"])  # (what it takes back, who makes it stand)
        self.text = ask["asks"]["zh" if lang == "zh" else "en"]
        self.how = Small(text=ask["waiting"]["zh" if lang == "zh" else "en"], halign="center", valign="middle")
        self.left = Small(text="", halign="center", valign="middle", size_hint_y=None, height=app.line_s)
        for label in (self.how, self.left):
            label.bind(size=lambda w, s: setattr(w, "text_size", s))
            self.box.add_widget(label)
        cancel = BigButton(text=tr("cancel", lang), action="undo_cancel", style="plain")
        cancel.bind(on_release=lambda *_: self.cancel())
        self.confirm = BigButton(text=tr("dc_confirm", lang), action="undo_confirm", style="go",
                                 disabled=not ask["own"])  # (only its own step: engine.authority)
        self.confirm.bind(on_release=lambda *_: self.yes())
        self.row(cancel, self.confirm)
        self.ids["cancel"], self.ids["confirm"] = cancel, self.confirm
        self._check = Clock.schedule_interval(self.check, CHECK_S)
        self.check()

    def still_open(self) -> bool:
        service = _app().service
        return any(q is self.proposal for q in service.consent.open(service.seq))

    def check(self, *_: object) -> None:
        """Gone once the undo is no longer open (lapsed, refused on a phone, the table moved on)."""
        app = _app()
        if not self.still_open():
            self.dismiss()
            return
        left = seconds_left(self.proposal.until, app.service.clock) or 0.0
        self.left.text = tr("un_left", app.lang, n=int(left + 0.99))

    def yes(self) -> None:
        """The proposer's own confirmation: its held TURN again, as its button would send it."""
        p = self.proposal
        self.dismiss()
        _app().send(decide.undo(p.seat))

    def cancel(self) -> None:
        p = self.proposal
        self.dismiss()
        _app().service.consent.drop("undo", p.seq, p.seat)

    def dismiss(self, *args: object, **kw: object) -> None:
        self._check.cancel()
        super().dismiss(*args, **kw)


def _region(app: Any) -> tuple[float, float, float, float]:
    """The note's room: left, top, width and height in the window."""
    sm = app.sm
    screen = sm.current_screen if sm is not None else None
    middle = screen.ids.get("middle") if screen is not None and screen.name == "table" else None
    if middle is not None and middle.width > 0:
        x, y = middle.to_window(middle.x, middle.y)
        inset = app.mm * 2
        return x + inset, y + middle.height - inset, middle.width - 2 * inset, middle.height - app.touch - app.mm * 5.5
    return 0.0, float(Window.height), Window.width - app.mm * 23.5, float(app.touch)


class UndoneNote(Label):  # type: ignore[misc]  # Kivy is untyped
    """What an undo took back, over the top of the screen: gone after :data:`NOTE_S`, at the
    next step, or tapped."""

    def __init__(self, text: str) -> None:
        app = _app()
        super().__init__(text=text, font_size=app.fs_m, color=TEXT, halign="center", valign="middle",
                         size_hint=(None, None), padding=(app.mm * 2, app.mm))
        with self.canvas.before:
            Color(*PANEL["lit"])
            self._bg = RoundedRectangle(radius=[app.mm * 1.5])
        self.bind(pos=self._draw, size=self._draw)
        self.place()
        Window.bind(size=self.place)
        self._gone = Clock.schedule_once(lambda *_: self.close(), NOTE_S)

    def place(self, *_: object) -> None:
        """Where it hides no button: on the table screen over the middle's words (the menu's row
        below stays free), elsewhere over the top bar's title (its 菜单 stays free); wrapped,
        in the small size when the name size would not fit (a long name is never cut)."""
        app = _app()
        x, top, w, room = _region(app)
        for size in (app.fs_m, app.fs_s):
            self.font_size = size
            self.text_size = (w - app.mm * 4, None)
            self.texture_update()
            if self.texture_size[1] + app.mm * 2 <= room:
                break
        self.size = (w, max(room, self.texture_size[1] + app.mm * 2))
        self.pos = (x, top - self.height)

    def _draw(self, *_: object) -> None:
        self._bg.pos, self._bg.size = self.pos, self.size

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos):
            self.close()
            return True
        return False

    def close(self) -> None:
        self._gone.cancel()
        Window.unbind(size=self.place)
        if self.parent is not None:
            self.parent.remove_widget(self)


class UndoPart:
    """The app's undo: :meth:`heard` on the service's thread (an undo is worded at once), the
    rest on the Kivy thread."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.asking: UndoAsk | None = None  # the dialog of an undo put up, while open
        self.note: UndoneNote | None = None  # the note of what the last undo took back, while shown
        self._words: dict[int, str] = {}  # an undo's note by its seq

    def heard(self, n: Notice) -> None:
        """The service's thread: what the undo ``n`` took back and who decided it, in words now
        (the service's record of the steps, ``TableService.steps``, moves on with the table)."""
        if n.kind != "undo":
            return
        u = self.app.service.steps.undone()
        note = decide.undone(None if u is None else replace(u, by=n.by, source=n.source), n.state["players"])
        if note is not None:
            self._words[n.seq] = note["zh"] if self.app.lang == "zh" else note["en"]

    def ask(self, n: Notice) -> None:
        """A held TURN put an undo up: its dialog (one at a time, the newest)."""
        if self.asking is not None:
            self.asking.dismiss()
        if n.proposal is not None:
            self.asking = asking = UndoAsk(n.proposal)
            asking.bind(on_dismiss=lambda *_: self._closed(asking))
            asking.open()

    def _closed(self, dialog: UndoAsk) -> None:
        if self.asking is dialog:
            self.asking = None

    def changed(self, n: Notice) -> None:
        """The table changed: an undo put up is gone (it was about the table before); an undo's
        note is shown, and the last one's goes once a step is made."""
        if self.asking is not None:
            self.asking.dismiss()
        if self.note is not None and (n.kind == "undo" or n.final):
            self.note.close()
            self.note = None
        text = self._words.pop(n.seq, "") if n.kind == "undo" else ""
        if text:
            self.note = UndoneNote(text)
            Window.add_widget(self.note)


__all__ = ["UndoAsk", "UndoPart", "UndoneNote"]
