"""The phones' state kept beside the journal, so that seats survive a restart (issue 27).

One small JSON file, ``<journal>.phones.json``: the join token (the QR code's), the display key
(the table page's link that shows the QR code) and each seat's binding — the sha256 digest of
the phone's secret (never the secret: that lives only in the phone's cookie), its seat and
since when. It is written whole each time it changes (a join, a leave, a new session, a new
code), atomically: a temporary file, fsync, rename over the old one, fsync of the directory
— after a power cut the file is the old one or the new one, never half of each.

At start it is read back; a file that is damaged, of another format or a foreign one is
refused with one log line (and set aside as ``….refused``), and the table starts as if there
were none: new codes, the phones scan again. Nothing here ever raises on what the file holds.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> store = PhoneStore(d / "journal.sqlite3.phones.json")
>>> store.load() is None
True
>>> saved = Saved("A" * 22, "B" * 22, {2: ("ab" * 32, 1733212345.0)})
>>> store.save(saved)
>>> store.load() == saved
True
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from engine.seats import SEATS
from table_app.journal.file import fsync_path

log = logging.getLogger(__name__)

FORMAT = "xian-table phones"
VERSION = 1
MAX_BYTES = 16_384  # the file is a few hundred bytes; anything much bigger is not ours
_CODE = re.compile(r"[A-Za-z0-9_-]{16,64}")
_DIGEST = re.compile(r"[0-9a-f]{64}")


def store_path(journal: str | os.PathLike[str]) -> Path:
    """The phones' file beside a journal: ``table.sqlite3`` → ``table.sqlite3.phones.json``."""
    p = Path(journal)
    return p.with_name(p.name + ".phones.json")


@dataclass(frozen=True)
class Saved:
    """What is kept: the join token, the display key, and per seat (digest hex, since: epoch s)."""

    token: str
    key: str
    seats: dict[int, tuple[str, float]] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {"format": FORMAT, "version": VERSION, "token": self.token, "key": self.key,
                "seats": [{"seat": s, "digest": d, "since": since} for s, (d, since) in sorted(self.seats.items())]}


class StoreError(ValueError):
    """What is wrong with a phones file (said in the log line that refuses it)."""


def parse(data: object) -> Saved:
    """A phones file's JSON as :class:`Saved`; :class:`StoreError` naming the first problem."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise StoreError(f"not a {FORMAT!r} file")
    if data.get("version") != VERSION:
        raise StoreError(f"version {data.get('version')!r}, this table reads {VERSION}")
    token, key, rows = data.get("token"), data.get("key"), data.get("seats")
    for name, value in (("token", token), ("key", key)):
        if not isinstance(value, str) or not _CODE.fullmatch(value):
            raise StoreError(f"a bad {name}")
    if not isinstance(rows, list) or len(rows) > SEATS:
        raise StoreError("a bad list of seats")
    seats: dict[int, tuple[str, float]] = {}
    for row in rows:
        seat = row.get("seat") if isinstance(row, dict) else None
        digest = row.get("digest") if isinstance(row, dict) else None
        since = row.get("since") if isinstance(row, dict) else None
        if type(seat) is not int or not 0 <= seat < SEATS or seat in seats:
            raise StoreError(f"a bad seat: {seat!r}")
        if not isinstance(digest, str) or not _DIGEST.fullmatch(digest):
            raise StoreError(f"a bad digest for seat {seat}")
        if isinstance(since, bool) or not isinstance(since, (int, float)) or not math.isfinite(since):
            raise StoreError(f"a bad time for seat {seat}")
        seats[seat] = (digest, float(since))
    assert isinstance(token, str) and isinstance(key, str)
    return Saved(token, key, seats)


@dataclass(frozen=True)
class PhoneStore:
    """``PhoneStore(path)``: ``load()`` (None: no usable file) and ``save(saved)`` (atomic)."""

    path: Path

    def load(self) -> Saved | None:
        """What the file holds, or None: no file, or one refused (logged, set aside)."""
        try:
            with open(self.path, "rb") as f:
                raw = f.read(MAX_BYTES + 1)
        except FileNotFoundError:
            return None
        except OSError as e:
            log.warning("phones: cannot read %s (%s): the phones join again by a new code", self.path, e.strerror)
            return None
        try:
            if len(raw) > MAX_BYTES:
                raise StoreError(f"longer than {MAX_BYTES} bytes")
            try:
                data = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError, RecursionError) as e:
                raise StoreError(f"not JSON ({e.__class__.__name__})") from None
            return parse(data)
        except StoreError as e:
            aside = self.path.with_name(self.path.name + ".refused")
            with contextlib.suppress(OSError):
                os.replace(self.path, aside)
            log.warning("phones: %s refused (%s; set aside as %s): the phones join again by a new code",
                        self.path, e, aside.name)
            return None

    def save(self, saved: Saved) -> None:
        """Write ``saved`` atomically (temp + fsync + rename + directory fsync); OSError if it cannot."""
        text = json.dumps(saved.to_json(), separators=(",", ":")).encode()
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # (the codes are secrets)
        try:
            view = memoryview(text)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, self.path)
        fsync_path(self.path.parent)
