"""A hand step by step: its events as the journal keeps them, undone ones marked, and the
engine's public state after each (the same dict the live table page and touchscreen draw)."""

from __future__ import annotations

from typing import Final

from engine import TableState, push
from engine.public import PublicState, public_state
from table_app.archive.model import Step

EVERY: Final = 40  # steps between the states a replay keeps to go back quickly


class Replay:
    """``steps`` of hand ``hand`` of session ``session``; :meth:`state_at` the public state after
    step ``i`` (an undone step changes nothing)."""

    def __init__(self, session: int, hand: int, steps: list[Step], start: TableState) -> None:
        self.session = session
        self.hand = hand
        self.steps = steps
        self._kept: dict[int, dict[str, object]] = {-1: start.to_json()}  # step → the state after it (JSON)
        self._state = start
        self._at = -1  # the step self._state is after

    def __len__(self) -> int:
        return len(self.steps)

    def state_at(self, i: int) -> PublicState:
        """The public state after step ``i`` (0 … len(steps) - 1)."""
        if not 0 <= i < len(self.steps):
            raise IndexError(f"step {i} of {len(self.steps)}")
        if i < self._at:
            back = max(k for k in self._kept if k <= i)
            self._state, self._at = TableState.from_json(self._kept[back]), back
        while self._at < i:
            self._at += 1
            step = self.steps[self._at]
            if not step.undone:
                push(self._state, step.event)
            if self._at % EVERY == EVERY - 1:
                self._kept.setdefault(self._at, self._state.to_json())
        return public_state(self._state)

    def final(self) -> PublicState:
        """The state after the last step (the settlement, for a settled hand)."""
        return self.state_at(len(self.steps) - 1)
