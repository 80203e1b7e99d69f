"""``xian-table parlour takings | leaderboard``: the owner's reports from the parlour database
(docs/parlour-service.md, "Takings" and "Leaderboards"). The sessions are brought up to the
records first (nothing to do while ``parlour serve`` runs)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from table_app.present.words import tr

if TYPE_CHECKING:
    from parlour.db import Database

ACTIONS = ("takings", "leaderboard")
PERIODS = ("day", "week", "month")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser],
             db_option: Callable[[argparse.ArgumentParser], None]) -> None:
    t = sub.add_parser("takings", help="the takings per table and in all: sessions, hours, hands, table fee, tea")
    t.add_argument("--period", choices=PERIODS, default="day", help="one row a table and period (default day)")
    t.add_argument("--csv", metavar="FILE|-", help="write CSV (UTF-8 with a BOM, for Excel) to FILE or - (stdout)")
    t.add_argument("--no-bom", action="store_true", help="CSV without the byte-order mark")
    b = sub.add_parser("leaderboard",
                       help=f"the players across tables: net points, hands won, {tr('kind_self_drawn', 'zh')} "
                       "(hidden ones left out)")
    b.add_argument("--period", choices=PERIODS, help="the current day, week or month (default: all time)")
    for p in (t, b):
        p.add_argument("--from", dest="first", metavar="DATE", help="from this local day (YYYY-MM-DD)")
        p.add_argument("--to", dest="last", metavar="DATE", help="to this local day, inclusive")
        p.add_argument("--json", action="store_true", help="JSON on stdout")
        db_option(p)


def run(args: argparse.Namespace) -> int:
    from parlour.db import Database
    from parlour.reports import parse_day
    from parlour.sessions import Sessions

    try:
        first, last = parse_day(args.first), parse_day(args.last)
    except ValueError as e:
        print(f"xian-table parlour: {e}", file=sys.stderr)
        return 2
    with Database.open(args.db) as db:
        Sessions(db).refresh()
        if args.action == "takings":
            return _takings(db, args, first, last)
        return _leaderboard(db, args, first, last)


def _takings(db: Database, args: argparse.Namespace, first: date | None, last: date | None) -> int:
    from parlour.reports import Range, takings_json, takings_report
    from parlour.takings import write_csv

    rows = takings_report(db, args.period, first, last)
    if args.csv:
        if args.csv == "-":
            write_csv(rows, sys.stdout, bom=not args.no_bom)
        else:
            with Path(args.csv).open("w", encoding="utf-8", newline="") as f:
                write_csv(rows, f, bom=not args.no_bom)
        return 0
    if args.json:
        _json(takings_json(rows, args.period, Range(first, last)), sys.stdout)
        return 0
    print(f"{args.period:<10} {'table':<16} {'sessions':>8} {'hours':>7} {'hands':>6} {'table fee':>9} {'tea':>6} "
          f"{'total':>7}")
    for r in rows:
        print(f"{r.period:<10} {r.table:<16} {r.sessions:>8} {r.hours:>7.2f} {r.hands:>6} {r.table_fee:>9} "
              f"{r.tea:>6} {r.total:>7}")
    if not rows:
        print("(no session has ended in that time)")
    return 0


def _leaderboard(db: Database, args: argparse.Namespace, first: date | None, last: date | None) -> int:
    from parlour.reports import board_range, leaderboard_json, leaderboard_report

    rng = board_range(args.period, first, last)
    rows = leaderboard_report(db, rng)
    if args.json:
        _json(leaderboard_json(rows, args.period, rng), sys.stdout)
        return 0
    span = "all time" if rng.first is None and rng.last is None else \
        f"{rng.first or '…'} – {rng.last or '…'}"
    print(f"leaderboard, {span}")
    self_drawn = tr("kind_self_drawn", "zh")
    print(f"{'#':>3} {'player':<14} {'net':>7} {'won':>5} {self_drawn:>3} {'hands':>6} {'sessions':>8}  tables")
    for i, r in enumerate(rows, 1):
        print(f"{i:>3} {r.name:<14} {r.net:>7} {r.wins:>5} {r.self_draws:>5} {r.hands:>6} {r.sessions:>8}  "
              f"{', '.join(r.tables)}")
    if not rows:
        print("(nobody yet)")
    return 0


def _json(obj: object, out: TextIO) -> None:
    json.dump(obj, out, ensure_ascii=False, indent=1)
    out.write("\n")
