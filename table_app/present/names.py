"""How wide a player's name is on a screen, and whether four names can start a session.

>>> name_width("欧阳司马诸葛上官"), name_width("Maximilianus")
(12.0, 12.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.errors import InvalidEventError, RuleError
from engine.fields import check_text
from engine.session_events import check_seated_once
from table_app.present.refusals import refusal
from table_app.present.table import PLACES
from table_app.present.words import tr

NAME_ROOM: Final = 12  # a name fits the table screen whole: 8 Chinese characters or 12 letters


def name_width(name: str) -> float:
    """A name's width in Latin letters (a CJK character is one and a half)."""
    return sum(1.5 if ord(c) > 0x2E80 else 1.0 for c in name)


def names_refused(names: Sequence[str]) -> tuple[str, str, str]:
    """Why these four names cannot start a session, as (code, zh, en); ("", "", "") if they can:
    the engine's rules for names (printable; one player at one seat: its code) and the screen's
    room (``invalid.name``).

    >>> names_refused(["阿强", "Bo", "阿强", "Di"])
    ('seat.same_name', '两位玩家同名：阿强', 'Two players have the same name: 阿强')
    >>> names_refused(["A", "B", "C", "D"])
    ('', '', '')
    """
    for place, name in zip(PLACES, names, strict=True):
        if not name.strip() or not _printable(name):
            key = "name_missing" if not name.strip() else "name_unprintable"
            return "invalid.name", tr(key, "zh", place=tr(f"place_{place}", "zh")), \
                tr(key, "en", place=tr(f"place_{place}", "en"))
        if name_width(name) > NAME_ROOM:
            return "invalid.name", tr("name_too_long", "zh", name=name), tr("name_too_long", "en", name=name)
    try:
        check_seated_once(names, None, "new_session")  # (one player, one seat: the engine's rule)
    except RuleError as e:
        return e.code, refusal(e.code, e.params, str(e), names, "zh"), refusal(e.code, e.params, str(e), names, "en")
    return "", "", ""


def names_problem(names: Sequence[str], lang: str) -> str:
    """Why these four names cannot start a session, in ``lang`` ("" if they can: :func:`names_refused`)."""
    _, zh, en = names_refused(names)
    return zh if lang == "zh" else en


def _printable(name: str) -> bool:
    try:
        check_text(name, "players", "new_session")  # (the engine's one rule for names)
    except InvalidEventError:
        return False
    return True
