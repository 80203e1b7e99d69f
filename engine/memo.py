"""The engine's one cache: a bounded memo of a pure function of one hashable key.

Every table the engine learns as it goes (the break point's wall layouts, the shanten
vectors and profiles of suit patterns, the bots' combinations of them) is a :class:`Memo`:
look a key up with ``memo[key]``; a key not there yet is computed, kept and returned. When
``limit`` keys are kept the memo is emptied and fills again with the keys that come back,
so a long run on a Raspberry Pi holds tens of MB, not more. The function must be pure: a
memo only ever saves time, never changes an answer.

>>> squares = Memo(lambda n: n * n, limit=2)
>>> squares[3], squares[4], len(squares)
(9, 16, 2)
>>> squares[5], len(squares)   # full: emptied, then 5 kept
(25, 1)

``Memo(same, limit)`` (the key is its own value) shares equal values: ``shared[v]`` is the
first ``v`` equal to it that was kept, so many equal tuples take the memory of one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V], Generic[K, V]):
    """``compute(key)`` for each key asked, kept (at most ``limit`` keys; then emptied)."""

    def __init__(self, compute: Callable[[K], V], limit: int) -> None:
        super().__init__()
        self.compute = compute
        self.limit = limit

    def __missing__(self, key: K) -> V:
        value = self.compute(key)  # (may itself fill this memo: a recursive function)
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


def same(value: V) -> V:
    """The identity: ``Memo(same, limit)`` shares equal values."""
    return value
