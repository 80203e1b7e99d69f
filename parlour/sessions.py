"""Every session of every mirrored journal, from the parlour database's records (issue 31).

The archive's fold, over the parlour's copy: :class:`~table_app.archive.marks.Ranges` says
which events are in effect (undo and redo), :class:`~table_app.archive.scan.Scan` plays them
through the engine and sums each session. What it finds is kept in the ``sessions`` table
(one row a session in effect: table, journal, first seq, started/ended at, players and their
roster ids, hands, rounds, scores, the fee setting and the bill, each player's counts), and
where the fold stands in ``session_scans`` (a journal's last record folded, its hash, the
scan's cursor: the engine's state and what the fold keeps besides) — a checkpoint, kept at an
undo or redo and every :data:`CHECKPOINT` records: from an older one the fold carries on over
the records after it to the same rows.

:meth:`Sessions.update` is called with the journals a batch stored records of, inside the
batch's transaction: the records after the cursor are fed on (cheap: the engine's step per
record), and an undo or a redo folds again from the start of the session it reaches back into
(a session's records, never the whole journal). A journal without a cursor, or whose cursor
names a record the copy does not hold (another version, a table edited by hand) is folded
again from its first record (:meth:`Sessions.refresh` does it for every journal: the service
at its start, the reports before they read).

A session's fee setting, 圈, length and bill are the engine's own, read from its state as the
fold plays the session (``new_session.fee``, each ``fee`` event in effect, ``end_session.seconds``;
:func:`engine.public.house_bill` once it has ended: the table's own settle-up); while it is
being played, :func:`fee_so_far` bills it as if it ended now.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Final

from engine.fees import Bill, FeeSetting, bill
from engine.public import house_bill
from parlour.db import Database
from table_app.archive.marks import Ranges
from table_app.archive.scan import Scan, SessionAcc

log = logging.getLogger("xian.parlour")

VERSION: Final = 2  # of the cursor: another version is folded again from the records
CHUNK: Final = 5000  # records read at a time
CHECKPOINT: Final = 500  # records folded between two cursors kept (the cursor is most of the fold's cost)
Key = tuple[str, str]  # (table, journal)

COLUMNS: Final = ("table_id", "journal_id", "first_seq", "number", "started", "ended", "last_seq", "last_at",
                  "phase", "players", "player_ids", "hands", "rounds", "scores", "seconds", "fee", "bill",
                  "table_fee", "tea", "stats")


@dataclass(frozen=True)
class SessionRow:
    """A row of ``sessions`` (JSON columns decoded)."""

    table: str
    journal: str
    first_seq: int
    number: int
    started: str
    ended: str | None  # the ``end_session`` record's time; None while it goes on (or was never ended)
    last_seq: int
    last_at: str
    phase: str
    players: list[str]
    player_ids: list[int | None]
    hands: int
    rounds: int
    scores: list[int]
    seconds: int | None  # ``end_session.seconds``
    fee: dict[str, object] | None  # the setting in effect at its end (or now)
    bill: dict[str, object] | None  # ``Bill.to_json()`` once ended with a fee set
    table_fee: int
    tea: int
    stats: dict[str, list[int]]  # ``[seat, roster id, name]`` → hands, wins, self-draws, kongs, net

    @property
    def length(self) -> float:
        """Seconds played: ``end_session.seconds``, else from its first to its last record."""
        if self.seconds is not None:
            return float(self.seconds)
        return max(0.0, (datetime.fromisoformat(self.last_at) - datetime.fromisoformat(self.started)).total_seconds())


@dataclass
class Extra:
    """What the fold keeps of a session beyond the archive's summary (the engine's state's)."""

    fee: dict[str, object] | None = None
    seconds: int | None = None
    rounds: int = 0
    bill: dict[str, object] | None = None  # ``house_bill``: once it has ended with a fee set


