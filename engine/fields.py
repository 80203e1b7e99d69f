"""The checks of an event's fields (``engine.events``, ``engine.scored``, ``engine.presses``):
each returns the value as the event keeps it, or raises :class:`InvalidEventError` saying
what the field must be and quoting the event (``src``) where given.

>>> check_seat(2, "seat", "discard"), check_dice([3, 4], "dice", "roll"), check_tile("5p", "tile", "discard")
(2, (3, 4), 13)
>>> amount_text(10**40)
'a number of about 41 digits'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from engine.errors import InvalidEventError
from engine.seats import SEATS
from engine.tiles import TileError, is_tile, parse_tile

MAX_AMOUNT: Final = 10**6
"""The most a base, a bet or a bet unit may be: far above any table's stakes, and settlements stay short to print."""


def amount_text(value: object) -> str:
    """An amount for an error message: a huge int is described, never converted (over 4,300
    digits ``repr`` itself raises)."""
    if type(value) is int and not -(10**18) < value < 10**18:
        return f"a number of about {int(abs(value).bit_length() * 0.30103) + 1:,} digits"
    return repr(value)


def quoted_event(obj: Mapping[str, object]) -> str:
    """``repr`` of an event for an error, even one holding an int too long to convert."""
    try:
        return repr(dict(obj))
    except ValueError:
        return f"a {obj.get('type')!r} event holding a number too long to print"


def where(obj: object) -> str:
    """`` in {the event}`` for an error message, where the event is known."""
    return f" in {obj!r}" if obj is not None else ""


def check_seat(value: object, name: str, etype: str, src: object = None) -> int:
    """A seat 0..3."""
    if type(value) is not int or not 0 <= value < SEATS:
        raise InvalidEventError(f"{etype}: {name!r} must be a seat 0..3, got {value!r}{where(src)}")
    return value


PLAYER_ID_MAX: Final = 2**31 - 1


def check_player_id(value: object, name: str, etype: str) -> int:
    """A player of the table's roster (``table_app/core/roster.py``): a whole number from 1.

    >>> check_player_id(7, "player_id", "name")
    7
    """
    if type(value) is not int or not 1 <= value <= PLAYER_ID_MAX:
        raise InvalidEventError(f"{etype}: {name!r} must be a roster player's id (a whole number >= 1), got {value!r}")
    return value


def check_player_ids(value: object, etype: str) -> tuple[int | None, int | None, int | None, int | None]:
    """Each seat's roster player (None: not in the roster), as ``new_session`` carries them.

    >>> check_player_ids([3, None, 1, 2], "new_session")
    (3, None, 1, 2)
    """
    if not isinstance(value, tuple | list) or len(value) != SEATS:
        raise InvalidEventError(f"{etype}: 'player_ids' must be 4 roster ids (or null), one per seat, got {value!r}")
    a, b, c, d = (None if i is None else check_player_id(i, "player_ids", etype) for i in value)
    return a, b, c, d


def check_bets(value: object, etype: str, src: object = None) -> tuple[int, int, int, int]:
    """Every seat's bet: 4 whole numbers 0..MAX_AMOUNT (the ``bets`` event, a scored hand's)."""
    if not isinstance(value, list | tuple) or len(value) != SEATS or any(
        type(n) is not int or not 0 <= n <= MAX_AMOUNT for n in value
    ):
        shown = f"[{', '.join(map(amount_text, value[:8]))}]" if isinstance(value, list | tuple) else repr(value)
        raise InvalidEventError(
            f"{etype}: 'bets' must be 4 whole numbers >= 0 (each at most {MAX_AMOUNT:,}), one per seat, "
            f"got {shown}{where(src)}")
    return (value[0], value[1], value[2], value[3])


def check_dice(value: object, name: str, etype: str, src: object = None) -> tuple[int, int]:
    """Two dice, each 1..6, as a tuple."""
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or any(type(d) is not int or not 1 <= d <= 6 for d in value)
    ):
        raise InvalidEventError(f"{etype}: {name!r} must be two dice [a, b], each 1..6, got {value!r}{where(src)}")
    return (value[0], value[1])


def check_tile(value: object, name: str, etype: str, src: object = None) -> int:
    """A tile from its mpsz text (JSON) or an int 0..33 (Python)."""
    if is_tile(value):
        return value
    if isinstance(value, str):
        try:
            return parse_tile(value)
        except TileError as e:
            raise InvalidEventError(f"{etype}: {name!r}: {e}{where(src)}") from None
    raise InvalidEventError(f"{etype}: {name!r} must be one tile in mpsz text like '5p', got {value!r}{where(src)}")


NAME_MAX: Final = 12


def unsafe_char(text: str) -> str | None:
    r"""The first character no command may carry in any string (None: none): a control
    character (C0 with NUL, ESC and line breaks, DEL, C1) or a lone surrogate (a JSON ``\ud800``
    escape decodes to one; it cannot be written as UTF-8, to a journal or a socket).

    >>> unsafe_char("阿强 'A'"), unsafe_char("a\x1b[2J"), unsafe_char("\ud800"), unsafe_char("a\u202eb")
    (None, '\x1b', '\ud800', None)
    """
    for c in text:
        if c < " " or "\x7f" <= c <= "\x9f" or "\ud800" <= c <= "\udfff":
            return c
    return None


def check_text(value: object, field: str, etype: str) -> str:
    r"""Text a screen or a terminal shows (a player's name): a string, every character printable
    (``str.isprintable``: no control, format, separator other than the space, surrogate,
    private-use or unassigned character — so no terminal escape, no NUL, no bidi override).

    >>> check_text("王 'A'", "players", "new_session")
    "王 'A'"
    >>> check_text("\x1b[2J", "players", "new_session")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidEventError: new_session: 'players' must be printable text ...
    """
    if not isinstance(value, str) or not value.isprintable():
        shown = value if isinstance(value, str) and len(value) <= 40 else f"{str(value)[:40]}…"
        raise InvalidEventError(f"{etype}: {field!r} must be printable text (no control characters), got {shown!r}",
                                "invalid.name")
    return value


def printable(text: str) -> str:
    r"""``text`` for a terminal: every unprintable character (a control character, an escape,
    a lone surrogate) shown as its Python escape, so that stored text never acts on a terminal.

    >>> printable("a\x1b[2Jb\x00\ud800 阿强")
    'a\\x1b[2Jb\\x00\\ud800 阿强'
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def check_name(value: object, field: str = "name", etype: str = "name") -> str:
    """A player's name as a phone or the screen gives it: 1–12 characters once trimmed, every
    one printable (:func:`check_text`: no control, format or line characters); any script.

    >>> check_name("  阿强 ")
    '阿强'
    >>> check_name("a\u202eb")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidEventError: name: 'name' must be 1-12 printable characters, got 'a\u202eb'
    """
    if not isinstance(value, str) or not (name := value.strip()) or len(name) > NAME_MAX \
            or not name.isprintable():
        shown = value if isinstance(value, str) and len(value) <= 40 else f"{str(value)[:40]}…"
        raise InvalidEventError(f"{etype}: {field!r} must be 1-{NAME_MAX} printable characters, got {shown!r}",
                                "invalid.name")
    return check_text(name, field, etype)
