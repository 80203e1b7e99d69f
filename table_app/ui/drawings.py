"""What the app draws rather than writes: the wall ring, the running totals' chart, the claim
countdown bar and a mahjong tile's face."""

from __future__ import annotations

import math

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle, RoundedRectangle
from kivy.properties import ListProperty, NumericProperty, ObjectProperty
from kivy.uix.widget import Widget

from table_app.present.wall import HEAD, PRESENT, TAIL, WallView, screen_index
from table_app.ui.palette import COUNTDOWN, SEAT_COLOURS
from table_app.ui.widgets import text_width

WALL_COLOURS = {PRESENT: (0.96, 0.93, 0.82, 1), HEAD: (0.22, 0.24, 0.26, 1), TAIL: (1.0, 0.55, 0.1, 1)}


class WallWidget(Widget):  # type: ignore[misc]  # Kivy is untyped
    """The ring of 68 stacks in front of their owners (seat 0 at the bottom, then
    counter-clockwise), ``depth`` px deep. Each stack shows its upper half (toward the centre)
    and its lower half: ivory on the table, dark when taken from the head, orange when taken
    as a kong replacement; the kong reserve has a red edge, the next head draw a green frame,
    the tail (最后一墩) a blue frame, the break point a white ring."""

    view = ObjectProperty(None, allownone=True)
    depth = NumericProperty(0)  # 0: one 19th of the height

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self.bind(pos=self.redraw, size=self.redraw, view=self.redraw, depth=self.redraw)

    def stack_rect(self, wall: int, stack: int, direction: str) -> tuple[float, float, float, float, int]:
        """(x, y, w, h, side) of a stack; side says which way is the centre (0 up, 1 left, 2 down, 3 right)."""
        x0, y0, w, h = self.x, self.y, self.width, self.height
        d = self.depth or min(w, h) / 19.0
        along_x, along_y = (w - 2 * d) / 17.0, (h - 2 * d) / 17.0
        i = screen_index(stack, direction)
        if wall == 0:  # bottom, left → right
            return x0 + d + along_x * i, y0, along_x, d, 0
        if wall == 1:  # right, bottom → top
            return x0 + w - d, y0 + d + along_y * i, d, along_y, 1
        if wall == 2:  # top, right → left
            return x0 + w - d - along_x * (i + 1), y0 + h - d, along_x, d, 2
        return x0, y0 + h - d - along_y * (i + 1), d, along_y, 3  # left, top → bottom

    @staticmethod
    def halves(x: float, y: float, w: float, h: float, side: int) -> list[tuple[str, float, float, float, float]]:
        """The stack's two halves ("upper" toward the centre, then "lower"): (half, x, y, w, h)."""
        pad = 1.0
        if side in (0, 2):  # along the bottom or the top
            inner_y, outer_y = (y + h / 2, y) if side == 0 else (y, y + h / 2)
            return [("upper", x + pad, inner_y, w - 2 * pad, h / 2 - pad / 2),
                    ("lower", x + pad, outer_y, w - 2 * pad, h / 2 - pad / 2)]
        inner_x, outer_x = (x, x + w / 2) if side == 1 else (x + w / 2, x)
        return [("upper", inner_x, y + pad, w / 2 - pad / 2, h - 2 * pad),
                ("lower", outer_x, y + pad, w / 2 - pad / 2, h - 2 * pad)]

    def redraw(self, *_: object) -> None:
        self.canvas.clear()
        v: WallView | None = self.view
        if v is None or self.width < 40 or self.height < 40:
            return
        quads: dict[str, tuple[list[float], list[int]]] = {state: ([], []) for state in WALL_COLOURS}
        edges: list[tuple[float, float, float, float]] = []  # the kong reserve's red edges
        for (wall, stack), cell in v.cells.items():
            x, y, w, h, side = self.stack_rect(wall, stack, v.direction)
            for state, hx, hy, hw, hh in self.halves(x, y, w, h, side):
                vertices, indices = quads[cell.upper if state == "upper" else cell.lower]
                n = len(vertices) // 4
                vertices += [hx, hy, 0, 0, hx + hw, hy, 0, 0, hx + hw, hy + hh, 0, 0, hx, hy + hh, 0, 0]
                indices += [n, n + 1, n + 2, n, n + 2, n + 3]
            if cell.reserve:
                edges.append((x + 1, y + 1, w - 2, h - 2))
        with self.canvas:
            for state, (vertices, indices) in quads.items():  # one draw a colour, not two a stack
                if indices:
                    Color(*WALL_COLOURS[state])
                    Mesh(vertices=vertices, indices=indices, mode="triangles")
            Color(0.9, 0.15, 0.15, 1)
            for edge in edges:
                Line(rectangle=edge, width=1.2)
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


