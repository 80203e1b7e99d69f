"""Each seat decides its own, from the phones (issue 27; docs/phones.md "Each seat decides its
own"): a phone's win confirmation, 诈胡, undo and result-only entry, as ``engine.authority``
rules them and the forms say (:mod:`table_app.present.forms.decide` and ``result``, the
touchscreen's too: what each answer becomes, its refusals, the proposals' words) — done at
once, put up as a proposal that a second seat agrees to (:mod:`table_app.core.consent`: the
table's one set of proposals, the service's), or refused. An
undo is the seat's held TURN, as a button's is (issue 28): the service puts it up or makes it
stand (``table_app.core.consent.held_turn``), whichever input held it.

:class:`Decide` is asked by ``PhoneRoutes.step`` and ``press`` (one line each) before their
own commands: it answers a :class:`Reply` (a refusal, a proposal made or refused) or a
:class:`Send` (the command the phone's tap becomes: ``PhoneRoutes`` submits it once, with the
tap's id), or None (not one of its kinds). It reads whose step each event in effect was and
what the last undo took back from the service (``TableService.steps``: :mod:`table_app.core.steps`)
and adds its part to each phone's view (:meth:`Decide.view`).

A result entered whole carries the hand's bets: the form's bets row starts from the bets the
phones have entered for this hand (``entered``: ``PhoneScore.entered``), else the bets an undo
just took back (the way to a result once all four bets are in: docs/phones.md), else 0.

The journal's source of a command two seats made names both: ``phone 2 tap … agrees phone 0``
(seat 2 agreed to seat 0's proposal).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, TypedDict

from engine.authority import Decision, Facts, bets_stage
from engine.events import Bets, parse_event
from engine.public import PublicState
from engine.scored import ScoreHand
from engine.seats import SEATS
from table_app.core.consent import Consent
from table_app.core.notices import Proposal, Step
from table_app.http_kit.replies import form_refusal, json_reply, refused
from table_app.http_kit.server import Reply
from table_app.present.forms import decide, result
from table_app.present.forms.decide import ProposalView, Propose
from table_app.present.forms.refused import Refused
from table_app.present.forms.result import ResultOffer
from table_app.present.history import scored_words, sentence
from table_app.present.words import Both, both, names_list, pair, tr

if TYPE_CHECKING:
    from table_app.core.service import TableService

WORDS: Final = ("dc_by", "dc_agree", "dc_refuse", "dc_confirm", "dc_withdraw", "dc_waiting", "dc_left",
                "dc_undo_button", "dc_call_false_win", "dc_entry_open", "dc_entry_send", "dc_entry_close",
                "dc_kongs", "dc_kong_from", "who_won", "nobody", "how_won", "self_drawn", "fed_by", "wait",
                "wait_plain", "wait_closed", "wait_single", "wait_edge", "kind_kong_bloom", "kind_heavenly",
                "kind_robbed_kong", "entry_kong_c", "entry_kong_e", "ph_tap_again", "dc_bets", "dc_take_bets_back",
                "xb_how")


@dataclass(frozen=True)
class Send:
    """The command a phone's tap becomes; ``by``: the proposer it agrees with (None: its own)."""

    command: dict[str, object]
    by: int | None = None


class DecideView(TypedDict):
    """The decide part of a phone's view (``PhoneView["decide"]``)."""

    proposals: list[ProposalView]
    undone: Both | None  # what the last undo took back (until the next step)
    last_step: Both | None  # what an undo would take back now (None: nothing, or not known)
    false_win: bool  # another seat's win is declared: this seat may call 诈胡
    entry: ResultOffer | None  # result-only entry offered now
    bets_in: BetsIn | None  # the bets are in, the hand not begun: the form offers to take them back
    names: list[str]  # the players by seat (the entry's choices)
    words: dict[str, dict[str, str]]


class BetsIn(TypedDict):
    bets: list[int]
    words: Both  # what the form says: the bets are in, take them back to enter a result


def _no_bets(public: PublicState) -> Mapping[int, int]:
    return {}


