"""When the session in play began, for the viewers' "fee so far" (issue 31): the journal's
time of its ``new_session`` record (the sessions table's ``started_at``, the same instant), read
by a connection of its own — the engine never knows the clock. Read again only when a change
may have moved it (a new session, an undo, a redo); between those, a lookup is a cached number.

``SessionClock(service)`` is a service observer (:meth:`heard`); :meth:`seconds` is safe from
any thread."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from table_app.core.house_fee import session_started

if TYPE_CHECKING:
    from table_app.core.notices import Notice
    from table_app.core.service import TableService


class SessionClock:
    def __init__(self, service: TableService, wall: Callable[[], float] = time.time) -> None:
        self.service = service
        self.wall = wall  # (the wall clock: the journal's times are UTC instants)
        self._lock = threading.Lock()
        self._stale = True
        self._started: float | None = None

    def heard(self, notice: Notice) -> None:
        """The service observer: a change that may begin or take back a session."""
        if notice.changed and (notice.kind != "event" or (notice.event is not None and
                                                          notice.event.TYPE == "new_session")):
            with self._lock:
                self._stale = True

    def started(self) -> float | None:
        """The session in play's start (seconds since the epoch); None: no session."""
        with self._lock:
            if self._stale:
                self._started, self._stale = self._read(), False
            return self._started

    def seconds(self) -> int | None:
        """Whole seconds since the session in play began (None: no session)."""
        began = self.started()
        return None if began is None else max(0, int(self.wall() - began))

    def _read(self) -> float | None:
        reader = self.service.journal_reader()
        try:
            with reader.read_snapshot():
                active = reader.timeline().active
                return session_started(reader, active[-1]) if active else None
        finally:
            reader.close()
