"""Keeping score from phones (issue 27): a new session's form, each seat's bet, the last session.

1. **A new session** from a bound phone, when none is being played (phase ``idle`` or
   ``ended``): the four names (the joined phones' names where set), the base and the rule
   options in words (:data:`table_app.present.rules.RULE_WORDS`); it needs ``confirm: true``,
   the page's second tap, since the session it replaces leaves every screen.
2. **Bets**: while bets are open, each phone enters its own seat's bet; the table gets one
   ``bets`` event when all four are in (again if one changes before the dealer's roll), and
   the view names whose bets are missing — the form's decisions
   (:mod:`table_app.present.forms.bets`); here only each hand's entries, kept until all four are in.
3. **The last session**: its ranking and settle-up, worded as the end of a session is (the
   phone page draws and shares both alike), read from the journal (a read-only connection, on
   a thread of its own, at start and after a new session or an undo), replayed as the service
   does (from the newest snapshot, so at most ``SNAPSHOT_EVERY`` events).

:class:`PhoneScore` does no I/O of its own but that read; the phone routes ask it for the
score part of a phone's view and for the command a step becomes.

>>> names = [c["option"] for c in rule_choices({"seven_pairs": True})]
>>> names[:3], rule_choices({"seven_pairs": True})[4]["now"]
(['wall_direction', 'added_kong', 'kong_reserve'], 1)
"""

from __future__ import annotations

import bisect
import logging
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, TypedDict

from engine import InvalidEventError, parse_event
from engine.authority import new_session_way
from engine.fields import MAX_AMOUNT
from engine.public import PublicState, public_state
from engine.rules import XIAN, Rules, RulesError, RuleValue
from engine.seats import SEATS
from table_app.core.notices import Answer
from table_app.http_kit.replies import form_refusal, refusal, refused
from table_app.http_kit.server import Reply
from table_app.journal.state import state_after
from table_app.present.fees import your_house
from table_app.present.forms import bets
from table_app.present.forms.bets import BetsOffer
from table_app.present.forms.refused import Refused
from table_app.present.money import Money
from table_app.present.names import names_refused
from table_app.present.rules import RULE_WORDS, rule_value_word
from table_app.present.seat import settle_up_lines
from table_app.present.table import FinalView, session_view
from table_app.present.vocab_score import SCORE
from table_app.present.words import Both, pair, tr

if TYPE_CHECKING:
    from table_app.core.notices import Notice
    from table_app.core.service import TableService
    from table_app.journal.journal import Journal

log = logging.getLogger(__name__)

ROSTER_OFFERED: Final = 24  # the roster's most recent players the form offers
SCORE_STEPS: Final = ("new_session", "bet")  # the steps this module makes commands of
_FORM_KEYS: Final = frozenset({"type", "confirm", "players", "base", "rules"})
WORDS: Final = {key: {"zh": pair(key)[0], "en": pair(key)[1]}
                for key in (*SCORE, "hands_played", "rules_default", "rules_changed")}


class RuleValueWords(TypedDict):
    value: RuleValue
    zh: str
    en: str


class RuleChoice(TypedDict):
    """One rule option as the form offers it: its name, what it decides, its values in words
    and which of them is chosen now."""

    option: str
    name: Both
    what: Both
    values: list[RuleValueWords]
    now: int
    default: int  # (the xian preset's)


class SessionForm(TypedDict):
    names: list[str]
    base: int
    base_max: int
    rules: list[RuleChoice]
    roster: list[str]  # the table's players, the most recent first (a tap puts one in a place)


class LastSession(TypedDict):
    """The session before this one as a phone shows it: the ranking and settle-up (worded as
    the end of a session is: :func:`table_app.present.table.session_view`) and this seat's payments."""

    final: FinalView
    yours: list[Both]


class ScoreView(TypedDict):
    """The score part of a phone's view (``PhoneView.keeping``)."""

    form: SessionForm | None  # offered when a phone may start a session
    bets: BetsOffer | None  # while bets are open (table_app/present/forms/bets.py)
    last: LastSession | None  # the session before this one, if any
    words: dict[str, dict[str, str]]


def _as_json(value: object) -> RuleValue:
    return list(value) if isinstance(value, tuple) else value  # type: ignore[return-value]


def _same(a: object, b: object) -> bool:
    return type(a) is type(b) and a == b  # (True is not 1: a bet unit of 1 is not "allowed")


