"""Consistent copies of the journal, safe while the table runs.

SQLite's online backup API (``sqlite3.Connection.backup``) copies the whole database in
one step inside one read transaction: in WAL mode the table service keeps committing
meanwhile, and the copy is the journal exactly as it was at one commit — never a torn
mix. The copy is written to a hidden temporary file beside the destination, switched to
a self-contained single file (``journal_mode=DELETE``), checked — ``PRAGMA
integrity_check``, then every record against the journal's hash chain
(``table_app/journal/chain.py``) —, fsynced, and only then renamed into place, so a power cut
leaves either the old set of backups or the new one, and a damaged journal never becomes a
backup nor pushes a good one out.

A folder destination gets a numbered, time-stamped file
(``journal-000042-20261201T031500Z.sqlite3``) and keeps the newest ``keep`` of them; a file
destination is written as it is named. "Newest" is the number, one more than the highest in
the folder: the order the backups were made in, whatever the clock said. A Pi without a
real-time clock may boot days behind; a name's time is only what the clock said then. The
copy just made is never pruned. Names from before the numbers
(``journal-20261201T031500Z.sqlite3``) count as older than every numbered one, ordered by
their time among themselves.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import secrets
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from table_app.journal.file import APPLICATION_ID, SQLITE_HEADER, JournalError, check, check_wal, fsync_path

DEFAULT_KEEP = 14
BACKUP_GLOB = "journal-*.sqlite3"
# journal-NUMBER-TIME.sqlite3; before the numbers: journal-TIME.sqlite3 and journal-TIME-N.sqlite3
_NAME = re.compile(r"journal-(?:(\d{6,})-)?(\d{8}T\d{6}Z)(?:-(\d+))?\.sqlite3")
LOCK_NAME = ".xian-table-backup.lock"  # two backups into one folder take their numbers in turn


class BackupError(RuntimeError):
    """The backup could not be made; nothing at the destination was replaced."""


@dataclass(frozen=True)
class BackupResult:
    path: Path
    size: int
    last_seq: int
    removed: list[Path] = field(default_factory=list)


def utc_now() -> datetime:
    """The wall clock, as backups read it (looked up at each backup, so a test can shift it)."""
    return datetime.now(UTC)


def backup_name(number: int, now: datetime) -> str:
    """The file name of backup ``number`` in its folder, made at ``now`` (shown in UTC).

    >>> backup_name(42, datetime(2026, 12, 1, 3, 15, tzinfo=UTC))
    'journal-000042-20261201T031500Z.sqlite3'
    """
    return f"journal-{number:06d}-{now.astimezone(UTC):%Y%m%dT%H%M%SZ}.sqlite3"


def _order(m: re.Match[str]) -> tuple[int, str, int]:
    """Number first (0 for the names from before the numbers), then the time, then a ``-N`` suffix."""
    return int(m.group(1) or 0), m.group(2), int(m.group(3) or 0)


def backups_in(folder: Path) -> list[Path]:
    """The backups this module made in ``folder``, oldest first: in the order they were made
    (their numbers), not by the time in their names, which is only what the clock said."""
    if not folder.is_dir():
        return []
    found = [(m, p) for p in folder.glob(BACKUP_GLOB) if (m := _NAME.fullmatch(p.name))]
    return [p for m, p in sorted(found, key=lambda mp: (_order(mp[0]), mp[1].name))]


def next_number(folder: Path) -> int:
    """One more than the highest backup number in ``folder`` (1 in a folder without numbers)."""
    numbers = [int(m.group(1)) for p in folder.glob(BACKUP_GLOB) if (m := _NAME.fullmatch(p.name)) and m.group(1)]
    return max(numbers, default=0) + 1


def backup_journal(source: str | os.PathLike[str], dest: str | os.PathLike[str], *, keep: int | None = None,
                   now: Callable[[], datetime] | None = None) -> BackupResult:
    """Copy the journal ``source`` to ``dest`` (a folder, or a file name) and prune old copies.

    ``dest`` is a folder when it is an existing directory, ends with ``/``, or ``keep`` is
    given; the folder is created if needed. ``keep`` (≥ 1) prunes that folder to the newest
    ``keep`` backups after the new one is safely in place; the new one is never pruned.
    ``now`` is the clock for the name (default :func:`utc_now`).
    """
    src = Path(source)
    if keep is not None and keep < 1:
        raise BackupError(f"--keep must be at least 1, got {keep}")
    _check_source(src)
    as_folder = keep is not None or Path(dest).is_dir() or str(dest).endswith(os.sep)
    if as_folder:
        folder = Path(dest)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise BackupError(f"cannot create the backup folder {str(folder)!r}: {e.strerror}") from None
        tmp = folder / f".journal-backup.tmp-{os.getpid()}-{secrets.token_hex(4)}"
    else:
        target = Path(dest)
        if not target.parent.is_dir():
            raise BackupError(f"the folder of {str(target)!r} does not exist")
        if target.resolve() == src.resolve():
            raise BackupError(f"refusing to back {str(src)!r} up onto itself")
        tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    removed: list[Path] = []
    try:
        last_seq = _copy(src, tmp)
        fsync_path(tmp)
        if not as_folder:
            os.replace(tmp, target)
            _fsync_dir(target.parent)
            return BackupResult(target, target.stat().st_size, last_seq)
        with _locked(folder):  # another backup into this folder waits: each takes its own number
            target = _free_name(folder, backup_name(next_number(folder), (now or utc_now)()))
            os.replace(tmp, target)
            _fsync_dir(folder)
            size = target.stat().st_size
            if keep is not None:
                removed = prune(folder, keep, spare=target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return BackupResult(target, size, last_seq, removed)


def prune(folder: Path, keep: int, spare: Path | None = None) -> list[Path]:
    """Delete all but the newest ``keep`` backups in ``folder`` (never ``spare``, the copy just
    made); returns what was deleted."""
    found = backups_in(folder)
    old = [p for p in (found[:-keep] if keep > 0 else found) if p != spare]
    for p in old:
        p.unlink()
    if old:
        _fsync_dir(folder)
    return old


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """An exclusive ``flock`` on the folder itself: no lock file is left behind."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def check_copy(path: Path) -> list[str]:
    """``PRAGMA integrity_check`` of a backup file (``['ok']`` when sound)."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return [r[0] for r in conn.execute("PRAGMA integrity_check").fetchall()]
    finally:
        conn.close()


def _check_source(src: Path) -> None:
    try:
        with src.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        raise BackupError(f"journal {str(src)!r} does not exist") from None
    except OSError as e:
        raise BackupError(f"cannot read journal {str(src)!r}: {e.strerror}") from None
    if head != SQLITE_HEADER:
        raise BackupError(f"{str(src)!r} is not an SQLite file; nothing was copied")


def _copy(src: Path, tmp: Path) -> int:
    try:  # a -wal SQLite would cut short: the copy would be a shorter journal that looks sound
        check_wal(src)
    except JournalError as e:
        raise BackupError(f"journal {str(src)!r} did not pass its checks ({e.detail}): no backup was made and no "
                          f"older one removed; the journal is left as it is (xian-table doctor tells more)") from None
    with keep_sidecar_owner(src):
        try:
            source = sqlite3.connect(f"{src.resolve().as_uri()}?mode=ro", uri=True)
        except sqlite3.Error as e:
            raise BackupError(f"cannot open journal {str(src)!r}: {e}") from None
        try:
            source.execute("PRAGMA busy_timeout = 10000")
            app_id = source.execute("PRAGMA application_id").fetchone()[0]
            if app_id != APPLICATION_ID:
                raise BackupError(f"{str(src)!r} is not a xian-table journal (application_id {app_id:#x})")
            copy = sqlite3.connect(tmp, isolation_level=None)
            try:
                source.backup(copy)  # pages=-1: everything in one step, one consistent snapshot
                copy.execute("PRAGMA journal_mode = DELETE")
                try:  # integrity_check, then every record against the hash chain, before it is kept
                    facts = check(copy, src, integrity=True)
                except JournalError as e:
                    raise BackupError(f"journal {str(src)!r} did not pass its checks ({e.detail}): no backup was "
                                      f"made and no older one removed; the journal is left as it is "
                                      f"(xian-table doctor tells more)") from None
                last = facts.records
            finally:
                copy.close()
        except sqlite3.Error as e:
            raise BackupError(f"backing up {str(src)!r} failed: {e}") from None
        finally:
            source.close()
    return int(last)


@contextlib.contextmanager
def keep_sidecar_owner(db: Path) -> Iterator[None]:
    """Give ``-wal``/``-shm`` files that a root reader creates back to the journal's owner.

    Reading a WAL database creates them if the service is not running; left owned by root,
    the service (user xian-table) could not open its own journal any more.
    """
    sidecars = [db.with_name(db.name + s) for s in ("-wal", "-shm")]
    before = {p for p in sidecars if p.exists()}
    try:
        yield
    finally:
        if os.geteuid() == 0:
            with contextlib.suppress(OSError):
                st = db.stat()
                for p in sidecars:
                    if p not in before and p.exists() and p.stat().st_uid != st.st_uid:
                        os.chown(p, st.st_uid, st.st_gid)
                        os.chmod(p, st.st_mode & 0o666)


def _free_name(folder: Path, name: str) -> Path:
    target = folder / name
    n = 1
    while target.exists():
        target = folder / name.replace(".sqlite3", f"-{n}.sqlite3")
        n += 1
    return target


def _fsync_dir(p: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(p, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
