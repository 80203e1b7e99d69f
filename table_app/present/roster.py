"""How the roster's players look (issue 28; no Kivy).

A player's badge is the first letter of the name (a Latin one upper-cased) on a colour that
follows the roster id, so it stays the player's through a rename; a name not in the roster
has a grey badge. (What the new-session form accepts: :mod:`table_app.present.forms.new_session`.)

>>> badge("欧阳诸葛司马东方", 3), badge("maximilianus", None)
(('欧', 3), ('M', -1))
"""

from __future__ import annotations

from typing import Final

BADGE_COLOURS: Final = (
    (0.85, 0.33, 0.31, 1), (0.93, 0.6, 0.2, 1), (0.35, 0.68, 0.33, 1), (0.2, 0.6, 0.75, 1),
    (0.45, 0.45, 0.85, 1), (0.72, 0.4, 0.75, 1), (0.6, 0.5, 0.35, 1), (0.85, 0.45, 0.6, 1),
)
"""Eight colours far enough apart on the dark screen; a player's is ``BADGE_COLOURS[badge(...)[1]]``."""
NO_BADGE: Final = (0.45, 0.47, 0.5, 1)  # a name the roster does not have (yet)


def badge(name: str, pid: int | None) -> tuple[str, int]:
    """The badge's letter and colour index (-1: not in the roster)."""
    name = name.strip()
    letter = name[:1].upper() if name[:1].isascii() else name[:1]
    return letter, -1 if pid is None else pid % len(BADGE_COLOURS)


def badge_colour(index: int) -> tuple[float, float, float, float]:
    return NO_BADGE if index < 0 else BADGE_COLOURS[index % len(BADGE_COLOURS)]
