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
from table_app.ui.widgets import Badge, BigButton, NameLabel, ScoreLabel, Small, text_width

REFUSED_S = 4.0  # a refusal stays long enough to be read
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
        for prop, widget, attr in (("wind", self.wind_badge, "text"), ("mark", self.dealer_badge, "text"),
                                   ("name", self.name_label, "text"), ("score", self.score_label, "text"),
                                   ("led", self.led_dot, "mode"), ("line_text", self.line, "text")):
            self.fbind(prop, lambda _w, v, widget=widget, attr=attr: setattr(widget, attr, v))
        self.bind(orient=lambda *_: self._arrange())
        app.bind(mm=lambda *_: self._arrange(), fs_l=lambda *_: self._arrange())
        self._arrange()

    def _arrange(self) -> None:
        """Put the parts in place for ``orient`` with the app's sizes (mm, type scale)."""
        app = _app()
        mm, s_line, m_line, l_line = app.mm, app.line_s, app.line_m, app.line_l
        self.clear_widgets()
        for w in (self.wind_badge, self.dealer_badge, self.name_label, self.score_label, self.led_dot, self.line,
                  self.grid):
            if w.parent is not None:
                w.parent.remove_widget(w)
        self.padding = mm * 0.8
        self.spacing = mm * 0.5
        badge = m_line
        for b in (self.wind_badge, self.dealer_badge):
            b.size_hint = (None, None)
            b.size = (badge, badge)
        self.led_dot.size_hint = (None, None)
        self.led_dot.size = (mm * 3, badge)
        self.grid.spacing = mm * 0.6
        button_h = app.touch
        if self.orient == "row":
            head = BoxLayout(size_hint_y=None, height=l_line, spacing=mm)
            marks = self.marks = BoxLayout(orientation="horizontal", size_hint=(None, 1), spacing=mm * 0.6)
            self._marks_width()
            for b in (self.wind_badge, self.dealer_badge):
                b.pos_hint = {"center_y": 0.5}
                marks.add_widget(b)
            self.name_label.size_hint = (1, 1)
            self.score_label.size_hint = (None, 1)
            head.add_widget(marks)
            head.add_widget(self.name_label)
            head.add_widget(self.led_dot)
            head.add_widget(self.score_label)
            self.add_widget(head)
            self.line.size_hint_y = None
            self.line.height = s_line
            self.line.shorten, self.line.shorten_from, self.line.max_lines = True, "right", 1  # the end goes first
            self.add_widget(self.line)
            self.grid.cols, self.grid.size_hint_y, self.grid.height = 6, None, button_h
            self.add_widget(self.grid)
        else:
            top = BoxLayout(size_hint_y=None, height=badge, spacing=mm * 0.6)
            top.add_widget(self.wind_badge)
            top.add_widget(self.dealer_badge)
            top.add_widget(Widget())
            top.add_widget(self.led_dot)
            self.add_widget(top)
            self.name_label.size_hint = (1, None)
            self.name_label.height = 2 * m_line
            self.add_widget(self.name_label)
            self.score_label.size_hint = (1, None)
            self.score_label.height = l_line
            self.add_widget(self.score_label)
            self.line.size_hint_y = 1
            self.line.shorten = False
            self._line_lines()
            self.add_widget(self.line)
            self.grid.cols, self.grid.size_hint_y = 2, None
            self.grid.height = 3 * button_h + 2 * self.grid.spacing[1]
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
    def depth(app: Any) -> float:
        """How tall a ``row`` panel is (the table screen lays the seats out with it)."""
        return float(app.mm * 1.6 + app.line_l + app.line_s + 2 * app.mm * 0.5 + app.touch)

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
        self.line_text = " · ".join(parts)

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
