"""What the table service says: the :class:`Answer` a command's sender gets, and the
:class:`Notice` every observer gets after each durable change (and after a press that changed
nothing). Typed from the engine out: the event, the press and the engine's effects as the
engine made them, the public state as ``engine.public.PublicState``; JSON is made of them only
at the edges (the journal, MQTT, HTTP).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final, Literal

from engine.event_base import Event
from engine.moves import Effect, EffectKind
from engine.presses import Press
from engine.public import PublicState
from table_app.consent import Proposal

NoticeKind = Literal["event", "undo", "redo", "refused", "dice", "proposal"]
CHANGES: Final[tuple[NoticeKind, ...]] = ("event", "undo", "redo")  # the notice kinds that change the table
Params = Mapping[str, object]


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
    proposal: Proposal | None = None  # a held TURN put up an undo (table_app/consent.py): nothing changed yet

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
