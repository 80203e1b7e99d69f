"""``xian-table uninstall``: undo ``xian-table install``, keeping the journal and its backups."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HELP = "remove the table's units, broker users and config; the journal and its backups stay"


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dry-run", action="store_true", help="print every step and change nothing")
    p.add_argument("--root", metavar="DIR", default="/", help="uninstall from this directory instead of /")


def run(args: argparse.Namespace) -> int:
    from table_app.install.actions import execute
    from table_app.install.plan import plan_uninstall
    from table_app.install.system import InstallError, Target

    target = Target(root=Path(args.root).absolute())
    if target.live and not args.dry_run and os.geteuid() != 0:
        print("xian-table uninstall: run it as root (sudo), or look first with --dry-run", file=sys.stderr)
        return 1
    try:
        changed = execute(plan_uninstall(target), dry_run=args.dry_run)
    except (InstallError, OSError) as e:
        print(f"xian-table uninstall: {e}", file=sys.stderr)
        return 1
    if args.dry_run:
        print(f"dry run: {changed} step{'s' if changed != 1 else ''} to do, nothing changed")
    else:
        print(f"uninstalled: {changed} step{'s' if changed != 1 else ''} done" if changed
              else "uninstalled: nothing to do")
    return 0
