"""The app's colours (no Kivy here), and the contrast check that keeps marks legible.

A seat's panel takes one of four colours (:data:`PANEL`): at rest, to move, lit by a press,
red with a refusal. The marks drawn on it — the dealer's 庄 and the wind — are badges with
their own light background, so they read the same on every panel colour (a red 庄 on the
orange flash vanished). :func:`contrast` is the WCAG contrast ratio; the tests ask for
4.5:1 between a badge's text and its background and 3:1 between the badge and each panel.

>>> round(contrast((1, 1, 1, 1), (0, 0, 0, 1)), 1)
21.0
"""

from __future__ import annotations

from typing import Final

RGBA = tuple[float, float, float, float]

PANEL: Final[dict[str, RGBA]] = {
    "rest": (0.13, 0.2, 0.16, 1),
    "active": (0.12, 0.36, 0.22, 1),
    "lit": (0.62, 0.42, 0.06, 1),
    "refused": (0.66, 0.12, 0.1, 1),
}
TABLE_BG: Final[RGBA] = (0.06, 0.09, 0.08, 1)
TEXT: Final[RGBA] = (1, 1, 1, 1)
STATUS: Final[RGBA] = (1, 0.92, 0.6, 1)
MESSAGE: Final[RGBA] = (1, 0.62, 0.42, 1)
DIM: Final[RGBA] = (0.75, 0.8, 0.77, 1)

DEALER_BG: Final[RGBA] = (1, 1, 1, 1)
DEALER_FG: Final[RGBA] = (0.72, 0.05, 0.05, 1)
WIND_BG: Final[RGBA] = (0.98, 0.86, 0.45, 1)
WIND_FG: Final[RGBA] = (0.1, 0.08, 0.02, 1)

BUTTON: Final[dict[str, RGBA]] = {
    "go": (0.2, 0.47, 0.85, 1),  # discard, roll, next hand: what moves the table on
    "win": (0.82, 0.24, 0.2, 1),
    "claim": (0.26, 0.6, 0.32, 1),
    "pass": (0.36, 0.42, 0.5, 1),
    "plain": (0.3, 0.33, 0.38, 1),
    "off": (0.2, 0.22, 0.24, 1),
}
COUNTDOWN: Final[RGBA] = (1, 0.8, 0.2, 1)
SEAT_COLOURS: Final = ((0.95, 0.45, 0.35, 1), (0.35, 0.75, 0.95, 1), (0.55, 0.9, 0.45, 1), (0.95, 0.85, 0.35, 1))


def _lum(c: RGBA) -> float:
    def chan(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (chan(x) for x in c[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGBA, b: RGBA) -> float:
    """WCAG 2 contrast ratio of two opaque colours (1 to 21)."""
    la, lb = sorted((_lum(a), _lum(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
