"""``xian-table players``: the roster — the people who have played at this table, by id, the
most recent first — and ``xian-table players rename ID NAME`` (same id, so the same record;
the sessions keep the name they were played under); ``hide NAME`` / ``show NAME``: the player
left out of the parlour's leaderboards, or shown again (the player's choice). Safe while the
table runs.

Examples::

    xian-table players
    xian-table players --json
    xian-table players rename 3 王小明
    xian-table players hide 王小明
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.fields import printable
from table_app.cli.export import open_journal

HELP = "the roster: the players the table remembers (id, name, first and last played); rename ID NAME; hide|show NAME"


def register(p: argparse.ArgumentParser) -> None:
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = __doc__.split("Examples::", 1)[1] if __doc__ else None
    p.add_argument("--config", metavar="FILE", help="the TOML config file (for journal.path)")
    p.add_argument("--db", metavar="FILE", help="the SQLite journal (default: journal.path, or the user data dir)")
    p.add_argument("--json", action="store_true", help="the players as JSON")
    p.add_argument("action", nargs="?", choices=("list", "rename", "hide", "show"), default="list")
    p.add_argument("id", nargs="?", help="rename: the player's id; hide, show: the player's name (or id)")
    p.add_argument("name", nargs="?", help="rename: the new name (1-12 printable characters, any script)")


def run(args: argparse.Namespace) -> int:
    from table_app.core.roster import Roster, RosterError

    journal = open_journal(args, "players")  # (the file's checks: ours, sound)
    if isinstance(journal, int):
        return journal
    path = journal.path
    journal.close()
    if args.action in ("hide", "show"):
        return _listed(path, args.id, args.action == "show")
    if args.action == "rename":
        if args.id is None or args.name is None or not args.id.isdigit():
            print("xian-table players rename: give the player's id and the new name", file=sys.stderr)
            return 2
        roster = Roster.open(path)
        try:
            old = roster.get(int(args.id))
            player = roster.rename(int(args.id), args.name)
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
        hidden = "" if p.listed else "  (hidden from the parlour's leaderboards)"
        print(printable(f"{p.id:>4}  {p.name}  first {p.first_played or '-'}  last {p.last_played or '-'}{hidden}"))
    return 0


def _listed(path: Path, who: str | None, listed: bool) -> int:
    from table_app.core.roster import Roster, RosterError

    verb = "show" if listed else "hide"
    if not who:
        print(f"xian-table players {verb}: give the player's name", file=sys.stderr)
        return 2
    roster = Roster.open(path)
    try:
        player = roster.find(who) or (roster.get(int(who)) if who.isdigit() else None)
        if player is None:
            print(printable(f"xian-table players {verb}: nobody called {who!r} in the roster"), file=sys.stderr)
            return 3
        player = roster.set_listed(player.id, listed)
    except RosterError as e:
        print(f"xian-table players {verb}: {e}", file=sys.stderr)
        return 3
    finally:
        roster.close()
    print(printable(f"player {player.id} {player.name}: " + ("shown on" if listed else "left out of")
                    + " the parlour's leaderboards"))
    return 0
