"""Records into the parlour database: once each, in chain order, forged ones refused.

Each (table, journal) is stored as a prefix: records 1 … ``tip``, each checked against the one
before it (:meth:`Record.follows`, the table's own hash chain), so the copy is never a record
the table did not write. A record

- at or below the tip is compared with the stored one: the same — a duplicate, dropped (a
  record that arrives twice is stored once); different — refused and logged;
- right after the tip is checked and stored, then the held records that now follow it;
- further on (its predecessor is missing: lost by a bridge, not replayed yet) is held, in
  memory, at most :data:`MAX_HELD` in all and :data:`MAX_HELD_JOURNAL` a journal; beyond that
  it is let go, and the replay (:mod:`parlour.gaps`) brings it again.

A record with a journal id the parlour has not seen is a new journal (a reset, a new SD card):
kept apart, never merged. What the table says it has (the highest seq seen in its records
and in its replay answers' ``last``) is kept in ``journals.highest``; what lies between the
tip and it is the gap that the replay asks for.

The caller runs each batch inside one database transaction; when that fails, :meth:`forget`
drops what this object remembers, which the database is the truth for.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from parlour.db import Database
from parlour.records import Record, RecordError, parse

log = logging.getLogger("xian.parlour")

MAX_HELD = 50_000  # records waiting for their predecessor, all tables (about 25 MB at most)
MAX_HELD_JOURNAL = 5_000  # … a journal: a chunk of replay or more, while the stream runs on
MAX_REFUSALS_A_MINUTE = 100  # a table's refusals logged and kept a minute; more are only counted
MAX_VARIANTS = 3  # different records held for one seq (one of them the table's, the others refused later)

Key = tuple[str, str]  # (table, journal)


@dataclass(frozen=True)
class ReplayAnswer:
    table: str
    journal: str
    request: str
    last: int
    done: bool
    records: int


class Ingest:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.counts: Counter[str] = Counter()
        self._tips: dict[Key, tuple[int, str | None]] = {}
        self._held: dict[Key, dict[int, list[Record]]] = {}
        self._held_total = 0
        self.highest: dict[Key, int] = {}
        self.current: dict[str, str] = {}  # table → the journal it writes now (its latest one heard)
        self._refusal_minute: dict[str, tuple[int, int]] = {}  # table → (minute, refusals in it)
        self.stored: list[tuple[str, Record]] = []  # stored in the transaction in hand (the floor view's fold)
        self.touched: set[Key] = set()  # the journals records were stored of (the sessions' fold reads them)
        self.load()

    def load(self) -> None:
        """What the database knows: each journal's highest seq, each table's latest journal."""
        for j in self.db.journals():  # in first-seen order: the last of a table's is its current one
            self.highest[(j.table, j.journal)] = j.highest  # (at least its last stored record)
            self.current[j.table] = j.journal

    def forget(self) -> None:
        """After a failed transaction: the tips and held records may not match the database."""
        self._tips.clear()
        self._held.clear()
        self._held_total = 0
        self.touched.clear()
        self.highest.clear()
        self.current.clear()
        self.load()

    # -- what the gap finder asks

    def tip(self, key: Key) -> int:
        return self._tip(key)[0]

    def first_held(self, key: Key) -> int | None:
        held = self._held.get(key)
        return min(held) if held else None

    def held(self) -> int:
        return self._held_total

    # -- messages

    def refuse(self, table: str, reason: str, payload: str | bytes | None, *, journal: str | None = None,
               seq: int | None = None) -> None:
        self.counts["refused"] += 1
        minute = int(time.monotonic() // 60)
        start, n = self._refusal_minute.get(table, (minute, 0))
        n = n + 1 if start == minute else 1
        self._refusal_minute[table] = (minute, n)
        if n > MAX_REFUSALS_A_MINUTE:  # a table gone wrong: counted, not a row and a line each
            if n == MAX_REFUSALS_A_MINUTE + 1:
                log.warning("table %s: more than %d refusals this minute: the rest are counted only",
                            table, MAX_REFUSALS_A_MINUTE)
            return
        text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else payload
        log.warning("refused from table %s%s: %s", table, f" (journal {journal} record {seq})" if seq else "", reason)
        self.db.refuse(table, reason, journal=journal, seq=seq, payload=text)

    def live(self, table: str, obj: object, raw: str | bytes | None = None) -> None:
        """One record from ``xian/T/journal``."""
        try:
            rec = parse(obj)
        except RecordError as e:
            self.refuse(table, f"not a journal record: {e}", raw)
            return
        self.current[table] = rec.journal
        self.record(table, rec)

    def replay(self, table: str, obj: object, raw: str | bytes | None = None) -> ReplayAnswer | None:
        """A replay answer from ``xian/T/journal/replay``: its records in order, its ``last``."""
        if not isinstance(obj, Mapping) or set(obj) != {"journal", "request", "records", "last", "done"}:
            self.refuse(table, "not a replay answer: keys must be journal, request, records, last, done", raw)
            return None
        journal, request, records, last, done = (obj[k] for k in ("journal", "request", "records", "last", "done"))
        if (not isinstance(journal, str) or not isinstance(request, str) or not isinstance(records, list)
                or type(last) is not int or last < 0 or not isinstance(done, bool)):
            self.refuse(table, "not a replay answer: a field of the wrong type", raw)
            return None
        try:
            recs = [parse(r, journal) for r in records]
        except RecordError as e:
            self.refuse(table, f"a replay answer with a bad record: {e}", raw)
            return None
        key = (table, journal)
        self.current[table] = journal
        self.db.ensure_journal(table, journal)
        self._raise(key, last)
        for rec in recs:
            self.record(table, rec)
        return ReplayAnswer(table, journal, request, last, done, len(recs))

    # -- one record

    def _tip(self, key: Key) -> tuple[int, str | None]:
        if key not in self._tips:
            self._tips[key] = self.db.tip(*key)
        return self._tips[key]

    def _raise(self, key: Key, seq: int) -> None:
        if seq > max(self.highest.get(key, 0), self._tip(key)[0]):
            self.highest[key] = seq
            self.db.raise_highest(key[0], key[1], seq)

    def record(self, table: str, rec: Record) -> None:
        key = (table, rec.journal)
        if key not in self.highest:
            if self.db.ensure_journal(table, rec.journal):
                log.info("table %s: journal %s is new to the parlour (first record heard: %d)",
                         table, rec.journal, rec.seq)
            self.highest.setdefault(key, 0)
        tip, tip_hash = self._tip(key)
        if rec.seq > tip + 1:
            self._raise(key, rec.seq)  # (a record that extends the prefix says nothing the records do not)
        if rec.seq <= tip:
            self._compare(table, rec)
        elif rec.seq == tip + 1:
            if self._store(table, rec, tip_hash):
                self._drain(key)
        else:
            self._hold(key, rec)

    def _compare(self, table: str, rec: Record) -> None:
        stored = self.db.stored(table, rec.journal, rec.seq)
        if stored == rec:
            self.counts["duplicate"] += 1
        else:
            self.refuse(table, "differs from the stored record of the same journal and seq", _show(rec),
                        journal=rec.journal, seq=rec.seq)

    def _store(self, table: str, rec: Record, prev_hash: str | None) -> bool:
        if not rec.follows(prev_hash):
            why = ("its hash is not its journal's id" if rec.seq == 1
                   else "its hash does not follow the record before it (forged or damaged)")
            self.refuse(table, why, _show(rec), journal=rec.journal, seq=rec.seq)
            return False
        if self.db.insert(table, rec):
            self.counts["stored"] += 1
            self.stored.append((table, rec))
        else:  # another writer stored it first: the same or not, the stored one stays
            self._compare(table, rec)
        self._tips[(table, rec.journal)] = (rec.seq, rec.hash)
        self.touched.add((table, rec.journal))
        return True

    def _hold(self, key: Key, rec: Record) -> None:
        held = self._held.setdefault(key, {})
        variants = held.setdefault(rec.seq, [])
        if rec in variants:
            self.counts["duplicate"] += 1
            return
        if len(variants) >= MAX_VARIANTS or len(held) >= MAX_HELD_JOURNAL or self._held_total >= MAX_HELD:
            if not variants:
                del held[rec.seq]
            self.counts["let_go"] += 1  # the replay brings it again
            return
        variants.append(rec)
        self._held_total += 1
        self.counts["held"] += 1

    def _drain(self, key: Key) -> None:
        """Store the held records that follow the tip now, in order."""
        held = self._held.get(key)
        while held:
            tip, tip_hash = self._tip(key)
            for seq in [s for s in held if s <= tip]:  # stored by a replay meanwhile: compare, drop
                for rec in held.pop(seq):
                    self._held_total -= 1
                    self._compare(key[0], rec)
            variants = held.pop(tip + 1, None)
            if variants is None:
                break
            self._held_total -= len(variants)
            stored = False
            for rec in variants:
                if stored:
                    self._compare(key[0], rec)
                else:
                    stored = self._store(key[0], rec, tip_hash)
            if not stored:
                break
        if not held:
            self._held.pop(key, None)


def _show(rec: Record) -> str:
    return json.dumps(dict(zip(("journal", "seq", "at", "kind", "session", "source", "event", "target", "hash"),
                               rec.row(), strict=True)), ensure_ascii=False, separators=(",", ":"))
