"""``TableService``: the table's only writer (docs/design.md §1, data flow).

Every input thread (buttons, the serial panel, the touchscreen, MQTT, stdin) calls
:meth:`TableService.submit`; the commands wait in one thread-safe queue and a single service
thread takes them one at a time:

1. the engine applies the event (a ``new_session`` or ``name`` with its players' ids from the
   roster, ``roster.py``; the table's fee and an end's length filled in, ``house_fee.py``; a
   refused event is answered with the engine's error and leaves nothing behind);
2. the journal appends it and commits durably (WAL fsynced);
3. observers are notified;
4. the sender's future is answered with ``{"ok": true, "seq": n, "state": {...}}``.

Besides the event vocabulary the queue takes ``undo`` (``table_app/core/undo_target.py``),
``{"type": "redo"}``, ``{"type": "state"}`` (read only) and presses (docs/design.md §5): the
engine's one button mapping (:func:`engine.presses.apply_press`) checks and applies a press
in one step; its events are journaled in one commit with the press as their source (``gpio
press 1:TURN``). A refused press changes nothing and is told as a ``refused`` notice; the dice
button during seating as a ``dice`` notice (for the form); a held TURN puts up an undo that
its own seat confirms or a second seat agrees to (``table_app/core/consent.py``): a ``proposal``.

Two lanes (``table_app/core/lanes.py``): the table's own inputs (its buttons, the panel, the
touchscreen, stdin) go before remote commands (MQTT, phones), and at most ``remote_limit``
remote commands wait; beyond that a remote command is answered ``busy`` at once, so a flood
from the network never makes the players' buttons wait.

The claim window: when the engine says claims opened (its ``claims_open`` effect) the
service sends ``resolve`` itself ``claim_window_s`` seconds later, unless every seat has
answered first (the engine then closes the claims itself). The deadline is a time of the
injectable clock (``Notice.claim_deadline``); :class:`ManualClock` moves only when a test says so.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass

from engine import RuleError, TableState, apply, new_table, parse_event
from engine.event_base import Event
from engine.moves import Effect
from engine.presses import Press, Undo, apply_press, parse_press
from engine.public import PublicState, public_state
from engine.table import check_new_event
from table_app.core.clock import Clock, ManualClock, MonotonicClock
from table_app.core.consent import Agreed, Consent, held_turn
from table_app.core.house_fee import HouseFee
from table_app.core.lanes import REMOTE_LIMIT, STOP, Item, Lanes
from table_app.core.notices import Answer, Notice, Observer, Proposal, tell_each
from table_app.core.roster import Roster
from table_app.core.steps import Steps
from table_app.core.undo_target import undo_target
from table_app.journal.journal import Journal
from table_app.journal.state import state_after
from table_app.journal.timeline import Timeline
from table_app.system import sdnotify

__all__ = ["Answer", "Clock", "ManualClock", "MonotonicClock", "Notice", "Observer", "TableService"]

log = logging.getLogger(__name__)

SERVICE_SOURCE = "service"  # journal source of the events the service sends itself
SNAPSHOT_EVERY = 2000  # events in effect between snapshots (docs/journal.md has the measurements)


def fair_dice() -> tuple[int, int]:
    """Two dice from the operating system's random source."""
    return secrets.randbelow(6) + 1, secrets.randbelow(6) + 1


@dataclass
class _Window:
    opened_by: int  # the seq of the event that opened (or reopened) the claims
    deadline: float | None  # clock time to send resolve; None: no timer


