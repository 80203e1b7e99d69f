"""Keeping score from phones (issue 27): a new session's form, each seat's bet, the last session.

1. **A new session** from a bound phone, when none is being played (phase ``idle`` or
   ``ended``) or over one nobody has played a hand in (it is taken back first: its ``undo``,
   then the new session — nothing is lost): the form is
   :mod:`table_app.present.forms.new_session` (the names the joined phones gave where set, the
   base, the rule options in words, the roster), and a roster name tapped into it
   :mod:`table_app.present.forms.roster_pick` (``POST /phone/<n>/pick``); it needs
   ``confirm: true``, the page's second tap, since the session it follows leaves every screen.
2. **Bets**: while bets are open, each phone enters its own seat's bet; the table gets one
   ``bets`` event when all four are in (again if one changes before the dealer's roll), and
   the view names whose bets are missing — the form's decisions
   (:mod:`table_app.present.forms.bets`); here only each hand's entries, kept until all four are in.
3. **The last session**: its ranking and settle-up, worded as the end of a session is (the
   phone page draws and shares both alike), read from the journal (a read-only connection, on
   a thread of its own, at start and after a new session or an undo), replayed as the service
   does (from the newest snapshot, so at most ``SNAPSHOT_EVERY`` events).

:class:`PhoneScore` does no I/O of its own but that read (and the session's history, read when
a phone's new session replaces an unplayed one); the phone routes ask it for the score part of
a phone's view and for the command a step becomes.
"""

from __future__ import annotations

import bisect
import logging
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, TypedDict

from engine.public import PublicState, public_state
from engine.seats import SEATS
from table_app.core.notices import Answer
from table_app.http_kit.replies import form_refusal, json_reply, refused
from table_app.http_kit.server import Reply
from table_app.journal.session_history import History, SessionHistory
from table_app.journal.state import state_after
from table_app.present.fees import your_house
from table_app.present.forms import bets, new_session, roster_pick
from table_app.present.forms.bets import BetsOffer
from table_app.present.forms.new_session import SessionOffer
from table_app.present.forms.refused import Refused
from table_app.present.money import Money
from table_app.present.seat import settle_up_lines
from table_app.present.table import FinalView, session_view
from table_app.present.vocab_score import SCORE
from table_app.present.words import Both, pair

if TYPE_CHECKING:
    from table_app.core.notices import Notice
    from table_app.core.service import TableService
    from table_app.journal.journal import Journal

log = logging.getLogger(__name__)

SCORE_STEPS: Final = ("new_session", "bet")  # the steps this module makes commands of
WORDS: Final = {key: {"zh": pair(key)[0], "en": pair(key)[1]}
                for key in (*SCORE, "hands_played", "rules_default", "rules_changed")}


class LastSession(TypedDict):
    """The session before this one as a phone shows it: the ranking and settle-up (worded as
    the end of a session is: :func:`table_app.present.table.session_view`) and this seat's payments."""

    final: FinalView
    yours: list[Both]


class ScoreView(TypedDict):
    """The score part of a phone's view (``PhoneView.keeping``)."""

    form: SessionOffer | None  # offered when a phone may start a session (or replace an unplayed one)
    bets: BetsOffer | None  # while bets are open (table_app/present/forms/bets.py)
    last: LastSession | None  # the session before this one, if any
    words: dict[str, dict[str, str]]


def last_session(journal: Journal) -> PublicState | None:
    """The public state at the end of the session before the one in effect (None: there is
    none), from the journal."""
    with journal.read_snapshot():
        active = journal.timeline().active
        begins = [i for first in sorted(first for _, first, _, _ in journal.sessions())
                  if (i := bisect.bisect_left(active, first)) < len(active) and active[i] == first]
        if len(begins) < 2:
            return None
        state, _ = state_after(journal, active[:begins[-1]])
    return public_state(state)


def _done() -> Future[Answer]:
    """A tap taken with no command to the table (a bet kept until all four are in)."""
    future: Future[Answer] = Future()
    future.set_result(Answer(ok=True))
    return future


