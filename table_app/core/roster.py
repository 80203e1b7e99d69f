"""The roster: the people who have played at this table (issue 28), by a stable id.

Where it lives: a ``players`` table in the journal's own SQLite file (docs/journal.md, "The
roster"), so a backup of the journal carries it and a restored backup has the roster of the
same moment. The hash chain covers the records only: the roster is what the table remembers
of people, not what happened.

- A player has an ``id`` (SQLite's ``AUTOINCREMENT``: a whole number from 1, never given
  twice, even after a row is gone), a ``name`` (``engine.fields.check_name``: 1–12 printable
  characters, any script; unique, letters' case aside), when it was added, and when it first
  and last played (a session started with it; ``None``: not yet).
- :meth:`Roster.identify` is what the service asks before it applies a ``new_session`` or a
  ``name``: each name becomes its player's id — a known name picks that player, a new one
  is added — and the event carries the ids (``player_ids``, ``player_id``); every input
  (touchscreen, phones, MQTT, stdin) gets them. :meth:`Roster.observe` (a service observer)
  marks the players of a durable ``new_session`` as having played.
- :meth:`Roster.rename` keeps the id, so the record stays the player's; the sessions' events
  keep the name they were played under.
- ``listed`` (issue 31; a column added to a roster from before it): whether the player is
  shown on the parlour's leaderboards — their choice (:meth:`Roster.set_listed`, ``xian-table
  players hide|show NAME``, the phone's and the touchscreen's record). The table publishes the
  roster to the parlour (:mod:`table_app.mqtt.roster_link`).

A roster that cannot be read or written — a table of another shape, a locked or read-only
file, a row that is not a player — never costs a hand: the event goes on without ids (or the
row is passed over), the problem is logged and kept in :attr:`Roster.problem`.

Thread-safe: one connection of its own to the journal's file, under a lock. The service's
thread adds and marks players; the touchscreen and the phones' pages read and rename; another
process (``xian-table players``) may rename too — SQLite serialises the writers (WAL).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from engine.errors import InvalidEventError
from engine.event_base import Event
from engine.events import Name, NewSession
from engine.fields import check_name
from table_app.journal.file import immediate

if TYPE_CHECKING:
    from table_app.core.notices import Notice

log = logging.getLogger(__name__)

SCHEMA = """CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (typeof(name) = 'text'),
    added_at TEXT NOT NULL,
    first_played TEXT,
    last_played TEXT,
    listed INTEGER NOT NULL DEFAULT 1
)"""
LISTED = "ALTER TABLE players ADD COLUMN listed INTEGER NOT NULL DEFAULT 1"  # (a roster from before issue 31)
_COLUMNS = "id, name, added_at, first_played, last_played"


class RosterError(ValueError):
    """A rename the roster refuses (an unknown id, a name another player has, a bad name)."""

    def __init__(self, message: str, code: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    added_at: str
    first_played: str | None = None
    last_played: str | None = None
    listed: bool = True  # shown on the parlour's leaderboards (``xian-table players hide|show``)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")  # (two sessions in one second keep their order)


def _player(row: tuple[object, ...]) -> Player | None:
    """A row as a player, or None for a row that is not one (edited or damaged: passed over)."""
    pid, name, added, first, last, listed = row
    if type(pid) is not int or pid < 1 or not isinstance(added, str):
        return None
    try:
        if check_name(name) != name:
            return None
    except InvalidEventError:
        return None
    times = [t if isinstance(t, str) else None for t in (first, last)]
    return Player(pid, str(name), added, times[0], times[1], listed != 0)


class Roster:
    """The players of the journal at ``path`` (see the module's docstring)."""

    def __init__(self, path: Path, *, readonly: bool = False) -> None:
        self.path = path
        self.readonly = readonly
        self.problem = ""  # the last thing that went wrong ("" while all is well)
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._listed = "1"  # the listed column, or 1 in a read-only roster from before it
        try:
            mode = "ro" if readonly else "rw"
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True, isolation_level=None,
                                   check_same_thread=False)
            conn.execute("PRAGMA busy_timeout = 5000")
            if not readonly:
                conn.execute(SCHEMA)
            elif conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'players'").fetchone() is None:
                conn.close()  # a journal from before the roster: nobody in it
                return
            if "listed" not in {r[1] for r in conn.execute("PRAGMA table_info(players)")} and not readonly:
                with immediate(conn) as c:
                    c.execute(LISTED)
            if "listed" in {r[1] for r in conn.execute("PRAGMA table_info(players)")}:
                self._listed = "listed"
            self._conn = conn
        except sqlite3.Error as e:
            self._failed("cannot open the roster", e)

    @classmethod
    def open(cls, path: str | Path, *, readonly: bool = False) -> Roster:
        """The roster in the (already checked) journal file at ``path``; never raises: a roster
        that cannot be opened is empty and says why in :attr:`problem`."""
        return cls(Path(path), readonly=readonly)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _failed(self, what: str, e: BaseException) -> None:
        self.problem = f"{what} in {str(self.path)!r}: {' '.join(str(e).split())}"
        log.warning("roster: %s (the table plays on without it)", self.problem)

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (the caller holds the lock and has a connection)."""
        assert self._conn is not None
        with immediate(self._conn) as c:
            yield c

    # -- reading ---------------------------------------------------------------------------

    def players(self) -> list[Player]:
        """Every player, the most recent first (last played, else added; then the newest)."""
        with self._lock:
            if self._conn is None:
                return []
            try:
                rows = self._conn.execute(
                    f"SELECT {_COLUMNS}, {self._listed} FROM players "
                    "ORDER BY coalesce(last_played, added_at) DESC, id DESC").fetchall()
            except sqlite3.Error as e:
                self._failed("cannot read the roster", e)
                return []
        return [p for p in map(_player, rows) if p is not None]

    def get(self, pid: int) -> Player | None:
        return next((p for p in self.players() if p.id == pid), None)

    def find(self, name: str) -> Player | None:
        """The player of this name (letters' case aside), if the roster has one."""
        key = name.strip().casefold()
        return next((p for p in self.players() if p.name.casefold() == key), None)

    # -- writing ---------------------------------------------------------------------------

    def ids(self, names: Sequence[str]) -> list[int | None]:
        """Each name's player id: a known name picks its player, a new one is added (None: a
        name the roster cannot take, or a roster that cannot be written)."""
        with self._lock:
            if self._conn is None or self.readonly:
                return [None] * len(names)
            try:
                with self._write() as c:
                    return [self._id(c, name) for name in names]
            except sqlite3.Error as e:
                self._failed("cannot add to the roster", e)
                return [None] * len(names)

    @staticmethod
    def _id(c: sqlite3.Connection, name: str) -> int | None:
        try:
            name = check_name(name)
        except InvalidEventError:
            return None
        row = c.execute("SELECT id, name FROM players WHERE name = ?", (name,)).fetchone()
        if row is None:
            cur = c.execute("INSERT INTO players (name, added_at) VALUES (?, ?)", (name, _now()))
            return cur.lastrowid
        return row[0] if type(row[0]) is int and row[0] >= 1 else None

    def add(self, name: str) -> Player | None:
        """The player of this name, added if new (a phone joining with it, a name typed)."""
        pid = self.ids([name])[0]
        return None if pid is None else self.get(pid)

    def played(self, ids: Sequence[int | None], at: str | None = None) -> None:
        """These players started a session at ``at`` (now)."""
        when = at or _now()
        known = [(when, i) for i in ids if i is not None]
        with self._lock:
            if self._conn is None or self.readonly or not known:
                return
            try:
                with self._write() as c:
                    c.executemany("UPDATE players SET last_played = ?1, first_played = coalesce(first_played, ?1) "
                                  "WHERE id = ?2", known)
            except sqlite3.Error as e:
                self._failed("cannot mark who played in the roster", e)

    def rename(self, pid: int, name: str) -> Player:
        """Player ``pid`` is called ``name`` from now on (same id: same record); RosterError if
        no such player, the name is not a name, or another player has it."""
        try:
            name = check_name(name)
        except InvalidEventError:
            raise RosterError(f"roster: {name!r} is not a name (1-12 printable characters)", "roster.bad_name",
                              name=name) from None
        with self._lock:
            if self._conn is None or self.readonly:
                raise RosterError(f"roster: cannot be written ({self.problem or 'read-only'})", "roster.off")
            try:
                with self._write() as c:
                    other = c.execute("SELECT id FROM players WHERE name = ? AND id != ?", (name, pid)).fetchone()
                    if other is not None:
                        raise RosterError(f"roster: another player ({other[0]}) is called {name!r}",
                                          "roster.name_taken", name=name)
                    if c.execute("UPDATE players SET name = ? WHERE id = ?", (name, pid)).rowcount != 1:
                        raise RosterError(f"roster: no player {pid}", "roster.unknown", id=pid)
            except sqlite3.Error as e:
                self._failed("cannot rename in the roster", e)
                raise RosterError(f"roster: {self.problem}", "roster.off") from None
        player = self.get(pid)
        assert player is not None
        return player

    def set_listed(self, pid: int, listed: bool) -> Player:
        """Player ``pid`` shown on the parlour's leaderboards (``listed``) or not; RosterError if
        there is no such player or the roster cannot be written."""
        with self._lock:
            if self._conn is None or self.readonly or self._listed != "listed":
                raise RosterError(f"roster: cannot be written ({self.problem or 'read-only'})", "roster.off")
            try:
                with self._write() as c:
                    if c.execute("UPDATE players SET listed = ? WHERE id = ?", (int(listed), pid)).rowcount != 1:
                        raise RosterError(f"roster: no player {pid}", "roster.unknown", id=pid)
            except sqlite3.Error as e:
                self._failed("cannot write the roster", e)
                raise RosterError(f"roster: {self.problem}", "roster.off") from None
        player = self.get(pid)
        assert player is not None
        return player

    # -- the service's hooks ---------------------------------------------------------------

    def identify(self, event: Event) -> Event:
        """A ``new_session`` or ``name`` with its players' ids (new names join the roster);
        any other event as it is. Called by the service before it applies the event."""
        if isinstance(event, NewSession):
            ids = self.ids(event.players)
            if any(i is not None for i in ids):
                return dataclasses.replace(event, player_ids=(ids[0], ids[1], ids[2], ids[3]))
            return dataclasses.replace(event, player_ids=None)
        if isinstance(event, Name):
            return dataclasses.replace(event, player_id=self.ids([event.name])[0])
        return event

    def observe(self, notice: Notice) -> None:
        """A service observer: the players of a durable ``new_session``, and a player who named
        a seat (between hands: they play on), have played (not on a redo)."""
        event = notice.event
        if notice.kind != "event":
            return
        if isinstance(event, NewSession) and event.player_ids is not None:
            self.played(event.player_ids)
        elif isinstance(event, Name) and event.player_id is not None:
            self.played([event.player_id])
