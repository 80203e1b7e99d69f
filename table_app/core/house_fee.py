"""The table fee's part in the service (issue 31; docs/rules.md "Fees"): what the service fills
into the events it journals, and the table's default fee.

- **The default**: the parlour's last ``fee`` command, else the config's ``[fee]``
  (``Config.fee_setting``), else none. The parlour's is kept in a ``settings`` row of the
  journal's own SQLite file, as the roster keeps its players there (``table_app/core/roster.py``):
  a restart, and a backup of the journal, carry it; the config file stays the owner's, never
  rewritten by the service (it may be read-only, in ``/etc``).
- :meth:`HouseFee.fill`: a ``new_session`` without ``fee`` gets the default; an ``end_session``
  without ``seconds`` gets the session's length, from its ``new_session`` record's ``at`` (the
  journal's own time) to now — so the engine stays without a clock.
- :meth:`HouseFee.keep`: a ``fee`` command from MQTT (``xian/T/cmd``: the parlour's, or whoever
  may write the table's commands) is kept as the default, then applied to the session in play
  as any event; with no session in play it is only kept (answered ``ok``, nothing journaled).

A settings row that cannot be read or written never costs a hand: the problem is logged and
kept in :attr:`HouseFee.problem`, and the config's default serves.

>>> import tempfile, pathlib
>>> from table_app.journal.journal import Journal
>>> path = pathlib.Path(tempfile.mkdtemp()) / "j.sqlite3"
>>> Journal.open(path).close()
>>> fees = HouseFee(path, FeeSetting("hand", 5))
>>> fees.default
FeeSetting(mode='hand', rate=5, min=0, cap=None, payer='aa', tea=0)
>>> fees.remember(FeeSetting("hour", 30)); fees.close()
>>> HouseFee(path, FeeSetting("hand", 5)).default  # the parlour's wins, after a restart too
FeeSetting(mode='hour', rate=30, min=0, cap=None, payer='aa', tea=0)
"""

from __future__ import annotations

import dataclasses
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Final

from engine.errors import InvalidEventError, RuleError
from engine.event_base import Event
from engine.events import EndSession, Fee, NewSession, parse_event
from engine.fees import MAX_SECONDS, FeeSetting
from engine.table import accepts
from table_app.core.notices import Answer
from table_app.journal.file import immediate

if TYPE_CHECKING:
    from engine.public import PublicState
    from table_app.journal.journal import Journal

log = logging.getLogger(__name__)

SCHEMA: Final = "CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL, at TEXT NOT NULL)"
KEY: Final = "fee"
KEPT_FROM: Final = ("mqtt",)
"""The sources whose ``fee`` commands become the table's default: MQTT's ``cmd`` topic
(``table_app.mqtt.bridge.COMMAND_SOURCE``), the path the parlour's commands take."""


