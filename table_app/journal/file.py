"""Opening a journal file safely: what is checked before SQLite may write a byte, and where.

The rules (issue 16): a new journal is made only where no file exists, atomically; a file
that is empty (0 bytes), not SQLite, not ours, of an unknown schema, unreadable, read-only
for the service, damaged, or whose records do not match their hash chain is refused and
left exactly as it was — the file, its ``-wal`` and its ``-shm``, byte for byte. So is one
whose ``-wal`` SQLite would cut short at a damaged frame (issue 26, ``table_app/journal/wal.py``:
checked on the ``-wal``'s bytes before SQLite opens anything), and the service does not
start on a disk too full to record events (:func:`check_room`).

Why a private copy: SQLite rewrites the ``-shm`` index (or creates ``-wal``/``-shm``) even
for a read-only connection, and a read-write one checkpoints the ``-wal`` into the file when
it closes. So the service checks a copy of the file and its ``-wal`` in a scratch folder
(``/dev/shm`` when it has room: memory, no SD-card writes) and opens the real file only once
the copy passed. Readers (``history``, ``export``, ``doctor``, backups) cannot take the
service's lock, which a running service holds, so they check over a read-only connection:
that never checkpoints, so the file and its ``-wal`` stay as they were.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from table_app.journal import chain, wal
from table_app.system.bounded import clip

log = logging.getLogger(__name__)

APPLICATION_ID = 0x58494154  # "XIAT"
SCHEMA_VERSION = 2  # 2: records and snapshots carry hashes (docs/journal.md, "The hash chain")
KNOWN_VERSIONS = (1, 2)  # 1 is read as it is, and upgraded in place by the service
SQLITE_HEADER = b"SQLite format 3\x00"
SIDECARS = ("-wal", "-shm")
SCRATCH_DIRS = ("/dev/shm", tempfile.gettempdir())
# Below this much free space on the journal's disk the service does not start (issue 26): the
# -wal grows to about 1,000 pages (4 MiB) before SQLite's automatic checkpoint starts it over,
# and the checkpoint then grows the file by what was added (a hand: ~200 records, ~15 KiB;
# a snapshot: a few KiB). Twice a full -wal leaves room for both; with less, the table would
# soon — or at once — refuse every event ("journal write failed") after starting "ready".
MIN_FREE_BYTES = 8 * 2**20


class JournalError(RuntimeError):
    """The journal file cannot be used (damaged, not ours, locked) — the file is left as it is.

    ``detail``: for a damaged file, what is wrong (without the advice around it).
    """

    def __init__(self, message: str, detail: str | None = None) -> None:
        super().__init__(message)
        self.detail = detail if detail is not None else message


@dataclass(frozen=True)
class Facts:
    """What the checks found in a sound journal."""

    version: int
    records: int
    last_hash: bytes  # the chain's last link (ZERO for a schema-1 journal or no records)
    stale_blocks: tuple[int, ...] = ()  # block digests to make again (their records are sound)


def damaged(p: Path, detail: str) -> JournalError:
    return JournalError(
        f"journal {str(p)!r} is damaged ({detail}); refusing to start. The file is kept exactly as it "
        f"is: restore a backup, or move it aside to start a new journal", detail
    )


def damaged_wal(p: Path, found: wal.Damage) -> JournalError:
    w = sidecar(p, "-wal")
    detail = found.describe(w.name)
    return JournalError(
        f"journal {str(p)!r} is damaged ({detail}); refusing to start. The file and {w.name} are kept exactly "
        f"as they are: restore the newest backup (`xian-table backup` keeps them in {str(p.parent / 'backups')!r}; "
        f"docs/raspberry-pi.md, 'Restoring a backup'), or move the file and {w.name} aside together to start a "
        f"new journal", detail)


def sidecar(p: Path, suffix: str) -> Path:
    return p.with_name(p.name + suffix)


# -- before SQLite: the file itself ------------------------------------------------------


def inspect(p: Path, *, writer: bool) -> bool:
    """Whether a journal file exists at ``p``; refuses (JournalError) what must not be opened.

    Only reads: the header's 16 bytes and the file's metadata.
    """
    try:
        st = p.stat()
    except FileNotFoundError:
        wal = sidecar(p, "-wal")
        if wal.exists():  # SQLite would take an old -wal for the new file's: never start over beside one
            raise JournalError(f"journal {str(p)!r} does not exist but {wal.name} does: the rest of a journal "
                               f"that was moved or deleted. Refusing to start a new one beside it; move "
                               f"{wal.name} away (or bring the journal back)") from None
        return False
    except PermissionError:
        raise JournalError(f"cannot read journal {str(p)!r}: permission denied") from None
    except OSError as e:
        raise JournalError(f"cannot read journal {str(p)!r}: {e.strerror}") from None
    if not p.is_file():
        raise JournalError(f"journal {str(p)!r} is not a file; refusing to use it")
    if st.st_size == 0:
        raise JournalError(f"journal {str(p)!r} is empty (0 bytes): that is not a journal (a new one is never "
                           f"empty), so something cut it short. Refusing to start; the file is kept as it is: "
                           f"restore a backup, or delete the empty file to start a new journal")
    try:
        with p.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except OSError as e:
        raise JournalError(f"cannot read journal {str(p)!r}: {e.strerror}") from None
    if head != SQLITE_HEADER:
        raise damaged(p, "the file does not start with the SQLite header")
    if writer:
        need = [p, p.parent, *(q for q in (sidecar(p, s) for s in SIDECARS) if q.exists())]
        stuck = [q for q in need if not os.access(q, os.W_OK)]
        if stuck:
            raise JournalError(
                f"journal {str(p)!r} is read-only here ({str(stuck[0])!r} cannot be written by uid {os.geteuid()}): "
                f"the table could record nothing. Refusing to start; the file is kept as it is: give it back to "
                f"the table's user (sudo chown -R xian-table: {str(p.parent)!r}) or mount its disk read-write")
    return True


def check_room(p: Path) -> None:
    """Refuse to start the service on a disk too full to record events (:data:`MIN_FREE_BYTES`)."""
    where = p.parent
    while not where.exists() and where != where.parent:
        where = where.parent
    try:
        st = os.statvfs(where)
    except OSError:
        return  # cannot tell: a commit that fails will say so
    free = st.f_bavail * st.f_frsize
    if free < MIN_FREE_BYTES:
        raise JournalError(
            f"the disk of journal {str(p)!r} is full ({free // 1024:,} KiB free in {str(where)!r}; the table needs "
            f"{MIN_FREE_BYTES // 2**20} MiB to record events): it could record nothing. Refusing to start; the file is "
            f"kept as it is: free space (sudo apt clean; sudo journalctl --vacuum-size=50M; move old backups away) "
            f"and start again")


def lock(p: Path) -> int:
    """An exclusive lock beside the journal so that two services never write one file."""
    lock_path = sidecar(p, ".lock")
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise JournalError(f"cannot create the lock file {str(lock_path)!r}: {e.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise JournalError(
            f"journal {str(p)!r} is in use by another xian-table service (lock {str(lock_path)!r})"
        ) from None
    return fd


# -- a new journal -----------------------------------------------------------------------


def create(p: Path, schema: str) -> None:
    """A new, empty journal at ``p``, which must not exist: built under a temporary name,
    fsynced, then linked into place (``link`` never replaces a file) and the folder fsynced,
    so a power cut leaves no journal or a whole empty one — never a half-made one."""
    tmp = p.with_name(f".{p.name}.new")
    for q in (tmp, sidecar(tmp, "-wal"), sidecar(tmp, "-shm")):
        q.unlink(missing_ok=True)  # left by a cut during an earlier creation: ours, and empty
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("BEGIN IMMEDIATE")
            for statement in schema.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything into the file itself
        finally:
            conn.close()
        fsync_path(tmp)
        os.link(tmp, p)
    except FileExistsError:
        raise JournalError(f"journal {str(p)!r} appeared while a new one was being made; not touching it") from None
    except (OSError, sqlite3.Error) as e:
        raise JournalError(f"cannot create journal {str(p)!r}: {e}") from None
    finally:
        for q in (tmp, sidecar(tmp, "-wal"), sidecar(tmp, "-shm")):
            with contextlib.suppress(OSError):
                q.unlink()
    fsync_path(p.parent)


def fsync_path(p: Path) -> None:
    fd = os.open(p, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# -- the checks ----------------------------------------------------------------------------


def check(conn: sqlite3.Connection, p: Path, *, integrity: bool = False) -> Facts:
    """Every check on an open connection; raises JournalError naming the first problem.

    ``integrity``: the full ``integrity_check`` (also indexes against their tables), else
    ``quick_check``. A records problem found by the hash chain names the record.
    """
    try:
        conn.execute("PRAGMA busy_timeout = 5000")
        pragma = "integrity_check" if integrity else "quick_check"
        problems = [r[0] for r in conn.execute(f"PRAGMA {pragma}").fetchall()]
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if problems != ["ok"]:
            detail = f"{pragma}: " + clip("; ".join(" ".join(str(x).split()) for x in problems[:3]), 300)
            # which record, if the records can still be read (SQLite's own error text may quote
            # bytes that are not UTF-8 any more)
            with contextlib.suppress(sqlite3.Error, UnicodeDecodeError):
                report = chain.verify(conn, chained=version >= 2)
                if report.problem:
                    detail = f"{report.problem}; {detail}"
            raise damaged(p, detail)
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if app_id != APPLICATION_ID:
            what = "an empty SQLite database" if app_id == 0 and not tables else \
                f"an SQLite file but not a xian-table journal (application_id {app_id:#x})"
            raise JournalError(f"{str(p)!r} is {what}; refusing to use it — the file is kept as it is")
        if version not in KNOWN_VERSIONS:
            raise JournalError(f"journal {str(p)!r} has schema version {version}; this program reads versions "
                               f"{', '.join(map(str, KNOWN_VERSIONS))} — the file is kept as it is (a newer "
                               f"xian-table wrote it)")
        report = chain.verify(conn, chained=version >= 2)
        if report.problem:
            raise damaged(p, report.problem)
        session_problem = chain.verify_sessions(conn)
        if session_problem:
            raise damaged(p, session_problem)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as e:
        raise damaged(p, clip(" ".join(str(e).split()), 300)) from None
    return Facts(version, report.records, report.last_hash, report.stale_blocks)


WAL_READS = 3  # reads of a -wal judged damaged before it is refused (or called unsettled)
WAL_SETTLE_S = 0.05  # the pause between them


def check_wal(p: Path) -> None:
    """Refuse a ``-wal`` that SQLite would cut short at a damaged frame, dropping committed
    writes after it (``table_app/journal/wal.py``); an unfinished write at its end is not damage.
    Only reads the ``-wal``; run before SQLite opens the journal."""
    w = sidecar(p, "-wal")

    def read() -> bytes | None:
        try:
            return w.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as e:
            raise JournalError(f"cannot read {str(w)!r}: {e.strerror}") from None

    found = settled_damage(read, p)
    if found is not None:
        raise damaged_wal(p, found)


def settled_damage(read: Callable[[], bytes | None], p: Path, reads: int = WAL_READS,
                   settle_s: float = WAL_SETTLE_S) -> wal.Damage | None:
    """The damage in the ``-wal`` that ``read()`` returns (None: sound, or no ``-wal``), judged
    only on a read that stays the same.

    A reader that does not hold the service's lock (``backup``, ``history``, ``doctor``) reads
    the log while the service may write it: one ``read()`` is not a snapshot, and after a
    checkpoint SQLite writes new frames over the older log's in place, so a read can hold a
    frame half old and half new and then frames finished after it — damage in a file at rest
    (tests/reliability/test_wal_live_read.py). So a read judged damaged is read again after a
    pause: damage on disk reads the same twice and is returned; a torn read does not repeat,
    and the new read is judged instead. A log that changed at every one of ``reads`` reads
    raises :class:`JournalError` (try again), never a verdict of damage. The service, which
    holds the lock while nothing else writes, pays one extra read only for real damage."""
    data = read()
    found = None if data is None else wal.verify(data)
    for _ in range(reads - 1):
        if found is None:
            return None
        time.sleep(settle_s)
        again = read()
        if again == data:
            return found
        data = again
        found = None if data is None else wal.verify(data)
    if found is None:
        return None
    raise JournalError(f"the -wal of journal {str(p)!r} changed at each of {reads} reads while the table wrote it, "
                       f"each read looking damaged; nothing was judged or changed — try again in a moment")


def check_read_only(p: Path, *, integrity: bool = False) -> Facts:
    """The checks over a read-only connection to the file itself (never a checkpoint)."""
    check_wal(p)
    return _check_in_place(p, integrity)


def _check_in_place(p: Path, integrity: bool) -> Facts:
    conn = connect(p, "ro")
    try:
        return check(conn, p, integrity=integrity)
    finally:
        conn.close()


def check_private_copy(p: Path, *, integrity: bool = False) -> Facts:
    """The checks on a copy of the file and its ``-wal``: SQLite never opens the real ones.

    Only for the service, which holds the lock (nothing else writes the file meanwhile).
    Without room for a copy it falls back to :func:`check_read_only`.
    """
    check_wal(p)
    try:
        with _scratch_copy(p) as copy:
            conn = connect(copy, "ro")
            try:
                return check(conn, p, integrity=integrity)
            finally:
                conn.close()
    except _NoRoom as e:
        log.warning("journal: no room for a private copy to check (%s); checking %s read-only in place", e, p)
        return _check_in_place(p, integrity)


def connect(p: Path, mode: str) -> sqlite3.Connection:
    try:
        return sqlite3.connect(f"{p.resolve().as_uri()}?mode={mode}", uri=True, isolation_level=None,
                               check_same_thread=False)
    except sqlite3.Error as e:
        raise JournalError(f"cannot open journal {str(p)!r}: {e}") from None


class _NoRoom(Exception):
    pass


@contextlib.contextmanager
def _scratch_copy(p: Path) -> Iterator[Path]:
    files = [p, *(q for q in (sidecar(p, "-wal"),) if q.exists())]
    try:
        size = sum(q.stat().st_size for q in files)
    except OSError as e:
        raise JournalError(f"cannot read journal {str(p)!r}: {e.strerror}") from None
    for folder in SCRATCH_DIRS:
        with contextlib.suppress(OSError):
            st = os.statvfs(folder)
            if os.access(folder, os.W_OK) and st.f_bavail * st.f_frsize > 2 * size + 16 * 2**20:
                break
    else:
        raise _NoRoom(f"{size:,} bytes")
    work = Path(tempfile.mkdtemp(prefix="xian-table-check-", dir=folder))
    try:
        copy = work / p.name
        try:
            for q in files:
                shutil.copyfile(q, work / q.name)
        except PermissionError:
            raise JournalError(f"cannot read journal {str(p)!r}: permission denied") from None
        except OSError as e:
            raise _NoRoom(str(e)) from None
        yield copy
    finally:
        shutil.rmtree(work, ignore_errors=True)


@contextlib.contextmanager
def immediate(c: sqlite3.Connection, begin: str = "BEGIN IMMEDIATE") -> Iterator[sqlite3.Connection]:
    """One write transaction on ``c`` (``BEGIN IMMEDIATE`` … ``COMMIT``), rolled back on any
    error — the journal's events, the roster's players and the archive's summary are written the
    same way (the archive's in-memory summary with a plain ``BEGIN``: nobody else writes it)."""
    c.execute(begin)
    try:
        yield c
        c.execute("COMMIT")
    except BaseException:
        # SQLite may already have rolled back (a full disk does); never mask the real error
        if c.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                c.execute("ROLLBACK")
        raise
