"""Result-only entry (只记分) from a phone (issue 27): the form itself — what it offers, its
checks, its ``score_hand`` command — is :mod:`table_app.present.forms.result`, the
touchscreen's too. Here only when the bets are in: the engine takes ``score_hand`` only before a
hand's first roll in phase ``betting``; once the four phones' bets are in (one ``bets`` event,
phase ``rolling``, no roll yet), :func:`bets_in` says so and the form offers to take them back
(an undo of the ``bets`` event) first.

>>> from engine.table import replay
>>> from engine.public import public_state
>>> pub = public_state(replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
...                            {"type": "seating", "method": "C", "east": 0}]))
>>> bets_in(pub) is None
True
"""

from __future__ import annotations

from engine.public import PublicState


def bets_in(public: PublicState) -> list[int] | None:
    """The bets the table holds when they are in and the hand has not begun (phase ``rolling``
    before the dealer's roll: a result can be entered once they are taken back), else None."""
    return list(public["bets"]) if public["phase"] == "rolling" and public["bets_open"] else None


__all__ = ["bets_in"]
