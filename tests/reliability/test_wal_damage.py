"""Issue 26, item 1: one flipped bit in the live ``-wal`` never shortens the journal without a word.

SQLite reads a ``-wal`` frame by frame and stops at the first whose salts or checksum do not
match: it takes it for the torn end of a write that never finished. A bit flipped in a frame
of a committed transaction looks the same, so SQLite used to drop that transaction and every
one after it, and ``serve`` started with exit 0 and fewer records (the next commit then
overwrote the rest for good).

Here a real ``serve`` is killed with SIGKILL after a session (its last commits are still in
the ``-wal``), then one bit is flipped at random — in a frame carrying the ``-wal`` header's
salts, or in the header itself — and a new ``serve`` starts on the copy. Each start must either
refuse (exit 4, the ``-wal`` named, the file, ``-wal`` and ``-shm`` left byte for byte) or
open with every acknowledged record: never open shorter.
"""

from __future__ import annotations

import json
import random
import shutil
import signal
import struct
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from table_app.bench.service import scripted_session
from tests.reliability.helpers import ROOT, answers, child_env, fingerprint, lines, serve

EVENTS = scripted_session(6, seed=26)  # about 1,000 events: a -wal of about 2,000 frames, checkpointed once
HEADER = 32
FRAME_HEADER = 24