@dataclass
class Decide:
    service: TableService
    entered: Callable[[PublicState], Mapping[int, int]] = _no_bets  # the phones' bets for this hand, by seat
    words: dict[str, dict[str, str]] = field(default_factory=lambda: {k: dict(zip(("zh", "en"), pair(k),
                                                                                       strict=True)) for k in WORDS})

    @property
    def consent(self) -> Consent:
        """The table's open proposals (the service's: the buttons' and the touchscreen's too)."""
        return self.service.consent

    def undone(self) -> Both | None:
        """What the last undo took back and who decided it, until the next step (every screen shows it)."""
        return decide.undone(self.service.steps.undone(), self.service.public["players"])

    def last(self) -> Step | None:
        """The last event in effect as the table knows it (None: none, or not known — the table
        restarted since: then an undo needs two seats)."""
        return self.service.steps.last()

    def prefill(self, public: PublicState) -> list[int]:
        """The result-only form's bets: each seat's as its phone entered it for this hand, else
        as the bets an undo just took back had it, else 0."""
        entered = self.entered(public)
        u = self.service.steps.undone()
        unbet = None if u is None else next((s.bets for s in u.steps if s.bets is not None), None)
        return [entered.get(s, 0 if unbet is None else unbet[s]) for s in range(SEATS)]

    def facts(self, public: PublicState) -> Facts:
        return self.service.steps.facts(public)

    # -- a phone's tap -------------------------------------------------------------------------------

    def step(self, seat: int, data: dict[str, object]) -> Reply | Send | None:
        """A table step from ``seat``'s phone, if it is one of the decisions (else None)."""
        kind = data.get("type")
        public = self.service.public
        if kind == "confirm_win" and set(data) <= {"type", "wait"}:
            return self._confirm_win(seat, data, public)
        if kind == "reject_win" and set(data) == {"type"}:
            return self._reject_win(seat, public)
        if kind == "undo" and set(data) == {"type"}:
            return self.undo(seat)
        if kind == "score_hand":
            return self._score_hand(seat, data, public)
        if kind in ("agree", "refuse") and set(data) == {"type", "kind"} and data["kind"] in _KINDS:
            return self._answer(seat, data["kind"], kind == "agree", public)
        return None

    def _confirm_win(self, seat: int, data: dict[str, object], public: PublicState) -> Reply | Send:
        return _sent(decide.confirm_win(seat, self.facts(public), public["players"], data.get("wait")))

    def _reject_win(self, seat: int, public: PublicState) -> Reply | Send:
        answer = decide.reject_win(seat, self.facts(public), public["players"])
        return self._propose(answer.kind, seat, answer.command, answer.what) if isinstance(answer, Propose) \
            else _sent(answer)

    def undo(self, seat: int) -> Send:
        """An undo from ``seat``'s phone is its held TURN (the buttons' way, issue 28)."""
        return Send(decide.undo(seat))

    def _score_hand(self, seat: int, data: dict[str, object], public: PublicState) -> Reply:
        if bets_stage(public) == "in":
            return refused(409, "dc_bets_in", "decide.bets_in")
        command = result.command(result.from_json(data), public)  # (the touchscreen's form, from a phone)
        if isinstance(command, Refused):
            return form_refusal(command)
        ev = parse_event(command)
        assert isinstance(ev, ScoreHand)
        names = public["players"]
        bets = Bets(ev.bets if ev.bets is not None else tuple(public["bets"]))  # type: ignore[arg-type]
        return self._propose("score_hand", seat, command,  # (the bets shown with it: the second seat confirms them)
                             {"zh": tr("dc_score_hand", "zh", what=scored_words(ev, names, "zh"),
                                       bets=sentence(bets, names, "zh")),
                              "en": tr("dc_score_hand", "en", what=scored_words(ev, names, "en"),
                                       bets=sentence(bets, names, "en"))})

    def _propose(self, kind: Decision, seat: int, command: dict[str, object], what: Both) -> Reply:
        made = self.consent.propose(kind, seat, command, what, self.service.seq)
        if isinstance(made, str):
            return refused(409, made, "decide.open")
        return json_reply(200, {"ok": True, "proposed": kind, **both("dc_proposed")})

    def _answer(self, seat: int, kind: Decision, agree: bool, public: PublicState) -> Reply | Send:
        seq = self.service.seq
        if not agree:
            gone = self.consent.drop(kind, seq, seat)
            return json_reply(200, {"ok": True, "dropped": kind}) if gone else form_refusal(decide.no_proposal())
        facts = self.facts(public)
        if kind == "undo":  # (the held TURN's way: the service takes the proposal and undoes)
            open_now = [p for p in self.consent.open(seq) if p.kind == "undo"]
            why = decide.no_proposal() if not open_now else decide.agreed(kind, open_now[0].seat, seat, facts)
            return self.undo(seat) if why is None else form_refusal(why)
        refusals: dict[str, Refused] = {}

        def check(p: Proposal) -> str | None:
            why = decide.agreed(kind, p.seat, seat, facts)
            if why is not None:
                refusals[why.key] = why
            return None if why is None else why.key

        taken = self.consent.take(kind, seq, check)
        if isinstance(taken, str):
            return form_refusal(refusals.get(taken, decide.no_proposal()))
        return Send(dict(taken.command), None if taken.seat == seat else taken.seat)

    # -- the phone's view ---------------------------------------------------------------------------

    def view(self, seat: int, public: PublicState, seq: int) -> DecideView:
        facts = self.facts(public)
        now = self.consent.clock()
        proposals = [decide.proposal_view(p, seat, facts, public["players"], p.until - now)
                     for p in self.consent.open(seq)]
        return {"proposals": proposals, "undone": self.undone(), "last_step": decide.said(self.last()),
                "false_win": decide.false_win(seat, facts),
                "entry": result.offer(public, self.prefill(public)), "bets_in": _bets_in(public),
                "names": list(public["players"]), "words": self.words}


_KINDS: Final = ("reject_win", "undo", "score_hand")  # (the kinds a second seat agrees to)


def _bets_in(public: PublicState) -> BetsIn | None:
    """The bets the table holds, in words, while they are in and the hand has not begun."""
    if bets_stage(public) != "in":
        return None
    bets = list(public["bets"])
    names = public["players"]

    def said(lang: str) -> str:
        return tr("dc_bets_in_form", lang, bets=names_list([f"{n} {b}" for n, b in zip(names, bets, strict=True)],
                                                            lang))

    return {"bets": bets, "words": {"zh": said("zh"), "en": said("en")}}


def _sent(answer: decide.Command | Refused) -> Reply | Send:
    return form_refusal(answer) if isinstance(answer, Refused) else Send(answer)
