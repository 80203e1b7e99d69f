"""The last record the table knows is on disk, kept beside the journal for ``doctor`` to read back.

An SD card may acknowledge a flush it has not done (issue 26, item 8): its controller keeps
the data in a cache and loses it when the power goes, or writes it back in another order.
The journal's fsync then promises nothing, and no check at start can see what never reached
the card. What can be checked is after the fact: when the service closes its journal — after
SQLite's last checkpoint — and after each snapshot, it writes here the last record's seq and
hash (and record 1's hash, which tells which journal the mark is about). After a reboot,
``doctor`` reads that record back: if the journal no longer holds it, with that hash, writes
the card had confirmed were lost (or an older copy of the journal was put in its place).

The mark can corrupt nothing: it is a separate small file, written under a temporary name,
fsynced, renamed into place; the service never reads it; a missing or unreadable mark only
means "nothing to read back"; a failure to write it is logged and ignored. It cannot prove a
card honest either: a card that loses the mark's write along with the journal's leaves an
older mark that still reads back.

>>> m = Mark(12, bytes(16), bytes(16), "2026-12-03T05:40:00+00:00")
>>> Mark.parse(m.dump()) == m, Mark.parse("not json")
(True, None)
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from table_app.journal.file import fsync_path

log = logging.getLogger(__name__)

SUFFIX = ".synced"


@dataclass(frozen=True)
class Mark:
    seq: int  # the last record when the mark was written
    hash: bytes  # its hash-chain link
    first: bytes  # record 1's link: which journal the mark is about
    at: str  # when (UTC, ISO 8601)

    def dump(self) -> str:
        return json.dumps({"seq": self.seq, "hash": self.hash.hex(), "first": self.first.hex(), "at": self.at}) + "\n"

    @classmethod
    def parse(cls, text: str) -> Mark | None:
        try:
            d = json.loads(text)
            seq, at = d["seq"], d["at"]
            if type(seq) is not int or seq < 1 or not isinstance(at, str):
                return None
            return cls(seq, bytes.fromhex(d["hash"]), bytes.fromhex(d["first"]), at)
        except (ValueError, KeyError, TypeError):
            return None


def path_of(journal: Path) -> Path:
    return journal.with_name(journal.name + SUFFIX)


def take(conn: sqlite3.Connection) -> Mark | None:
    """The mark for the journal open on ``conn`` now (None: no records, or no hash chain)."""
    with contextlib.suppress(sqlite3.Error):
        last = conn.execute("SELECT seq, hash FROM records ORDER BY seq DESC LIMIT 1").fetchone()
        first = conn.execute("SELECT hash FROM records WHERE seq = 1").fetchone()
        if last and first and isinstance(last[1], bytes) and isinstance(first[0], bytes):
            return Mark(int(last[0]), last[1], first[0], datetime.now(UTC).isoformat(timespec="seconds"))
    return None


def write(journal: Path, mark: Mark | None) -> None:
    """Put ``mark`` in place atomically; never raises (the mark is only a witness)."""
    if mark is None:
        return
    target = path_of(journal)
    tmp = target.with_name(f".{target.name}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, mark.dump().encode())
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
        fsync_path(target.parent)
    except OSError as e:
        log.warning("journal %s: cannot write the synced mark %s (%s); doctor will read back an older one",
                    journal, target, e.strerror)
        with contextlib.suppress(OSError):
            tmp.unlink()


def read(journal: Path) -> Mark | None:
    try:
        return Mark.parse(path_of(journal).read_text(encoding="utf-8", errors="replace")[:4096])
    except OSError:
        return None


def same_journal(conn: sqlite3.Connection, mark: Mark) -> bool:
    """Whether ``mark`` is about the journal on ``conn`` (else a new one was started since)."""
    first = conn.execute("SELECT hash FROM records WHERE seq = 1").fetchone()
    return first is not None and first[0] == mark.first


def read_back(conn: sqlite3.Connection, mark: Mark) -> str | None:
    """What is wrong with the journal on ``conn`` (the mark's, :func:`same_journal`) against
    ``mark``: None when it holds the marked record with its hash."""
    row = conn.execute("SELECT hash FROM records WHERE seq = ?", (mark.seq,)).fetchone()
    when = mark.at[:16].replace("T", " ")
    if row is None:
        last = conn.execute("SELECT coalesce(max(seq), 0) FROM records").fetchone()[0]
        return f"record {mark.seq:,}, on disk when the table last stopped or saved a snapshot ({when} UTC), " \
               f"is missing: the journal ends at record {last:,}"
    if row[0] != mark.hash:
        return f"record {mark.seq:,} is not the one on disk when the table last stopped or saved a snapshot " \
               f"({when} UTC): its hash differs"
    return None