def killed_after_session(folder: Path) -> tuple[Path, int]:
    """A journal as SIGKILL leaves it after a session, and the last acknowledged seq."""
    folder.mkdir()
    db = folder / "table.sqlite3"
    proc = subprocess.Popen([sys.executable, "-m", "table_app.cli", "serve", "--stdin", "--db", str(db)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT,
                            env=child_env(folder))
    assert proc.stdin is not None and proc.stdout is not None
    last = 0
    for ev in EVENTS:
        proc.stdin.write(json.dumps(ev).encode() + b"\n")
        proc.stdin.flush()
        answer = json.loads(proc.stdout.readline())
        assert answer["ok"], answer
        last = answer["seq"]
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert db.with_name(db.name + "-wal").stat().st_size > HEADER
    return db, last


@pytest.fixture(scope="module")
def killed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    return killed_after_session(tmp_path_factory.mktemp("wal") / "live")


def live_frames(wal: bytes) -> list[int]:
    """The offsets of the frames that carry the header's salts (the -wal's current generation)."""
    page_size = struct.unpack(">I", wal[8:12])[0]
    salts = wal[16:24]
    size = FRAME_HEADER + page_size
    return [at for at in range(HEADER, len(wal) - size + 1, size) if wal[at + 8:at + 16] == salts]


def start_on_flip(src: Path, work: Path, offset: int, bit: int) -> tuple[int, int | None, str, bool]:
    """A copy of ``src`` with one bit of its -wal flipped, started with ``serve``: the exit status,
    the seq it reports (exit 0), its stderr, and whether the files were left as they were."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    db = work / src.name
    for suffix in ("", "-wal", "-shm"):
        shutil.copyfile(src.with_name(src.name + suffix), db.with_name(db.name + suffix))
    wal = db.with_name(db.name + "-wal")
    data = bytearray(wal.read_bytes())
    data[offset] ^= 1 << bit
    wal.write_bytes(bytes(data))
    before = fingerprint(db)
    proc = serve(work, "--stdin", "--db", str(db), input=lines({"type": "state"}))
    err = proc.stderr.decode()
    seq = answers(proc.stdout)[0]["seq"] if proc.returncode == 0 else None
    return proc.returncode, seq, err, fingerprint(db) == before


def tally_flips(killed: tuple[Path, int], work: Path, tries: int, seed: int) -> Counter[str]:
    src, acknowledged = killed
    wal = src.with_name(src.name + "-wal").read_bytes()
    frames = live_frames(wal)
    page_size = struct.unpack(">I", wal[8:12])[0]
    rng = random.Random(seed)
    tally: Counter[str] = Counter()
    for _ in range(tries):
        offset = rng.choice(frames) + rng.randrange(FRAME_HEADER + page_size)
        status, seq, err, untouched = start_on_flip(src, work, offset, rng.randrange(8))
        tally["tries"] += 1
        if status == 4:
            assert untouched and "-wal" in err and "Traceback" not in err, err
            assert len(err.strip().splitlines()) == 1, err
            tally["refused"] += 1
        elif status == 0 and seq == acknowledged:
            tally["intact"] += 1
        elif status == 0 and seq is not None and seq < acknowledged:
            tally["shorter"] += 1
            tally["lost"] += acknowledged - seq
        else:
            raise AssertionError((offset, status, seq, err))
    print(f"\nWAL bit flips: {dict(tally)} (acknowledged {acknowledged})")
    return tally


def test_fifty_flipped_bits_in_the_wal_never_open_a_shorter_journal(killed: tuple[Path, int],
                                                                    tmp_path: Path) -> None:
    tally = tally_flips(killed, tmp_path / "try", 50, seed=2601)
    assert tally["shorter"] == 0, dict(tally)
    assert tally["refused"] + tally["intact"] == 50


@pytest.mark.soak
@pytest.mark.timeout(1800)  # about 4 minutes here (a serve start per flip), not the 300 s of a CI test
def test_a_thousand_flipped_bits_in_the_wal(killed: tuple[Path, int], tmp_path: Path) -> None:
    tally = tally_flips(killed, tmp_path / "try", 1000, seed=2602)
    assert tally["shorter"] == 0, dict(tally)


@pytest.mark.parametrize("bit", [0, 37, 70, 101, 150, 191, 230, 255])
def test_a_flipped_bit_in_the_wal_header_is_refused_not_read_as_an_empty_wal(killed: tuple[Path, int],
                                                                          tmp_path: Path, bit: int) -> None:
    """A header that fails its own checks makes SQLite ignore the whole -wal: every commit since
    the last checkpoint. Bits across its magic, version, page size, checkpoint count, salts and
    checksum."""
    src, acknowledged = killed
    status, seq, err, untouched = start_on_flip(src, tmp_path / "try", bit // 8, bit % 8)
    assert status == 4 or seq == acknowledged, (status, seq, err)
    if status == 4:
        assert untouched and "-wal" in err, err


def test_an_unfinished_write_at_the_end_of_the_wal_is_a_torn_tail_not_damage(killed: tuple[Path, int],
                                                                              tmp_path: Path) -> None:
    """Frames of a transaction whose commit never reached the disk, the last of them cut short
    and its bytes scrambled: SQLite drops them, and so must the check, without a refusal."""
    src, acknowledged = killed
    work = tmp_path / "torn"
    work.mkdir()
    db = work / src.name
    for suffix in ("", "-wal", "-shm"):
        shutil.copyfile(src.with_name(src.name + suffix), db.with_name(db.name + suffix))
    wal = db.with_name(db.name + "-wal")
    data = wal.read_bytes()
    frames = live_frames(data)
    size = FRAME_HEADER + struct.unpack(">I", data[8:12])[0]
    end = frames[-1] + size
    # a copy of the last two frames as an unfinished transaction: not a commit, and garbled
    tail = bytearray(data[frames[-2]:end])
    tail[4:8] = bytes(4)  # "not a commit"
    tail[FRAME_HEADER + 100:FRAME_HEADER + 600] = random.Random(7).randbytes(500)
    wal.write_bytes(data[:end] + bytes(tail[: size + 1000]))
    proc = serve(work, "--stdin", "--db", str(db), input=lines({"type": "state"}))
    assert proc.returncode == 0, proc.stderr.decode()
    assert answers(proc.stdout)[0]["seq"] == acknowledged


def test_readers_refuse_a_flipped_wal_too_and_write_neither_file(killed: tuple[Path, int], tmp_path: Path) -> None:
    """``history``, ``export`` and ``backup`` check the -wal before SQLite reads it, over no connection at all."""
    src, _ = killed
    wal = src.with_name(src.name + "-wal").read_bytes()
    offset = live_frames(wal)[len(live_frames(wal)) // 2] + FRAME_HEADER + 1000
    status, _, err, _ = start_on_flip(src, tmp_path / "try", offset, 3)
    assert status == 4 and "one flipped bit" in err and "Restoring a backup" in err, err
    db = tmp_path / "try" / src.name
    before = fingerprint(db)
    for verb in (["history"], ["export", "--format", "json"]):
        proc = subprocess.run([sys.executable, "-m", "table_app.cli", *verb, "--db", str(db)], capture_output=True,
                              text=True, cwd=ROOT, env=child_env(tmp_path), timeout=120)
        assert proc.returncode == 4 and "-wal frame" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
        assert fingerprint(db) == before
    # a backup would copy the shortened journal SQLite reads: refused, nothing made
    backups = tmp_path / "backups"
    proc = subprocess.run([sys.executable, "-m", "table_app.cli", "backup", "--db", str(db), str(backups),
                           "--keep", "3"], capture_output=True, text=True, cwd=ROOT, env=child_env(tmp_path),
                          timeout=120)
    assert proc.returncode != 0 and "-wal frame" in proc.stderr and "no backup was made" in proc.stderr, proc.stderr
    assert fingerprint(db) == before and not [p for p in backups.glob("*") if not p.name.startswith(".")]
