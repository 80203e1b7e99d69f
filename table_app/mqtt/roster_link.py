"""The table's roster for the parlour: ``xian/T/roster``, retained (issue 31, /work/parlour2-contract.md).

``{"players": [{"id": 3, "name": "阿强", "listed": true}, …]}`` in id order: at most
:data:`MAX_PLAYERS` (the most recent) and :data:`MAX_BYTES`, what the parlour takes. The
bridge publishes it on each (re)connect and whenever it changes — a new player, a rename, a
player hidden or shown — looked for every :data:`CHECK_EVERY` seconds (another process, the
``xian-table players`` command, may change it). The parlour links each (table, id) to a
player of the parlour by name (:mod:`parlour.players`).

>>> roster_payload([Player(2, "Bo", "t", listed=False), Player(1, "阿强", "t")])
b'{"players":[{"id":1,"name":"\\xe9\\x98\\xbf\\xe5\\xbc\\xba","listed":true},{"id":2,"name":"Bo","listed":false}]}'
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from table_app.core.roster import Player, Roster
from table_app.mqtt.messages import Outgoing
from table_app.mqtt.topics import Topics

if TYPE_CHECKING:
    from table_app.core.service import TableService

ROSTER: Final = "roster"  # the topic under the table's base
MAX_PLAYERS: Final = 1000
MAX_BYTES: Final = 64 * 1024
CHECK_EVERY: Final = 5.0


def roster_payload(players: Sequence[Player]) -> bytes:
    """The roster message (the most recent :data:`MAX_PLAYERS` that fit in :data:`MAX_BYTES`)."""
    chosen = list(players[:MAX_PLAYERS])  # (players() gives the most recent first)
    while True:
        ordered = sorted(chosen, key=lambda p: p.id)
        body = {"players": [{"id": p.id, "name": p.name, "listed": p.listed} for p in ordered]}
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if len(text) <= MAX_BYTES or not chosen:
            return text
        chosen = chosen[: len(chosen) * 9 // 10]


class RosterLink:
    """What the bridge asks: is the roster due (:meth:`owed`), and its message if it changed (:meth:`take`)."""

    def __init__(self, roster: Roster | None, topics: Topics) -> None:
        self.roster = roster
        self.topic = f"{topics.base}/{ROSTER}"
        self._sent: bytes | None = None
        self._connects = -1  # the bridge's connection the roster was last published on
        self._next = 0.0

    @classmethod
    def of(cls, service: TableService, topics: Topics, on: bool = True) -> RosterLink:
        """The link of the service's roster (none, or ``on`` False: a link that is never due)."""
        roster = getattr(service, "roster", None)
        return cls(roster if on and isinstance(roster, Roster) else None, topics)

    def owed(self, connects: int) -> bool:
        return self.roster is not None and (connects != self._connects or time.monotonic() >= self._next)

    def take(self, connects: int) -> Outgoing | None:
        """The roster message when it is new on this connection or changed; else None."""
        if self.roster is None or not self.owed(connects):
            return None
        self._next = time.monotonic() + CHECK_EVERY
        payload = roster_payload(self.roster.players())
        if payload == self._sent and connects == self._connects:
            return None
        self._sent, self._connects = payload, connects
        return Outgoing(self.topic, payload, retain=True)
