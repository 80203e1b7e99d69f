"""Each table's game now, as the parlour's copy of its journal says: the current session's
engine state folded from the records as the service commits them, with the table's link
(online or offline, when last seen) and what the session owes the house so far.

The service's worker (the only thread that writes) calls :meth:`Live.committed` after each
batch's transaction, with the records it stored, in order; :meth:`Live.seen` after it writes
when tables were last seen. A table's fold follows the journal the table writes now (the one
whose records are the newest: a new SD card starts a new journal), event by event through
:class:`table_app.archive.scan.Scan` (the engine's own ``push``, the session's settled hands).
An undo or redo re-folds from the start of the session it leaves in effect, which the journal's
undo and redo records alone decide (:class:`table_app.archive.marks.Ranges`, the archive's fold);
a restart folds each table's current session from the database (:meth:`Live.load`).

The web threads read :meth:`Live.tile` and :meth:`Live.public`, each table's latest as
built once per change (``version`` grows with each).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from engine.fees import BillJSON, bill_so_far
from engine.public import PublicState, public_state
from parlour.db import Database
from parlour.records import Record
from table_app.archive.marks import Ranges
from table_app.archive.scan import Scan

log = logging.getLogger("xian.parlour")

PLAYING = ("seating", "betting", "turn", "claims", "win_pending", "hand_over")
"""The phases of a session in play (dealt or between hands): the table is busy."""


def seconds_between(start: str | None, end: str | None) -> int | None:
    """Whole seconds from one ISO time to another (None when either is missing or unreadable).

    >>> seconds_between("2026-12-01T20:00:00.000+00:00", "2026-12-01T21:30:00.900+00:00")
    5400
    """
    if not start or not end:
        return None
    try:
        return max(0, int((datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()))
    except ValueError:
        return None


@dataclass
class Fold:
    """One table's current journal, folded up to ``last``: its undo and redo records, where its
    sessions start, the scan (engine state and settled hands) of the session in effect."""

    journal: str
    last: int = 0
    last_at: str = ""
    marks: list[tuple[int, str, int | None]] = field(default_factory=list)
    sessions: list[tuple[int, int, str]] = field(default_factory=list)  # every new_session: (seq, session, at)
    scan: Scan = field(default_factory=lambda: Scan({}))
    broken: str | None = None  # an event the engine refused (the fold stops there: logged)

    @property
    def started(self) -> str | None:
        acc = self.scan.session
        return None if acc is None else acc.started

    def feed(self, rec: Record) -> None:
        """One record after ``last``: an event pushed, an undo or redo noted (the caller re-folds)."""
        self.last, self.last_at = rec.seq, rec.at
        if rec.kind != "event":
            self.marks.append((rec.seq, rec.kind, rec.target))
            return
        if self.broken is not None or rec.event is None:
            return
        try:
            event = json.loads(rec.event)
            if event.get("type") == "new_session":
                if not self.sessions or self.sessions[-1][0] < rec.seq:
                    self.sessions.append((rec.seq, rec.session or 0, rec.at))
                # (a scan a session: what it holds stays the session's)
                self.scan = Scan({rec.seq: (rec.session or 0, rec.at)})
            self.scan.feed(rec.seq, rec.at, event)
        except Exception as e:  # a record the engine refuses: shown as such, never stops the service
            self.broken = f"record {rec.seq}: {e}"
            log.warning("the floor cannot fold journal %s past %s", self.journal, self.broken)


class Live:
    """Every table's fold, link and tile (``Live(db).load()`` on the worker's thread)."""

    def __init__(self, db: Callable[[], Database], clock: Callable[[], str] | None = None) -> None:
        from parlour.db import now

        self._db = db  # (the worker's connection now: the service opens it again after a failure)
        self.clock = clock or now
        self._lock = threading.Condition()
        self._folds: dict[str, Fold] = {}
        self._links: dict[str, tuple[bool | None, str | None]] = {}  # table → (online, last seen)
        self._versions: dict[str, int] = {}
        self._public: dict[str, tuple[int, PublicState]] = {}  # (built once per version)
        self.version = 0  # grows with every change of any table (the pace-maker waits on it)
        self.folds_rebuilt = 0  # (for tests: how often a session was folded again from its start)

    # -- the worker's side

    @property
    def db(self) -> Database:
        return self._db()

    def load(self) -> Live:
        """Every table as the database holds it (at start, and after the database came back)."""
        journals: dict[str, str] = {}
        for j in self.db.journals():  # (in first-seen order: a table's last is the one it writes now)
            journals[j.table] = j.journal
        with self._lock:
            for t in self.db.tables():
                if t.retired is None:
                    self._links[t.id] = (None if t.status is None else t.status == "online", t.last_seen)
                    self._bump(t.id)
                else:
                    journals.pop(t.id, None)  # (a retired table is off the floor; its records stay)
        for table, journal in journals.items():
            self._rebuild(table, journal)
        return self

    def committed(self, stored: Iterable[tuple[str, Record]]) -> None:
        """The records a batch stored (committed), in the order stored."""
        for table, rec in stored:
            fold = self._folds.get(table)
            if fold is None or fold.journal != rec.journal:
                if fold is None or rec.at > fold.last_at:  # a newer journal: the one the table writes now
                    self._rebuild(table, rec.journal)
                continue
            if rec.seq <= fold.last:
                continue
            if rec.seq != fold.last + 1:
                self._rebuild(table, rec.journal)
                continue
            with self._lock:
                fold.feed(rec)
                self._bump(table)
            if rec.kind != "event":
                self._refold(table, fold)

    def seen(self, table: str, at: str, status: str | None) -> None:
        """When the table was last heard from, and its status when it said (``online``/``offline``)."""
        with self._lock:
            online, _ = self._links.get(table, (None, None))
            if status is not None:
                online = status == "online"
            self._links[table] = (online, at)
            self._bump(table)

    def _bump(self, table: str) -> None:
        """(under the lock)"""
        self.version += 1
        self._versions[table] = self.version
        self._lock.notify_all()

    def _rebuild(self, table: str, journal: str) -> None:
        """The table's fold of ``journal`` from the database: its marks, then the session in effect."""
        fold = Fold(journal, marks=self.db.marks(table, journal), sessions=self.db.session_starts(table, journal))
        fold.last, fold.last_at = self.db.tip_at(table, journal)
        self._refold(table, fold)

    def _refold(self, table: str, fold: Fold) -> None:
        """Fold ``fold``'s session in effect again from its start (after an undo or redo, a restart)."""
        ranges = Ranges.fold(fold.marks, fold.last)
        start = next((seq for seq, _, _ in reversed(fold.sessions) if ranges.in_effect(seq)), 1)
        new = Fold(fold.journal, marks=fold.marks, sessions=fold.sessions)
        for rec in self.db.records_from(table, fold.journal, start):
            if rec.seq > fold.last:
                break
            if rec.kind != "event" or not ranges.in_effect(rec.seq):
                new.last, new.last_at = rec.seq, rec.at
                continue
            new.feed(rec)
        new.last, new.last_at = fold.last, fold.last_at or new.last_at
        with self._lock:
            self._folds[table] = new
            self._links.setdefault(table, (None, None))
            self.folds_rebuilt += 1
            self._bump(table)

    # -- the readers' side (any thread)

    def tables(self) -> list[str]:
        with self._lock:
            return sorted(self._links)

    def versions(self) -> dict[str, int]:
        with self._lock:
            return dict(self._versions)

    def wait(self, version: int, timeout: float) -> int:
        """Until a change after ``version`` (or ``timeout``); the version now."""
        with self._lock:
            self._lock.wait_for(lambda: self.version != version, timeout)
            return self.version

    def public(self, table: str) -> tuple[int, PublicState | None, int]:
        """``(version, the table's public state, its last seq)``; None when nothing is known of it."""
        with self._lock:
            version = self._versions.get(table, 0)
            fold = self._folds.get(table)
            if fold is None:
                return version, None, 0
            cached = self._public.get(table)
            if cached is None or cached[0] != version:
                cached = (version, public_state(fold.scan.state))
                self._public[table] = cached
            return version, cached[1], fold.last

    def seconds(self, table: str) -> int | None:
        """Seconds since the table's session began (its ``new_session`` record), by the parlour's clock."""
        with self._lock:
            fold = self._folds.get(table)
            started = None if fold is None else fold.started
        return seconds_between(started, self.clock())

    def tile(self, table: str, fee: Callable[[Fold, PublicState, str], Mapping[str, object] | None] | None = None
             ) -> dict[str, object]:
        """What the floor shows of a table: its link, its game now, and ``fee`` (the bill so far)."""
        version, pub, seq = self.public(table)
        with self._lock:
            online, seen = self._links.get(table, (None, None))
            fold = self._folds.get(table)
            started = None if fold is None else fold.started
            hands = 0 if fold is None or fold.scan.session is None else fold.scan.session.hands
            broken = None if fold is None else fold.broken
        tile: dict[str, object] = {"id": table, "v": version, "online": online, "seen": seen, "seq": seq,
                                   "phase": "idle", "players": [], "scores": [], "round": 0, "hand": 0,
                                   "hands": 0, "started": None, "fee": None, "broken": broken}
        if pub is None or fold is None or fold.scan.session is None:
            return tile
        tile.update(phase=pub["phase"], players=list(pub["players"]), scores=list(pub["scores"]),
                    round=pub["round"], hand=pub["hand"], hands=hands, started=started,
                    fee=(fee or fee_so_far)(fold, pub, self.clock()))
        return tile


def fee_so_far(fold: Fold, pub: PublicState, now: str) -> BillJSON | None:
    """What the session owes the house so far, None with no fee set: the table's own bill once
    the session ended (its ``house``), else the bill were it to end now
    (:func:`engine.fees.bill_so_far`: its time from the ``new_session`` record to ``now``)."""
    if pub["fee"] is None:
        return None
    if pub["house"] is not None:
        return pub["house"]
    so_far = bill_so_far(pub, seconds_between(fold.started, now))
    return None if so_far is None else so_far.to_json()
