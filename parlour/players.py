"""The parlour's players: each table's roster (``xian/T/roster``) linked to one player a name.

A table publishes its roster retained, ``{"players": [{"id": 3, "name": "阿强", "listed": true},
…]}`` (at most :data:`MAX_PLAYERS` players and :data:`MAX_BYTES` bytes; anything else is
refused and logged). Each (table, roster id) is linked to the parlour's player of that name,
letters' case aside (:meth:`str.casefold`), made when first heard; the link is kept — a player
renamed at a table stays the parlour player they were. ``listed`` is the player's choice at
that table (``xian-table players hide|show``): a parlour player not listed at some table is
left out of the leaderboards everywhere.

The leaderboard sums the sessions' counts (:mod:`parlour.sessions`): each seat's
roster id, through its table's link, is a parlour player (a seat without an id, from an older
journal, by its name); a seat the parlour cannot name has no place in it.

>>> parse_roster(b'{"players": [{"id": 1, "name": "Ann", "listed": false}]}')
[RosterEntry(id=1, name='Ann', listed=False)]
>>> parse_roster(b'{"players": [{"id": 0, "name": "Ann", "listed": true}]}')
Traceback (most recent call last):
...
parlour.players.RosterRefused: a roster player's id is a whole number from 1
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Final

from engine.errors import InvalidEventError
from engine.fields import check_name
from parlour.db import Database, now
from parlour.sessions import SessionRow, as_int

MAX_PLAYERS: Final = 1000
MAX_BYTES: Final = 64 * 1024


class RosterRefused(ValueError):
    """A roster message that is not one (refused, logged, never stored)."""


@dataclass(frozen=True)
class RosterEntry:
    id: int
    name: str
    listed: bool


@dataclass(frozen=True)
class BoardRow:
    """A parlour player's tally over the sessions of a period."""

    player_id: int
    name: str
    tables: list[str]
    sessions: int
    hands: int
    wins: int
    self_draws: int
    net: int

    def to_json(self) -> dict[str, object]:
        return {"player": self.player_id, "name": self.name, "tables": self.tables, "sessions": self.sessions,
                "hands": self.hands, "wins": self.wins, "self_draws": self.self_draws, "net": self.net}


def parse_roster(payload: bytes) -> list[RosterEntry]:
    if len(payload) > MAX_BYTES:
        raise RosterRefused(f"a roster is at most {MAX_BYTES:,} bytes, got {len(payload):,}")
    try:
        obj = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise RosterRefused("a roster is JSON text (UTF-8)") from None
    if not isinstance(obj, dict) or set(obj) != {"players"} or not isinstance(obj["players"], list):
        raise RosterRefused('a roster is {"players": [...]}')
    items = obj["players"]
    if len(items) > MAX_PLAYERS:
        raise RosterRefused(f"a roster has at most {MAX_PLAYERS:,} players, got {len(items):,}")
    out: list[RosterEntry] = []
    for item in items:
        if not isinstance(item, dict) or set(item) != {"id", "name", "listed"}:
            raise RosterRefused("a roster player has exactly the keys id, name, listed")
        pid, name, listed = item["id"], item["name"], item["listed"]
        if type(pid) is not int or not 1 <= pid <= 2**62:
            raise RosterRefused("a roster player's id is a whole number from 1")
        if not isinstance(listed, bool):
            raise RosterRefused("a roster player's listed is true or false")
        try:
            if not isinstance(name, str) or check_name(name) != name:
                raise InvalidEventError("not a name")
        except InvalidEventError:
            raise RosterRefused(f"a roster player's name is 1-12 printable characters, got {name!r}"[:200]) from None
        out.append(RosterEntry(pid, name, listed))
    if len({e.id for e in out}) != len(out):
        raise RosterRefused("a roster names each id once")
    return out


