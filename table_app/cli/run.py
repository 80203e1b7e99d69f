"""``xian-table run``: the table at the terminal.

Until the touchscreen app lands this is the interactive terminal front end: type a hand in
mpsz text (14 tiles: does it win and how; 13 tiles: what it waits on), optionally followed
by ``win=T`` and ``melds=M,M``. ``help`` lists the commands, ``quit`` (or Ctrl-D) leaves.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from engine.rules import Rules
from engine.tiles import TileError
from table_app.cli.hand import analyse, render

HELP = "run the table (for now: the interactive terminal table for reading hands)"

BANNER = """西安麻将 xian-table — terminal table 终端
Type a hand in mpsz text, e.g.  123m456p789s11122z   or   1112345678999m
Options after the hand: win=2p (the winning tile), melds=123m,5555z (exposed melds).
Commands: help, quit.
"""


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seven-pairs", action="store_true", help="count seven pairs as a winning hand")


def handle(line: str, rules: Rules, out: TextIO) -> bool:
    """Act on one typed line; False when the user asked to leave."""
    words = line.split()
    if not words:
        return True
    if words[0] in ("quit", "exit", "q"):
        return False
    if words[0] in ("help", "?"):
        out.write(BANNER)
        return True
    tiles, win, melds = [], None, []
    for w in words:
        if w.startswith("win="):
            win = w[4:]
        elif w.startswith("melds="):
            melds = [m for m in w[6:].split(",") if m]
        else:
            tiles.append(w)
    try:
        render(analyse("".join(tiles), win, melds, rules), out)
    except (TileError, ValueError) as e:
        out.write(f"! {e}\n")
    return True


def run(args: argparse.Namespace) -> int:
    rules = Rules(seven_pairs=args.seven_pairs)
    interactive = sys.stdin.isatty()
    if interactive:
        sys.stdout.write(BANNER)
    while True:
        if interactive:
            try:
                line = input("hand 手牌> ")
            except EOFError:
                print()
                return 0
        else:
            raw = sys.stdin.readline()
            if not raw:
                return 0
            line = raw
        if not handle(line, rules, sys.stdout):
            return 0
