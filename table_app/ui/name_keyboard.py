"""The touchscreen's name keyboard: a full-screen popup for one player's name — pinyin with
汉字 to tap, or Latin letters — so a table without phones can enter 欧阳诸葛 too.

    NameKeyboard(lang, on_done=lambda name: ..., initial="").open()  # (returns the view shown)

``on_done`` gets the name after 确定 (checked as the engine checks names; a refusal shows in
the top line, in ``lang``); 取消 closes it without a call. What each key does is
:class:`table_app.present.name_entry.NameEntry`'s (no Kivy there); the 汉字 come from
:mod:`table_app.present.pinyin`, whose index is built in a thread when the keyboard opens.
Every size is in mm (``app.mm``): keys are at least ``app.touch`` (10 mm) tall, and the rows
share what the screen has beyond that, at 800×480 and 1280×720 alike.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from functools import partial

from kivy.app import App
from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from table_app.present import pinyin
from table_app.present.name_entry import NameEntry
from table_app.present.words import tr
from table_app.ui import palette as P
from table_app.ui.widgets import BigButton, Small, text_width

ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
BACKSPACE, ENTER, SPACE = 8, 13, 32


class NameKeyboard:
    """One name typed by touch; see the module's docstring. The keyboard's widgets are made
    once and kept for the next name (:func:`keyboard_view`): 45 new buttons at every open left
    a few MB more behind each time, for the first few opens."""

    def __init__(self, lang: str, on_done: Callable[[str], None], initial: str = "") -> None:
        self.lang, self.on_done, self.initial = lang, on_done, initial
        self.view: KeyboardView | None = None

    def open(self) -> KeyboardView:
        self.view = keyboard_view(self.lang)
        self.view.start(self.on_done, self.initial)
        self.view.open()
        return self.view


_kept: list[KeyboardView] = []  # the one keyboard made: its language and mm say whether it serves


def keyboard_view(lang: str) -> KeyboardView:
    """The keyboard's widgets for ``lang`` at the window's present size (made again only when
    these change: a new language, another screen size)."""
    app = App.get_running_app()
    made_for = (lang, app.mm, app.touch)
    if not _kept or _kept[0].made_for != made_for or _kept[0].app() is not app:
        _kept[:] = [KeyboardView(lang)]
    return _kept[0]


class KeyboardView(ModalView):  # type: ignore[misc]  # Kivy is untyped
    """The keyboard on the screen: it shows :class:`NameEntry` and passes the taps on."""

    def __init__(self, lang: str, **kw: object) -> None:
        super().__init__(size_hint=(1, 1), auto_dismiss=False, **kw)
        app = App.get_running_app()
        self.lang, self.made_for, self.app = lang, (lang, app.mm, app.touch), weakref.ref(app)
        self.on_done: Callable[[str], None] = lambda name: None  # (each name's own, from start)
        self.entry = NameEntry(lang)
        self.page_starts = [0]  # where each page of candidates begins (◀ goes back one)
        self.refusal = ""
        self.pool: list[BigButton] = []  # the candidate bar's buttons
        mm = app.mm
        box = BoxLayout(orientation="vertical", padding=mm * 1.5, spacing=mm)
        self.hint = Small(size_hint_y=None, height=app.line_s, halign="left", valign="middle", shorten=True)
        self.hint.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.shown = Label(font_size=app.fs_m, size_hint_y=None, height=app.touch * 1.2, halign="left",
                           valign="middle", shorten=True, shorten_from="left")  # (the end is what is being typed)
        self.shown.bind(size=lambda w, s: setattr(w, "text_size", s))
        box.add_widget(self.hint)
        box.add_widget(self.shown)
        box.add_widget(self._candidate_row(mm, app.touch))
        self.letters: list[BigButton] = []
        for i, row in enumerate(ROWS):
            box.add_widget(self._letter_row(row, i, mm, app.touch))
        box.add_widget(self._bottom_row(mm, app.touch))
        self.add_widget(box)
        self.ids["box"] = box
        self.refresh()

    def start(self, on_done: Callable[[str], None], initial: str = "") -> None:
        """A new name (``initial`` to begin with) for ``on_done``."""
        self.on_done, self.entry, self.refusal, self.page_starts = on_done, NameEntry(self.lang, initial), "", [0]
        self.refresh()

    # -- the parts ------------------------------------------------------------------------

    def _key(self, text: str, action: str, fn: Callable[[], None], style: str = "plain", **kw: object) -> BigButton:
        b = BigButton(text=text, action=action, style=style, **kw)
        b.bind(on_release=lambda *_: self.tapped(fn))
        return b

    def _candidate_row(self, mm: float, touch: float) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=touch, spacing=mm)
        self.composing = Label(font_size=App.get_running_app().fs_m, size_hint_x=None, width=mm * 24,
                               color=P.STATUS, halign="left", valign="middle", shorten=True, shorten_from="left")
        self.composing.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.bar = BoxLayout(spacing=mm * 0.8)
        self.bar.bind(width=lambda *_: self.show_candidates())
        self.less = BigButton(text=tr("kb_less", self.lang), action="less", size_hint_x=None, width=touch)
        self.more = BigButton(text=tr("kb_more", self.lang), action="more", size_hint_x=None, width=touch)
        self.less.bind(on_release=lambda *_: self.page_back())
        self.more.bind(on_release=lambda *_: self.page_on())
        for w in (self.composing, self.bar, self.less, self.more):
            row.add_widget(w)
        return row

    def _letter_row(self, letters: str, i: int, mm: float, touch: float) -> BoxLayout:
        row = BoxLayout(spacing=mm * 0.8, size_hint_min_y=touch)
        if i == 1:  # the middle row sits half a key in, as on every keyboard
            row.padding = (mm * 7, 0)
        if i == 2:
            self.shift = self._key(tr("kb_shift", self.lang), "shift", self.flip_shift, size_hint_x=1.4)
            row.add_widget(self.shift)
        for k in letters:
            b = self._key(k, f"key_{k}", partial(self.letter, k))
            self.letters.append(b)
            row.add_widget(b)
        if i == 2:
            row.add_widget(self._key(tr("kb_back", self.lang), "backspace", self.backspace, size_hint_x=1.4))
        return row

    def _bottom_row(self, mm: float, touch: float) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=touch, spacing=mm * 0.8)
        self.mode = self._key("", "mode", self.toggle, size_hint_x=1.2)
        row.add_widget(self.mode)
        row.add_widget(self._key(tr("kb_space", self.lang), "space", self.space, size_hint_x=3.5))
        cancel = BigButton(text=tr("cancel", self.lang), action="cancel", size_hint_x=1.5)
        cancel.bind(on_release=lambda *_: self.dismiss())
        ok = BigButton(text=tr("ok", self.lang), action="ok", style="go", size_hint_x=1.5)
        ok.bind(on_release=lambda *_: self.finish())
        row.add_widget(cancel)
        row.add_widget(ok)
        return row

    # -- what a tap does --------------------------------------------------------------------

    def tapped(self, fn: Callable[[], None]) -> None:
        fn()
        self.refusal = ""
        self.page_starts = [0]
        self.refresh()

    # (the keys call these, not the entry's own methods: each name has a new entry)
    def letter(self, key: str) -> None:
        self.entry.letter(key)

    def backspace(self) -> None:
        self.entry.backspace()

    def space(self) -> None:
        self.entry.space()

    def toggle(self) -> None:
        self.entry.toggle()

    def flip_shift(self) -> None:
        self.entry.shift = not self.entry.shift

    def pick(self, i: int) -> None:
        self.tapped(lambda: self.entry.pick(i))

    def page_on(self) -> None:
        self.page_starts.append(self.page_starts[-1] + self._fitting(self.page_starts[-1]))
        self.show_candidates()

    def page_back(self) -> None:
        self.page_starts = self.page_starts[:-1] or [0]
        self.show_candidates()

    def finish(self) -> None:
        name, why = self.entry.finish()
        if why:
            self.refusal = why
            self.refresh()
            return
        self.dismiss()
        self.on_done(name)

    # -- what it shows ----------------------------------------------------------------------

    def refresh(self) -> None:
        e = self.entry
        self.hint.text = self.refusal or tr("kb_hint_zh" if e.mode == "zh" else "kb_hint_en", self.lang)
        self.hint.color = P.MESSAGE if self.refusal else P.DIM
        self.shown.text = e.name + "▏" if e.name else tr("kb_title", self.lang)
        self.shown.color = P.TEXT if e.name else P.DIM
        self.composing.text = e.typed
        self.mode.text = tr("kb_en" if e.mode == "zh" else "kb_zh", self.lang)  # (what a tap switches to)
        self.shift.style = "go" if e.shift else "plain"
        capital = e.mode == "en" and (not e.name or e.name.endswith(" ")) != e.shift
        for b in self.letters:
            b.text = b.action[-1].upper() if capital else b.action[-1]
        self.show_candidates()

    def _width(self, text: str) -> float:
        app = App.get_running_app()
        return float(max(app.touch, text_width(text, app.fs_m) + app.mm * 3))

    def _fitting(self, first: int) -> int:
        """How many candidates from ``first`` on fit the bar (one at least)."""
        options, room, n = self.entry.options(), self.bar.width, 0
        spacing = self.bar.spacing
        for c in options[first:]:
            room -= self._width(c.text) + spacing
            if room < 0 and n:
                break
            n += 1
        return n

    def show_candidates(self) -> None:
        """The page of candidates on the bar (its buttons kept and relabelled: each new button
        is one more texture to make)."""
        options, first = self.entry.options(), self.page_starts[-1]
        n = self._fitting(first)
        while len(self.pool) < n:
            b = BigButton(action="candidate", size_hint_x=None)
            b.bind(on_release=lambda b: self.pick(b.index))
            self.pool.append(b)
        self.bar.clear_widgets()
        for b, i in zip(self.pool, range(first, first + n), strict=False):
            b.index, b.text, b.width = i, options[i].text, self._width(options[i].text)
            self.bar.add_widget(b)
        self.less.disabled = first == 0
        self.more.disabled = first + n >= len(options)
        self.less.opacity = self.more.opacity = 1 if options else 0

    # -- open and close ---------------------------------------------------------------------

    def open(self, *args: object, **kw: object) -> None:
        if not pinyin.ready():
            threading.Thread(target=pinyin.warm, name="pinyin-index", daemon=True).start()
        # (here, not in on_open: that comes after the opening animation, perhaps after a dismiss)
        Window.unbind(on_key_down=self.on_key)  # (an open keyboard opened again: bound once)
        Window.bind(on_key_down=self.on_key)
        super().open(*args, **kw)

    def dismiss(self, *args: object, **kw: object) -> None:
        Window.unbind(on_key_down=self.on_key)
        kw.setdefault("animation", False)  # (gone at once, as the app's dialogs: see dialogs.Dialog)
        super().dismiss(*args, **kw)

    def on_key(self, _window: object, key: int, _scancode: int, codepoint: str | None, _mods: object) -> bool:
        """A real keyboard types too (the sim on a desktop): letters, space, backspace, Enter."""
        if self.get_parent_window() is None:  # (taken off the window without a dismiss)
            return False
        if codepoint and len(codepoint) == 1 and codepoint.isascii() and codepoint.isalpha():
            self.tapped(partial(self.letter, codepoint))
        elif key in (BACKSPACE, SPACE):
            self.tapped(self.backspace if key == BACKSPACE else self.space)
        elif key == ENTER:
            self.finish()
        else:
            return False
        return True
