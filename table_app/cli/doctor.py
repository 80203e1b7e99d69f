"""``xian-table doctor``: one screen of the table's health (see ``table_app/doctor/``).

Exit status 0 when nothing is an error (warnings allowed), 1 otherwise. Run it with sudo
on an installed table: the journal and the broker password are readable only by root and
the table's user.
"""

from __future__ import annotations

import argparse
import json
import sys

HELP = "check the table's health: journal, disk, power, panel, broker, font, display, service"


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="the TOML config file (default: the user's, then /etc/xian-table/)")
    p.add_argument("--json", action="store_true", help="print the checks as JSON")
    p.add_argument("--headless", action="store_true",
                   help="a table without a screen (default: from the installed unit)")


def run(args: argparse.Namespace) -> int:
    from table_app.config.file import ConfigError, load_config
    from table_app.doctor.check import ERROR, Probe
    from table_app.doctor.report import render, run_checks, to_json

    try:
        cfg = load_config(args.config)
    except ConfigError as e:
        print(f"xian-table doctor: {e}", file=sys.stderr)
        return 2
    checks = run_checks(cfg, Probe(mode="headless" if args.headless else None))
    if args.json:
        print(json.dumps(to_json(checks), ensure_ascii=False, indent=2))
    else:
        source = cfg.source or "defaults (no config file)"
        sys.stdout.write(render(checks, f"xian-table doctor — table {cfg.table_id!r}, config {source}"))
    return 1 if any(c.level == ERROR for c in checks) else 0
