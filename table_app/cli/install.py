"""``xian-table install``: make this Pi a table appliance (see ``table_app/install/``).

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
    p.add_argument("--gpio", action="store_true", help="the table's buttons and LEDs are on the Pi's GPIO pins")
    p.add_argument("--panel", metavar="DEVICE",
                   help="the serial button panel, best by its stable name /dev/serial/by-id/usb-…")
    p.add_argument("--no-inputs", action="store_true",
                   help="neither GPIO nor a panel (default: keep what an earlier install chose)")
    p.add_argument("--bin", metavar="PATH",
                   help="the xian-table program the units run (default: the one beside this Python)")


def run(args: argparse.Namespace) -> int:
    from table_app.install.actions import execute
    from table_app.install.contents import find_binary
    from table_app.install.plan import plan_install
    from table_app.install.system import InstallError, Target

    target = Target(root=Path(args.root).absolute())
    if target.live and not args.dry_run and os.geteuid() != 0:
        print("xian-table install: run it as root (sudo), or look first with --dry-run", file=sys.stderr)
        return 1
    inputs = [*(["--gpio"] if args.gpio else []), *(["--panel", args.panel] if args.panel else [])]
    if inputs and args.no_inputs:
        print("xian-table install: --no-inputs goes with neither --gpio nor --panel", file=sys.stderr)
        return 2
    verb = "serve" if args.headless else "run"
    if inputs and not _accepts(verb, inputs):
        print(f"xian-table install: this xian-table's {verb} does not take {' '.join(inputs)}", file=sys.stderr)
        return 2
    try:
        target.binary = args.bin or find_binary()
        plan = plan_install(target, headless=args.headless, inputs=inputs if inputs or args.no_inputs else None)
        changed = execute(plan, dry_run=args.dry_run)
    except (InstallError, OSError) as e:
        print(f"xian-table install: {e}", file=sys.stderr)
        return 1
    if args.dry_run:
        print(f"dry run: {changed} step{'s' if changed != 1 else ''} to do, nothing changed")
    else:
        print(f"installed: {changed} step{'s' if changed != 1 else ''} done" if changed else "installed: nothing to do")
    return 0


def _accepts(verb: str, words: list[str]) -> bool:
    """Whether ``xian-table VERB WORDS…`` parses (the units will run exactly that)."""
    import contextlib
    import io

    from table_app.cli import build_parser

    with contextlib.redirect_stderr(io.StringIO()):
        try:
            build_parser().parse_args([verb, *words])
        except SystemExit:
            return False
    return True
