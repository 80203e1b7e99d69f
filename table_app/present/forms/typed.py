"""An amount as a player types it, read once for every form: the full-width digits of a Chinese
keyboard (３０), thousands commas (1,000), spaces around it; a phone's number as JSON.

>>> clean(" １,０００ ")
'1000'
>>> whole("３"), whole(7), whole("2.5"), whole(True), whole(-1), whole("1,000,001"), whole("9" * 5000)
(3, 7, None, None, None, None, None)
"""

from __future__ import annotations

import unicodedata

from engine.fields import MAX_AMOUNT

DIGITS_MAX = 12  # longer is out of bounds anyway (and int() of thousands of digits refuses)


def clean(text: str) -> str:
    """The typed text as plain ASCII where it can be, without commas or spaces around it."""
    return unicodedata.normalize("NFKC", text).strip().replace(",", "")


def whole(value: object, most: int = MAX_AMOUNT) -> int | None:
    """A whole number 0..``most`` from a JSON number or a typed text (None: not one)."""
    if isinstance(value, str):
        text = clean(value)
        value = int(text) if text.isascii() and text.isdigit() and len(text) <= DIGITS_MAX else None
    if type(value) is not int or not 0 <= value <= most:  # (True is not 1)
        return None
    return value


__all__ = ["clean", "whole"]
