"""Proposals that a second seat agrees to (issue 27): 诈胡 called on another seat's win, an undo
of another seat's step, a hand's result entered whole (只记分).

A proposal says what (its words in both languages), by which seat, the command it becomes
and the table's record it was made at. Every bound phone's view shows it with agree and
refuse; :mod:`table_app.web.phone_decide` asks ``engine.authority`` whether the seats agreeing
make the decision and then submits the command. Bounded: at most one proposal of each kind at
a time; a proposal lapses after ``ttl_s`` seconds, or as soon as the table changes (a step
made since, an undo), since what it was about may no longer be so.

>>> c = Consent(clock=lambda: 0.0)
>>> p = c.propose("undo", 2, {"type": "undo", "last": 9}, {"zh": "撤销", "en": "undo"}, seq=9)
>>> isinstance(p, Proposal), c.propose("undo", 1, {"type": "undo"}, {"zh": "", "en": ""}, seq=9)
(True, 'dc_open')
>>> [x.seat for x in c.open(9)], c.open(10)
([2], [])
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from engine.authority import Decision
from table_app.present.words import Both

TTL_S = 60.0  # a proposal nobody answers lapses after this long


@dataclass(frozen=True)
class Proposal:
    kind: Decision
    seat: int  # who proposed it
    command: Mapping[str, object]  # the command it becomes once agreed
    what: Both  # what it is, in words
    seq: int  # the table's record when it was made (it lapses when the table changes)
    until: float  # clock time when it lapses


@dataclass
class Consent:
    """The open proposals, one per kind at most."""

    clock: Callable[[], float] = time.monotonic
    ttl_s: float = TTL_S
    _open: dict[Decision, Proposal] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def propose(self, kind: Decision, seat: int, command: Mapping[str, object], what: Both,
                seq: int) -> Proposal | str:
        """A new proposal, or the word key of why not (``dc_open``: another seat's proposal of
        the same kind is waiting). A seat's own proposal of the same kind is replaced."""
        with self._lock:
            known = self._live(kind, seq)
            if known is not None and known.seat != seat:
                return "dc_open"
            p = Proposal(kind, seat, dict(command), what, seq, self.clock() + self.ttl_s)
            self._open[kind] = p
            return p

    def take(self, kind: Decision, seq: int, check: Callable[[Proposal], str | None]) -> Proposal | str:
        """The open proposal of ``kind``, taken out if ``check`` passes it (None); else the word
        key of why not: ``dc_none`` (none open, or it lapsed) or ``check``'s."""
        with self._lock:
            p = self._live(kind, seq)
            if p is None:
                return "dc_none"
            why = check(p)
            if why is not None:
                return why
            del self._open[kind]
            return p

    def drop(self, kind: Decision, seq: int, seat: int) -> Proposal | None:
        """Refuse (or, by its proposer, withdraw) the open proposal of ``kind``: gone for everyone."""
        with self._lock:
            p = self._live(kind, seq)
            if p is not None:
                del self._open[kind]
            return p

    def open(self, seq: int) -> list[Proposal]:
        """The proposals still open at the table's record ``seq`` (the lapsed ones forgotten)."""
        with self._lock:
            return [p for kind in list(self._open) if (p := self._live(kind, seq)) is not None]

    def _live(self, kind: Decision, seq: int) -> Proposal | None:
        p = self._open.get(kind)
        if p is not None and (p.seq != seq or self.clock() >= p.until):
            del self._open[kind]
            return None
        return p
