"""What is missing from the parlour's copy, asked of the table: ``journal_replay`` requests.

For each table's current journal (the one it writes now: a table answers only for that one),
the gap is what lies between the stored prefix (records 1 … tip) and the highest seq the table
said it has — up to the first record held in memory, which needs no asking. The request

    xian/T/cmd  {"type": "journal_replay", "journal": J, "from": tip + 1, "to": …,
                 "request": "<id>", "transaction": "<id>"}

covers at most :data:`MAX_SPAN` records (the table refuses ``to - from >= 2000``), one request
outstanding a table, :data:`PACE` seconds at least between two requests of the parlour, none
to a table that is offline. The answer comes in chunks on ``xian/T/journal/replay``; each chunk
keeps the request alive, the one marked ``done`` ends it. Without a chunk for
:data:`TIMEOUT` seconds the request is sent again, waiting twice as long each time (at most
:data:`MAX_BACKOFF`). A refusal (``journal.other``: the table writes another journal now)
ends the request; the old journal's gap can no longer be filled and is logged, and the
journal the table names (``params.journal``) is its current one from then on.

A gap at the end — records the table wrote while nothing was published (written before its
bridge started, or passed over) — shows in no seq the parlour hears. So a table that comes
online (its ``status``, or its bridge's state) is **probed**: asked for the records after the
tip even when no gap is known; the answer's ``last`` tells how far its journal goes, an empty
``done`` chunk that it is whole. A table whose journal the parlour does not know yet is asked
for :data:`UNKNOWN`, which it refuses with its journal's id.
"""

from __future__ import annotations

import itertools
import json
import logging
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from parlour.ingest import Ingest, ReplayAnswer

log = logging.getLogger("xian.parlour")

MAX_SPAN = 1999  # to - from: the table's bound is < 2000
PACE = 0.05  # seconds between two requests of the parlour (all tables)
TIMEOUT = 10.0  # seconds without a chunk of the answer
MAX_BACKOFF = 300.0
UNKNOWN = "0" * 32  # the journal asked for when none is known: the refusal names the table's
_HEX = re.compile(r"[0-9a-f]{32}")

Publish = Callable[[str, bytes], None]


@dataclass
class Request:
    id: str
    journal: str
    first: int
    last: int
    sent: float
    wait: float
    tries: int = 1


class Replayer:
    def __init__(self, publish: Publish, prefix: str = "xian", *, clock: Callable[[], float] = time.monotonic,
                 pace: float = PACE, timeout: float = TIMEOUT) -> None:
        self._publish = publish
        self.prefix = prefix
        self.clock = clock
        self.pace = pace
        self.timeout = timeout
        self.outstanding: dict[str, Request] = {}
        self.offline: set[str] = set()
        self.probes: set[str] = set()  # tables to ask for what follows the tip, gap or not
        self.ended: set[tuple[str, str]] = set()  # journals the table no longer has
        self._last_sent = -1e9
        self._ids = itertools.count(1)
        self._run = f"{int(time.time()):x}"  # request ids differ from a run to the next
        self.sent = 0

    def gap(self, ingest: Ingest, table: str) -> tuple[str, int, int] | None:
        """(journal, from, to) of the next request for ``table``, or None when its copy is whole."""
        journal = ingest.current.get(table)
        if journal is None:
            return (UNKNOWN, 1, 1) if table in self.probes else None
        if (table, journal) in self.ended:
            return None
        key = (table, journal)
        tip, highest = ingest.tip(key), ingest.highest.get(key, 0)
        if highest <= tip:
            return (journal, tip + 1, tip + 1 + MAX_SPAN) if table in self.probes else None
        first = tip + 1
        held = ingest.first_held(key)
        upto = highest if held is None or held <= first else held - 1
        return journal, first, min(upto, first + MAX_SPAN)

    def tick(self, ingest: Ingest) -> int:
        """Send what is due (new requests, timed-out ones again), paced; returns how many."""
        now = self.clock()
        sent = 0
        for table in sorted(set(ingest.current) | self.probes):
            if now - self._last_sent < self.pace:
                break
            if table in self.offline:
                continue
            req = self.outstanding.get(table)
            if req is not None:
                if now - req.sent < req.wait:
                    continue
                log.info("table %s: no answer to replay %s (records %d–%d) in %.0f s: asking again",
                         table, req.id, req.first, req.last, req.wait)
            gap = self.gap(ingest, table)
            if gap is None:
                self.outstanding.pop(table, None)
                continue
            journal, first, last = gap
            wait = self.timeout if req is None or req.first != first else min(req.wait * 2, MAX_BACKOFF)
            tries = 1 if req is None else req.tries + 1
            new = Request(f"p{self._run}-{next(self._ids)}", journal, first, last, now, wait, tries)
            self.outstanding[table] = new
            self._send(table, new)
            self._last_sent = now
            sent += 1
        return sent

    def _send(self, table: str, req: Request) -> None:
        msg = {"type": "journal_replay", "journal": req.journal, "from": req.first, "to": req.last,
               "request": req.id, "transaction": req.id}
        self._publish(f"{self.prefix}/{table}/cmd", json.dumps(msg, separators=(",", ":")).encode())
        self.sent += 1
        log.debug("table %s: asked for records %d–%d of journal %s (%s, try %d)", table, req.first, req.last,
                  req.journal, req.id, req.tries)

    def answered(self, answer: ReplayAnswer) -> None:
        """A chunk of an answer: it keeps its request alive; ``done`` ends it."""
        req = self.outstanding.get(answer.table)
        log.debug("table %s: %d records in answer %s (its last: %d%s)", answer.table, answer.records,
                  answer.request, answer.last, ", done" if answer.done else "")
        if req is None or req.id != answer.request:
            return  # an answer to an earlier request (sent again, or before a restart): its records count all the same
        if answer.done:
            del self.outstanding[answer.table]
            self.probes.discard(answer.table)
        else:
            req.sent = self.clock()

    def result(self, table: str, obj: object, ingest: Ingest) -> str | None:
        """A command's answer on ``xian/T/cmd/result``: a refusal of our request ends it; its code."""
        req = self.outstanding.get(table)
        if req is None or not isinstance(obj, Mapping) or obj.get("transaction") != req.id:
            return None
        if obj.get("status") == "ok":
            return None
        code = str(obj.get("code", "error"))
        del self.outstanding[table]
        if code == "journal.other":
            current = _param(obj, "journal")
            if _HEX.fullmatch(current) and current != req.journal:
                ingest.current[table] = current  # asked for at once (the probe stays)
                self.probes.add(table)
            if req.journal != UNKNOWN:
                self.ended.add((table, req.journal))
                log.warning("table %s writes another journal now (%s): journal %s cannot be replayed; "
                            "records from %d on are missing from the parlour's copy", table, current,
                            req.journal, req.first)
        else:
            log.warning("table %s refused replay %s (records %d–%d): %s %s", table, req.id, req.first, req.last,
                        code, str(obj.get("error", ""))[:200])
        return code

    def status(self, table: str, online: bool) -> None:
        if online:
            self.offline.discard(table)
            self.probes.add(table)
        else:
            self.offline.add(table)
            self.outstanding.pop(table, None)  # asked again when it is back


def _param(obj: Mapping[str, object], name: str) -> str:
    params = obj.get("params")
    return str(params.get(name, "?")) if isinstance(params, Mapping) else "?"
