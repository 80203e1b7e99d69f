"""Whose step each event in effect was, and what the last undo took back (issues 27, 28): what
``engine.authority`` reads — the seat that made the last step decides its own undo — and what
every screen says after an undo (the touchscreen's notice, the phones', the table page's).

The service keeps one :class:`Steps` and hears it first of its observers, so that a held TURN
(:mod:`table_app.core.consent`), the phones and the touchscreen read the same record. A step's seat
is its event's seat, else the seat whose phone sent it (``engine.authority.step_seat``); the
words are made of it where they are shown (``table_app.present.undo``: the core words nothing).

Bounded: the newest :data:`KEPT` events in effect. What came before this part knew the table
(a restart) is not known: an undo of it then needs two seats.

>>> from engine.table import replay
>>> from engine.public import public_state
>>> from engine.events import parse_event
>>> from table_app.core.notices import Notice
>>> s = replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}])
>>> steps = Steps()
>>> seating = parse_event({"type": "seating", "method": "C", "east": 2})
>>> steps(Notice(1, "event", seating, public_state(s), "phone 3", 0.0))
>>> steps.last().seat, steps.facts(public_state(s)).last_seat
(3, 3)
>>> steps(Notice(2, "undo", None, public_state(s), "touch", 0.0, undone=(1,)))
>>> steps.last(), [x.seq for x in steps.undone().steps], steps.undone().by
(None, [1], ())
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Final

from engine.authority import Facts, step_seat
from engine.public import PublicState
from table_app.core.notices import Notice, Step
from table_app.core.sources import source_seat

KEPT: Final = 64  # the events in effect remembered, the newest


@dataclass(frozen=True)
class Undone:
    """What the last undo took back: the steps known (all of them when ``known``), how many
    events, and who decided it — the seats (``by``: the proposer first; none: the touchscreen,
    a command) and the journal's source."""

    steps: tuple[Step, ...]
    count: int
    by: tuple[int, ...]
    source: str

    @property
    def known(self) -> bool:
        return bool(self.steps) and len(self.steps) == self.count


@dataclass
class Steps:
    """The service's observer of whose step each event was (its thread), read from any thread."""

    _steps: OrderedDict[int, Step] = field(default_factory=OrderedDict)  # the events in effect: seq → step
    _redo: list[int] = field(default_factory=list)  # the undone events a redo brings back, in order
    _undone: Undone | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, notice: Notice) -> None:
        if not notice.changed:
            return
        with self._lock:
            if notice.kind == "undo":
                self._undone = self._took_back(notice)
                return
            self._undone = None
            ev = notice.event
            if ev is None:
                return
            winds = notice.state["winds"]
            step = Step(notice.seq, step_seat(ev.seat_of, source_seat(notice.source)), ev,
                        tuple(notice.state["players"]), next((s for s, w in enumerate(winds) if w == "E"), None))
            if notice.kind == "event":
                self._redo.clear()
                self._steps[notice.seq] = step
            elif self._redo:  # a redo brings back the first undone event, under its own seq
                self._steps[self._redo.pop(0)] = step
            else:  # (a redo of an event undone before this part knew the table: what is in effect is not known)
                self._steps.clear()
            while len(self._steps) > KEPT:
                self._steps.popitem(last=False)

    def _took_back(self, notice: Notice) -> Undone:
        undone = notice.undone
        steps = tuple(s for seq in undone if (s := self._steps.pop(seq, None)) is not None)
        self._redo[:0] = undone
        del self._redo[KEPT:]  # (bounded: a redo beyond them is not known, and the steps are forgotten then)
        return Undone(steps, len(undone), notice.by, notice.source)

    def last(self) -> Step | None:
        """The last event in effect as this part knows it (None: none, or not known — the table
        restarted since: then an undo needs two seats)."""
        with self._lock:
            return next(reversed(self._steps.values()), None)

    def undone(self) -> Undone | None:
        """What the last undo took back, until the next step."""
        with self._lock:
            return self._undone

    def facts(self, public: PublicState) -> Facts:
        """What ``engine.authority`` reads: the declared win's seat, the last step's seat."""
        pending = public["pending_win"] if public["phase"] == "win_pending" else None
        last = self.last()
        return Facts(winner=None if pending is None else pending["seat"], last_seat=None if last is None else last.seat)


__all__ = ["KEPT", "Step", "Steps", "Undone"]
