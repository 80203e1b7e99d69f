"""The roster after ``xian-table import``: the exported events name their players by the
exporting table's roster ids (``new_session.player_ids``, ``name.player_id``); the importing
journal's roster (``table_app/core/roster.py``) gets those ids with their names, so that a player
of the imported evenings keeps their record, and the table's next new player is given a new
id (SQLite's ``AUTOINCREMENT`` goes on from the highest), never one of theirs.

A roster that cannot be written never costs the import (the events are already in): the
problem is told, as the service's roster tells its own."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from engine.errors import InvalidEventError
from engine.fields import check_name
from table_app.core.roster import SCHEMA
from table_app.journal.file import immediate

__all__ = ["PlayersSeen", "fill_roster"]

Pair = tuple[str, Mapping[str, object]]


class PlayersSeen:
    """The players the events name, by id: the last name each was given, when each was first
    seen, first and last played (a session started with them)."""

    def __init__(self) -> None:
        self.players: dict[int, list[str | None]] = {}  # id -> [name, added_at, first_played, last_played]

    def watch(self, pairs: Iterable[Pair]) -> Iterator[Pair]:
        """``pairs`` as they are, noting each player on the way."""
        for at, event in pairs:
            if event.get("type") == "new_session":
                names, ids = event.get("players"), event.get("player_ids")
                if isinstance(names, list) and isinstance(ids, list):
                    for name, pid in zip(names, ids, strict=False):
                        self._see(pid, name, at, played=True)
            elif event.get("type") == "name":
                self._see(event.get("player_id"), event.get("name"), at, played=False)
            yield at, event

    def _see(self, pid: object, name: object, at: str, played: bool) -> None:
        if type(pid) is not int or pid < 1 or not isinstance(name, str):
            return
        row = self.players.setdefault(pid, [name, at, None, None])
        row[0] = name
        if played:
            row[2] = row[2] or at
            row[3] = at

    def rows(self) -> list[tuple[int, str, str | None, str | None, str | None]]:
        out = []
        for pid, (name, added, first, last) in sorted(self.players.items()):
            try:
                out.append((pid, check_name(name), added, first, last))
            except InvalidEventError:
                continue  # (a name the roster never took: its events keep it)
        return out


def fill_roster(path: Path, seen: PlayersSeen) -> tuple[int, str]:
    """Add the seen players to the roster of the journal at ``path`` with their ids (one already
    there, by id or name, is left as it is): how many were added, and a problem ("" if none)."""
    rows = seen.rows()
    if not rows:
        return 0, ""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, isolation_level=None)
    except sqlite3.Error as e:
        return 0, f"cannot open the roster: {e}"
    try:
        conn.execute("PRAGMA busy_timeout = 5000")
        conn.execute(SCHEMA)
        with immediate(conn) as c:
            before = c.total_changes
            c.executemany("INSERT OR IGNORE INTO players (id, name, added_at, first_played, last_played) "
                          "VALUES (?, ?, ?, ?, ?)", rows)
            return c.total_changes - before, ""
    except sqlite3.Error as e:
        return 0, f"cannot add to the roster: {' '.join(str(e).split())}"
    finally:
        conn.close()
