"""The errors the table engine raises for events it refuses.

Two kinds, as python-chess has them: a malformed event (:class:`InvalidEventError`: an
unknown type or field, a value of the wrong kind) and a well-formed event the rules forbid
right now (:class:`IllegalEventError`). Both are :class:`RuleError`, and both are also
``ValueError``, so callers may catch either.

>>> issubclass(IllegalEventError, ValueError)
True
"""

from __future__ import annotations


class RuleError(ValueError):
    """An event the table refused; the message names the phase, the seat and what was wrong."""


class InvalidEventError(RuleError):
    """A malformed event: unknown type or field, a missing field, a value of the wrong kind."""


class IllegalEventError(RuleError):
    """A well-formed event that the rules do not allow in the table's current state."""
