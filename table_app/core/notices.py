"""What the table service says: the :class:`Answer` a command's sender gets, and the
:class:`Notice` every observer gets after each durable change (and after a press that changed
nothing), with what they carry: a :class:`Proposal` a second seat may agree to (kept by
``table_app/core/consent.py``) and the :class:`Step` an undo takes back (the steps tracked by
``table_app/core/steps.py``). Typed from the engine out: the event, the press and the engine's effects as the
engine made them, the public state as ``engine.public.PublicState``; JSON is made of them only
at the edges (the journal, MQTT, HTTP).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from engine.authority import Decision
from engine.event_base import Event
from engine.events import Bets
from engine.moves import Effect, EffectKind
from engine.presses import Press
from engine.public import PublicState

NoticeKind = Literal["event", "undo", "redo", "refused", "dice", "proposal"]
CHANGES: Final[tuple[NoticeKind, ...]] = ("event", "undo", "redo")  # the notice kinds that change the table
Params = Mapping[str, object]


@dataclass(frozen=True)
class Step:
    """One event in effect: its record, the seat that made it (None: the table's own), and the
    names and East as they were after it (its words say it as the history does)."""

    seq: int
    seat: int | None
    event: Event
    players: tuple[str, ...]
    east: int | None

    @property
    def bets(self) -> tuple[int, ...] | None:
        """A bets event's bets (what a result-only form starts with once it is undone)."""
        return self.event.bets if isinstance(self.event, Bets) else None


@dataclass(frozen=True)
class Proposal:
    kind: Decision
    seat: int  # who proposed it
    command: Mapping[str, object]  # the command it becomes once agreed
    what: Mapping[str, object] | None  # what it is, in words (zh, en); None: an undo of ``step``, worded where shown
    seq: int  # the table's record when it was made (it lapses when the table changes)
    until: float  # clock time when it lapses
    step: Step | None = None  # an undo's: the step it takes back (None: not known, or not an undo)
    source: str = ""  # the journal's source of the proposer's command (``gpio press 1:TURN:held``)


@dataclass(frozen=True)
class Answer:
    """What the sender of a command gets back. A refusal carries a ``code`` and its ``params``
    (a screen words them in the player's language): the engine's (``engine.errors.CODES``)
    or the service's own — ``invalid``, ``undo.nothing``, ``undo.bad_target``, ``undo.moved``,
    ``redo.nothing``, ``redo.refused``, ``journal.failed``, ``service.stopped``,
    ``service.busy``, ``service.internal``."""

    ok: bool
    seq: int | None = None
    state: PublicState | None = None
    error: str | None = None
    code: str = ""
    params: Params | None = None
    dice: tuple[int, int] | None = None  # a dice press during seating: the dice, for the form
    proposal: Proposal | None = None  # a held TURN put up an undo (table_app/core/consent.py): nothing changed yet

    def to_json(self) -> dict[str, object]:
        if self.ok:
            out: dict[str, object] = {"ok": True, "seq": self.seq, "state": self.state}
            if self.dice is not None:
                out["dice"] = list(self.dice)
            if self.proposal is not None:
                out["proposed"] = self.proposal.kind
            return out
        out = {"ok": False, "error": self.error}
        if self.code:
            out["code"], out["params"] = self.code, dict(self.params or {})
        return out


@dataclass(frozen=True)
class Notice:
    """What observers get after each durable change (``kind`` event, undo, redo), and after a
    press that changed nothing: ``refused`` (``error``, ``code``, ``params``), ``dice`` (the
    dice button during seating: ``dice``) or ``proposal`` (a held TURN put up an undo for its
    confirmation or a second seat: ``proposal``)."""

    seq: int
    kind: NoticeKind
    event: Event | None  # the event applied (event, redo); None for the others
    state: PublicState  # the public state after the change
    source: str  # the journal's source: the input (``touch``, ``gpio``…), with the press if any
    at: float  # wall-clock time.time()
    effects: tuple[Effect, ...] = ()  # what the engine says happened
    undone: tuple[int, ...] = ()  # undo: the event seqs taken back
    press: Press | None = None  # the press this came from, if any
    error: str | None = None
    code: str = ""
    params: Params | None = None
    dice: tuple[int, int] | None = None
    claim_deadline: float | None = None  # claims open: when the service closes the window (its clock's time)
    final: bool = True  # False: more changes of the same command follow at once (a press of two events)
    proposal: Proposal | None = None  # kind proposal: the undo put up
    by: tuple[int, ...] = ()  # undo: the seats that decided it, the proposer first (none: the screen, a command)

    @property
    def changed(self) -> bool:
        """Whether the table changed (a journal record was written)."""
        return self.kind in CHANGES

    def has(self, what: EffectKind) -> bool:
        """Whether the engine reported this effect (``claims_open``, ``hand_over`` …)."""
        return any(e.what == what for e in self.effects)


Observer = Callable[[Notice], None]


def tell_each(observers: Sequence[Observer], notice: Notice, log: logging.Logger) -> None:
    """Call each observer with ``notice``, each isolated from the others: one that fails is
    logged (with the notice's seq) and the rest still hear it."""
    for fn in observers:
        try:
            fn(notice)
        except Exception:  # one broken output must not stop the table
            log.exception("observer %r failed on seq %d", fn, notice.seq)
