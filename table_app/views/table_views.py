"""``TableViews``: the one view of the table per committed change, for every front end.

1. It is the service's observer: a notice that changed the table is recorded (its state, its
   ``seq``, the claim window's deadline; the session clock hears whether the session's start may
   have moved), then passed on to its own observers — MQTT, the web pages, the touchscreen — so
   that whatever they ask for after a notice already knows it.
2. :meth:`context` builds the :class:`~table_app.present.view_context.ViewContext` of the latest
   change on the first ask after it (the claim time left and the session's seconds read then,
   from the service's clock and the one :class:`~table_app.core.session_clock.SessionClock`) and
   gives every later ask the same value, until the next change.
3. :meth:`claim_left` is the seconds left *now*, for a screen that counts the window down
   between changes (the touchscreen's ticker); the pages count down themselves from the view.

A point's value (:attr:`money`) is the table's (config ``money.*``); the touchscreen's Settings
may change it (:meth:`set_money`): the next view of every front end shows the new value.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from table_app.core.clock import seconds_left
from table_app.core.notices import tell_each
from table_app.core.session_clock import SessionClock
from table_app.present.money import Money
from table_app.present.view_context import ViewContext

if TYPE_CHECKING:
    from table_app.core.notices import Notice, Observer
    from table_app.core.service import TableService

log = logging.getLogger(__name__)


class TableViews:
    """``TableViews(service, money).start()``; ``subscribe(observer)``; ``context()``; ``stop()``.

    ``wall``: the wall clock the session's seconds are read with (the journal's times are UTC
    instants; a test may move it)."""

    def __init__(self, service: TableService, money: Money | None = None,
                 wall: Callable[[], float] = time.time) -> None:
        self.service = service
        self.session = SessionClock(service, wall)  # the one record of when the session began
        self._lock = threading.Lock()
        self._money = money
        self._seq, self._public = service.seq, service.public
        self._deadline = service.claim_deadline  # (restored with the claims open: a fresh window)
        self._built: ViewContext | None = None  # the latest change's view, once asked for
        self._observers: list[Observer] = []
        self._unsubscribe: Callable[[], None] | None = None

    def start(self) -> TableViews:
        if self._unsubscribe is None:
            self._unsubscribe = self.service.subscribe(self)
            with self._lock:  # a change between construction and subscription is not lost
                self._seq, self._public = self.service.seq, self.service.public
                self._deadline, self._built = self.service.claim_deadline, None
        return self

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def subscribe(self, observer: Observer) -> Callable[[], None]:
        """Hear every notice of the service after this has recorded it; the returned function
        stops that. (Starts following the service on the first subscriber.)"""
        self.start()
        with self._lock:
            self._observers.append(observer)

        def unsubscribe() -> None:
            with self._lock:
                if observer in self._observers:
                    self._observers.remove(observer)

        return unsubscribe

    def __call__(self, notice: Notice) -> None:
        """The service observer (its thread: never blocks)."""
        if notice.changed:
            self.session.heard(notice)
            with self._lock:
                self._seq, self._public, self._deadline = notice.seq, notice.state, notice.claim_deadline
                self._built = None
        with self._lock:
            observers = list(self._observers)
        tell_each(observers, notice, log)

    @property
    def money(self) -> Money | None:
        return self._money

    def set_money(self, money: Money | None) -> None:
        """A point's new value: the next view of every front end shows it."""
        with self._lock:
            self._money, self._built = money, None

    def context(self) -> ViewContext:
        """The latest change's view, built once (on the first ask after the change)."""
        with self._lock:
            built = self._built
            if built is not None:
                return built
            seq, public, deadline, money = self._seq, self._public, self._deadline, self._money
        fee = public.get("fee")
        seconds = self.session.seconds() if fee is not None and fee.get("mode") == "hour" else None
        made = ViewContext(public, seq, seconds_left(deadline, self.service.clock), self.service.claim_window_s,
                           seconds, money)
        with self._lock:
            if self._built is None and self._seq == seq and self._public is public and self._money is money:
                self._built = made
            return self._built or made

    def claim_left(self) -> float | None:
        """The claim window's seconds left now (None: no window open)."""
        with self._lock:
            deadline = self._deadline
        return seconds_left(deadline, self.service.clock)
