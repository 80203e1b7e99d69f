"""Dialogs: the dice pad, a confirmation, a choice, and the menu. Each is a ModalView laid out
here in Python with the app's sizes; nothing in them decides a rule."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView

from engine.table import accepts
from table_app.present.forms import end_session
from table_app.present.forms.refused import Refused
from table_app.present.words import tr
from table_app.ui.widgets import BigButton, BigToggle, FitLabel, Small, Text


def _app() -> Any:
    return App.get_running_app()


class Dialog(ModalView):  # type: ignore[misc]  # Kivy is untyped
    """A modal box with a question line on top; the parts below are the subclass's."""

    text = StringProperty("")

    def __init__(self, text: str = "", size_hint: tuple[float, float] = (0.8, 0.6), **kw: object) -> None:
        super().__init__(size_hint=size_hint, **kw)
        app = _app()
        self.text = text
        self.box = BoxLayout(orientation="vertical", padding=app.mm * 2, spacing=app.mm * 1.5)
        self.question = Text(text=text, halign="center", valign="middle")
        self.question.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.bind(text=self.question.setter("text"))
        self.box.add_widget(self.question)
        self.add_widget(self.box)

    def dismiss(self, *args: object, **kw: object) -> None:
        """Gone at once: a fading dialog still takes every touch for its 0.1 s (Kivy's
        ModalView), so a quick tap on the screen behind it — the next seat's roll — was lost."""
        kw.setdefault("animation", False)
        super().dismiss(*args, **kw)

    def row(self, *buttons: BigButton) -> BoxLayout:
        app = _app()
        row = BoxLayout(size_hint_y=None, height=app.touch, spacing=app.mm * 1.5)
        for b in buttons:
            row.add_widget(b)
        self.box.add_widget(row)
        return row


class ConfirmDialog(Dialog):
    """Cancel or OK; ``on_yes`` runs after OK."""

    def __init__(self, text: str, on_yes: Callable[[], None], yes: str | None = None,
                 size_hint: tuple[float, float] = (0.8, 0.6)) -> None:
        super().__init__(text, size_hint)
        app = _app()
        self.on_yes = on_yes
        cancel = BigButton(text=tr("cancel", app.lang), action="cancel", style="plain")
        cancel.bind(on_release=lambda *_: self.dismiss())
        self.yes_button = BigButton(text=yes or tr("ok", app.lang), action="yes", style="go")
        self.yes_button.bind(on_release=lambda *_: self.yes())
        self.row(cancel, self.yes_button)
        self.ids["yes"] = self.yes_button

    def yes(self) -> None:
        self.dismiss()
        self.on_yes()



def ask_end_session() -> None:
    """结束牌局 (the menu's, the settlement's), asked first — when the form offers it: never in
    the middle of a hand (:mod:`table_app.present.forms.end_session`); else why not, in the top line."""
    app = _app()
    why = end_session.why_not(app.pub)
    if why is not None:
        app.say(why.words(app.lang))
        return
    question, yes = end_session.confirmation(app.lang)

    def end() -> None:  # (the form asked again: the table may have moved on while the question was up)
        command = end_session.command(app.pub)
        if isinstance(command, Refused):
            app.say(command.words(app.lang))
        else:
            app.send(command)

    ConfirmDialog(question, end, yes=yes).open()


class ChoiceDialog(Dialog):
    """A question with one big button per answer (a tap outside cancels)."""

    def __init__(self, text: str, choices: list[tuple[str, Callable[[], None]]], **kw: object) -> None:
        super().__init__(text, size_hint=(0.8, 0.5), **kw)
        buttons = []
        for label, fn in choices:
            b = BigButton(text=label, action=label, style="go")
            b.bind(on_release=lambda _b, fn=fn: self.choose(fn))
            buttons.append(b)
        self.row(*buttons)

    def choose(self, fn: Callable[[], None]) -> None:
        self.dismiss()
        fn()


