"""``xian-table import FILE``: an export (``xian-table export --format mjai``) replayed into an
EMPTY journal, giving the same table (docs/export.md).

1. The file is read through once and every line checked (table_app/exchange/read.py: bounded,
   each event taken by the engine as the service takes a command, each mjai record exactly
   what its event makes); the first problem is one line naming the file's line, and nothing
   is opened or written.
2. The journal is opened as the service opens it (its checks, its lock: a running table is
   never written under), and refused unless it holds no record.
3. The file is read again and its events written as it goes, in ONE transaction: every
   record with its original time, the source ``import``; a problem rolls all of it back.

4. The roster's ids (``player_ids``) are kept as exported, and the importing journal's roster
   gets those players with their ids (table_app/exchange/players.py).

Exit status: 0 imported, 2 bad input (the file, the arguments), 4 the journal cannot be used
or is not empty.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

HELP = "replay an export (xian-table export --format mjai) into an empty journal: the same table again"
SOURCE = "import"


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="the export: mjai-style JSONL from xian-table export --format mjai")
    p.add_argument("--config", metavar="FILE", help="the TOML config file (for journal.path)")
    p.add_argument("--db", metavar="FILE",
                   help="the SQLite journal to fill; it must hold no record (default: journal.path, or the user "
                        "data dir; made if missing)")


def _check(path: str) -> int | None:
    """Read the whole file once, checking every line; the number of events, or None after saying why not."""
    from table_app.exchange.read import BadExport, events

    try:
        with open(path, "rb") as f:
            return sum(1 for _ in events(f))
    except OSError as e:
        print(f"xian-table import: cannot read {path!r}: {e.strerror}", file=sys.stderr)
    except BadExport as e:
        print(f"xian-table import: {path}: {e}; nothing was imported", file=sys.stderr)
    return None


def run(args: argparse.Namespace) -> int:
    from table_app.config.file import ConfigError, load_config
    from table_app.exchange.players import PlayersSeen, fill_roster
    from table_app.exchange.read import BadExport, events
    from table_app.journal.journal import Journal, JournalError

    count = _check(args.file)
    if count is None:
        return 2
    try:
        db = args.db or load_config(args.config).journal_file()
    except ConfigError as e:
        print(f"xian-table import: {e}", file=sys.stderr)
        return 2
    existed = Path(db).exists()
    try:
        journal = Journal.open(db)
    except JournalError as e:
        print(f"xian-table import: {e}", file=sys.stderr)
        return 4
    now = datetime.now(UTC).isoformat(timespec="milliseconds")
    with journal:
        held = journal.last_seq()
        if held:
            print(f"xian-table import: journal {str(journal.path)!r} already holds {held:,} records; import writes "
                  f"only into an empty journal (give another with --db); nothing was imported", file=sys.stderr)
            return 4
        seen = PlayersSeen()
        try:
            with open(args.file, "rb") as f:
                written = journal.append_imported(seen.watch((at or now, ev) for at, ev in events(f)), source=SOURCE)
        except (OSError, BadExport, JournalError) as e:  # (the file changed since it was checked, a full disk)
            print(f"xian-table import: {e}; nothing was imported", file=sys.stderr)
            return 2 if isinstance(e, BadExport) else 4
        added, problem = fill_roster(journal.path, seen)
    if problem:
        print(f"xian-table import: the events are in, but {problem} (xian-table players)", file=sys.stderr)
    made = "" if existed else " (a new journal)"
    print(f"imported {written:,} events into {str(journal.path)!r}{made}, {added} player(s) into its roster; "
          f"xian-table history lists them")
    return 0
