"""What the parlour service keeps beside the records (issue 31): the sessions folded as each
batch stores records, the tables' rosters linked to the parlour's players, and Home
Assistant's view of each table — all on the service's worker, inside its transactions.

- :meth:`Derived.batch`: inside a batch's transaction, the journals it stored records of are
  folded on (:mod:`parlour.sessions`); their tables' Home Assistant state is due.
- :meth:`Derived.roster`: a ``xian/T/roster`` message, checked and linked
  (:mod:`parlour.players`), or refused (logged, a row in ``refusals``).
- :meth:`Derived.tick`: between batches, the Home Assistant messages due: every table's
  discovery after a (re)connect, removals for retired tables, each table's state when a
  session starts, ends or settles a hand, and the fee so far of every table in play each
  :data:`FEE_EVERY` seconds (published only when it changed).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime

from parlour import home_assistant as ha
from parlour.db import Database
from parlour.players import RosterRefused, link_roster, parse_roster
from parlour.sessions import Key, Sessions
from table_app.mqtt.messages import Outgoing

log = logging.getLogger("xian.parlour")

FEE_EVERY = 60.0  # seconds between two fee-so-far updates of the tables in play


class Derived:
    def __init__(self, db: Database, publish: Callable[[Outgoing], None], *, prefix: str = "xian",
                 ha_prefix: str | None = "homeassistant",
                 refuse: Callable[[str, str, bytes], None] | None = None) -> None:
        self.sessions = Sessions(db)
        self.publish = publish
        self.prefix = prefix
        self.ha_prefix = ha_prefix
        self.refuse = refuse
        self._announce = False  # every table's discovery is due (a (re)connect)
        self._due: set[str] = set()  # tables whose state is due
        self._sent: dict[str, dict[str, object]] = {}  # each table's last state published
        self._next_fee = 0.0
        self._retired: set[str] = set()  # the retired tables whose entities were taken away
        self.linked = 0  # new roster links (tests, the log)

    @property
    def db(self) -> Database:
        return self.sessions.db

    @db.setter
    def db(self, db: Database) -> None:
        self.sessions.db = db
        self.sessions.forget()

    def start(self) -> None:
        n = self.sessions.refresh()
        if n:
            log.info("sessions: %d journals folded on from their records", n)

    def connected(self) -> None:
        """(paho's thread) a (re)connect: everything is published again."""
        self._announce = True

    def batch(self, touched: Iterable[Key]) -> None:
        keys = set(touched)
        if keys and self.sessions.update(keys):
            self._due.update(t for t, _ in keys)

    def roster(self, table: str, payload: bytes) -> None:
        if not payload:
            return  # (a retained roster taken away)
        try:
            entries = parse_roster(payload)
        except RosterRefused as e:
            if self.refuse is not None:
                self.refuse(table, f"not a roster: {e}", payload[:2000])
            return
        self.db.ensure_table(table)
        new = link_roster(self.db, table, entries)
        self.linked += new
        if new:
            log.info("table %s: %d roster players linked to the parlour's players", table, new)

    # -- Home Assistant

    def tick(self, connected: bool) -> None:
        if self.ha_prefix is None or not connected:
            return
        if self._announce:
            self._announce = False
            self._sent.clear()
            self._retired.clear()
            for t in self.db.tables():
                if t.retired:
                    self._retired.add(t.id)
                    self._publish(ha.removal_messages(self.prefix, t.id, self.ha_prefix))
                else:
                    self._publish(ha.discovery_messages(self.prefix, t.id, self.ha_prefix))
                    self._due.add(t.id)
        if time.monotonic() >= self._next_fee:
            self._next_fee = time.monotonic() + FEE_EVERY
            self._due.update(t for t, body in self._sent.items() if body.get("occupied") == "ON")
            for t in self.db.tables():
                if t.retired and t.id not in self._retired:
                    self._retired.add(t.id)
                    self._sent.pop(t.id, None)
                    self._publish(ha.removal_messages(self.prefix, t.id, self.ha_prefix))
        if self._due:
            self._states(self._due)
            self._due = set()

    def _publish(self, msgs: list[Outgoing]) -> None:
        for m in msgs:
            self.publish(m)

    def _states(self, tables: set[str]) -> None:
        current = self.sessions.current()
        retired = {t.id for t in self.db.tables() if t.retired}
        now = datetime.now(UTC)
        for table in sorted(tables - retired):
            body = ha.state(current.get(table), now)
            if self._sent.get(table) != body:
                self._sent[table] = body
                self.publish(ha.state_message(self.prefix, table, body))
