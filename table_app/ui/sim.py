"""Simulated hardware for ``xian-table run --sim`` (no Kivy here).

Keys stand for the panel's buttons (DESIGN.md serial protocol: ``BTN,<seat>,<TURN|CHI|PENG|
GANG|HU>`` and the dice button). A press becomes the command the table would take from
that button in the current phase; the engine decides whether it is allowed.

>>> KEYS["q"], KEYS["spacebar"]
((1, 'TURN'), (None, 'DICE'))
>>> pub = {"phase": "claims", "claims": {"kind": "discard", "from": 0, "waiting": [1, 2, 3]}}
>>> press_command(pub, 2, "PENG")
{'type': 'claim', 'seat': 2, 'call': 'pong'}
>>> press_command(pub, 3, "TURN")
{'type': 'pass', 'seat': 3}
"""

from __future__ import annotations

import random
import socket
from typing import Any, Final

from table_app.ui.view import roller

BUTTONS: Final = ("TURN", "CHI", "PENG", "GANG", "HU")
_ROWS: Final = ("12345", "qwert", "asdfg", "zxcvb")
KEYS: Final[dict[str, tuple[int | None, str]]] = {
    **{key: (seat, BUTTONS[i]) for seat, row in enumerate(_ROWS) for i, key in enumerate(row)},
    "spacebar": (None, "DICE"),
}
_CALLS: Final = {"CHI": "chow", "PENG": "pong", "GANG": "kong", "HU": "win"}


def press_command(pub: dict[str, Any], seat: int | None, button: str,
                  rng: random.Random | None = None) -> dict[str, Any] | None:
    """The command a button press stands for now, or None when it means nothing now."""
    phase = pub.get("phase")
    dice = None
    if phase in ("betting", "rolling") and button in ("DICE", "TURN"):
        r = roller(pub)
        if r is None or (seat is not None and seat != r):
            return None
        g = rng or random
        dice = [g.randint(1, 6), g.randint(1, 6)]
        return {"type": "roll", "dice": dice, "seat": r}
    if seat is None:
        return None
    if phase == "turn":
        if button == "TURN":
            return {"type": "discard", "seat": seat}
        if button == "GANG":
            return {"type": "kong", "seat": seat, "kind": "concealed"}
        if button == "HU":
            return {"type": "win", "seat": seat}
        return None
    if phase == "claims":
        if button == "TURN":
            return {"type": "pass", "seat": seat}
        return {"type": "claim", "seat": seat, "call": _CALLS[button]}
    return None


def broker_answers(host: str = "localhost", port: int = 1883, timeout: float = 0.5) -> bool:
    """Whether something listens on the MQTT port (the link is shown online/offline from this)."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False
