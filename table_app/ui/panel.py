"""One seat's panel on the table screen: wind and dealer badges, the name (5 mm, whole), the
score (8 mm), a detail line, the seat's prompt, and its six buttons in fixed places
(``present.buttons.slots``). ``orient`` is ``row`` (a wide panel: the top and bottom seats, and every
seat in the facing layout, where the panel is turned toward its player) or ``column`` (the
side seats of the upright layout). A press refused for this seat turns the panel red with
the reason; the claim countdown is a bar along the panel's top edge.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import AliasProperty, BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from engine.public import PublicState
from table_app.present.buttons import buttons, slots
from table_app.present.seat import led_modes, seat_lines
from table_app.present.words import tr
from table_app.ui.units import is_latin
from table_app.ui.widgets import Badge, BigButton, NameLabel, ScoreLabel, Small, breakable, text_width

REFUSED_S = 4.0  # a refusal stays long enough to be read
PAD_MM = 0.6  # a panel's padding
GAP_MM = 0.4  # between its buttons (six in a row fit the upright layout's top panel at 7")
LIT_S = 2.0


def _app() -> Any:
    return App.get_running_app()


class SeatPanel(BoxLayout):  # type: ignore[misc]  # Kivy is untyped
    seat = NumericProperty(0)
    orient = StringProperty("row")
    name = StringProperty("")
    wind = StringProperty("")
    mark = StringProperty("")
    score = StringProperty("")
    detail = StringProperty("")
    prompt = StringProperty("")
    active = BooleanProperty(False)  # its turn, its roll
    lit = BooleanProperty(False)  # a press from this seat's buttons just arrived
    lit_text = StringProperty("")
    refused = BooleanProperty(False)  # what lit it is a refused press (red, with the reason)
    led = StringProperty("off")  # what the seat's LED shows: off, on, blink
    countdown = NumericProperty(-1.0)  # 0..1 of the claim window left (the discarder's panel); < 0: none
    line_text = StringProperty("")  # what the detail line shows now
    wide = BooleanProperty(True)  # a row panel with room for the name and the score side by side

    def __init__(self, seat: int = 0, orient: str = "row", **kw: object) -> None:
        super().__init__(orientation="vertical", **kw)
        self.seat, self.orient = seat, orient
        self.on_action: Callable[[int, str], None] | None = None
        self.marks: BoxLayout | None = None
        self.actions: list[str] = []
        self.slot_buttons: list[BigButton] = []
        self._build()
        self.bind(lit=self._line, lit_text=self._line, refused=self._line, detail=self._line, prompt=self._line,
                  wind=self._marks_width, mark=self._marks_width)

    # -- building ----------------------------------------------------------------------

    def _build(self) -> None:
        app = _app()
        self.wind_badge = Badge(kind="wind")
        self.dealer_badge = Badge(kind="dealer")
        self.name_label = NameLabel()
        self.score_label = ScoreLabel()
        self.led_dot = LedDot()
        self.line = Small(halign="left", valign="top")
        self.line.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.line.bind(height=self._line_lines)
        self.grid = GridLayout(cols=6 if self.orient == "row" else 2, spacing=app.mm * 0.6)
        for _ in range(6):
            b = BigButton(seat=self.seat)
            b.bind(on_release=self._pressed)
            self.slot_buttons.append(b)
            self.grid.add_widget(b)
        for b in self.slot_buttons:
            b.peers = self.slot_buttons  # (one size of words in the row)
        for prop, widget, attr in (("wind", self.wind_badge, "text"), ("mark", self.dealer_badge, "text"),
                                   ("name", self.name_label, "text"), ("score", self.score_label, "text"),
                                   ("led", self.led_dot, "mode"), ("line_text", self.line, "text")):
            self.fbind(prop, lambda _w, v, widget=widget, attr=attr: setattr(widget, attr, v))
        self.bind(orient=lambda *_: self._arrange(), wide=lambda *_: self._arrange())
        app.bind(mm=lambda *_: self._arrange(), fs_l=lambda *_: self._arrange())
        self._arrange()

    def _arrange(self) -> None:
        """Put the parts in place for ``orient`` (and ``wide``) with the app's sizes (mm, type scale)."""
        app = _app()
        mm, m_line = app.mm, app.line_m
        self.clear_widgets()
        for w in (self.wind_badge, self.dealer_badge, self.name_label, self.score_label, self.led_dot, self.line,
                  self.grid):
            if w.parent is not None:
                w.parent.remove_widget(w)
        self.padding = mm * PAD_MM
        self.spacing = mm * 0.5
        for b in (self.wind_badge, self.dealer_badge):
            b.size_hint = (None, None)
            b.size = (m_line, m_line)
            b.pos_hint = {"center_y": 0.5}
        self.led_dot.size_hint = (None, None)
        self.led_dot.size = (mm * 3, m_line)
        self.led_dot.pos_hint = {"center_y": 0.5}
        self.grid.spacing = mm * GAP_MM
        self.score_label.size_hint = (None, 1)
        self.marks = None
        if self.orient == "row":
            self._arrange_row(app)
        else:
            self._arrange_column(app)
        self._marks_width()

    def _arrange_row(self, app: Any) -> None:
        """A wide panel: [wind name / 庄 detail | score] over the six buttons in a row; a
        narrower one (the upright layout's top and bottom at 7"): [wind name] / [庄 detail score]."""
        mm, s_line, m_line, l_line = app.mm, app.line_s, app.line_m, app.line_l
        self.name_label.size_hint = (1, 1)
        self.line.shorten_from = "right"  # (one line: the end goes first)
        top = BoxLayout(size_hint_y=None, height=m_line, spacing=mm * 0.6)
        top.add_widget(self.wind_badge)
        top.add_widget(self.name_label)
        second = BoxLayout(spacing=mm * 0.6)
        second.add_widget(self.dealer_badge)
        self.line.size_hint_y = 1
        second.add_widget(self.line)
        if self.wide:  # [wind name / 庄 detail | score]
            head = BoxLayout(size_hint_y=None, height=max(m_line + s_line, l_line), spacing=mm)
            left = BoxLayout(orientation="vertical")
            left.add_widget(top)
            second.size_hint_y = None
            second.height = s_line
            self.line.shorten, self.line.max_lines = True, 1
            left.add_widget(second)
            head.add_widget(left)
            head.add_widget(self.led_dot)
            head.add_widget(self.score_label)
            self.add_widget(head)
        else:  # [wind name] / [庄 detail score]
            self.add_widget(top)
            second.size_hint_y = None
            second.height = l_line
            self.line.shorten, self.line.max_lines = False, max(1, int(l_line // s_line))
            second.add_widget(self.led_dot)
            second.add_widget(self.score_label)
            self.add_widget(second)
        self.grid.cols, self.grid.size_hint_y, self.grid.height = 6, None, app.touch
        self.add_widget(self.grid)

    def _arrange_column(self, app: Any) -> None:
        """A tall side panel: the badges, the name on its own line (as wide as 8 characters),
        the score, the detail lines the height holds, the buttons two by three."""
        mm, m_line, l_line = app.mm, app.line_m, app.line_l
        top = BoxLayout(size_hint_y=None, height=m_line, spacing=mm * 0.6)
        marks = self.marks = BoxLayout(size_hint=(None, 1), spacing=mm * 0.6)
        marks.add_widget(self.wind_badge)
        marks.add_widget(self.dealer_badge)
        top.add_widget(marks)
        top.add_widget(Widget())
        top.add_widget(self.led_dot)
        self.add_widget(top)
        self.name_label.size_hint = (1, None)
        self.name_label.height = m_line
        self.add_widget(self.name_label)
        self.score_label.size_hint = (1, None)
        self.score_label.height = l_line
        self.add_widget(self.score_label)
        self.line.size_hint_y = 1
        self.line.shorten = False
        self._line_lines()
        self.add_widget(self.line)
        self.grid.cols, self.grid.size_hint_y = 2, None
        self.grid.height = 3 * app.touch + 2 * self.grid.spacing[1]
        self.add_widget(self.grid)

    def _line_lines(self, *_: object) -> None:
        """A tall panel's detail shows the lines its height holds (the first ones: what matters most)."""
        if self.orient == "column":
            self.line.max_lines = max(1, int(self.line.height // _app().line_s))

    def _marks_width(self, *_: object) -> None:
        """The badges take room only when they show something (no gap before a name)."""
        app = _app()
        for b in (self.wind_badge, self.dealer_badge):  # (庄连2: as wide as its words)
            b.width = max(app.line_m, text_width(b.text, app.fs_m) + app.mm * 1.5) if b.text else 0
        shown = [b for b in (self.wind_badge, self.dealer_badge) if b.text]
        if self.marks is not None:
            self.marks.width = sum(b.width for b in shown) + max(0, len(shown) - 1) * app.mm * 0.6

    @staticmethod
    def depth(app: Any, wide: bool = True) -> float:
        """How tall a ``row`` panel is (the table screen lays the seats out with it)."""
        head = max(app.line_m + app.line_s, app.line_l) if wide else app.line_m + app.line_l + app.mm * 0.5
        return float(app.mm * 2 * PAD_MM + head + app.mm * 0.5 + app.touch)

    @staticmethod
    def wide_width(app: Any) -> float:
        """How wide a ``row`` panel must be for [wind name | score] on one line: the wind, a name
        of 8 characters, the LED and a score of three digits with its sign."""
        return float(app.mm * 2 * PAD_MM + app.line_m + app.mm * 0.6 + 8 * app.fs_m + 2 * app.mm + app.mm * 3
                     + text_width("+888", app.fs_l))

    @staticmethod
    def name_width(app: Any, name: str) -> float:
        """How wide a panel must be for ``name`` on one line."""
        return float(text_width(name, app.fs_latin if is_latin(name) else app.fs_m) + app.mm * 2 * PAD_MM + 4)

    # -- what it shows -----------------------------------------------------------------

    def show(self, pub: PublicState, lang: str, pending_bet: int | None) -> None:
        lines = seat_lines(pub, self.seat, lang, pending_bet)
        self.wind, self.mark, self.name, self.score = lines["wind"], lines["mark"], lines["name"], lines["score"]
        self.detail, self.prompt = lines["detail"], lines["prompt"]
        self.led = led_modes(pub)[self.seat]
        acts = buttons(pub, self.seat)
        self.active = pub["turn"] == self.seat or "roll" in acts
        self.actions = acts
        for b, slot in zip(self.slot_buttons, slots(pub, self.seat), strict=True):
            b.text = tr(f"slot_{slot.key}", lang) if slot.shown else ""
            b.action = slot.action or ""
            b.style = slot.style if slot.action else "off"
            b.disabled = slot.action is None
            b.opacity = 1 if slot.shown else 0

    def button(self, action: str) -> BigButton | None:
        return next((b for b in self.slot_buttons if b.action == action and not b.disabled), None)

    def _pressed(self, b: BigButton) -> None:
        if b.action and self.on_action is not None:
            self.on_action(self.seat, b.action)

    def _line(self, *_: object) -> None:
        if self.lit and self.refused:
            self.line_text = self.lit_text
            return
        parts = [p for p in ((self.lit_text if self.lit else ""), self.prompt, self.detail) if p]
        self.line_text = breakable(" · ".join(parts))

    def flash(self, text: str, refused: bool = False) -> None:
        """Light the panel for a moment: a press from the seat's wired buttons (``text`` says
        what it did), or in red a refused press with the reason (longer, to be read)."""
        self.lit, self.lit_text, self.refused = True, text, refused
        self._line()
        Clock.unschedule(self._unflash)
        Clock.schedule_once(self._unflash, REFUSED_S if refused else LIT_S)

    def _unflash(self, *_: object) -> None:
        self.lit = False

    def _state(self) -> str:
        if self.lit:
            return "refused" if self.refused else "lit"
        return "active" if self.active else "rest"

    state = AliasProperty(_state, bind=("lit", "refused", "active"))
    """The panel's colour (palette.PANEL): rest, active (to move), lit (a press), refused."""


class LedDot(Widget):  # type: ignore[misc]  # Kivy is untyped
    """The seat's LED as the hardware shows it: off, on (green), blink (amber)."""

    mode = StringProperty("off")
