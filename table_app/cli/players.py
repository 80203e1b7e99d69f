"""``xian-table players``: the roster — the people who have played at this table, by id, the
most recent first — and ``xian-table players rename ID NAME`` (same id, so the same record;
the sessions keep the name they were played under). Safe while the table runs.

Examples::

    xian-table players
    xian-table players --json
    xian-table players rename 3 王小明
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.fields import printable
from table_app.cli.export import open_journal

HELP = "the roster: the players the table remembers (id, name, first and last played); rename ID NAME"


def register(p: argparse.ArgumentParser) -> None:
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = __doc__.split("Examples::", 1)[1] if __doc__ else None
    p.add_argument("--config", metavar="FILE", help="the TOML config file (for journal.path)")
    p.add_argument("--db", metavar="FILE", help="the SQLite journal (default: journal.path, or the user data dir)")
    p.add_argument("--json", action="store_true", help="the players as JSON")
    p.add_argument("action", nargs="?", choices=("list", "rename"), default="list")
    p.add_argument("id", nargs="?", type=int, help="rename: the player's id")
    p.add_argument("name", nargs="?", help="rename: the new name (1-12 printable characters, any script)")


def run(args: argparse.Namespace) -> int:
    from table_app.roster import Roster, RosterError

    journal = open_journal(args, "players")  # (the file's checks: ours, sound)
    if isinstance(journal, int):
        return journal
    path = journal.path
    journal.close()
    if args.action == "rename":
        if args.id is None or args.name is None:
            print("xian-table players rename: give the player's id and the new name", file=sys.stderr)
            return 2
        roster = Roster.open(path)
        try:
            old = roster.get(args.id)
            player = roster.rename(args.id, args.name)
        except RosterError as e:
            print(f"xian-table players rename: {e}", file=sys.stderr)
            return 3
        finally:
            roster.close()
        print(printable(f"player {player.id}: {old.name if old else '?'} → {player.name} (the record stays)"))
        return 0
    roster = Roster.open(path, readonly=True)
    players = roster.players()
    roster.close()
    if roster.problem:
        print(f"xian-table players: {roster.problem}", file=sys.stderr)
    if args.json:
        print(json.dumps({"players": [p.__dict__ for p in players]}, ensure_ascii=False, indent=1))
        return 0
    if not players:
        print("nobody in the roster yet")
    for p in players:
        print(printable(f"{p.id:>4}  {p.name}  first {p.first_played or '-'}  last {p.last_played or '-'}"))
    return 0
