"""Proposals that a second seat agrees to (issues 27, 28): 诈胡 called on another seat's win, an
undo, a hand's result entered whole (只记分). One set of them for the whole table: the service
keeps it (``TableService.consent``), the phones, the buttons and the touchscreen share it.

A proposal says what (its words in both languages, or the step an undo takes back: the
screens word it), by which seat, the command it becomes and the table's record it was made
at. Every bound phone's view shows it with agree and refuse, the touchscreen with a dialog;
:func:`held_turn` (every held TURN, whichever input held it: the service asks it) and
:mod:`table_app.web.phone_decide` ask ``engine.authority`` whether the seats agreeing make the
decision. Bounded: at most one proposal of each kind at a time; a proposal lapses after
``ttl_s`` seconds, or as soon as the table changes (a step made since, an undo), since what it
was about may no longer be so.

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

from engine.authority import Decision, stands
from engine.public import PublicState
from table_app.core.notices import Proposal, Step
from table_app.core.steps import Steps

TTL_S = 60.0  # a proposal nobody answers lapses after this long
HELD_TTL_S = 20.0  # a held TURN's undo lapses sooner: it is confirmed by holding TURN again, or on the screen


@dataclass
class Consent:
    """The open proposals, one per kind at most."""

    clock: Callable[[], float] = time.monotonic
    ttl_s: float = TTL_S
    _open: dict[Decision, Proposal] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def propose(self, kind: Decision, seat: int, command: Mapping[str, object], what: Mapping[str, object] | None,
                seq: int, *, step: Step | None = None, source: str = "", ttl_s: float | None = None) -> Proposal | str:
        """A new proposal, or the word key of why not (``dc_open``: another seat's proposal of
        the same kind is waiting). A seat's own proposal of the same kind is replaced."""
        with self._lock:
            known = self._live(kind, seq)
            if known is not None and known.seat != seat:
                return "dc_open"
            until = self.clock() + (self.ttl_s if ttl_s is None else ttl_s)
            p = Proposal(kind, seat, dict(command), what, seq, until, step, source)
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


@dataclass(frozen=True)
class Agreed:
    """An undo proposal that stands: taken out of the open ones, with the seat whose held TURN
    made it (its proposer again: a confirmation; another: the second seat)."""

    proposal: Proposal
    seat: int

    @property
    def by(self) -> tuple[int, ...]:
        """The seats that decided it, the proposer first."""
        p = self.proposal
        return (p.seat,) if p.seat == self.seat else (p.seat, self.seat)

    def journal_source(self, tag: str) -> str:
        """The undo record's source: the held TURN that made it (``tag``), and when another
        seat's, the proposer's too (``gpio press 3:TURN:held agrees gpio press 1:TURN:held``)."""
        return tag if self.seat == self.proposal.seat else f"{tag} agrees {self.proposal.source}"


@dataclass(frozen=True)
class Refusal:
    """A held TURN that cannot make an undo: the refusal's word key (``code``), its English
    and the seats it names (``seat``: who held; ``owner``: whose step it is, None if not known)."""

    code: str
    error: str
    params: Mapping[str, object]


def held_turn(consent: Consent, steps: Steps, seat: int, seq: int, public: PublicState, source: str,
              in_effect: bool = True) -> Proposal | Agreed | Refusal:
    """What ``seat``'s held TURN is (the buttons, the panel, the touchscreen's keys, a phone):
    with an undo proposal open, its answer — the undo stands when the seats agreeing make it
    (``engine.authority.stands``: the last step's own seat among them, or two seats), else the
    refusal ``undo.second`` (the proposer holding again, not its own step: a second seat must);
    with none open, a new proposal to undo the last step in effect, lapsing after
    :data:`HELD_TTL_S` (refused ``undo.nothing``: nothing is in effect, ``in_effect`` False).

    >>> from engine.table import new_table
    >>> from engine.public import public_state
    >>> c, pub = Consent(clock=lambda: 0.0), public_state(new_table())
    >>> held_turn(c, Steps(), 1, 0, pub, "gpio", in_effect=False).code
    'undo.nothing'
    >>> p = held_turn(c, Steps(), 1, 7, pub, "gpio press 1:TURN:held")
    >>> p.command, held_turn(c, Steps(), 1, 7, pub, "gpio").code   # (the last step not known: two seats)
    ({'type': 'undo'}, 'undo.second')
    >>> held_turn(c, Steps(), 2, 7, pub, "gpio").by
    (1, 2)
    """
    facts = steps.facts(public)

    def check(p: Proposal) -> str | None:
        return None if stands("undo", {p.seat, seat}, facts) else "undo.second"

    last = steps.last()
    taken = consent.take("undo", seq, check)
    if isinstance(taken, Proposal):
        return Agreed(taken, seat)
    if taken != "dc_none":
        return Refusal(taken, f"seat {seat} cannot undo another seat's step alone: that seat or a second seat "
                              "holds TURN too", {"seat": seat, "owner": None if last is None else last.seat})
    if not in_effect:
        return Refusal("undo.nothing", "nothing to undo: no event is in effect", {"seat": seat})
    command = {"type": "undo"} if last is None else {"type": "undo", "last": last.seq}
    made = consent.propose("undo", seat, command, None, seq, step=last, source=source, ttl_s=HELD_TTL_S)
    return Refusal(made, "another seat's undo is waiting", {"seat": seat}) if isinstance(made, str) else made


__all__ = ["HELD_TTL_S", "TTL_S", "Agreed", "Consent", "Proposal", "Refusal", "held_turn"]
