"""``xian-table backup [DEST]``: a consistent copy of the journal, even while the table runs.

DEST is a folder (numbered, time-stamped copies, the newest ``--keep`` kept: newest by
number, the order they were made in, since the clock may be wrong) or a file name. Without
DEST the copy goes to ``backups/`` beside the journal — ``/var/lib/xian-table/backups`` on
an installed table, where the daily ``xian-table-backup.timer`` puts it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "copy the journal safely while the table runs (SQLite backup API); keep the newest N in a folder"

EXIT_FAILED = 1


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("dest", nargs="?", metavar="DEST",
                   help="a folder (numbered, time-stamped copies) or a file name; default: backups/ beside the journal")
    p.add_argument("--keep", type=int, metavar="N",
                   help="in a folder, keep only the newest N backups, by their numbers (default: 14)")
    p.add_argument("--config", metavar="FILE", help="the TOML config file (default: the user's, then /etc/xian-table/)")
    p.add_argument("--db", metavar="FILE", help="the journal to copy (default: journal.path from the config)")


def run(args: argparse.Namespace) -> int:
    from table_app.config.file import ConfigError, load_config
    from table_app.journal.backup import DEFAULT_KEEP, BackupError, backup_journal

    try:
        cfg = load_config(args.config)
    except ConfigError as e:
        print(f"xian-table backup: {e}", file=sys.stderr)
        return 2
    source = Path(args.db) if args.db else cfg.journal_file()
    # backup.dir / backup.keep are read if the config grows them; until then: beside the journal, 14.
    dest = args.dest or getattr(cfg, "backup_dir", "") or str(source.parent / "backups")
    folder = args.dest is None or Path(dest).is_dir() or dest.endswith("/") or args.keep is not None
    keep = None
    if folder:
        keep = args.keep if args.keep is not None else getattr(cfg, "backup_keep", None) or DEFAULT_KEEP
        if keep < 1:
            print(f"xian-table backup: --keep must be at least 1, got {keep}", file=sys.stderr)
            return 2
    try:
        result = backup_journal(source, dest, keep=keep)
    except BackupError as e:
        print(f"xian-table backup: {e}", file=sys.stderr)
        return EXIT_FAILED
    except OSError as e:
        print(f"xian-table backup: {e}", file=sys.stderr)
        return EXIT_FAILED
    line = f"{result.path} ({result.size / 1024:.0f} KiB, {result.last_seq} records, integrity and hash chain ok)"
    if result.removed:
        line += f"; removed {len(result.removed)} older backup{'s' if len(result.removed) > 1 else ''}"
    print(line)
    return 0