@dataclass
class PhoneScore:
    service: TableService
    _entered: dict[int, int] = field(default_factory=dict)  # this hand's bets, by seat, as the phones gave them
    _hand: tuple[int, int] = (0, 0)  # (the sessions and undos seen, the hand): whose bets _entered holds
    _sent: object = ()  # the bets last sent for this hand (the command's list)
    _gen: int = 0
    _last: tuple[PublicState, FinalView] | None = None  # the last session's state and its words
    _stale: bool = False
    _reading: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock)
    money: Money | None = None  # a point's value, beside the points in the last session's settle-up

    # -- following the table -------------------------------------------------------------

    def __call__(self, notice: Notice) -> None:
        """A changed table (the service's thread: never blocks): a new session or an undo
        forgets the bets entered and reads the last session again."""
        kind = notice.event.TYPE if notice.event is not None else None
        if kind == "new_session" or notice.kind == "undo":
            with self._lock:
                self._gen += 1
            self.refresh()

    def refresh(self) -> None:
        """Read the last session from the journal, on a thread of its own (one at a time)."""
        with self._lock:
            self._stale = True
            if self._reading:
                return
            self._reading = True
        threading.Thread(target=self._read, name="phone-score-last", daemon=True).start()

    def _read(self) -> None:
        while True:
            with self._lock:
                if not self._stale:
                    self._reading = False
                    return
                self._stale = False
            try:
                journal = self.service.journal_reader()
                try:
                    last = last_session(journal)
                finally:
                    journal.close()
            except Exception:  # (the view goes without it: never the table)
                log.exception("reading the last session from the journal failed")
                continue
            with self._lock:
                self._last = None if last is None else (last, session_view(last, self.money))

    # -- the view --------------------------------------------------------------------------

    def view(self, public: PublicState, pending: Callable[[int], str | None], seat: int) -> ScoreView:
        form = new_session.offer(public, self._roster, _given(pending))  # (the roster read only when offered)
        with self._lock:
            last = self._last
            offered = bets.offer(public, self._this_hand(public))
        yours = None if last is None else [*settle_up_lines(last[0], seat, self.money),
                                           *your_house(last[0], seat, self.money)]  # (and what it paid the house)
        return {"form": form, "bets": offered, "words": WORDS,
                "last": None if last is None or yours is None else {"final": last[1], "yours": yours}}

    def _roster(self) -> list[str]:
        roster = self.service.roster
        return [] if roster is None else [p.name for p in roster.players()[:new_session.ROSTER_OFFERED]]

    def _history(self) -> History | None:
        """This session's history, read from the journal (None: it could not be read)."""
        try:
            journal = self.service.journal_reader()
            try:
                history = SessionHistory(journal)
                try:
                    return history.read()
                finally:
                    history.close()
            finally:
                journal.close()
        except Exception:  # (the phone is refused: never the table)
            log.exception("reading the session's history from the journal failed")
            return None

    def entered(self, public: PublicState) -> dict[int, int]:
        """This hand's bets as the phones have entered them so far, by seat (a copy; empty for
        another hand, or after a new session or an undo): what a result-only form starts with."""
        with self._lock:
            return dict(self._this_hand(public))

    def _this_hand(self, public: PublicState) -> dict[int, int]:
        """(Under the lock.) The bets entered, when they are this hand's (else none)."""
        return self._entered if self._hand == (self._gen, public["hand"]) else {}

    # -- the steps -------------------------------------------------------------------------

    def step(self, seat: int, data: Mapping[str, object], public: PublicState,
             pending: Callable[[int], str | None]) -> Reply | dict[str, object] | list[dict[str, object]] | \
            Future[Answer]:
        """What a step of :data:`SCORE_STEPS` from seat ``seat``'s phone becomes: a refusal, a
        command for the table (commands in turn: a new session replacing an unplayed one), or a
        tap taken with nothing to send yet (a bet)."""
        if data.get("type") == "new_session":
            return self._new_session(data, public, pending)
        return self._bet(seat, data, public)

    def _new_session(self, data: Mapping[str, object], public: PublicState,
                     pending: Callable[[int], str | None]) -> Reply | list[dict[str, object]]:
        """The commands that begin a phone's new session (:func:`new_session.steps`: replacing
        an unplayed one too, never over a session being played), after its second tap; or why not."""
        if not new_session.offered(public):
            return refused(409, "ph_session_on", "phone.session_on")
        if data.get("confirm") is not True:
            return refused(409, "sc_confirm_first", "phone.confirm")
        made = new_session.from_json(data, public, new_session.start_names(public, self._roster(), _given(pending)))
        planned = made if isinstance(made, Refused) else new_session.steps(public, made, self._history)
        return form_refusal(planned) if isinstance(planned, Refused) else planned

    def pick(self, data: Mapping[str, object]) -> Reply:
        """A roster name tapped into the form (:func:`roster_pick.answer`): the names after it,
        the place chosen next, the roster players seated."""
        picked = roster_pick.answer(data, self._roster())
        return form_refusal(picked) if isinstance(picked, Refused) else json_reply(200, {"ok": True, **picked})

    def _bet(self, seat: int, data: Mapping[str, object], public: PublicState) -> Reply | dict[str, object] | \
            Future[Answer]:
        """A phone's bet, kept until all four are in (the form decides: :mod:`table_app.present.forms.bets`)."""
        amount = bets.entry(seat, data, public)
        if isinstance(amount, Refused):
            return form_refusal(amount)
        with self._lock:
            if self._hand != (self._gen, public["hand"]):
                self._hand, self._entered, self._sent = (self._gen, public["hand"]), {}, ()
            self._entered[seat] = amount
            command = bets.command(self._entered, public)
            if command is None or command["bets"] == self._sent:  # (the same bets sent already: once)
                return _done()
            self._sent = command["bets"]
        return command


def _given(pending: Callable[[int], str | None]) -> list[str | None]:
    """The names the seats' phones gave, waiting for the table to take them."""
    return [pending(s) for s in range(SEATS)]
