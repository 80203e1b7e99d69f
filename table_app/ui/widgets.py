"""The app's small widgets: buttons whose words always fit, the labels for names and scores,
the badges of the wind and the dealer, and :class:`Turned` (a widget turned toward a side of
the table). Their look is in ``widgets.kv``; sizes come from the app's mm and type scale
(``table_app.ui.units``)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.graphics.transformation import Matrix
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.scatter import Scatter
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget

from table_app.ui.units import LINE


def _app() -> Any:
    return App.get_running_app()


def text_width(text: str, font_size: float) -> float:
    """The width of ``text``'s widest line at ``font_size`` (the font's metrics, no texture)."""
    label = CoreLabel(font_size=font_size)
    return max((label.get_extents(line)[0] for line in text.split("\n")), default=0)


def breakable(text: str) -> str:
    """``text`` with a space before each opening bracket inside a run of Chinese, where the
    line may break: Kivy breaks a line at spaces, and a run too long for its line anywhere —
    once leaving a lone "）" on a line of its own.

    >>> breakable("该你掷骰（定哪家的墙） · 注0")
    '该你掷骰 （定哪家的墙） · 注0'
    """
    return re.sub(r"(?<=[^\s（(])（", " （", text)


def keep_last(text: str) -> str:
    """``text`` with its last word held to the one before (a no-break space): an amount at the
    end of a line never wraps onto a line of its own.

    >>> keep_last("Christabella pays 欧阳诸葛司马东方 6")
    'Christabella pays 欧阳诸葛司马东方\xa06'
    """
    head, sep, last = text.rpartition(" ")
    return f"{head}\u00a0{last}" if sep and head else text


class FitText:
    """A button's words in the name size (5 mm), or the small size (3.5 mm) when they would
    not fit on one line; they wrap only if even that is too wide. Buttons in one row (a seat's
    six: ``peers``) take one size together: the small one if any of them needs it."""

    text: str
    width: float
    big: bool
    font_size: float
    text_size: tuple[float, float | None]
    peers: Sequence[FitText] | None = None

    def _fit(self, *_: object) -> None:
        app = _app()
        if app is None or not self.text:
            return
        big = app.fs_m if self.big else app.fs_s
        group = [b for b in (self.peers or [self]) if b.text]
        fits = all(text_width(b.text, big) <= b.width - app.mm for b in group)  # (the name size keeps a margin)
        for b in group:
            b.font_size = big if fits else app.fs_s
            b.text_size = (max(1.0, b.width - 2), None)


class BigButton(FitText, Button):  # type: ignore[misc]  # Kivy is untyped
    """A touch target at least 10 mm tall (the kv rule); ``style`` picks its colour
    (palette.BUTTON), ``action`` says what it does (the tests find buttons by it)."""

    action = StringProperty("")
    style = StringProperty("plain")
    seat = NumericProperty(-1)
    big = True

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self.bind(text=self._fit, width=self._fit)
        app = _app()
        if app is not None:
            app.bind(fs_m=self._fit)
        self._fit()


class BigToggle(FitText, ToggleButton):  # type: ignore[misc]  # Kivy is untyped
    value = ObjectProperty(None)
    big = True

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self.bind(text=self._fit, width=self._fit)
        self._fit()


class Text(Label):  # type: ignore[misc]  # Kivy is untyped
    """Words in the name size (5 mm)."""


class Small(Label):  # type: ignore[misc]  # Kivy is untyped
    """Words in the small size (3.5 mm): details, explanations."""


SUIT_INK = ((0.7, 0.08, 0.08, 1), (0.08, 0.22, 0.6, 1), (0.05, 0.45, 0.15, 1))
HONOUR_INK = ((0.1, 0.1, 0.1, 1),) * 4 + ((0.78, 0.06, 0.06, 1), (0.05, 0.45, 0.15, 1), (0.15, 0.3, 0.7, 1))


def tile_ink(t: int) -> tuple[float, float, float, float]:
    """The colour a tile's characters are printed in (万 red, 筒 blue, 条 green; 中 red, 发 green)."""
    return HONOUR_INK[t - 27] if t >= 27 else SUIT_INK[t // 9]


class TileButton(Button):  # type: ignore[misc]  # Kivy is untyped
    """A tile to tap: its picture (the characters on an ivory face), not its mpsz name."""

    tile = NumericProperty(0)
    action = StringProperty("")


class TileFace(Label):  # type: ignore[misc]  # Kivy is untyped
    """A small tile picture (the hand being entered)."""

    tile = NumericProperty(0)


class FitLabel(Label):  # type: ignore[misc]  # Kivy is untyped
    """One line of words (a title, the status): the name size if it fits, else the small
    size; two lines of it where the box is tall enough (a long name in the table's line); only
    then is the end cut off (never the middle, where a name would be)."""

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self.shorten, self.shorten_from = True, "right"
        self.bind(text=self._fit, size=self._fit)
        app = _app()
        if app is not None:
            app.bind(fs_m=self._fit)
        self._fit()

    def _fit(self, *_: object) -> None:
        app = _app()
        if app is None:
            return
        room = max(1.0, self.width - app.mm)
        fits = room - 2  # (Kivy's own line measure may round a pixel or two wider: 514 px in 514.2 was cut)
        big = text_width(self.text, app.fs_m) <= fits
        two = not big and text_width(self.text, app.fs_s) > fits and self.height >= 2 * LINE * app.fs_s
        self.font_size = app.fs_m if big else app.fs_s
        self.shorten, self.max_lines = not two, 2 if two else 0
        self.text_size = (room, self.height)


class NameLabel(Label):  # type: ignore[misc]  # Kivy is untyped
    """A player's name, its glyphs 5 mm tall (Chinese characters, or a Latin name's capitals:
    ``units.is_latin``), never shortened; the screens give it the room of 8 characters."""


class ScoreLabel(Label):  # type: ignore[misc]  # Kivy is untyped
    """A running score, its digits 9 mm tall (``units.SCORE_MM``), in a box ``app.line_l`` tall
    that holds the digits' ink (the font's line, 1.45 em, is mostly room for CJK ascents)."""

    big = BooleanProperty(True)  # (kept for callers; every score is 9 mm)


class Badge(Label):  # type: ignore[misc]  # Kivy is untyped
    """A mark on its own light background (the wind, the dealer's 庄): legible on any panel."""

    kind = StringProperty("wind")
    big = BooleanProperty(False)


class QrCode(Widget):  # type: ignore[misc]  # Kivy is untyped
    """The QR code of ``url`` (the phones' join link), square, as big as the box allows, each
    module a whole number of pixels (a phone's camera reads it from across the table)."""

    url = StringProperty("")

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self._texture: Any = None
        self.bind(url=self._make, pos=self._draw, size=self._draw)
        self._make()

    def _make(self, *_: object) -> None:
        from kivy.graphics.texture import Texture

        from table_app.present.qr import qr_rows

        self._texture = None
        if self.url:
            rows = qr_rows(self.url, border=2)
            n = len(rows)
            # (a texture's first row is its bottom one: the rows go in from the bottom up)
            pixels = bytes(0 if dark else 255 for row in reversed(rows) for dark in row for _ in range(3))
            texture = Texture.create(size=(n, n), colorfmt="rgb")
            texture.blit_buffer(pixels, colorfmt="rgb", bufferfmt="ubyte")
            texture.mag_filter = "nearest"
            self._texture = texture
        self._draw()

    def _draw(self, *_: object) -> None:
        from kivy.graphics import Color, Rectangle

        self.canvas.clear()
        if self._texture is None:
            return
        n = self._texture.width
        side = n * max(1, int(min(self.width, self.height) // n))
        with self.canvas:
            Color(1, 1, 1, 1)
            # (from x, y and the size: ``center`` may not have followed them yet in their callbacks)
            Rectangle(texture=self._texture, size=(side, side),
                      pos=(int(self.x + (self.width - side) / 2), int(self.y + (self.height - side) / 2)))


class Turned(Widget):  # type: ignore[misc]  # Kivy is untyped
    """Holds ``content`` turned by ``angle`` degrees counter-clockwise (0, 90, 180, 270) to face
    a side of the table; touches reach it turned the same way (a Scatter that never moves)."""

    angle = NumericProperty(0)

    def __init__(self, content: Widget, angle: float = 0, **kw: object) -> None:
        super().__init__(**kw)
        self.content = content
        self.scatter = Scatter(do_rotation=False, do_scale=False, do_translation=False, size_hint=(None, None),
                               auto_bring_to_front=False)
        content.size_hint = (None, None)
        self.scatter.add_widget(content)
        self.add_widget(self.scatter)
        self.angle = angle
        self.bind(pos=self._place, size=self._place, angle=self._place)
        self._place()

    def _place(self, *_: object) -> None:
        w, h = self.size
        cw, ch = (w, h) if self.angle % 180 == 0 else (h, w)
        self.scatter.size = (cw, ch)
        self.content.pos = (0, 0)
        self.content.size = (cw, ch)
        # (a.multiply(b) applies b first): move the content's centre to 0, turn it, put it on our centre
        centre = Matrix().translate(-cw / 2, -ch / 2, 0)
        turn = Matrix().rotate(math.radians(self.angle), 0, 0, 1).multiply(centre)
        self.scatter.transform = Matrix().translate(self.center_x, self.center_y, 0).multiply(turn)
