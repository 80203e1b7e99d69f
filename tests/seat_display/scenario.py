"""The five screens as the table makes them: seat 2's views after the events of the end-to-end
test, the name message and the status, for drawing the same frames without a broker
(under MicroPython itself in ``test_firmware_micropython.py``)."""

from __future__ import annotations

import json
from typing import Any

from engine import replay
from engine.public import public_state
from table_app.mqtt.names import _font_path, name_payload
from table_app.present.seat import seat_view
from tests.support.mqtt import HAND

SEAT = 2
CLAIM_AFTER_MS = 1200

_TO_CLAIM = [{"type": "discard", "seat": 1}]
_TO_TURN = [{"type": "pass", "seat": s} for s in (2, 3, 0)]
_TO_WIN = [{"type": "discard", "seat": 2}, *[{"type": "pass", "seat": s} for s in (3, 0, 1)],
           {"type": "discard", "seat": 3}, {"type": "claim", "seat": 2, "call": "win"},
           {"type": "pass", "seat": 0}, {"type": "pass", "seat": 1}, {"type": "confirm_win", "wait": "plain"}]


def _view(events: list[dict[str, Any]]) -> bytes:
    view = seat_view(public_state(replay(events)), SEAT)
    view["seq"] = len(events)
    return json.dumps(view, ensure_ascii=False).encode()


def screens() -> list[tuple[str, list[tuple[str, bytes]], int, bool]]:
    """(screen, messages as (topic kind, payload), ms to wait before the frame, link down)."""
    idle = HAND[:9]
    claim = idle + _TO_CLAIM
    turn = claim + _TO_TURN
    win = turn + _TO_WIN
    name = name_payload(SEAT, "Cy", _font_path())
    return [
        ("idle", [("status", b"online"), ("name", name), ("view", _view(idle))], 0, False),
        ("claim", [("view", _view(claim))], CLAIM_AFTER_MS, False),
        ("your-turn", [("view", _view(turn))], 0, False),
        ("win", [("view", _view(win))], 0, False),
        ("offline", [], 0, True),
    ]
