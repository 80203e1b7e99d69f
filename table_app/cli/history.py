"""``xian-table history``: the journal's sessions and hands, one line each (a name an old journal
holds with a control character is shown escaped, never acting on the terminal). The sessions
and hands come from the archive (``table_app/archive``, read-only here: the summary the table
keeps in the file when it is current, else one made in memory)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from engine.fields import printable
from table_app.cli.export import HandRow, SessionLedger, open_journal

if TYPE_CHECKING:
    from table_app.journal.journal import Journal

HELP = "list the journal's sessions and hands, one line each (results, deltas, running totals)"


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="the TOML config file (for journal.path)")
    p.add_argument("--db", metavar="FILE", help="the SQLite journal (default: journal.path, or the user data dir)")


def _signed(values: list[int]) -> str:
    return " ".join(f"{v:+d}" for v in values)


def lines(sessions: list[SessionLedger]) -> list[str]:
    out = []
    for s in sessions:
        head = f"session {s.session}  {s.started_at}  {' · '.join(s.players)}"
        if not s.in_effect:
            out.append(f"{head}  (undone)")
            continue
        out.append(f"{head}  base {s.base}  {len(s.hands)} hand(s)  totals {_signed(s.totals)}  now {s.phase}")
        for h in s.hands:
            dealer = s.players[h.dealer] if h.dealer is not None else "-"
            if h.result == "win" and h.winner is not None:
                result = f"win  {s.players[h.winner]}  {h.kind or ''}".rstrip()
            else:
                result = h.result or "-"
            out.append(f"  hand {h.hand:<3} round {h.round}  dealer {dealer}  {result}  "
                       f"deltas {_signed(h.deltas)}  totals {_signed(h.totals)}")
    return out


def from_archive(journal: Journal) -> list[SessionLedger]:
    """Every session of the journal with its settled hands, as the archive keeps them."""
    from table_app.archive import Archive

    out = []
    with Archive(journal) as archive:
        for number, first, started, players in journal.sessions():
            s = archive.session(number)
            ledger = SessionLedger(number, first, started, players, s.in_effect)
            if s.in_effect:
                ledger.base, ledger.phase, ledger.totals = s.base, s.phase, list(s.totals)
                ledger.hands = [HandRow(hand=h.hand, round=h.round, dealer=h.dealer, result=RESULTS[h.result],
                                        winner=h.winner, kind=h.kind, transfers=h.transfers, deltas=h.deltas,
                                        totals=h.totals, seq=h.last_seq)
                                for h in archive.hands(number) if h.result in RESULTS]
            out.append(ledger)
    return out


RESULTS = {"win": "win", "drawn": "draw"}  # the archive's words for the engine's


def read_sessions(args: argparse.Namespace) -> list[SessionLedger] | int:
    """Every session, or an exit status after one line saying why not."""
    import sqlite3

    from engine import RuleError
    from table_app.journal.journal import JournalError

    journal = open_journal(args, "history")
    if isinstance(journal, int):
        return journal
    try:
        with journal:
            return from_archive(journal)
    except (sqlite3.DatabaseError, JournalError, RuleError, ValueError) as e:
        print(f"xian-table history: journal {str(journal.path)!r} cannot be read to the end ({e}); it is left as "
              f"it is — xian-table doctor checks it", file=sys.stderr)
        return 4


def run(args: argparse.Namespace) -> int:
    sessions = read_sessions(args)
    if isinstance(sessions, int):
        return sessions
    if not sessions:
        print("no sessions in the journal yet")
        return 0
    for line in lines(sessions):
        print(printable(line))
    return 0
