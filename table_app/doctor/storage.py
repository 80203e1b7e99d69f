"""The table's data: the journal, its backups, and the disk it is on."""

from __future__ import annotations

import shutil
import sqlite3
import time
from pathlib import Path

from table_app.doctor.check import ERROR, OK, WARNING, Check
from table_app.journal import synced_mark

DISK_ERROR_BYTES = 100 * 2**20  # below this the journal may fail to commit: the table stops taking events
DISK_WARN_BYTES = 1024 * 2**20
BACKUP_MAX_AGE_S = 36 * 3600  # the timer runs daily (with up to 30 min random delay)


def check_journal(journal: Path) -> Check:
    from table_app.journal.backup import keep_sidecar_owner
    from table_app.journal.journal import Journal, JournalError

    try:
        exists = journal.exists()
    except PermissionError:  # /var/lib/xian-table is the table's own (0750)
        return Check("journal", ERROR, f"cannot read {journal}: permission denied",
                     "run the doctor as root: sudo xian-table doctor")
    if not exists:
        return Check("journal", WARNING, f"no journal yet at {journal}",
                     "it is created when the table service first starts: sudo systemctl start xian-table")
    try:
        with keep_sidecar_owner(journal), Journal.open(journal, readonly=True) as j:
            last = j.last_seq()
            version = j.version
            at = _last_record_time(journal) if last else None
    except PermissionError:
        return Check("journal", ERROR, f"cannot read {journal}: permission denied",
                     "run the doctor as root: sudo xian-table doctor")
    except JournalError as e:
        return Check("journal", ERROR, str(e),
                     "stop the table, move the file aside and copy the newest backup in its place "
                     "(docs/raspberry-pi.md, 'Restoring a backup')")
    except OSError as e:
        return Check("journal", ERROR, f"cannot read {journal}: {e.strerror}", "check the SD card (dmesg)")
    when = f", last at {at[:19].replace('T', ' ')} UTC" if at else ""
    mark, lost = _read_back(journal) if last else (None, None)
    if lost:
        return Check("journal", ERROR, f"{journal}: {lost} — the SD card lost writes it had confirmed, or an older "
                                       f"copy of the journal was put in its place",
                     "if no backup was restored: this card does not keep what it confirms; copy the newest backup "
                     "and the journal off it, and replace it with a high-endurance card (docs/journal.md, 'SD cards "
                     "that do not flush'); the mark is renewed at the table's next clean stop")
    if mark:
        when += f", read-back of record {mark.seq:,} (on disk at {mark.at[:16].replace('T', ' ')} UTC) ok"
    if version < 2:
        return Check("journal", OK, f"{journal}: {last} records{when}, quick_check ok (schema {version}: the "
                                    f"service adds the hash chain at its next start)")
    return Check("journal", OK, f"{journal}: {last} records{when}, quick_check ok, hash chain ok")


def _read_back(journal: Path) -> tuple[synced_mark.Mark | None, str | None]:
    """The mark the service left at its last clean stop or snapshot, and what reading its
    record back found wrong (None: it is there, with its hash)."""
    mark = synced_mark.read(journal)
    if mark is None:
        return None, None
    conn = sqlite3.connect(f"{journal.resolve().as_uri()}?mode=ro", uri=True)
    try:
        if not synced_mark.same_journal(conn, mark):
            return None, None  # the mark of a journal since moved aside
        return mark, synced_mark.read_back(conn, mark)
    finally:
        conn.close()


def _last_record_time(journal: Path) -> str | None:
    conn = sqlite3.connect(f"{journal.resolve().as_uri()}?mode=ro", uri=True)
    try:
        row = conn.execute("SELECT at FROM records ORDER BY seq DESC LIMIT 1").fetchone()
        return str(row[0]) if row else None
    finally:
        conn.close()


def check_backups(folder: Path, now: float | None = None) -> Check:
    from table_app.journal.backup import backups_in

    now = time.time() if now is None else now
    try:
        found = backups_in(folder)
    except PermissionError:
        return Check("backup", ERROR, f"cannot read {folder}: permission denied",
                     "run the doctor as root: sudo xian-table doctor")
    if not found:
        return Check("backup", WARNING, f"no backup in {folder} yet",
                     "the daily timer makes one; now: sudo systemctl start xian-table-backup")
    newest = found[-1]
    age = now - newest.stat().st_mtime
    msg = f"{len(found)} in {folder}, newest {newest.name} ({_ago(age)} ago)"
    if age > BACKUP_MAX_AGE_S:
        return Check("backup", WARNING, msg,
                     "the daily backup has not run: systemctl status xian-table-backup.timer; "
                     "journalctl -u xian-table-backup")
    return Check("backup", OK, msg)


def check_disk(journal: Path) -> Check:
    where = journal.parent
    while not where.exists() and where != where.parent:
        where = where.parent
    usage = shutil.disk_usage(where)
    msg = f"{_size(usage.free)} free of {_size(usage.total)} on the journal's disk ({where})"
    if usage.free < DISK_ERROR_BYTES:
        return Check("disk", ERROR, msg, "free space now or the table cannot record events: "
                     "sudo apt clean; sudo journalctl --vacuum-size=50M; move old backups away")
    if usage.free < DISK_WARN_BYTES:
        return Check("disk", WARNING, msg, "free some space: sudo apt clean; sudo journalctl --vacuum-size=50M")
    return Check("disk", OK, msg)


def _size(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"


def _ago(seconds: float) -> str:
    if seconds < 3600:
        return f"{max(seconds, 0) / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.0f} h"
    return f"{seconds / 86400:.0f} days"
