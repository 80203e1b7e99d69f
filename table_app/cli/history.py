"""``xian-table history``: the journal's sessions and hands, one line each (a name an old journal
holds with a control character is shown escaped, never acting on the terminal)."""

from __future__ import annotations

import argparse

from engine.fields import printable
from table_app.cli.export import SessionLedger, read_ledgers

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


def run(args: argparse.Namespace) -> int:
    sessions = read_ledgers(args, "history")
    if isinstance(sessions, int):
        return sessions
    if not sessions:
        print("no sessions in the journal yet")
        return 0
    for line in lines(sessions):
        print(printable(line))
    return 0
