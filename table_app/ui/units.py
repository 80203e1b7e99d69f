"""Sizes in millimetres on the real screen (no Kivy here).

The screen's pixels per millimetre come from its diagonal (``ui.diagonal_in`` in the config,
7 inches by default — the Raspberry Pi touch display and most 7" HDMI panels): a window of
800×480 px then draws what the 7" panel shows, and 1024×600 or 1280×720 draw the same
millimetres with more pixels. Every size of the app is given in mm.

Text is measured on its glyphs, not by its font size: a score's digits are :data:`SCORE_MM`
tall on the screen (their ink), a name's characters :data:`NAME_MM` — a Chinese character's
ink, and a Latin name's capitals and ascenders, which are smaller in the same font. The ink's
share of the font size is the CJK font's own (Noto Sans CJK, measured at 100 px: the digits
0.72–0.76 em (a 7 is the shortest), CJK characters 0.89–0.94 em (阿 the lowest), capitals
and ascenders 0.81 em; :data:`INK`), rounded down so that no size falls under its mm;
tests/table_app/ui/test_layout.py measures the pixels drawn.

Four font sizes only (:func:`type_scale`): each size of a font is one more face the text
renderer keeps open (about 3 MB each for the CJK font), so the app uses exactly these.

>>> round(px_per_mm(800, 480, 7.0), 2)
5.25
>>> type_scale(px_per_mm(800, 480, 7.0))
TypeScale(small=19, name=30, latin=33, score=67)
>>> type_scale(px_per_mm(1280, 720, 7.0))
TypeScale(small=29, name=47, latin=52, score=105)
"""

from __future__ import annotations

import math
from typing import Final, NamedTuple

MM_PER_INCH: Final = 25.4
DEFAULT_SIZE: Final = (1280, 720)  # the window's size in px when nothing says otherwise
DEFAULT_DIAGONAL_IN: Final = 7.0
SCORE_MM: Final = 9.0  # a running score's digits, read from a chair
NAME_MM: Final = 5.0  # names (and buttons' words, the status line: the same size)
SMALL_MM: Final = 3.5  # detail lines (bets, tiles in hand, discards): the font size
TOUCH_MM: Final = 10.0  # a button's height (and at least its width)
LINE: Final = 1.45  # a line of the CJK font is 1.45 em tall (ascent + descent)
INK: Final = {"digits": 0.71, "cjk": 0.88, "latin": 0.80}  # glyphs' ink height in em (rounded down)
SCORE_BOX: Final = 0.9  # a score's box in em: its digits' ink (0.41–1.17 em of the 1.45 em line, centred) and a margin


class TypeScale(NamedTuple):
    """The app's four font sizes in px: small (detail), name (names in Chinese characters,
    buttons' words, the status line), latin (names in Latin letters: 5 mm capitals), score."""

    small: int
    name: int
    latin: int
    score: int


def px_per_mm(width: int, height: int, diagonal_in: float = DEFAULT_DIAGONAL_IN) -> float:
    """Pixels per millimetre of a ``width``×``height`` screen ``diagonal_in`` inches across."""
    if diagonal_in <= 0:
        raise ValueError(f"a screen's diagonal is > 0 inches, got {diagonal_in!r}")
    return math.hypot(width, height) / (diagonal_in * MM_PER_INCH)


def ink_font(mm: float, ppm: float, ink: float) -> int:
    """The font size (whole px) whose glyphs of ``ink`` em are at least ``mm`` tall."""
    return math.ceil(mm * ppm / ink)


def type_scale(ppm: float) -> TypeScale:
    """Font sizes (whole px, rounded up so that no size falls under its mm)."""
    return TypeScale(math.ceil(SMALL_MM * ppm), ink_font(NAME_MM, ppm, INK["cjk"]),
                     ink_font(NAME_MM, ppm, INK["latin"]), ink_font(SCORE_MM, ppm, INK["digits"]))


def is_latin(name: str) -> bool:
    """A name written in Latin letters only (its capitals set its size), not in characters.

    >>> is_latin("Maximilianus"), is_latin("欧阳诸葛"), is_latin("Ann 李")
    (True, False, False)
    """
    return all(ord(c) < 0x2E80 for c in name)
