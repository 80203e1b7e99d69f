"""``xian-table install``: make this Pi a table appliance (see ``table_app/install.py``).

Prints one line per step: ``ok`` (already so), the verb of what it did, or with
``--dry-run`` ``would …`` and nothing changes. Running it again changes nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HELP = "install the table as a service on this Pi: user, config, broker passwords, systemd units (--dry-run shows)"


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--headless", action="store_true",
                   help="no touchscreen: install xian-table-headless.service (xian-table serve)")
    p.add_argument("--dry-run", action="store_true", help="print every step and change nothing")
    p.add_argument("--root", metavar="DIR", default="/",
                   help="install into this directory instead of / (an image, or tests); nothing is started")
    p.add_argument("--bin", metavar="PATH",
                   help="the xian-table program the units run (default: the one beside this Python)")


def run(args: argparse.Namespace) -> int:
    from table_app.install import InstallError, Target, execute, find_binary, plan_install

    target = Target(root=Path(args.root).absolute())
    if target.live and not args.dry_run and os.geteuid() != 0:
        print("xian-table install: run it as root (sudo), or look first with --dry-run", file=sys.stderr)
        return 1
    try:
        target.binary = args.bin or find_binary()
        changed = execute(plan_install(target, headless=args.headless), dry_run=args.dry_run)
    except (InstallError, OSError) as e:
        print(f"xian-table install: {e}", file=sys.stderr)
        return 1
    if args.dry_run:
        print(f"dry run: {changed} step{'s' if changed != 1 else ''} to do, nothing changed")
    else:
        print(f"installed: {changed} step{'s' if changed != 1 else ''} done" if changed else "installed: nothing to do")
    return 0
