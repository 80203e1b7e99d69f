"""How wide a player's name is on a screen, and whether four names can start a session.

>>> name_width("欧阳司马诸葛上官"), name_width("Maximilianus")
(12.0, 12.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.errors import InvalidEventError
from engine.fields import check_text
from table_app.present.table import PLACES
from table_app.present.words import tr

NAME_ROOM: Final = 12  # a name fits the table screen whole: 8 Chinese characters or 12 letters


def name_width(name: str) -> float:
    """A name's width in Latin letters (a CJK character is one and a half)."""
    return sum(1.5 if ord(c) > 0x2E80 else 1.0 for c in name)


def names_problem(names: Sequence[str], lang: str) -> str:
    """Why these four names cannot start a session ("" if they can)."""
    for place, name in zip(PLACES, names, strict=True):
        if not name.strip():
            return tr("name_missing", lang, place=tr(f"place_{place}", lang))
        try:
            check_text(name, "players", "new_session")  # (the engine's one rule for names)
        except InvalidEventError:
            return tr("name_unprintable", lang, place=tr(f"place_{place}", lang))
        if name_width(name) > NAME_ROOM:
            return tr("name_too_long", lang, name=name)
    for i, name in enumerate(names):
        if name in names[:i]:
            return tr("names_same", lang, name=name)
    return ""
