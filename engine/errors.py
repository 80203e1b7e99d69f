"""The errors the table engine raises for events it refuses.

Two kinds, as python-chess has them: a malformed event (:class:`InvalidEventError`: an
unknown type or field, a value of the wrong kind) and a well-formed event the rules forbid
right now (:class:`IllegalEventError`). Both are :class:`RuleError`, and both are also
``ValueError``, so callers may catch either.

A refusal may carry a ``code`` and its ``params`` (the seat, the action, who stands in the
way) so that a screen can word it in the player's language; the message is the English
wording of the same facts.

>>> issubclass(IllegalEventError, ValueError)
True
>>> e = IllegalEventError("turn: seat 2 cannot TURN: it is seat 0's turn", "press.not_turn", seat=2, turn=0)
>>> e.code, e.params
('press.not_turn', {'seat': 2, 'turn': 0})
"""

from __future__ import annotations

from typing import Any


class RuleError(ValueError):
    """An event the table refused; the message names the phase, the seat and what was wrong."""

    def __init__(self, message: str, code: str = "", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class InvalidEventError(RuleError):
    """A malformed event: unknown type or field, a missing field, a value of the wrong kind."""


class IllegalEventError(RuleError):
    """A well-formed event that the rules do not allow in the table's current state."""