def link_roster(db: Database, table: str, entries: list[RosterEntry], at: str | None = None) -> int:
    """Each entry linked to its parlour player (made if new; a link once made is kept); the
    number of new links."""
    at = at or now()
    new = 0
    for e in entries:
        row = db.x("SELECT player_id FROM roster_links WHERE table_id = ? AND roster_id = ?", (table, e.id)).fetchone()
        if row is None:
            player = player_of(db, e.name, at)
            db.x("INSERT INTO roster_links (table_id, roster_id, player_id, name, listed, seen) "
                 "VALUES (?, ?, ?, ?, ?, ?)", (table, e.id, player, e.name, int(e.listed), at))
            new += 1
        else:
            db.x("UPDATE roster_links SET name = ?, listed = ?, seen = ? WHERE table_id = ? AND roster_id = ?",
                 (e.name, int(e.listed), at, table, e.id))
    return new


def player_of(db: Database, name: str, at: str | None = None) -> int:
    """The parlour player called ``name`` (letters' case aside), made if new."""
    folded = name.casefold()
    db.x("INSERT INTO players (name, folded, first_seen) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
         (name, folded, at or now()))
    row = db.x("SELECT id FROM players WHERE folded = ?", (folded,)).fetchone()
    assert row is not None
    return as_int(row[0])


@dataclass(frozen=True)
class Links:
    """What the leaderboard needs of the links: who is who, and who is hidden."""

    by_roster: dict[tuple[str, int], int]  # (table, roster id) → player
    by_name: dict[str, int]  # folded name → player
    names: dict[int, str]
    hidden: set[int]

    @classmethod
    def load(cls, db: Database) -> Links:
        by_roster: dict[tuple[str, int], int] = {}
        hidden: set[int] = set()
        for table, rid, pid, listed in db.x("SELECT table_id, roster_id, player_id, listed FROM roster_links")\
                .fetchall():
            by_roster[(str(table), as_int(rid))] = as_int(pid)
            if not listed:
                hidden.add(as_int(pid))
        names, by_name = {}, {}
        for pid, name, folded in db.x("SELECT id, name, folded FROM players").fetchall():
            names[as_int(pid)] = str(name)
            by_name[str(folded)] = as_int(pid)
        return cls(by_roster, by_name, names, hidden)

    def who(self, table: str, roster_id: int | None, name: str) -> int | None:
        if roster_id is not None:
            return self.by_roster.get((table, roster_id))
        return self.by_name.get(name.casefold())

    def seats(self, s: SessionRow) -> list[int | None]:
        """The parlour players of a session's seats (None: not known to the parlour yet — its
        table's roster not heard — or a seat without a name)."""
        return [self.who(s.table, rid, name) for rid, name in zip(s.player_ids, s.players, strict=True)]


def leaderboard(sessions: list[SessionRow], links: Links, *, hidden: bool = False) -> list[BoardRow]:
    """Every parlour player's tally over these sessions, the highest net first (then more
    wins, then the name); players not listed are left out (``hidden``: kept, for the owner)."""
    acc: dict[int, list[int]] = {}
    seen: dict[int, set[tuple[str, str, int]]] = {}
    tables: dict[int, set[str]] = {}
    for s in sessions:
        for key, counts in s.stats.items():
            _, rid, name = json.loads(key)
            pid = links.who(s.table, rid, name)
            if pid is None or (pid in links.hidden and not hidden):
                continue
            row = acc.setdefault(pid, [0, 0, 0, 0])
            h, w, sd, _, net = counts
            for i, v in enumerate((h, w, sd, net)):
                row[i] += v
            seen.setdefault(pid, set()).add((s.table, s.journal, s.first_seq))
            tables.setdefault(pid, set()).add(s.table)
    rows = [BoardRow(pid, links.names.get(pid, "?"), sorted(tables[pid]), len(seen[pid]), *c)
            for pid, c in acc.items()]
    return sorted(rows, key=lambda r: (-r.net, -r.wins, r.name.casefold(), r.player_id))
