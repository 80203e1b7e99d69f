"""``xian-table export``: every hand's transfers and totals, as CSV or JSON, for a spreadsheet;
or every event as mjai-style JSONL, which ``xian-table import`` reads back (docs/export.md).

Names are written as they were journaled, but never a control character raw (an old journal
may hold one: :func:`engine.fields.printable` escapes it; JSON escapes it as ``\\uXXXX``).
The CSV (``table_app/exchange/sheet.py``) begins with a UTF-8 byte-order mark for Excel
(``--no-bom``: without).
The hands come from replaying the journal's events in effect (undone events are left out),
session by session; a hand appears once it is settled (phase ``hand_over``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TextIO

from engine.fees import BillJSON, FeeJSON
from engine.public import public_state
from engine.records import TransferJSON

if TYPE_CHECKING:
    from table_app.journal.journal import Journal

HELP = "export the journal's hands (--format csv or json) or every event (--format mjai, for xian-table import)"


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="the TOML config file (for journal.path)")
    p.add_argument("--db", metavar="FILE", help="the SQLite journal (default: journal.path, or the user data dir)")
    p.add_argument("--format", choices=("csv", "json", "mjai"), required=True,
                   help="csv: one row per hand (for a spreadsheet); json: every hand and transfer; mjai: every event, "
                        "as mjai-style JSONL that xian-table import reads back (docs/export.md)")
    p.add_argument("--session", type=int, metavar="N", help="only session N (see xian-table history)")
    p.add_argument("--out", metavar="FILE", help="write to FILE (default: standard output)")
    p.add_argument("--no-bom", dest="bom", action="store_false",
                   help="csv: no UTF-8 byte-order mark (it is there by default, for Excel)")


@dataclass
class HandRow:
    hand: int
    round: int
    dealer: int | None
    result: str | None
    winner: int | None
    kind: str | None
    transfers: list[TransferJSON]
    deltas: list[int]
    totals: list[int]
    seq: int  # the journal record that settled the hand

    def to_json(self) -> dict[str, object]:
        return dict(self.__dict__)


@dataclass
class SessionLedger:
    session: int
    first_seq: int
    started_at: str
    players: list[str]
    in_effect: bool  # False: its new_session was undone
    base: int | None = None
    phase: str | None = None
    totals: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    events: int = 0
    hands: list[HandRow] = field(default_factory=list)
    fee: FeeJSON | None = None  # (issue 31) the session's fee setting at its end
    house: BillJSON | None = None  # and, once it has ended, the house's bill (engine.fees)

    def to_json(self) -> dict[str, object]:
        d = {k: v for k, v in self.__dict__.items() if k != "hands"}
        d["hands"] = [h.to_json() for h in self.hands]
        return d


def ledgers(journal: Journal) -> list[SessionLedger]:
    """Every session of the journal with its settled hands (replaying the events in effect)."""
    from engine import new_table, push

    active = journal.timeline().active
    out = [SessionLedger(i, first, at, players, False) for i, first, at, players in journal.sessions()]
    by_first = {s.first_seq: s for s in out}
    current: SessionLedger | None = None
    state = new_table()
    phase = None
    for i in range(0, len(active), 5000):
        chunk = active[i:i + 5000]
        for seq, event in zip(chunk, journal.events(chunk), strict=True):
            if seq in by_first:
                current = by_first[seq]
                current.in_effect = True
                state = new_table()
            push(state, event)
            if current is None:
                continue
            current.events += 1
            pub = public_state(state)
            if pub["phase"] == "hand_over" and phase != "hand_over":
                st = pub["last_settlement"]
                assert st is not None  # (a hand is over: it was settled)
                current.hands.append(HandRow(
                    hand=pub["hand"], round=pub["round"], dealer=pub["dealer"], result=st["result"],
                    winner=st["winner"], kind=st["kind"], transfers=list(st["transfers"]),
                    deltas=list(st["deltas"]), totals=list(pub["scores"]), seq=seq,
                ))
            phase = pub["phase"]
            current.phase, current.totals, current.base = phase, list(pub["scores"]), pub["base"]
            current.fee, current.house = pub["fee"], pub["house"]
    return out


def read_ledgers(args: argparse.Namespace, verb: str) -> list[SessionLedger] | int:
    """Every session of the journal, or an exit status after one line saying why not.

    The journal is checked when it opens (numbering, hash chain); a problem the checks could
    not see (a page SQLite cannot read, events that no longer replay) is still one line.
    """
    import sqlite3

    from engine import RuleError
    from table_app.journal.journal import JournalError

    journal = open_journal(args, verb)
    if isinstance(journal, int):
        return journal
    try:
        with journal, journal.read_snapshot():  # (the service may be writing: one consistent view)
            return ledgers(journal)
    except (sqlite3.DatabaseError, JournalError, RuleError, ValueError) as e:
        print(f"xian-table {verb}: journal {str(journal.path)!r} cannot be read to the end ({e}); it is left as it "
              f"is — xian-table doctor checks it", file=sys.stderr)
        return 4


def open_journal(args: argparse.Namespace, verb: str) -> Journal | int:
    """The journal read-only, or an exit status after printing why not."""
    from table_app.config.file import ConfigError, load_config
    from table_app.journal.journal import Journal, JournalError

    try:
        path = args.db or load_config(args.config).journal_file()
        return Journal.open(path, readonly=True)
    except (ConfigError, JournalError) as e:
        print(f"xian-table {verb}: {e}", file=sys.stderr)
        return 4 if isinstance(e, JournalError) else 2


def run(args: argparse.Namespace) -> int:
    if args.format == "mjai":
        return _run_mjai(args)
    sessions = read_ledgers(args, "export")
    if isinstance(sessions, int):
        return sessions
    if args.session is not None:
        sessions = [s for s in sessions if s.session == args.session]
        if not sessions:
            print(f"xian-table export: no session {args.session} in the journal (see xian-table history)",
                  file=sys.stderr)
            return 2
    with _output(args) as out:
        if out is None:
            return 2
        if args.format == "json":
            from table_app.system.bounded import json_line

            out.write(json_line({"sessions": [s.to_json() for s in sessions]}, separators=(", ", ": ")))
            out.write("\n")
        else:
            from table_app.exchange.sheet import write_csv

            write_csv(sessions, out, bom=args.bom)
    return 0


@contextlib.contextmanager
def _output(args: argparse.Namespace) -> Iterator[TextIO | None]:
    """Where the export goes, as UTF-8 whatever the locale: ``--out FILE`` or standard output
    (None, after saying why, when the file cannot be written)."""
    if args.out is None or args.out == "-":
        buffer = getattr(sys.stdout, "buffer", None)
        if buffer is None:  # (a stream without bytes: written as it is)
            yield sys.stdout
            return
        sys.stdout.flush()
        out = io.TextIOWrapper(buffer, encoding="utf-8", newline="")
        try:
            yield out
        finally:
            out.flush()
            out.detach()
        return
    try:
        f = open(args.out, "w", encoding="utf-8", newline="")  # noqa: SIM115 (closed below)
    except OSError as e:
        print(f"xian-table export: cannot write {args.out!r}: {e.strerror}", file=sys.stderr)
        yield None
        return
    with f:
        yield f


def _run_mjai(args: argparse.Namespace) -> int:
    """The sessions in effect as mjai JSONL (table_app/exchange/write.py, docs/export.md)."""
    import sqlite3

    from engine import RuleError
    from table_app.exchange.write import mjai_records, plan
    from table_app.journal.journal import JournalError
    from table_app.system.bounded import json_line

    journal = open_journal(args, "export")
    if isinstance(journal, int):
        return journal
    with journal, journal.read_snapshot():
        try:
            p = plan(journal)
            if args.session is not None and args.session not in p.by_first.values():
                why = "was undone" if args.session in p.undone_sessions else "is not in the journal"
                print(f"xian-table export: session {args.session} {why} (see xian-table history)", file=sys.stderr)
                return 2
            with _output(args) as out:
                if out is None:
                    return 2
                for record in mjai_records(journal, p, args.session):
                    out.write(json_line(record) + "\n")
        except (sqlite3.DatabaseError, JournalError, RuleError, ValueError) as e:
            print(f"xian-table export: journal {str(journal.path)!r} cannot be read to the end ({e}); it is left "
                  f"as it is — xian-table doctor checks it", file=sys.stderr)
            return 4
    return 0