class CountdownBar(Widget):  # type: ignore[misc]  # Kivy is untyped
    """The claim window as a bar that shrinks from both ends toward the middle (``left``:
    0..1 of the window still open; < 0 draws nothing)."""

    left = NumericProperty(-1.0)

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self.bind(pos=self.redraw, size=self.redraw, left=self.redraw)

    def redraw(self, *_: object) -> None:
        self.canvas.clear()
        if self.left < 0:
            return
        part = max(0.0, min(1.0, self.left))
        with self.canvas:
            Color(0.3, 0.3, 0.3, 0.8)
            Rectangle(pos=self.pos, size=self.size)
            Color(*COUNTDOWN)
            w = self.width * part
            Rectangle(pos=(self.center_x - w / 2, self.y), size=(w, self.height))


class TotalsChart(Widget):  # type: ignore[misc]  # Kivy is untyped
    """Running totals hand by hand, one line per seat (``series``: list of 4-score lists), on
    axes: the totals at the left (the lowest, 0, the highest), the hands along the bottom. Lines
    that run together are drawn side by side (each seat a little above or below its place) and
    every hand's total is a dot, so equal totals do not hide each other."""

    series = ListProperty([])

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self.bind(pos=self.redraw, size=self.redraw, series=self.redraw)

    def _text(self, text: str, x: float, y: float, anchor: str) -> float:
        """``text`` in the small size at (x, y): ``anchor`` "right" (a total, its middle at y) or
        "top" (a hand's number, its top at y); returns its width."""
        app = App.get_running_app()
        label = CoreLabel(text=text, font_size=app.fs_s, color=(0.75, 0.8, 0.77, 1))
        label.refresh()
        w, h = label.texture.size
        pos = (x - w, y - h / 2) if anchor == "right" else (x - w / 2, y - h)
        Color(1, 1, 1, 1)
        Rectangle(texture=label.texture, pos=(int(pos[0]), int(pos[1])), size=(w, h))
        return float(w)

    def redraw(self, *_: object) -> None:
        self.canvas.clear()
        app = App.get_running_app()
        pts = self.series
        if app is None or self.width < 40 or self.height < 40:
            return
        mm, line = app.mm, app.line_s
        lo = min(min(p) for p in [*pts, [0, 0, 0, 0]])
        hi = max(max(p) for p in [*pts, [0, 0, 0, 0]])
        span = max(1, hi - lo)
        n = max(1, len(pts) - 1)
        left = max(text_width(f"{v:+d}" if v else "0", app.fs_s) for v in (lo, hi)) + mm * 1.5
        x0, y0 = self.x + left, self.y + line
        w, h = self.right - mm * 2 - x0, self.top - line / 2 - y0

        def xy(i: int, v: float, seat: int = -1) -> tuple[float, float]:
            lift = 0.0 if seat < 0 else (seat - 1.5) * max(1.5, mm * 0.45)  # (equal totals side by side)
            return x0 + w * i / n, y0 + h * (v - lo) / span + lift

        with self.canvas:
            Color(0.45, 0.48, 0.5, 1)
            Line(points=[x0, y0 + h, x0, y0, x0 + w, y0], width=1.2)  # the axes
            for v in sorted({lo, 0, hi}):
                _x, y = xy(0, v)
                Color(0.45, 0.48, 0.5, 1)
                Line(points=[x0 - mm * 0.8, y, x0, y], width=1.2)
                if v == 0:
                    Line(points=[x0, y, x0 + w, y], width=1, dash_length=4, dash_offset=4)
                self._text(f"{v:+d}" if v else "0", x0 - mm, y, "right")
            step = max(1, math.ceil(n / 8))
            for i in range(0, len(pts), step):  # the hands: 0 is the start
                x, _y = xy(i, lo)
                Color(0.45, 0.48, 0.5, 1)
                Line(points=[x, y0, x, y0 - mm * 0.8], width=1.2)
                self._text(str(i), x, y0 - mm * 0.9, "top")
            for seat in range(4):
                Color(*SEAT_COLOURS[seat])
                line_pts = [c for i, p in enumerate(pts) for c in xy(i, p[seat], seat)]
                if len(line_pts) >= 4:
                    Line(points=line_pts, width=1.6)
                for i, p in enumerate(pts):
                    cx, cy = xy(i, p[seat], seat)
                    r = max(2.5, mm * 0.6)
                    Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))


class TileBack(Widget):  # type: ignore[misc]  # Kivy is untyped
    """A mahjong tile's ivory face behind its characters (the tile buttons and pictures)."""

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self.bind(pos=self.redraw, size=self.redraw)

    def redraw(self, *_: object) -> None:
        self.canvas.before.clear()
        with self.canvas.before:
            Color(0.97, 0.95, 0.88, 1)
            RoundedRectangle(pos=self.pos, size=self.size, radius=[min(self.width, self.height) * 0.12])
