"""The journal's source of a command, read back: which seat's phone sent it, with which tap
(``phone 2 tap <id>``): the core's (the step tracker, :mod:`table_app.core.steps`) and the phones'
(:mod:`table_app.web.taps`).
"""

from __future__ import annotations

import re

_SOURCE = re.compile(r"phone ([0-3])(?: tap ([A-Za-z0-9_-]{8,64}))?(?: |$)")


def phone_source(seat: int, tap: str = "") -> str:
    """The journal's source of a command a bound phone sent: its seat and its tap's id, so that
    the journal names who decided, and a tap is known as applied also after a restart.

    >>> phone_source(2, "3f9a0c12b7e4d5a6"), phone_source(0)
    ('phone 2 tap 3f9a0c12b7e4d5a6', 'phone 0')
    >>> s = "phone 2 tap 3f9a0c12b7e4d5a6 press 2:PENG"
    >>> source_seat(s), source_tap(s)
    (2, '3f9a0c12b7e4d5a6')
    >>> source_seat("gpio press 1:TURN"), source_tap("phone 1")
    (None, None)
    """
    return f"phone {seat} tap {tap}" if tap else f"phone {seat}"


def source_seat(source: str) -> int | None:
    """The seat whose phone sent a record's command (None: not a bound phone's)."""
    m = _SOURCE.match(source)
    return None if m is None else int(m.group(1))


def source_tap(source: str) -> str | None:
    """The tap id in a record's source (None: none)."""
    m = _SOURCE.match(source)
    return None if m is None else m.group(2)


__all__ = ["phone_source", "source_seat", "source_tap"]
