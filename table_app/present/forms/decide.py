"""The decisions a seat makes about the table (issue 27, 28): a declared win — the winner
confirms it with its wait, 诈胡 takes it back — and an undo put up (a held TURN), which its own
seat confirms or a second seat agrees to. Written once for the phones
(``table_app/web/phone_decide.py``) and the touchscreen (``table_app/ui/undo.py``, the win
screen): what a seat is offered, what each answer becomes (a command sent, a proposal put up, or
a named refusal) and how an undo is worded. Who may decide is ``engine.authority``'s
(:func:`~engine.authority.ruling`, :func:`~engine.authority.stands`), asked here.

The table's open proposals themselves (putting up, taking, dropping) are the service's
(``table_app.core.consent``); this module only reads them, through :class:`ProposalLike`.

>>> from engine.authority import Facts
>>> facts = Facts(winner=2, last_seat=1)
>>> confirm_win(2, facts, ["A", "B", "C", "D"], "closed"), confirm_win(0, facts, ["A", "B", "C", "D"]).code
({'type': 'confirm_win', 'wait': 'closed'}, 'decide.winner_only')
>>> reject_win(2, facts, ["A", "B", "C", "D"]), reject_win(0, facts, ["A", "B", "C", "D"]).what["en"]
({'type': 'reject_win'}, "False win: C's")
>>> agreed("undo", 3, 3, facts).key, agreed("undo", 3, 0, facts) is None
('dc_second', True)
>>> undo(1)
{'type': 'press', 'seat': 1, 'button': 'TURN', 'held': True}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypedDict

from engine.authority import Decision, Facts, ruling, stands
from engine.event_base import Event
from table_app.present.forms.refused import Refused
from table_app.present.undo import step_words, undo_words, undone_words, waiting_words
from table_app.present.words import LANGS, Both, both, tr


class StepLike(Protocol):
    """A step in effect as the service records it (``table_app.core.notices.Step``)."""

    @property
    def seat(self) -> int | None: ...
    @property
    def event(self) -> Event: ...
    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def east(self) -> int | None: ...


class UndoneLike(Protocol):
    """What the last undo took back (``table_app.core.steps.Undone``)."""

    @property
    def steps(self) -> Sequence[StepLike]: ...
    @property
    def count(self) -> int: ...
    @property
    def by(self) -> tuple[int, ...]: ...
    @property
    def source(self) -> str: ...


class ProposalLike(Protocol):
    """A proposal open on the table (``table_app.core.notices.Proposal``)."""

    @property
    def kind(self) -> Decision: ...
    @property
    def seat(self) -> int: ...
    @property
    def what(self) -> Mapping[str, object] | None: ...
    @property
    def step(self) -> StepLike | None: ...


@dataclass(frozen=True)
class Propose:
    """An answer that puts a proposal up: its kind, the command it becomes once agreed, and what
    it is in words."""

    kind: Decision
    command: dict[str, object]
    what: Both


Command = dict[str, object]


# --- a declared win ---------------------------------------------------------------------------------

def _no_win() -> Refused:
    return Refused("dc_no_win", "decide.no_win")


def confirmed(wait: object = None) -> Command:
    """The command that confirms the declared win, with its wait when said (the touchscreen, the
    table's own screen, sends it as it is)."""
    return {"type": "confirm_win", **({"wait": wait} if wait is not None else {})}


def rejected() -> Command:
    """The command that takes the declared win back (诈胡)."""
    return {"type": "reject_win"}


def confirm_win(seat: int, facts: Facts, names: Sequence[str], wait: object = None) -> Command | Refused:
    """``seat`` confirms the declared win (with its ``wait``, when said): the winner's alone."""
    if facts.winner is None:
        return _no_win()
    if ruling("confirm_win", seat, facts) != "decide":
        return Refused("dc_winner_only", "decide.winner_only", "not_yours", {"name": names[facts.winner]})
    return confirmed(wait)


def reject_win(seat: int, facts: Facts, names: Sequence[str]) -> Command | Propose | Refused:
    """``seat`` calls 诈胡: the winner takes its own win back at once; another seat proposes it."""
    if facts.winner is None:
        return _no_win()
    command = rejected()
    if ruling("reject_win", seat, facts) == "decide":
        return command
    return Propose("reject_win", command, both("dc_reject_win", name=names[facts.winner]))


def false_win(seat: int, facts: Facts) -> bool:
    """Whether ``seat`` may call 诈胡 on a declared win (another seat's)."""
    return facts.winner is not None and facts.winner != seat


# --- an undo ------------------------------------------------------------------------------------------

def undo(seat: int) -> Command:
    """An undo from ``seat`` is its held TURN, as a button's is (issue 28): the service puts it
    up, or with one open answers it (``table_app.core.consent.held_turn``)."""
    return {"type": "press", "seat": seat, "button": "TURN", "held": True}


def said(step: StepLike | None) -> Both | None:
    """A step in words (None: not known)."""
    return None if step is None else step_words(step.event, step.players, step.east)


def own_step(proposer: int, step: StepLike | None) -> bool:
    """Whether an undo put up by ``proposer`` is of its own step: then its own confirmation (its
    held TURN again, 确认 on the screen) makes it stand (``engine.authority``)."""
    return ruling("undo", proposer, Facts(last_seat=None if step is None else step.seat)) == "decide"


class UndoAsk(TypedDict):
    """An undo put up, as a screen asks about it: who asks to take back what, who makes it
    stand, and whether the proposer's own confirmation does."""

    asks: Both
    waiting: Both
    own: bool


def undo_ask(proposer: int, step: StepLike | None, names: Sequence[str]) -> UndoAsk:
    """The undo ``proposer`` put up, in words.

    >>> from engine.events import Discard
    >>> from types import SimpleNamespace as S
    >>> step = S(seat=1, event=Discard(1), players=("A", "B", "C", "D"), east=0)
    >>> ask = undo_ask(2, step, ["A", "B", "C", "D"])
    >>> ask["asks"]["en"], ask["own"], undo_ask(1, step, ["A", "B", "C", "D"])["own"]
    ('C asks to undo: B discards', False, True)
    """
    owner = None if step is None else step.seat
    what = said(step)
    asks: dict[str, str] = {}
    waiting: dict[str, str] = {}
    for lang in LANGS:
        words = tr("un_last_step", lang) if what is None else what[lang]
        asks[lang] = tr("un_asks", lang, name=names[proposer], what=words)
        waiting[lang] = waiting_words(owner, proposer, names, lang)
    return {"asks": {"zh": asks["zh"], "en": asks["en"]}, "waiting": {"zh": waiting["zh"], "en": waiting["en"]},
            "own": own_step(proposer, step)}


def undone(u: UndoneLike | None, players: Sequence[str]) -> Both | None:
    """What the last undo took back and who decided it (None: no undo since the last step)."""
    if u is None:
        return None
    return undone_words([step_words(s.event, s.players, s.east) for s in u.steps], u.count, u.by, u.source, players)


# --- a proposal answered, and shown -----------------------------------------------------------------

def agreed(kind: Decision, proposer: int, seat: int, facts: Facts) -> Refused | None:
    """Whether ``seat`` agreeing to ``proposer``'s ``kind`` makes it stand (None), or why not."""
    return None if stands(kind, {proposer, seat}, facts) else Refused("dc_second", "decide.second")


def no_proposal() -> Refused:
    return Refused("dc_none", "decide.none")


class ProposalView(TypedDict):
    kind: Decision
    by: int
    what: Both
    by_words: Both
    mine: bool  # this seat proposed it
    decides: bool  # this seat's confirmation or agreement makes it stand
    left: int  # seconds before it lapses


def what(p: ProposalLike) -> Both:
    """A proposal in words: its own, or an undo's step (a held TURN's: worded here)."""
    if p.what is not None:
        return {"zh": str(p.what["zh"]), "en": str(p.what["en"])}
    return undo_words(said(p.step))


def proposal_view(p: ProposalLike, seat: int, facts: Facts, names: Sequence[str], left: float) -> ProposalView:
    """The proposal ``p`` as ``seat`` sees it, ``left`` seconds before it lapses."""
    return {"kind": p.kind, "by": p.seat, "what": what(p), "by_words": both("dc_by", name=names[p.seat]),
            "mine": p.seat == seat, "decides": stands(p.kind, {p.seat, seat}, facts), "left": max(0, int(left))}


__all__ = [
    "Command",
    "ProposalLike",
    "ProposalView",
    "Propose",
    "StepLike",
    "UndoAsk",
    "UndoneLike",
    "agreed",
    "confirm_win",
    "confirmed",
    "false_win",
    "no_proposal",
    "own_step",
    "proposal_view",
    "reject_win",
    "rejected",
    "said",
    "undo",
    "undo_ask",
    "undone",
    "what",
]
