"""``xian-table records``: the leaderboard (战绩排行), or one player's record with ``--player``,
all time or by day, week or month — from the archive (docs/archive.md). Reads the journal
read-only: safe while the table runs; a summary the table keeps in the file is used when it
is current, else one is made in memory (seconds on a long journal).

Examples::

    xian-table records
    xian-table records --period month
    xian-table records --player 3 --period week --json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys

from engine.fields import printable
from table_app.cli.export import open_journal

HELP = "players' records (sessions, hands, wins, self-draws, kongs, net) and the leaderboard, by day/week/month"


def register(p: argparse.ArgumentParser) -> None:
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = __doc__.split("Examples::", 1)[1] if __doc__ else None
    p.add_argument("--config", metavar="FILE", help="the TOML config file (for journal.path)")
    p.add_argument("--db", metavar="FILE", help="the SQLite journal (default: journal.path, or the user data dir)")
    p.add_argument("--player", type=int, metavar="ID", help="one player's record (ids: xian-table players)")
    p.add_argument("--period", choices=("day", "week", "month"),
                   help="by period (a player: every period, newest first; the leaderboard: the current one)")
    p.add_argument("--lang", choices=("zh", "en"), default="en", help="the words (default en)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    import sqlite3

    from table_app.archive import Archive
    from table_app.core.roster import Roster
    from table_app.journal.journal import JournalError
    from table_app.present.history_view import leaderboard_lines, record_lines

    journal = open_journal(args, "records")
    if isinstance(journal, int):
        return journal
    roster = Roster.open(journal.path, readonly=True)
    try:
        with journal, Archive(journal, roster) as archive:
            if args.player is not None:
                if roster.get(args.player) is None:
                    print(f"xian-table records: no player {args.player} in the roster (see xian-table players)",
                          file=sys.stderr)
                    return 2
                record = archive.record(args.player, args.period)
                data: object = dataclasses.asdict(record)
                lines = record_lines(record, args.lang)
            else:
                rows = archive.leaderboard(args.period)
                data = {"period": args.period, "leaderboard": [dataclasses.asdict(r) for r in rows]}
                lines = leaderboard_lines(rows, args.lang)
    except (sqlite3.DatabaseError, JournalError, ValueError) as e:
        print(f"xian-table records: journal {str(journal.path)!r} cannot be read to the end ({e}); it is left as "
              f"it is — xian-table doctor checks it", file=sys.stderr)
        return 4
    finally:
        roster.close()
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        for line in lines:
            print(printable(line))
    return 0
