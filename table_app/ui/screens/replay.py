"""A hand replayed step by step (issue 29): the journal's records of the hand, from its dice
to its settlement, one at a time — 第一步 / 上一步 / 下一步 / 最后 and a slider — with the
table drawn for each step's public state as the live table draws it (the seats' panels
without their buttons, the wall ring, the table's line and its information) and the step in
words over it; an undone step is marked (and changes nothing: its state is the one before).

The steps come from the archive (``table_app.archive``: ``Replay.steps`` and
``Replay.state_at``), read when the hand is opened; only the step shown is drawn — one table
of widgets whatever the length of the hand."""

from __future__ import annotations

import math

from kivy.clock import Clock
from kivy.uix.floatlayout import FloatLayout

from engine.public import PublicState
from table_app.present.history_view import step_caption
from table_app.present.table import info_lines, status_line
from table_app.present.wall import wall_view
from table_app.present.words import tr
from table_app.ui import past
from table_app.ui.drawings import WallWidget
from table_app.ui.palette import DIM, MESSAGE, STATUS
from table_app.ui.panel import PAD_MM, SeatPanel
from table_app.ui.screens import Base, app
from table_app.ui.screens.table import SIDE_MM
from table_app.ui.widgets import FitLabel, Small, text_width


class ReplayPanel(SeatPanel):
    """A seat's panel as the live table draws it — wind, 庄, name, score, what the seat holds
    and shows, its prompt — without its six buttons: a replay is looked at, not played."""

    def _arrange(self) -> None:
        super()._arrange()
        self.remove_widget(self.grid)

    @staticmethod
    def row_depth(wide: bool) -> float:
        a = app()
        head = max(a.line_m + a.line_s, a.line_l) if wide else a.line_m + a.line_l + a.mm * 0.5
        return float(a.mm * 2 * PAD_MM + head + a.mm * 0.4)


class ReplayTable(FloatLayout):  # type: ignore[misc]  # Kivy is untyped
    """The table of one step: the four panels in their places (upright), the wall ring in the
    middle with the table's line and its information inside it."""

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self.panels = [ReplayPanel(seat=s, orient="column" if s in (1, 3) else "row") for s in range(4)]
        self.wall = WallWidget(size_hint=(None, None))
        self.status = FitLabel(size_hint=(None, None), halign="center", valign="middle", color=STATUS)
        self.info = Small(size_hint=(None, None), halign="center", valign="top", color=DIM, shorten_from="right")
        self.info.bind(size=lambda w, s: setattr(w, "text_size", s))
        for p in self.panels:
            p.size_hint = (None, None)
            self.add_widget(p)
        for w in (self.wall, self.status, self.info):
            self.add_widget(w)
        self.names: list[str] = ["", "", "", ""]
        self.info_full = ""
        self.bind(pos=self.place, size=self.place)
        app().bind(mm=self.place)

    def show(self, pub: PublicState, lang: str) -> None:
        if list(pub["players"]) != self.names:  # (the side panels take the room the names need)
            self.names = list(pub["players"])
            self.place()
        for p in self.panels:
            p.show(pub, lang, None)
        self.wall.view = wall_view(pub)
        self.status.text = status_line(pub, lang)
        self.info_full = "\n".join(x for x in info_lines(pub, lang) if x)
        self._fit_info()

    def place(self, *_: object) -> None:
        a = app()
        x0, y0, w, h = self.x, self.y, self.width, self.height
        right, left = (min(max(SIDE_MM * a.mm, SeatPanel.name_width(a, self.names[s])), w / 3) for s in (1, 3))
        mid_w = w - right - left
        wide = mid_w >= SeatPanel.wide_width(a)
        d = min(ReplayPanel.row_depth(wide), h * 0.36)
        for p in self.panels:
            p.wide = wide
        rects = [(x0 + left, y0, mid_w, d), (x0 + w - right, y0, right, h), (x0 + left, y0 + h - d, mid_w, d),
                 (x0, y0, left, h)]
        for p, (x, y, pw, ph) in zip(self.panels, rects, strict=True):
            p.pos, p.size = (x, y), (pw, ph)
        mx, my, mw, mh = x0 + left, y0 + d, mid_w, h - 2 * d
        self.wall.pos, self.wall.size = (mx, my), (mw, mh)
        self.wall.depth = a.mm * 1.8
        inset = a.mm * 2.1
        status_h = max(a.line_m, 2 * a.line_s - 4)
        self.status.pos = (mx + inset, my + mh - inset - status_h)
        self.status.size = (max(1, mw - 2 * inset), status_h)
        self.info.pos = (mx + inset, my + inset)
        self.info.size = (max(1, mw - 2 * inset), max(1, mh - 2 * inset - status_h))
        self._fit_info()

    def _fit_info(self) -> None:
        """The information's lines its box holds, whole (as on the live table); a single line
        too wide loses its end (the hand and the tiles left stay)."""
        a = app()
        room = int(self.info.height // max(1, a.line_s))
        width = max(1.0, self.info.width - 2)
        shown: list[str] = []
        used = 0
        for line in self.info_full.split("\n"):
            need = max(1, math.ceil(text_width(line, a.fs_s) / width))
            if used + need > room:
                break
            shown.append(line)
            used += need
        if not shown and room >= 1:
            shown = self.info_full.split("\n")[:1]
        self.info.shorten = len(shown) == 1
        self.info.text = "\n".join(shown)


class ReplayScreen(Base):
    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self._shown: tuple[object, ...] = ()
        self._draw = Clock.create_trigger(self._show_step, 0)  # (a slider dragged: one table a frame)
        row = [self.ids[b] for b in ("first", "prev", "next", "last", "back")]
        for b in row:
            b.peers = row  # (one size of words in the row)
        row[0]._fit()

    def refresh(self) -> None:
        self._shown = ()
        self._show_step()

    def _show_step(self, *_: object) -> None:
        a = app()
        part = past.of(a)
        if not part.readable:
            a.goto("past")
            return
        if not part.up_to_date():
            self._shown = ()
            self.ids.caption.text = tr("ps_reading", a.lang)
            return
        try:
            replay = part.replay()
        except KeyError:
            a.goto("past")
            return
        n = len(replay.steps)
        part.step = i = max(0, min(part.step, n - 1))
        key = (replay.session, replay.hand, i, a.lang, n)
        if key == self._shown:
            return
        self._shown = key
        ids = self.ids
        slider = ids.slider
        slider.disabled = n <= 1
        slider.max = max(1, n - 1)
        if round(slider.value) != i:
            slider.value = i
        ids.counter.text = tr("rp_step", a.lang, i=i + 1, n=n)
        for b, off in ((ids.first, i <= 0), (ids.prev, i <= 0), (ids.next, i >= n - 1), (ids.last, i >= n - 1)):
            b.disabled = off
        if n == 0:
            ids.caption.text = tr("rp_title", a.lang, n=replay.session, hand=replay.hand)
            return
        step = replay.steps[i]
        state = replay.state_at(i)
        ids.caption.text = tr("rp_title", a.lang, n=replay.session, hand=replay.hand) + " · " + \
            step_caption(step, state, a.lang)
        ids.caption.color = MESSAGE if step.undone else STATUS
        ids.board.show(state, a.lang)

    def go(self, where: str) -> None:
        part = past.of(app())
        if not part.warm:
            return
        n = len(part.replay().steps)
        part.step = {"first": 0, "prev": part.step - 1, "next": part.step + 1, "last": n - 1}[where]
        self._show_step()

    def slid(self, value: float) -> None:
        part = past.of(app())
        if part.warm and round(value) != part.step:
            part.step = round(value)
            self._draw()
