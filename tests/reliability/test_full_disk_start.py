"""Issue 26, item 7: a full disk is said at start, as a read-only journal is, not found event by event.

The journal lives on a real, small filesystem (a tmpfs mounted for the test: as root, or as
the root of a user namespace of its own) with a journal on it, then a filler file takes all
but a few hundred KiB. Before this work ``serve`` started (exit 0, "ready") and then refused
every event with "journal write failed". Now it refuses to start with exit 4, saying what is
full and how much is free, and leaves the journal byte for byte; once the filler is gone it
starts with every record.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.reliability.helpers import ROOT, SESSION, answers, fingerprint, folder_listing, lines, serve


def as_root_in_a_namespace(request: pytest.FixtureRequest, tmp_path: Path) -> bool:
    """Not root: run this test again as root of a new user and mount namespace (``unshare``),
    where a tmpfs may be mounted; True once that run passed."""
    if os.geteuid() == 0:
        return False
    proc = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", sys.executable, "-m", "pytest", "-q",
                           "-p", "no:cacheprovider", "--basetemp", str(tmp_path / "in-namespace"),
                           f"{__file__}::{request.node.name}"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    return True


@contextlib.contextmanager
def small_disk(folder: Path, size: str) -> Iterator[Path]:
    folder.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def fill(folder: Path, leave: int) -> Path:
    """A filler file that leaves about ``leave`` bytes free on ``folder``'s filesystem."""
    filler = folder / "filler"
    st = os.statvfs(folder)
    free = st.f_bavail * st.f_frsize
    with filler.open("wb") as f:
        f.write(bytes(max(free - leave, 0)))
    return filler


def test_a_full_disk_is_refused_at_start_and_the_journal_kept(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if as_root_in_a_namespace(request, tmp_path):
        return
    with small_disk(tmp_path / "disk", "24m") as disk:
        db = disk / "table.sqlite3"
        proc = serve(tmp_path, "--stdin", "--db", str(db), input=lines(SESSION))
        assert proc.returncode == 0 and answers(proc.stdout)[0]["ok"], proc.stderr.decode()
        filler = fill(disk, 256 * 1024)
        before, listing = fingerprint(db), folder_listing(disk)
        proc = serve(tmp_path, "--stdin", "--db", str(db), input=lines({"type": "undo"}))
        err = proc.stderr.decode()
        assert proc.returncode == 4, (proc.returncode, err, proc.stdout)
        assert proc.stdout == b"" and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
        assert "full" in err and "KiB free" in err and str(disk) in err, err
        assert fingerprint(db) == before
        assert folder_listing(disk) - {db.name + ".lock"} == listing - {db.name + ".lock"}
        filler.unlink()
        proc = serve(tmp_path, "--stdin", "--db", str(db), input=lines({"type": "state"}))
        assert proc.returncode == 0 and answers(proc.stdout)[0]["seq"] == 1, proc.stderr.decode()


def test_no_new_journal_is_made_on_a_full_disk(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if as_root_in_a_namespace(request, tmp_path):
        return
    with small_disk(tmp_path / "disk", "24m") as disk:
        fill(disk, 256 * 1024)
        db = disk / "table.sqlite3"
        proc = serve(tmp_path, "--stdin", "--db", str(db), input=lines(SESSION))
        err = proc.stderr.decode()
        assert proc.returncode == 4 and "full" in err, (proc.returncode, err, proc.stdout)
        assert not db.exists()