class HouseFee:
    """The table's fee default and what the service fills in (see the module's docstring).
    Thread-safe: the service's thread writes, a screen may read :attr:`default`."""

    def __init__(self, journal_path: Path | None, configured: FeeSetting | None = None, *,
                 now: Callable[[], float] = time.time) -> None:
        self.configured = configured
        self.now = now  # the journal's clock (its records' ``at``): seconds since the epoch
        self.problem = ""
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._kept: tuple[FeeSetting | None] | None = None  # the parlour's, once it has sent one
        if journal_path is None:
            return
        try:
            conn = sqlite3.connect(f"{journal_path.resolve().as_uri()}?mode=rw", uri=True, isolation_level=None,
                                   check_same_thread=False)
            conn.execute("PRAGMA busy_timeout = 5000")
            conn.execute(SCHEMA)
            self._conn = conn
            row = conn.execute("SELECT value FROM settings WHERE key = ?", (KEY,)).fetchone()
            if row is not None:
                data = json.loads(row[0])
                self._kept = (None if data is None else FeeSetting.from_json(data),)
        except (sqlite3.Error, ValueError) as e:  # (json and the setting's checks raise ValueErrors)
            self._failed("cannot read the table's fee setting", e)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _failed(self, what: str, e: BaseException) -> None:
        self.problem = f"{what}: {' '.join(str(e).split())}"
        log.warning("house fee: %s (the config's default serves)", self.problem)

    @property
    def default(self) -> FeeSetting | None:
        """The fee a new session gets when it names none: the parlour's, else the config's."""
        with self._lock:
            return self.configured if self._kept is None else self._kept[0]

    def remember(self, setting: FeeSetting | None) -> None:
        """Keep ``setting`` (None: no fee) as the table's default, durably (a failed write is
        logged; the default holds in memory until the next start)."""
        with self._lock:
            self._kept = (setting,)
            if self._conn is None:
                return
            value = json.dumps(None if setting is None else setting.to_json())
            at = datetime.now(UTC).isoformat(timespec="milliseconds")
            try:
                with immediate(self._conn) as c:
                    c.execute("INSERT OR REPLACE INTO settings (key, value, at) VALUES (?, ?, ?)", (KEY, value, at))
            except sqlite3.Error as e:
                self._failed("cannot keep the table's fee setting", e)

    def fill(self, event: Event, journal: Journal, session: int | None) -> Event:
        """``event`` as the service journals it: a ``new_session`` with the default fee, an
        ``end_session`` with the session's length (when they carry none)."""
        if isinstance(event, NewSession) and event.fee is None and (default := self.default) is not None:
            return dataclasses.replace(event, fee=default)
        if isinstance(event, EndSession) and event.seconds is None and session is not None:
            seconds = self.seconds(journal, session)
            return event if seconds is None else dataclasses.replace(event, seconds=seconds)
        return event

    def seconds(self, journal: Journal, session: int) -> int | None:
        """Whole seconds from the session's ``new_session`` record to now (None: not known)."""
        try:
            t0 = session_started(journal, session=session)
        except sqlite3.Error as e:  # (the end is journaled without its length rather than refused)
            log.warning("house fee: the session's start cannot be read: %s", e)
            return None
        return None if t0 is None else min(MAX_SECONDS, max(0, int(self.now() - t0)))

    def keep(self, command: Mapping[str, object], source: str, seq: int, public: PublicState) -> Answer | None:
        """A ``fee`` command from :data:`KEPT_FROM`: kept as the default; the answer when that is
        all (no session in play, or a malformed setting), None when the service is to apply it."""
        if source not in KEPT_FROM:
            return None
        try:
            if "fee" not in command:  # (absent is not null: a command naming no setting clears no default)
                raise InvalidEventError(f"fee: missing field 'fee' (a setting, or null: none) in {dict(command)!r}")
            event = parse_event(dict(command))
        except RuleError as e:
            return Answer(False, error=str(e), code=e.code, params=e.params)
        assert isinstance(event, Fee)
        self.remember(event.fee)
        return None if "fee" in accepts(public["phase"]) else Answer(True, seq, public)


def session_started(journal: Journal, seq: int | None = None, *, session: int | None = None) -> float | None:
    """When a session began — its ``new_session`` record's ``at``, in seconds since the epoch —
    the session of record ``seq`` (a screen's "fee so far": ``session_started(reader,
    service.seq)``, then ``engine.fees.bill_so_far(public, int(now - started))``) or the
    session numbered ``session``; None when there is none or its time cannot be read."""
    if session is None:
        session = journal.record_sessions([seq]).get(seq) if seq else None
    started = next((at for i, _, at, _ in journal.sessions() if i == session), None) if session else None
    try:
        t0 = datetime.fromisoformat(started) if started is not None else None
    except ValueError:
        return None
    if t0 is None:
        return None
    return (t0 if t0.tzinfo is not None else t0.replace(tzinfo=UTC)).timestamp()


__all__ = ["KEPT_FROM", "HouseFee", "session_started"]
