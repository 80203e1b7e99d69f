"""The table's side of the parlour link on MQTT: every journal record on ``<base>/journal`` and
the answers to ``journal_replay`` commands on ``<base>/journal/replay`` (docs/mqtt.md).

**The records.** The service's notices only move :attr:`JournalLink.head` (the last seq
committed); the bridge's own thread reads the records after :attr:`cursor` from a read-only
connection of the link's own (WAL: the service never waits for it) and publishes them in seq
order, every kind (event, undo, redo) — so they need no memory while the broker is away,
and a record written without a notice (none is, today) is published all the same. The lag
is bounded as the event queue is: beyond ``lag_limit`` records behind, the oldest are passed
over (counted and logged; the parlour asks for them). Records committed before the bridge
started, or passed over, are never published by the table of its own accord, nor again
after a reconnect (the bridge queues again only those the broker did not acknowledge): the
parlour finds the gap by ``seq`` and asks for it.

**Replay.** ``{"type": "journal_replay", "journal": ID, "from": A, "to": B, "request": R}``
on ``cmd`` is taken by the bridge, never by the service (it is not an event and is never
journaled): ``1 <= A <= B``, ``B - A < MAX_RANGE``, ``R`` a string or integer of at most 128
characters; ``ID`` this journal's id (another is refused with ``code: journal.other`` and
the current id in ``params.journal``). The records ``A`` … ``min(B, last)`` come back on
``journal/replay`` in chunks of at most ``CHUNK_RECORDS`` records and ``CHUNK_BYTES``, read
on the bridge's thread as it has room to send; each chunk ``{"journal", "request",
"records", "last", "done"}``, the last with ``done`` true. At most ``PENDING`` requests
wait at once; another is answered ``service.busy``. Refusals go where any command's answer
goes (``cmd/result`` or its reply topic), with the request's ``transaction``.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from table_app.journal import file as journal_file
from table_app.journal import wire as journal_wire
from table_app.mqtt.messages import Outgoing, Route, Transaction, dumps, result_message
from table_app.mqtt.topics import Topics
from table_app.system import bounded
from table_app.system.fault_log import FaultLog

if TYPE_CHECKING:
    from table_app.core.service import TableService

log = logging.getLogger(__name__)

REPLAY = "journal_replay"
MAX_RANGE = 2000  # to - from must be less
CHUNK_RECORDS = 200
CHUNK_BYTES = 256 * 1024
PENDING = 8  # replay requests waiting at once
_MAX_REQUEST_ID = 128
_ENVELOPE = 1024  # room kept in a chunk for its envelope (the request id, escaped, is at most 6 × 128)


@dataclass
class _Replay:
    request: str | int
    transaction: Transaction
    route: Route
    journal: object
    first: int
    last: int
    next: int = 0


def check_request(command: Mapping[str, object]) -> tuple[str | int, int, int] | str:
    """``(request, from, to)`` of a ``journal_replay`` command, or why it is refused (a string).

    >>> check_request({"type": "journal_replay", "journal": "x", "from": 5, "to": 9, "request": "r1"})
    ('r1', 5, 9)
    >>> check_request({"type": "journal_replay", "journal": "x", "from": 1, "to": 2001, "request": 1})
    'journal_replay: to - from must be less than 2000 (ask for at most 2000 records at once), got 1 … 2001'
    """
    request, first, last = command.get("request"), command.get("from"), command.get("to")
    if not (type(request) is int or (isinstance(request, str) and 0 < len(request) <= _MAX_REQUEST_ID)):
        return f"journal_replay: 'request' must be a string of 1–{_MAX_REQUEST_ID} characters or an integer"
    if type(first) is not int or type(last) is not int or not 1 <= first <= last:
        return "journal_replay: 'from' and 'to' must be whole numbers with 1 <= from <= to"
    if last - first >= MAX_RANGE:
        return (f"journal_replay: to - from must be less than {MAX_RANGE} (ask for at most {MAX_RANGE} records "
                f"at once), got {first} … {last}")
    if not isinstance(command.get("journal"), str):
        return "journal_replay: 'journal' must be the journal's id (a string)"
    return request, first, last


class JournalLink:
    """The records and replays of one journal (``path``, already checked and open by the service)."""

    def __init__(self, topics: Topics, path: Path, head: int, faults: FaultLog, *, lag_limit: int = 1000) -> None:
        self.topics = topics
        self.faults = faults
        self.lag_limit = lag_limit
        self._conn: sqlite3.Connection = journal_file.connect(path, "ro")
        self._lock = threading.Lock()
        self.head = head  # the last record committed (the service's notices move it)
        self.cursor = head  # the last record handed to the bridge (published from the next one on)
        self._id: str | None = None
        self._replays: deque[_Replay] = deque()
        self._taking = False
        self.passed_over = 0  # records never published (the lag bound, a failed read): the parlour asks

    @classmethod
    def of(cls, service: TableService, topics: Topics, faults: FaultLog, lag_limit: int) -> JournalLink:
        """The link of the service's journal, publishing from the records after its last one."""
        reader = service.journal_reader()  # (for its path: the link reads on a connection of its own)
        reader.close()
        return cls(topics, reader.path, service.seq, faults, lag_limit=lag_limit)

    def close(self) -> None:
        self._conn.close()

    def committed(self, seq: int) -> None:
        """A record is durable (the service's thread, through the bridge's observer: never waits)."""
        with self._lock:
            self.head = max(self.head, seq)

    def ask(self, command: Mapping[str, object], transaction: Transaction, route: Route) -> Outgoing | None:
        """A ``journal_replay`` command (paho's thread): queued (None), or its refusal at once."""
        checked = check_request(command)
        if isinstance(checked, str):
            return result_message(self.topics, transaction=transaction, error=checked, code="invalid", to=route)
        request, first, last = checked
        with self._lock:
            if len(self._replays) >= PENDING:
                return result_message(self.topics, transaction=transaction, code="service.busy", to=route,
                                      error=f"the table is busy ({PENDING} journal replays wait): ask again later")
            self._replays.append(_Replay(request, transaction, route, command.get("journal"), first, last, first))
        return None

    def has_work(self) -> bool:
        with self._lock:
            return self._taking or self.head > self.cursor or bool(self._replays)

    def taken(self) -> None:
        """What :meth:`take` returned is counted as being sent by the bridge."""
        with self._lock:
            self._taking = False

    # -- the bridge's thread (no lock of the service's or the bridge's held) --------------

    def take(self, room: int) -> list[Outgoing]:
        """Up to ``room`` messages: the next records, then replay chunks. Call :meth:`taken` after.
        Never raises: whatever fails is logged and passed over (the parlour asks again)."""
        with self._lock:
            self._taking = True
            if self.head - self.cursor > self.lag_limit:
                skipped = self.head - self.cursor - self.lag_limit
                self.passed_over += skipped
                self.cursor = self.head - self.lag_limit
                log.warning("mqtt: %d journal records not published (more than %d behind; %d so far): the parlour "
                            "asks for them", skipped, self.lag_limit, self.passed_over)
            first, head = self.cursor + 1, self.head
        try:
            return self._take(first, head, room)
        except Exception as e:  # (a bug here must not stop the bridge's thread, nor make it spin)
            self.faults.log(log, "mqtt journal link", e)
            with self._lock:
                self.passed_over += max(0, head - self.cursor)
                self.cursor = max(self.cursor, head)
                if self._replays:
                    self._replays.popleft()
            return []

    def _take(self, first: int, head: int, room: int) -> list[Outgoing]:
        out: list[Outgoing] = []
        if head >= first and room > 0:
            out += self._records(first, head, room)
        while len(out) < room:
            with self._lock:
                replay = self._replays[0] if self._replays else None
            if replay is None:
                break
            out.append(self._chunk(replay))
        return out

    def _journal_id(self) -> str | None:
        if self._id is None:
            self._id = journal_wire.journal_id(self._conn)
        return self._id

    def _records(self, first: int, head: int, room: int) -> list[Outgoing]:
        try:
            jid = self._journal_id()
            records = journal_wire.read_records(self._conn, jid or "", first, head, room)
        except (sqlite3.Error, UnicodeDecodeError) as e:
            self.faults.log(log, "mqtt journal read", e)
            records = []
        end = records[-1]["seq"] if records else head  # (records that cannot be read are passed over)
        with self._lock:
            self.passed_over += end - first + 1 - len(records)
            self.cursor = max(self.cursor, end)
        return [Outgoing(self.topics.journal, dumps(r), retain=False, seq=r["seq"])
                for r in records]

    def _finish(self, replay: _Replay) -> None:
        with self._lock:
            if self._replays and self._replays[0] is replay:
                self._replays.popleft()

    def _chunk(self, replay: _Replay) -> Outgoing:
        """The next answer to ``replay``: a refusal, or a chunk of its records."""
        try:
            jid = self._journal_id()
            if replay.journal != jid:
                self._finish(replay)
                return result_message(
                    self.topics, transaction=replay.transaction, to=replay.route, code="journal.other",
                    params={"journal": jid, "request": replay.request},
                    error=f"journal_replay: this table's journal is {jid or '(none yet: no records)'}, not "
                          f"{bounded.excerpt(str(replay.journal))}")
            last = journal_wire.last_seq(self._conn)
            end = min(replay.last, last)
            records = journal_wire.read_records(self._conn, jid or "", replay.next, end, CHUNK_RECORDS)
        except (sqlite3.Error, UnicodeDecodeError) as e:
            self.faults.log(log, "mqtt journal replay", e)
            self._finish(replay)
            return result_message(self.topics, transaction=replay.transaction, to=replay.route,
                                  code="service.internal", error=f"journal_replay: cannot read the journal: {e}")
        kept: list[journal_wire.WireRecord] = []
        size = _ENVELOPE
        for record in records:
            text = dumps(record)
            if kept and size + len(text) + 1 > CHUNK_BYTES:
                break
            kept.append(record)
            size += len(text) + 1
        replay.next = kept[-1]["seq"] + 1 if kept else end + 1
        done = replay.next > end
        if done:
            self._finish(replay)
        body = {"journal": jid, "request": replay.request, "records": kept, "last": last, "done": done}
        return Outgoing(self.topics.journal_replay, dumps(body), retain=False)
