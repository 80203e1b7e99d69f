"""Simulated hardware for ``xian-table run --sim`` (no Kivy here): keys stand for the
buttons of the panel (docs/design.md: each seat's TURN, CHI, PENG, GANG, HU and the dice button).
A key sends the press of its button to the table, exactly as the panel would; the engine's
one button mapping says what it means now.

>>> KEYS["q"], KEYS["spacebar"]
((1, 'TURN'), (None, 'DICE'))
"""

from __future__ import annotations

from typing import Final

from engine.presses import SEAT_BUTTONS

_ROWS: Final = ("12345", "qwert", "asdfg", "zxcvb")
KEYS: Final[dict[str, tuple[int | None, str]]] = {
    **{key: (seat, SEAT_BUTTONS[i]) for seat, row in enumerate(_ROWS) for i, key in enumerate(row)},
    "spacebar": (None, "DICE"),
}
