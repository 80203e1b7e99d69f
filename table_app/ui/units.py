"""Sizes in millimetres on the real screen (no Kivy here).

The screen's pixels per millimetre come from its diagonal (``ui.diagonal_in`` in the config,
7 inches by default — the Raspberry Pi touch display and most 7" HDMI panels): a window of
800×480 px then draws what the 7" panel shows, and 1024×600 or 1280×720 draw the same
millimetres with more pixels. Every size of the app is given in mm: a score is
:data:`SCORE_MM` tall, a name :data:`NAME_MM`, a touch target at least :data:`TOUCH_MM`.

Three font sizes only (:func:`type_scale`): each size of a font is one more face the text
renderer keeps open (about 3 MB each for the CJK font), so the app uses exactly these.

>>> round(px_per_mm(800, 480, 7.0), 2)
5.25
>>> type_scale(px_per_mm(800, 480, 7.0))
TypeScale(small=19, name=27, score=42)
"""

from __future__ import annotations

import math
from typing import Final, NamedTuple

MM_PER_INCH: Final = 25.4
DEFAULT_SIZE: Final = (1280, 720)  # the window's size in px when nothing says otherwise
DEFAULT_DIAGONAL_IN: Final = 7.0
SCORE_MM: Final = 8.0  # the running score, readable from a metre
NAME_MM: Final = 5.0  # names, buttons' words, the status line
SMALL_MM: Final = 3.5  # detail lines (bets, tiles in hand, discards)
TOUCH_MM: Final = 10.0  # a button's height (and at least its width)
LINE: Final = 1.45  # a line of the CJK font is 1.45 em tall (ascent + descent)


class TypeScale(NamedTuple):
    """The app's three font sizes in px: small (detail), name (names, buttons), score."""

    small: int
    name: int
    score: int


def px_per_mm(width: int, height: int, diagonal_in: float = DEFAULT_DIAGONAL_IN) -> float:
    """Pixels per millimetre of a ``width``×``height`` screen ``diagonal_in`` inches across."""
    if diagonal_in <= 0:
        raise ValueError(f"a screen's diagonal is > 0 inches, got {diagonal_in!r}")
    return math.hypot(width, height) / (diagonal_in * MM_PER_INCH)


def type_scale(ppm: float) -> TypeScale:
    """Font sizes (whole px, rounded up so that no size falls under its mm)."""
    return TypeScale(math.ceil(SMALL_MM * ppm), math.ceil(NAME_MM * ppm), math.ceil(SCORE_MM * ppm))