@dataclass
class Fold:
    """Where one journal's fold stands."""

    last_seq: int = 0
    last_hash: str | None = None
    starts: dict[int, tuple[int, str]] = field(default_factory=dict)  # first seq → (number, started at)
    marks: list[tuple[int, str, int]] = field(default_factory=list)  # every undo and redo
    extra: dict[int, Extra] = field(default_factory=dict)  # by session number
    scan: Scan = field(default_factory=lambda: Scan({}))
    failed: bool = False  # the engine refused one of its events: left as it was, logged once
    saved: int = 0  # the last seq of the cursor kept in the database

    def cursor(self) -> str:
        return json.dumps({"version": VERSION, "starts": [[f, n, at] for f, (n, at) in self.starts.items()],
                           "marks": self.marks, "extra": {str(n): asdict(e) for n, e in self.extra.items()},
                           "scan": self.scan.cursor()}, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def of(cls, last_seq: int, last_hash: str | None, text: str) -> Fold | None:
        """The fold a ``session_scans`` row keeps, or None if it is of another version or shape."""
        try:
            d = json.loads(text)
            if d.get("version") != VERSION:
                return None
            starts = {int(f): (int(n), str(at)) for f, n, at in d["starts"]}
            fold = cls(last_seq, last_hash, starts,
                       [(int(s), str(k), int(t)) for s, k, t in d["marks"]],
                       {int(n): Extra(**e) for n, e in d["extra"].items()})
            fold.scan = Scan.resume(fold.starts, d["scan"])
            fold.saved = last_seq
            return fold
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            log.warning("sessions: a cursor that cannot be read (%s): folded again", e)
            return None


def bill_of(setting: Mapping[str, object] | None, *, hands: int, rounds: int, seconds: int | None,
            scores: list[int]) -> Bill | None:
    if setting is None:
        return None
    return bill(FeeSetting.from_json(setting), hands=hands, rounds=rounds, seconds=seconds, scores=scores)


def fee_so_far(row: SessionRow, now: datetime | None = None) -> int:
    """The table fee (and tea) the session owes: its bill's total once ended, else as if it
    ended now (``seconds`` from its start)."""
    if row.bill is not None:
        return as_int(row.bill["total"])
    if row.fee is None or row.ended is not None:
        return 0
    t = now or datetime.now(UTC)
    seconds = max(0, int((t - datetime.fromisoformat(row.started)).total_seconds()))
    b = bill_of(row.fee, hands=row.hands, rounds=row.rounds, seconds=seconds, scores=row.scores)
    return 0 if b is None else b.total


class Sessions:
    """The ``sessions`` table kept up with the records (see the module's docstring)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._folds: dict[Key, Fold] = {}
        self.rebuilds = 0  # journals folded from their first record (tests)

    def forget(self) -> None:
        """After a failed transaction: what is in memory may not be what the database holds."""
        self._folds.clear()

    # -- keeping up

    def refresh(self) -> int:
        """Every journal's sessions brought up to its records (folded again where missing or
        stale); the number of journals that had something to do."""
        n = 0
        with self.db.transaction():
            for j in self.db.journals():
                if j.last_stored and self.update([(j.table, j.journal)], save=True):
                    n += 1
        return n

    def update(self, keys: Iterable[Key], *, save: bool = False) -> int:
        """Fold on the records these journals stored since; the number that moved. The cursor
        is saved (``save``) or at an undo or redo, or :data:`CHECKPOINT` records after the last
        (a checkpoint: from an older one the fold carries on to the same rows)."""
        moved = 0
        for key in sorted(set(keys)):
            fold = self._fold(key)
            if fold.failed:
                continue
            tip, tip_hash = self.db.tip(*key)
            if tip <= fold.last_seq:
                continue
            before = len(fold.marks)
            try:
                self._advance(key, fold, tip)
            except (ValueError, TypeError, KeyError) as e:  # the engine refused an event (another version?)
                fold.failed = True
                log.error("sessions: table %s journal %s cannot be folded past record %d (%s); its sessions "
                          "stay as they were", key[0], key[1], fold.last_seq, e)
                continue
            marks = len(fold.marks) != before
            fold.last_seq, fold.last_hash = tip, tip_hash
            if save or marks or fold.last_seq - fold.saved >= CHECKPOINT:
                self._save_cursor(key, fold)
            moved += 1
        return moved

    def _fold(self, key: Key) -> Fold:
        fold = self._folds.get(key)
        if fold is not None:
            return fold
        row = self.db.x("SELECT last_seq, last_hash, cursor FROM session_scans WHERE table_id = ? AND journal_id = ?",
                        key).fetchone()
        if row is not None:
            last, last_hash, text = as_int(row[0]), row[1], str(row[2])
            stored = self.db.stored(key[0], key[1], last) if last else None
            if last == 0 or (stored is not None and stored.hash == last_hash):
                fold = Fold.of(last, last_hash if isinstance(last_hash, str) else None, text)
            else:
                log.info("sessions: table %s journal %s: the cursor names a record the copy does not hold: "
                         "folded again", *key)
        if fold is None:
            self.rebuilds += 1
            self.db.x("DELETE FROM sessions WHERE table_id = ? AND journal_id = ?", key)
            fold = Fold()
        self._folds[key] = fold
        return fold

    def _save_cursor(self, key: Key, fold: Fold) -> None:
        fold.saved = fold.last_seq
        self.db.x("DELETE FROM session_scans WHERE table_id = ? AND journal_id = ?", key)
        self.db.x("INSERT INTO session_scans (table_id, journal_id, last_seq, last_hash, cursor) "
                  "VALUES (?, ?, ?, ?, ?)", (*key, fold.last_seq, fold.last_hash, fold.cursor()))

    def _records(self, key: Key, lo: int, hi: int) -> Iterable[tuple[int, str, str, int | None, str | None,
                                                                      int | None]]:
        for a in range(lo, hi + 1, CHUNK):
            rows = self.db.x("SELECT seq, at, kind, session, event, target FROM records WHERE table_id = ? "
                             "AND journal_id = ? AND seq BETWEEN ? AND ? ORDER BY seq",
                             (*key, a, min(hi, a + CHUNK - 1))).fetchall()
            yield from rows  # type: ignore[misc]

    def _advance(self, key: Key, fold: Fold, tip: int) -> None:
        """Fold the records ``fold.last_seq + 1`` … ``tip`` on."""
        first = fold.last_seq + 1
        new_marks: list[tuple[int, str, int]] = []
        plain: list[tuple[int, str, dict[str, object]]] = []
        for seq, at, kind, session, text, target in self._records(key, first, tip):
            if kind == "event":
                event = json.loads(text or "{}")
                if session is not None and event.get("type") == "new_session":  # (the journal starts one with each)
                    fold.starts[seq] = (session, at)
                plain.append((seq, at, event))
            else:
                new_marks.append((seq, kind, target or 0))
        if not new_marks:  # every new event is in effect: fed on from the cursor
            fold.scan.starts = fold.starts
            for seq, at, event in plain:
                self._feed(fold, seq, at, event)
            self._write(key, fold, None)
            return
        fold.marks.extend(new_marks)
        ranges = Ranges.fold(fold.marks, tip)
        reach = min(min((t + 1 if k == "undo" else t) for _, k, t in new_marks), first)
        begin = max((f for f in fold.starts if f <= reach and ranges.in_effect(f)), default=0)
        fold.scan = Scan(fold.starts)
        kept = {n for f, (n, _) in fold.starts.items() if f < begin}  # (the sessions before it are as they were)
        fold.extra = {n: e for n, e in fold.extra.items() if n in kept}
        for lo, hi in ranges.spans(begin or 1, tip):
            for seq, at, kind, _, text, _ in self._records(key, lo, hi):
                if kind == "event":
                    self._feed(fold, seq, at, json.loads(text or "{}"))
        self._write(key, fold, begin)

    @staticmethod
    def _feed(fold: Fold, seq: int, at: str, event: dict[str, object]) -> None:
        scan = fold.scan
        scan.feed(seq, at, event)
        acc = scan.session
        if acc is None:
            return
        st = scan.state  # (the engine's own: its fee, 圈, length and bill — as the table's settle-up)
        bill_json = house_bill(st)
        fold.extra[acc.number] = Extra(None if st.fee is None else dict(st.fee.to_json()), st.seconds, st.settled_round,
                                       None if bill_json is None else dict(bill_json))

    def _write(self, key: Key, fold: Fold, begin: int | None) -> None:
        """The rows of the sessions the fold touched (``begin``: rows from that session on are
        replaced; 0: all of the journal's)."""
        if begin is not None:
            self.db.x("DELETE FROM sessions WHERE table_id = ? AND journal_id = ? AND first_seq >= ?", (*key, begin))
        scan = fold.scan
        for acc in scan.sessions.values():
            self._put(key, acc, fold.extra.get(acc.number, Extra()))
        scan.sessions = {} if scan.session is None else {scan.session.number: scan.session}
        scan.hands = []

    def _put(self, key: Key, acc: SessionAcc, extra: Extra) -> None:
        s = acc.summary()
        ended = acc.last_at if acc.finished else None
        b = extra.bill if ended is not None else None
        tea = b["tea"] if b is not None else []
        values = (*key, acc.first_seq, acc.number, acc.started, ended, acc.last_seq, acc.last_at, acc.phase,
                  _dumps(s.players), _dumps(s.player_ids), acc.hands, extra.rounds, _dumps(acc.totals),
                  extra.seconds, None if extra.fee is None else _dumps(extra.fee),
                  None if b is None else _dumps(b), 0 if b is None else as_int(b["fee"]),
                  sum(as_int(t) for t in tea) if isinstance(tea, list) else 0, _dumps(acc.stats))
        self.db.x("DELETE FROM sessions WHERE table_id = ? AND journal_id = ? AND first_seq = ?",
                  (*key, acc.first_seq))
        self.db.x(f"INSERT INTO sessions ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})", values)

    # -- reading

    def rows(self, *, table: str | None = None, since: str | None = None, until: str | None = None) -> list[SessionRow]:
        """The sessions (of ``table``; started at or after ``since``, before ``until``: ISO
        times in UTC), oldest first."""
        where, args = [], []
        for cond, value in (("table_id = ?", table), ("started >= ?", since), ("started < ?", until)):
            if value is not None:
                where.append(cond)
                args.append(value)
        sql = (f"SELECT {', '.join(COLUMNS)} FROM sessions{' WHERE ' + ' AND '.join(where) if where else ''} "
               "ORDER BY started, table_id, journal_id, first_seq")
        return [row_of(r) for r in self.db.x(sql, args).fetchall()]

    def current(self) -> dict[str, SessionRow]:
        """Each table's latest session (its newest start)."""
        rows = self.db.x(f"SELECT {', '.join(COLUMNS)} FROM sessions s WHERE started = (SELECT max(started) "
                         "FROM sessions WHERE table_id = s.table_id) ORDER BY table_id, journal_id, first_seq")\
            .fetchall()
        return {r.table: r for r in map(row_of, rows)}


def as_int(value: object) -> int:
    """A whole number from the database (SQLite and psycopg give ``int``; anything else is a fault)."""
    if type(value) is not int:
        raise TypeError(f"not a whole number: {value!r}")
    return value


def row_of(r: tuple[object, ...]) -> SessionRow:
    (table, journal, first, number, started, ended, last_seq, last_at, phase, players, ids, hands, rounds, scores,
     seconds, fee, bill_text, table_fee, tea, stats) = r
    return SessionRow(str(table), str(journal), as_int(first), as_int(number), str(started),
                      None if ended is None else str(ended), as_int(last_seq), str(last_at),
                      str(phase), json.loads(str(players)), json.loads(str(ids)), as_int(hands),
                      as_int(rounds), json.loads(str(scores)), None if seconds is None else as_int(seconds),
                      None if fee is None else json.loads(str(fee)),
                      None if bill_text is None else json.loads(str(bill_text)), as_int(table_fee), as_int(tea),
                      json.loads(str(stats)))


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