class TableService:
    """Owns the engine state and the journal; everything changes through :meth:`submit`."""

    def __init__(self, journal: Journal, *, claim_window_s: float = 3.0, clock: Clock | None = None,
                 snapshot_every: int = SNAPSHOT_EVERY, heartbeat: Callable[[], None] | None = None,
                 heartbeat_s: float = 1.0, dice: Callable[[], tuple[int, int]] = fair_dice,
                 remote_limit: int = REMOTE_LIMIT, roster: Roster | None = None) -> None:
        if claim_window_s < 0:
            raise ValueError(f"claim_window_s must be >= 0, got {claim_window_s!r}")
        self._journal = journal
        self.roster = roster  # the players the table remembers (None: names only, no ids)
        self.fees: HouseFee | None = None  # the table's fee default; fills in fees and ends (house_fee.py)
        self.claim_window_s = claim_window_s
        self.clock: Clock = clock if clock is not None else MonotonicClock()
        self.snapshot_every = snapshot_every
        self.dice = dice  # the dice button's roll when the press carries none
        self.lanes = Lanes(remote_limit)  # the one queue (table_app/core/lanes.py)
        self.steps = Steps()  # whose step each event was (table_app/core/steps.py): heard first, read by all
        self.consent = Consent(clock=self.clock.now)  # the open proposals (table_app/core/consent.py), shared
        self._observers: list[Observer] = [self.steps, *((roster.observe,) if roster is not None else ())]
        self._observers_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._window: _Window | None = None
        self._since_snapshot = 0
        self._timeline = Timeline([], [])
        self._state: TableState = new_table()
        self._public: PublicState = public_state(self._state)
        self._session: int | None = None
        self._restore()
        self._maybe_snapshot()  # a long replay at start-up is saved so the next start is quick
        self.clock.add_listener(self._wake)
        # systemd's watchdog (table_app/system/sdnotify.py): the loop calls heartbeat() every round and
        # waits at most heartbeat_s, so a stalled loop stops the pings. None: the process
        # watchdog under a Type=notify unit, else no heartbeat (and no periodic wake-ups).
        self._heartbeat = heartbeat if heartbeat is not None else sdnotify.process_heartbeat("service")
        self._heartbeat_s = heartbeat_s if self._heartbeat is not None else None

    # -- the thread-safe interface -------------------------------------------------------

    def submit(self, command: Mapping[str, object], source: str = "", *, remote: bool = False) -> Future[Answer]:
        """Queue a command; the future is answered after the durable commit and the notices.
        ``remote``: from the network (MQTT, phones) — behind the table's own inputs, and
        answered ``busy`` at once when ``remote_limit`` remote commands already wait."""
        fut: Future[Answer] = Future()
        if (refused := self.lanes.admit(Item(command, source, fut, remote))) is not None:
            fut.set_result(refused)
        return fut

    def submit_in_turn(self, commands: Sequence[Mapping[str, object]], source: str = "", *,
                       remote: bool = False) -> Future[Answer]:
        """Queue ``commands`` one after another, each once the one before is taken (a new
        session over an unplayed one: its ``undo``, then the ``new_session``); the answer is the
        first refusal (the rest are not sent), else the last command's. Another input's command
        may come between two of them (an ``undo`` with ``last`` is refused if one did)."""
        done: Future[Answer] = Future()

        def send(i: int) -> None:
            def taken(f: Future[Answer]) -> None:  # (on the service's thread: submit never waits)
                answer = f.result()
                if answer.ok and i + 1 < len(commands):
                    send(i + 1)
                else:
                    done.set_result(answer)

            self.submit(commands[i], source, remote=remote).add_done_callback(taken)

        if commands:
            send(0)
        else:
            done.set_result(Answer(False, error="nothing to send", code="invalid"))
        return done

    def call(self, command: Mapping[str, object], source: str = "", timeout: float | None = None, *,
             remote: bool = False) -> Answer:
        return self.submit(command, source, remote=remote).result(timeout)

    @property
    def queued(self) -> int:
        """Commands waiting (for the benchmark and the tests)."""
        return self.lanes.queued

    @property
    def remote_waiting(self) -> int:
        """Remote commands waiting."""
        return self.lanes.remote_waiting

    @property
    def busy_refusals(self) -> int:
        """Remote commands answered busy."""
        return self.lanes.busy_refusals

    def subscribe(self, observer: Observer) -> Callable[[], None]:
        """Call ``observer(notice)`` after every durable change; returns the unsubscriber."""
        with self._observers_lock:
            self._observers.append(observer)

        def unsubscribe() -> None:
            with self._observers_lock, contextlib.suppress(ValueError):
                self._observers.remove(observer)

        return unsubscribe

    def journal_reader(self) -> Journal:
        """A read-only connection of its own to the journal (another thread's reads: WAL, so
        the service never waits for them); the caller closes it."""
        return self._journal.reader()

    @property
    def seq(self) -> int:
        """The last journal record applied."""
        return self._timeline.last_seq

    @property
    def public(self) -> PublicState:
        """The latest public state (a new dict after every change; do not modify it)."""
        return self._public

    def start(self) -> TableService:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="table-service", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float | None = 10) -> None:
        """Finish the queued commands, then stop the service thread."""
        if self._thread is not None:
            self.lanes.stop()
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> TableService:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _wake(self) -> None:
        self.lanes.wake()

    # -- the service thread --------------------------------------------------------------

    def _loop(self) -> None:
        while True:
            if self._heartbeat is not None:
                self._heartbeat()
            self._fire_window()
            try:
                item = self.lanes.take(self._wait_time())
            except queue.Empty:
                continue
            if item is STOP:
                self._drain_stopped()
                return
            if not isinstance(item, Item):
                continue
            if item.future.set_running_or_notify_cancel():
                try:
                    answer = self._handle(item.command, item.source)
                except Exception as e:  # a bug must not kill the only writer
                    log.exception("command %r failed", item.command)
                    answer = Answer(False, error=f"internal error: {e}", code="service.internal")
                item.future.set_result(answer)
            self._maybe_snapshot()

    def _drain_stopped(self) -> None:
        while True:
            try:
                item = self.lanes.take(0)
            except queue.Empty:
                return
            if isinstance(item, Item) and item.future.set_running_or_notify_cancel():
                item.future.set_result(Answer(False, error="the table service has stopped", code="service.stopped"))

    def _wait_time(self) -> float | None:
        w = self._window
        if w is None or w.deadline is None:
            return self._heartbeat_s
        # A ManualClock never passes on its own; its listener wakes us instead of this timeout.
        wait = max(0.0, min(w.deadline - self.clock.now(), 1.0))
        return wait if self._heartbeat_s is None else min(wait, self._heartbeat_s)

    # -- commands ------------------------------------------------------------------------

    def _handle(self, command: object, source: str) -> Answer:
        if not isinstance(command, Mapping):
            return Answer(False, error=f"a command must be a JSON object, got {command!r}", code="invalid")
        kind = command.get("type")
        if kind == "undo":
            target = undo_target(command, self._timeline.active)
            return target if isinstance(target, Answer) else self._undo(target, source)
        if kind == "redo":
            if set(command) != {"type"}:
                return Answer(False, error=f"redo takes no fields, got {dict(command)!r}", code="invalid")
            return self._redo(source)
        if kind == "state":
            if set(command) != {"type"}:
                return Answer(False, error=f"state takes no fields, got {sorted(set(command) - {'type'})}",
                              code="invalid")
            return Answer(True, self.seq, self._public)
        if kind == "press":
            return self._press(command, source)
        if kind == "fee" and self.fees is not None and (kept := self.fees.keep(command, source, self.seq, self.public)):
            return kept
        return self._apply_event(command, source)

    def _press(self, command: Mapping[str, object], source: str) -> Answer:
        """A button: checked and applied by the engine's one button mapping in one step, its
        events journaled in one commit, then told one by one."""
        try:
            press = parse_press(dict(command))
        except RuleError as e:
            return Answer(False, error=str(e), code=e.code, params=e.params)
        try:
            pressed = apply_press(self._state, press, self.dice)  # (the dice are asked for only for a roll)
        except RuleError as e:
            self._notify(Notice(self.seq, "refused", None, self._public, source, time.time(), press=press,
                                error=str(e), code=e.code, params=e.params))
            return Answer(False, error=str(e), code=e.code, params=e.params)
        tag = f"{source} press {press.label()}"  # the journal's source of its events: gpio press 1:TURN
        if isinstance(pressed, Undo):
            return self._held(press, source, tag)
        if not pressed.steps:  # the dice button while the seats are chosen: the dice go to the seating form
            dice = press.dice or self.dice()
            self._notify(Notice(self.seq, "dice", None, self._public, source, time.time(), press=press, dice=dice))
            return Answer(True, self.seq, self._public, dice=dice)
        try:
            seqs, _ = self._journal.append_events([st.event.to_json() for st in pressed.steps], self._session,
                                                  source=tag)
        except Exception as e:  # sqlite3.Error, OSError (disk full, I/O error), JournalError
            return self._journal_failed(e)
        self._state = pressed.state
        for i, (seq, step) in enumerate(zip(seqs, pressed.steps, strict=True)):
            self._changed(seq, step.event, step.public, tag, step.effects, press, final=i == len(seqs) - 1)
        return Answer(True, seqs[-1], self._public)

    def _held(self, press: Press, source: str, tag: str) -> Answer:
        """A held TURN: ``table_app.core.consent.held_turn`` says whether it undoes, proposes, or not."""
        assert press.seat is not None
        made = held_turn(self.consent, self.steps, press.seat, self.seq, self._public, tag, bool(self._timeline.active))
        if isinstance(made, Agreed):
            return self._undo(None, made.journal_source(tag), press, made.by)
        if isinstance(made, Proposal):
            self._notify(Notice(self.seq, "proposal", None, self._public, source, time.time(), press=press,
                                proposal=made))
            return Answer(True, self.seq, self._public, proposal=made)
        self._notify(Notice(self.seq, "refused", None, self._public, source, time.time(), press=press, error=made.error,
                            code=made.code, params=made.params))
        return Answer(False, error=made.error, code=made.code, params=made.params)

    def _apply_event(self, command: Mapping[str, object], source: str) -> Answer:
        try:
            event = parse_event(dict(command))
            check_new_event(self._state, event)  # (refused before the roster takes a name in)
            event = self.roster.identify(event) if self.roster is not None else event
            event = self.fees.fill(event, self._journal, self._session) if self.fees is not None else event
            state, effects = apply(self._state, event)
        except RuleError as e:
            return Answer(False, error=str(e), code=e.code, params=e.params)
        data = event.to_json()
        try:
            seq, session = self._journal.append_event(data, self._session, source=source,
                                                      new_session=event.TYPE == "new_session")
        except Exception as e:  # sqlite3.Error, OSError (disk full, I/O error), JournalError
            return self._journal_failed(e)
        self._session = session
        self._state = state
        self._changed(seq, event, public_state(state), source, tuple(effects))
        return Answer(True, seq, self._public)

    def _changed(self, seq: int, event: Event, public: PublicState, source: str, effects: tuple[Effect, ...],
                 press: Press | None = None, final: bool = True) -> None:
        """An event is durable: the timeline, the public state and the claim window follow; the observers hear it."""
        self._timeline.apply_record(seq, "event", None)
        self._public = public
        self._since_snapshot += 1
        if public["phase"] != "claims":
            self._window = None
        elif self._window is None or any(e.what == "claims_open" for e in effects):  # (the engine says when)
            self._window = self._open_window(seq)
        self._notify(Notice(seq, "event", event, public, source, time.time(), effects, press=press, final=final,
                            claim_deadline=self.claim_deadline))

    def _undo(self, target: int | None, source: str, press: Press | None = None, by: tuple[int, ...] = ()) -> Answer:
        """Back to just after event ``target`` (``undo_target``'s; None: the last event in effect)."""
        active = self._timeline.active
        if target is None:
            target = active[-2] if len(active) > 1 else 0
        cut = self._timeline.cut_index(target)
        undone = tuple(active[cut:])
        kept = active[:cut]
        state = self._rebuild(kept)
        session = self._session_of(kept)
        try:
            seq = self._journal.append_undo(target, session, source=source)
        except Exception as e:
            return self._journal_failed(e)
        self._timeline.apply_record(seq, "undo", target)
        self._state, self._session = state, session
        self._public = public_state(state)
        self._reopen_window()
        self._notify(Notice(seq, "undo", None, self._public, source, time.time(), undone=undone, press=press,
                            claim_deadline=self.claim_deadline, by=by))
        return Answer(True, seq, self._public)

    def _redo(self, source: str) -> Answer:
        if not self._timeline.redo:
            return Answer(False, error="nothing to redo: no undone event (a new event clears the redo list)",
                          code="redo.nothing")
        target = self._timeline.redo[0]
        try:
            event = parse_event(self._journal.event(target))
            state, effects = apply(self._state, event)
        except RuleError as e:  # cannot happen with a deterministic engine; say so if it does
            return Answer(False, error=f"redo of event {target} was refused: {e}", code="redo.refused")
        session = self._journal.record_sessions([target]).get(target)
        try:
            seq = self._journal.append_redo(target, session, source=source)
        except Exception as e:
            return self._journal_failed(e)
        self._timeline.apply_record(seq, "redo", target)
        self._state, self._session = state, session
        self._public = public_state(state)
        self._since_snapshot += 1
        self._reopen_window()
        self._notify(Notice(seq, "redo", event, self._public, source, time.time(), tuple(effects),
                            claim_deadline=self.claim_deadline))
        return Answer(True, seq, self._public)

    def _journal_failed(self, e: BaseException) -> Answer:
        """The commit failed: nothing was acknowledged; re-read the journal so memory matches disk."""
        log.error("journal write failed: %s", e)
        try:
            self._restore()
        except Exception:
            log.exception("re-reading the journal after a failed write failed too")
        return Answer(False, error=f"journal write failed, the event was not recorded: {e}", code="journal.failed")

    def _notify(self, notice: Notice) -> None:
        with self._observers_lock:
            observers = list(self._observers)
        tell_each(observers, notice, log)

    # -- the state from the journal ------------------------------------------------------

    def _restore(self) -> None:
        self._timeline = self._journal.timeline()
        active = self._timeline.active
        self._state = self._rebuild(active)
        self._public = public_state(self._state)
        self._session = self._session_of(active)
        self._reopen_window()

    def _session_of(self, active: list[int]) -> int | None:
        if not active:
            return None
        return self._journal.record_sessions([active[-1]]).get(active[-1])

    def _rebuild(self, active: list[int]) -> TableState:
        """The state after the events in effect: from the newest usable snapshot or session start."""
        state, self._since_snapshot = state_after(self._journal, active)
        return state

    def _maybe_snapshot(self) -> None:
        if self.snapshot_every <= 0 or self._since_snapshot < self.snapshot_every or not self._timeline.active:
            return
        try:
            self._journal.save_snapshot(self._timeline.active[-1], self._state.to_json())
            self._since_snapshot = 0
        except Exception:
            log.exception("saving a snapshot failed (start-up will replay instead)")

    # -- the claim window ----------------------------------------------------------------

    @property
    def claim_deadline(self) -> float | None:
        """When the open claim window closes by itself, in :attr:`clock`'s time (None: no window, or no timer)."""
        return None if self._window is None else self._window.deadline

    def _open_window(self, seq: int) -> _Window:
        deadline = self.clock.now() + self.claim_window_s if self.claim_window_s > 0 else None
        return _Window(seq, deadline)

    def _reopen_window(self) -> None:
        """After start-up, undo or redo: a fresh full window if the claims are open.

        It does not close at once even if every seat has answered: after an undo of the
        service's own ``resolve`` the players get the window's time to change a claim.
        """
        if self._public["phase"] == "claims" and self._timeline.active:
            self._window = self._open_window(self._timeline.active[-1])
        else:
            self._window = None

    def _fire_window(self) -> None:
        w = self._window
        if w is None or w.deadline is None or self.clock.now() < w.deadline:
            return
        self._window = None
        answer = self._apply_event({"type": "resolve"}, SERVICE_SOURCE)
        if not answer.ok:
            log.warning("closing the claim window failed: %s", answer.error)