class DicePad(Dialog):
    """Two dice by touch (or Random); ``on_done(a, b)`` gets them on OK, which stays disabled
    until both dice are in."""

    die_a = NumericProperty(0)
    die_b = NumericProperty(0)

    def __init__(self, on_done: Callable[[int, int], None], title: str = "", **kw: object) -> None:
        super().__init__(title, size_hint=(0.9, 0.85), auto_dismiss=False, **kw)
        app = _app()
        self.on_done = on_done
        self.rows: dict[str, BoxLayout] = {}
        for which, word in (("die_a", "die_1"), ("die_b", "die_2")):
            row = BoxLayout(size_hint_y=None, height=app.touch, spacing=app.mm)
            head = Small(text=tr(word, app.lang), size_hint_x=None, width=app.mm * 16)
            row.add_widget(head)
            for v in range(1, 7):
                t = BigToggle(text=str(v), group=f"{which}-{id(self)}", value=v)
                t.bind(on_release=lambda btn, which=which: self.pick(which, btn.value if btn.state == "down" else 0))
                row.add_widget(t)
            self.rows[which] = row
            self.box.add_widget(row)
        self.ids["row_a"], self.ids["row_b"] = self.rows["die_a"], self.rows["die_b"]
        rnd = BigButton(text=tr("random", app.lang), action="random")
        rnd.bind(on_release=lambda *_: self.randomise())
        cancel = BigButton(text=tr("cancel", app.lang), action="cancel")
        cancel.bind(on_release=lambda *_: self.dismiss())
        self.ok = BigButton(text=tr("ok", app.lang), action="roll", style="go", disabled=True)
        self.ok.bind(on_release=lambda *_: self.done())
        self.ids["ok"] = self.ok
        self.row(rnd, cancel, self.ok)
        self.bind(die_a=self._ready, die_b=self._ready)

    def _ready(self, *_: object) -> None:
        both = bool(self.die_a and self.die_b)
        self.ok.disabled = not both
        self.ok.text = tr("ok", _app().lang) + (f"  {self.die_a}+{self.die_b}" if both else "")

    def pick(self, which: str, value: int) -> None:
        setattr(self, which, value)

    def randomise(self) -> None:
        self.die_a, self.die_b = random.randint(1, 6), random.randint(1, 6)
        for which, v in (("die_a", self.die_a), ("die_b", self.die_b)):
            for b in self.rows[which].children:
                if isinstance(b, BigToggle):
                    b.state = "down" if b.value == v else "normal"

    def done(self) -> None:
        if self.die_a and self.die_b:
            self.dismiss()
            self.on_done(self.die_a, self.die_b)


class JoinDialog(Dialog):
    """The phones' join link as a QR code, with what to do: connect to the table's Wi-Fi, scan,
    pick a seat and type a name (the phone is then that seat's buttons)."""

    def __init__(self, **kw: object) -> None:
        super().__init__("", size_hint=(0.94, 0.94), **kw)
        from table_app.ui.widgets import QrCode

        app = _app()
        self.box.remove_widget(self.question)
        body = BoxLayout(spacing=app.mm * 2)
        self.code = QrCode(url=app.join_url, size_hint_x=None)
        body.bind(height=lambda b, h: setattr(self.code, "width", h))
        body.add_widget(self.code)
        words = BoxLayout(orientation="vertical", spacing=app.mm)
        title = FitLabel(text=tr("join_title", app.lang), size_hint_y=None, height=app.line_m * 1.2,
                         halign="left", valign="middle")
        steps = Small(text=tr("join_steps", app.lang), halign="left", valign="top")
        link = Small(text=app.join_url, halign="left", valign="bottom", size_hint_y=None, height=app.line_s * 2)
        for label in (title, steps, link):
            label.bind(size=lambda w, s: setattr(w, "text_size", s))
            words.add_widget(label)
        close = BigButton(text=tr("close", app.lang), action="close", style="go", size_hint_y=None,
                          height=app.touch)
        close.bind(on_release=lambda *_: self.dismiss())
        words.add_widget(close)
        body.add_widget(words)
        self.box.add_widget(body)


MENU = (("table", "nav_table"), ("wall", "nav_wall"), ("settlement", "nav_settlement"), ("scores", "nav_scores"),
        ("history", "nav_history"), ("past", "nav_past"), ("records", "nav_records"), ("settings", "nav_settings"),
        ("entry", "nav_entry"), ("session", "nav_new"), ("end", "nav_end"), ("join", "nav_join"),
        ("fee", "nav_fee"), ("lang", "lang_button"))


class Menu(Dialog):
    """Every screen, the settlement at any time, undo (History), score-only entry, a new
    session, the end of the session (after a yes), the phones' QR code and the language."""

    def __init__(self, **kw: object) -> None:
        super().__init__("", size_hint=(0.92, 0.88), **kw)
        app = _app()
        self.box.remove_widget(self.question)
        grid = GridLayout(cols=3, spacing=app.mm * 1.2)
        phase = app.pub["phase"]
        self.items: dict[str, BigButton] = {}
        for name, word in MENU:
            b = BigButton(text=tr(word, app.lang), action=f"menu_{name}",
                          style="go" if name == app.home() else "plain")
            if name == "end":
                b.disabled = not end_session.offered(app.pub)  # (between hands only)
            if name == "entry":
                b.disabled = "score_hand" not in accepts(phase)
            if name == "join":
                b.disabled = not app.join_url  # (the web pages are off)
            b.bind(on_release=lambda _b, name=name: self.pick(name))
            self.items[name] = b
            grid.add_widget(b)
        close = BigButton(text=tr("close", app.lang), action="close")
        close.bind(on_release=lambda *_: self.dismiss())
        grid.add_widget(close)
        self.box.add_widget(grid)

    def pick(self, name: str) -> None:
        app = _app()
        self.dismiss()
        if name == "lang":
            app.toggle_lang()
        elif name == "end":
            ask_end_session()
        elif name == "join":
            app.show_join()
        else:
            app.goto(name)
