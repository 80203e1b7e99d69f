"""Widgets of the table app: big buttons, a seat's panel, the wall drawing, the dice pad,
the running-totals chart and a confirmation dialog. Their look is in ``kv/common.kv``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget

from table_app.ui.text import tr
from table_app.ui.wallmodel import HEAD, PRESENT, TAIL, WallView, screen_index

SEAT_COLOURS = ((0.95, 0.45, 0.35, 1), (0.35, 0.75, 0.95, 1), (0.55, 0.9, 0.45, 1), (0.95, 0.85, 0.35, 1))


class BigButton(Button):  # type: ignore[misc]  # Kivy is untyped
    """A touch target of at least 48 px (the kv rule sets the minimum size)."""

    action = StringProperty("")
    seat = NumericProperty(-1)


class BigToggle(ToggleButton):  # type: ignore[misc]  # Kivy is untyped
    value = ObjectProperty(None)


class SeatPanel(BoxLayout):  # type: ignore[misc]  # Kivy is untyped
    """One seat: wind, name, dealer mark and streak, score, bet, hand summary, its buttons."""

    seat = NumericProperty(0)
    title = StringProperty("")
    mark = StringProperty("")
    score = StringProperty("0")
    detail = StringProperty("")
    active = BooleanProperty(False)  # its turn / its roll
    lit = BooleanProperty(False)  # a hardware press just arrived from this seat
    lit_text = StringProperty("")
    refused = BooleanProperty(False)  # what lit it is a refused press (red, with the reason)
    led = StringProperty("off")  # what the seat's LED shows: off, on, blink
    actions = ListProperty([])
    betting = BooleanProperty(False)
    cols = NumericProperty(5)
    on_action: Callable[[int, str], None] | None = None

    def set_actions(self, actions: list[str], lang: str) -> None:
        box = self.ids.buttons
        box.clear_widgets()
        self.actions = list(actions)
        if self.betting:
            for act, label in (("bet_down", "−"), ("bet_up", "+")):
                box.add_widget(self._button(act, f"{tr('bet', lang)} {label}"))
        for act in actions:
            box.add_widget(self._button(act, tr(f"act_{act}", lang)))

    def _button(self, action: str, text: str) -> BigButton:
        b = BigButton(text=text, action=action, seat=self.seat)
        b.bind(on_release=lambda btn: self.on_action and self.on_action(self.seat, btn.action))
        return b

    def flash(self, text: str, refused: bool = False) -> None:
        """Light the panel for a moment: a press from the seat's wired buttons (``text`` says
        what it did), or in red a refused press with the reason (a little longer, to be read)."""
        from kivy.clock import Clock

        self.lit, self.lit_text, self.refused = True, text, refused
        Clock.unschedule(self._unflash)
        Clock.schedule_once(self._unflash, 4.0 if refused else 2.0)

    def _unflash(self, *_: Any) -> None:
        self.lit = False


class WallWidget(Widget):  # type: ignore[misc]  # Kivy is untyped
    """The ring of 68 stacks drawn in front of their owners (seat 0 at the bottom, then
    counter-clockwise). Each stack shows its upper half (toward the centre) and its lower
    half: ivory on the table, dark when taken from the head, orange when taken as a kong
    replacement; the kong reserve has a red edge, the next head draw a green frame, the
    tail (最后一墩) a blue frame, the break point a white bar."""

    view = ObjectProperty(None, allownone=True)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(pos=self.redraw, size=self.redraw, view=self.redraw)

    def stack_rect(self, wall: int, stack: int, direction: str) -> tuple[float, float, float, float, int]:
        """(x, y, w, h, side) of a stack; side says which way is the centre (0 up, 1 left, 2 down, 3 right)."""
        x0, y0, w, h = self.x, self.y, self.width, self.height
        cell_w, cell_h = w / 19.0, h / 19.0
        depth_x, depth_y = cell_w * 1.0, cell_h * 1.0
        i = screen_index(stack, direction)
        if wall == 0:  # bottom, left → right
            return x0 + cell_w * (1 + i), y0, cell_w, depth_y, 0
        if wall == 1:  # right, bottom → top
            return x0 + w - depth_x, y0 + cell_h * (1 + i), depth_x, cell_h, 1
        if wall == 2:  # top, right → left
            return x0 + w - cell_w * (2 + i), y0 + h - depth_y, cell_w, depth_y, 2
        return x0, y0 + h - cell_h * (2 + i), depth_x, cell_h, 3  # left, top → bottom

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        v: WallView | None = self.view
        if v is None:
            return
        colours = {PRESENT: (0.96, 0.93, 0.82, 1), HEAD: (0.18, 0.2, 0.22, 1), TAIL: (1.0, 0.55, 0.1, 1)}
        with self.canvas:
            for (wall, stack), cell in v.cells.items():
                x, y, w, h, side = self.stack_rect(wall, stack, v.direction)
                pad = 1.0
                # split toward the centre: the upper half is the inner one
                if side in (0, 2):
                    inner_y = y + h / 2 if side == 0 else y
                    outer_y = y if side == 0 else y + h / 2
                    halves = ((cell.upper, x + pad, inner_y, w - 2 * pad, h / 2 - pad / 2),
                              (cell.lower, x + pad, outer_y, w - 2 * pad, h / 2 - pad / 2))
                else:
                    inner_x = x if side == 1 else x + w / 2
                    outer_x = x + w / 2 if side == 1 else x
                    halves = ((cell.upper, inner_x, y + pad, w / 2 - pad / 2, h - 2 * pad),
                              (cell.lower, outer_x, y + pad, w / 2 - pad / 2, h - 2 * pad))
                for state, hx, hy, hw, hh in halves:
                    Color(*colours[state])
                    Rectangle(pos=(hx, hy), size=(hw, hh))
                if cell.reserve:
                    Color(0.9, 0.15, 0.15, 1)
                    Line(rectangle=(x + 1, y + 1, w - 2, h - 2), width=1.2)
            for mark, colour in ((v.tail, (0.2, 0.5, 1, 1)), (v.next_head, (0.1, 0.9, 0.2, 1))):
                if mark is not None:
                    mx, my, mw, mh, _side = self.stack_rect(mark[0], mark[1], v.direction)
                    Color(*colour)
                    Line(rectangle=(mx - 1, my - 1, mw + 2, mh + 2), width=2.2)
            if v.head is not None and v.tail is not None:
                ax, ay, aw, ah, _side = self.stack_rect(v.head[0], v.head[1], v.direction)
                tx, ty, tw, th, _side = self.stack_rect(v.tail[0], v.tail[1], v.direction)
                Color(1, 1, 1, 1)
                cx, cy = (ax + aw / 2 + tx + tw / 2) / 2, (ay + ah / 2 + ty + th / 2) / 2
                Line(circle=(cx, cy, max(3.0, min(aw, ah) * 0.35)), width=2)


class DicePad(ModalView):  # type: ignore[misc]  # Kivy is untyped
    """Two dice entered by touch (or Random); ``on_done(a, b)`` gets them on OK."""

    title = StringProperty("")
    die_a = NumericProperty(0)
    die_b = NumericProperty(0)

    def __init__(self, on_done: Callable[[int, int], None], **kw: Any) -> None:
        super().__init__(**kw)
        self.on_done = on_done

    def pick(self, which: str, value: int) -> None:
        setattr(self, which, value)

    def randomise(self) -> None:
        self.die_a, self.die_b = random.randint(1, 6), random.randint(1, 6)
        for row, v in ((self.ids.row_a, self.die_a), (self.ids.row_b, self.die_b)):
            for b in row.children:
                b.state = "down" if b.value == v else "normal"

    def done(self) -> None:
        if self.die_a and self.die_b:
            self.dismiss()
            self.on_done(self.die_a, self.die_b)


class ConfirmDialog(ModalView):  # type: ignore[misc]  # Kivy is untyped
    text = StringProperty("")

    def __init__(self, text: str, on_yes: Callable[[], None], **kw: Any) -> None:
        super().__init__(**kw)
        self.text = text
        self.on_yes = on_yes

    def yes(self) -> None:
        self.dismiss()
        self.on_yes()


class ChoiceDialog(ModalView):  # type: ignore[misc]  # Kivy is untyped
    """A question with one big button per answer (and the background tap to cancel)."""

    def __init__(self, text: str, choices: list[tuple[str, Callable[[], None]]], **kw: Any) -> None:
        super().__init__(size_hint=(0.6, 0.45), **kw)
        box = BoxLayout(orientation="vertical", padding=dp(12), spacing=dp(10))
        box.add_widget(Label(text=text, font_size="24sp"))
        row = BoxLayout(spacing=dp(10))
        for label, fn in choices:
            b = BigButton(text=label, action=label)
            b.bind(on_release=lambda _b, fn=fn: (self.dismiss(), fn()))
            row.add_widget(b)
        box.add_widget(row)
        self.add_widget(box)


class TotalsChart(Widget):  # type: ignore[misc]  # Kivy is untyped
    """Running totals hand by hand, one line per seat (``series``: list of 4-score lists)."""

    series = ListProperty([])

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(pos=self.redraw, size=self.redraw, series=self.redraw)

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        pts = self.series
        with self.canvas:
            Color(0.3, 0.3, 0.3, 1)
            Line(rectangle=(self.x, self.y, self.width, self.height), width=1)
            if len(pts) < 1:
                return
            lo = min(min(p) for p in [*pts, [0, 0, 0, 0]])
            hi = max(max(p) for p in [*pts, [0, 0, 0, 0]])
            span = max(1, hi - lo)
            n = max(1, len(pts) - 1)
            pad = dp(8)

            def xy(i: int, v: float) -> tuple[float, float]:
                return (self.x + pad + (self.width - 2 * pad) * i / n,
                        self.y + pad + (self.height - 2 * pad) * (v - lo) / span)

            Color(0.5, 0.5, 0.5, 1)
            Line(points=[*xy(0, 0), *xy(n, 0)], width=1, dash_length=4, dash_offset=4)
            for seat in range(4):
                Color(*SEAT_COLOURS[seat])
                line = [c for i, p in enumerate(pts) for c in xy(i, p[seat])]
                if len(line) >= 4:
                    Line(points=line, width=2)
                else:
                    Line(circle=(*line, 3), width=2)


def seat_label(text: str, seat: int) -> Label:
    return Label(text=text, color=SEAT_COLOURS[seat], size_hint_y=None, height=dp(32))


def app() -> Any:
    return App.get_running_app()
