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
from table_app.present.forms.refused import Refused
from table_app.present.table import PLACES
from table_app.present.words import tr

NAME_ROOM: Final = 12  # a name fits the table screen whole: 8 Chinese characters or 12 letters


def name_width(name: str) -> float:
    """A name's width in Latin letters (a CJK character is one and a half)."""
    return sum(1.5 if ord(c) > 0x2E80 else 1.0 for c in name)


def names_refusal(names: Sequence[str]) -> Refused | None:
    """Why these four names cannot start a session (None: they can): the engine's rules for
    names (printable; one player at one seat: its code, ``seat.same_name``) and the screen's
    room (``invalid.name``).

    >>> names_refusal(["阿强", "Bo", "阿强", "Di"]).both()
    {'zh': '两位玩家同名：阿强', 'en': 'Two players have the same name: 阿强'}
    >>> names_refusal(["阿强", "", "C", "D"]).words("en"), names_refusal(["A", "B", "C", "D"])
    ('Give the player at the right a name', None)
    """
    for place, name in zip(PLACES, names, strict=True):
        if not name.strip() or not _printable(name):
            key = "name_missing" if not name.strip() else "name_unprintable"
            where = {"zh": tr(f"place_{place}", "zh"), "en": tr(f"place_{place}", "en")}
            return Refused(key, "invalid.name", "malformed", {"place": where})
        if name_width(name) > NAME_ROOM:
            return Refused("name_too_long", "invalid.name", "malformed", {"name": name})
    try:
        check_seated_once(names, None, "new_session")  # (one player, one seat: the engine's rule)
    except RuleError as e:
        return Refused(e.code, e.code, "malformed", dict(e.params), rule=e)  # (its words: vocab_refusals)
    return None


def names_problem(names: Sequence[str], lang: str) -> str:
    """Why these four names cannot start a session, in ``lang`` ("" if they can: :func:`names_refusal`)."""
    refused = names_refusal(names)
    return "" if refused is None else refused.words(lang)


def _printable(name: str) -> bool:
    try:
        check_text(name, "players", "new_session")  # (the engine's one rule for names)
    except InvalidEventError:
        return False
    return True