def rule_choices(current: Mapping[str, RuleValue]) -> list[RuleChoice]:
    """Every rule option with its values in words (the presentation's one table) and the one
    chosen now: ``current`` (a session's overrides) over the ``xian`` defaults."""
    preset = XIAN.to_json()
    values = {**preset, **current}
    out: list[RuleChoice] = []
    for option, ((name_zh, name_en), (what_zh, what_en), words) in RULE_WORDS.items():
        offered: list[RuleValueWords] = [{"value": _as_json(v), "zh": zh, "en": en} for v, (zh, en) in words.items()]
        now = values[option]
        if not any(_same(o["value"], now) for o in offered):  # (set otherwise, e.g. from a play file)
            offered.append({"value": now, "zh": rule_value_word(option, now, "zh"),
                            "en": rule_value_word(option, now, "en")})
        index = {k: next(i for i, o in enumerate(offered) if _same(o["value"], v)) for k, v in
                 (("now", now), ("default", preset[option]))}
        out.append({"option": option, "name": {"zh": name_zh, "en": name_en}, "what": {"zh": what_zh, "en": what_en},
                    "values": offered, "now": index["now"], "default": index["default"]})
    return out


def form_names(public: PublicState, pending: Callable[[int], str | None]) -> list[str]:
    """The names a new session's form starts with: a name a phone gave (waiting or set), else "玩家n"."""
    return [pending(s) or public["players"][s] or tr("player_n", "zh", n=s + 1) for s in range(SEATS)]


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
        form: SessionForm | None = None
        if new_session_way(public) == "start":  # (a phone never starts a running session over)
            form = {"names": form_names(public, pending), "base": public["base"], "base_max": MAX_AMOUNT,
                    "rules": rule_choices(public["rules"]), "roster": self._roster()}
        with self._lock:
            last = self._last
            offered = bets.offer(public, self._this_hand(public))
        yours = None if last is None else [*settle_up_lines(last[0], seat, self.money),
                                           *your_house(last[0], seat, self.money)]  # (and what it paid the house)
        return {"form": form, "bets": offered, "words": WORDS,
                "last": None if last is None or yours is None else {"final": last[1], "yours": yours}}

    def _roster(self) -> list[str]:
        roster = self.service.roster
        return [] if roster is None else [p.name for p in roster.players()[:ROSTER_OFFERED]]

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
             pending: Callable[[int], str | None]) -> Reply | dict[str, object] | Future[Answer]:
        """What a step of :data:`SCORE_STEPS` from seat ``seat``'s phone becomes: a refusal, a
        command for the table, or a tap taken with nothing to send yet (a bet)."""
        if data.get("type") == "new_session":
            return new_session(data, public, pending)
        return self._bet(seat, data, public)

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


def new_session(data: Mapping[str, object], public: PublicState,
                pending: Callable[[int], str | None]) -> Reply | dict[str, object]:
    """The ``new_session`` command of a phone's form (the names, base and rules it leaves out:
    the form's own starting values), or why not."""
    if new_session_way(public) != "start":
        return refused(409, "ph_session_on", "phone.session_on")
    if not set(data) <= _FORM_KEYS:
        return refused(400, "sc_bad_form", "invalid")
    if data.get("confirm") is not True:
        return refused(409, "sc_confirm_first", "phone.confirm")
    names = data.get("players", form_names(public, pending))
    if not isinstance(names, list) or len(names) != SEATS or not all(isinstance(n, str) for n in names):
        return refused(400, "sc_bad_form", "invalid")
    names = [n.strip() for n in names]
    code, zh, en = names_refused(names)  # (empty, unprintable, too wide, or one player at two seats: the engine's)
    if code:
        return refusal(400, zh, en, code)
    try:
        overrides = Rules.from_overrides(data.get("rules", public["rules"])).overrides()  # type: ignore[arg-type]
    except (RulesError, TypeError) as e:
        return refused(400, "sc_bad_rules", "invalid.rules", why=str(e))
    command: dict[str, object] = {"type": "new_session", "players": names, "base": data.get("base", public["base"]),
                                  **({"rules": overrides} if overrides else {})}
    try:
        parse_event(command)  # (the base: the engine's own check)
    except InvalidEventError:
        return refused(400, "sc_bad_base", "invalid.base", max=MAX_AMOUNT)
    return command
