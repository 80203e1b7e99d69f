"""Issue 16, item 4: a power cut — everything not yet fsynced is gone — loses no acknowledged event.

SIGKILL (``tests/table_app/cli/test_serve_crash.py``) leaves every ``write()`` in the page
cache, where the kernel still flushes it. A power cut does not. So here a real
``xian-table serve --stdin`` child runs with a small C shim preloaded
(``table_app/bench/fsync_shim.c``, built with gcc at test time) that stops it at every ``fsync``/``fdatasync``
of a file in the journal's folder, or of the folder itself, until the test has recorded what
that sync makes durable:

- a file sync makes the file's bytes at that moment durable (kept as the 512-byte sectors
  that differ from its previous durable content, keyed by inode);
- a folder sync makes the folder's names at that moment durable (SQLite syncs the folder
  when it makes a ``-wal``; the journal's own creation syncs it after the link).

A cut after sync *k* is the disk as those first *k* syncs left it — nothing written after a
file's last sync, no name made after the folder's last sync — and, for half the cuts, part
of what the next sync was writing landed too: a random subset of its changed sectors and
either length (SQLite's own crash tests model lost and torn sectors the same way). The
``-shm`` index is never synced; each cut leaves it absent or full of random bytes.

From each cut a new ``serve`` starts (no shim) and is asked for its state. It must open the
journal (exit 0), hold every record acknowledged before the cut — exactly the records the
table wrote, in order, hash chain and all — and report the state a replay of them gives.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from engine import replay
from engine.public import public_state
from table_app.bench import slowdisk
from tests.reliability.helpers import ROOT, child_env
from tests.table_app.cli.test_serve_crash import build_script

SECTOR = 512
DB = "table.sqlite3"


@dataclass
class Sync:
    """One fsync/fdatasync the child asked for, as the disk saw it."""

    ino: int
    folder: bool
    size: int = 0  # a file: its length now
    patches: list[tuple[int, bytes]] = field(default_factory=list)  # sectors that differ from its last sync
    names: dict[str, int] | None = None  # the folder: its names now


class Recorder(threading.Thread):
    """Answers the shim: reads what each sync makes durable, then lets the child go on."""

    def __init__(self, folder: Path, from_child: int, to_child: int) -> None:
        super().__init__(daemon=True, name="sync-recorder")
        self.folder = folder
        self.inbox = os.fdopen(from_child, "rb", buffering=0)
        self.to_child = to_child
        self.syncs: list[Sync] = []
        self.durable: dict[int, bytes] = {}
        self.lock = threading.Lock()
        self.pid = 0  # the child's, set before it can sync
        self.started = threading.Event()

    @property
    def count(self) -> int:
        with self.lock:
            return len(self.syncs)

    def run(self) -> None:
        self.started.wait()
        buffer = b""
        while chunk := self.inbox.read(4096):
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                ino, fd, path = line.decode().split(" ", 2)
                sync = self._take(int(ino), int(fd), Path(path))
                with self.lock:
                    self.syncs.append(sync)
                os.write(self.to_child, b"k")

    def _take(self, ino: int, fd: int, path: Path) -> Sync:
        if path == self.folder:
            with os.scandir(self.folder) as entries:
                return Sync(ino, True, names={e.name: e.inode() for e in entries if e.is_file()})
        new = Path(f"/proc/{self.pid}/fd/{fd}").read_bytes()  # the file the child syncs, whatever its name now
        old = self.durable.get(ino, b"")
        patches = []
        for chunk in range(0, len(new), 65536):
            if new[chunk:chunk + 65536] != old[chunk:chunk + 65536]:
                for s in range(chunk, min(chunk + 65536, len(new)), SECTOR):
                    if new[s:s + SECTOR] != old[s:s + SECTOR]:
                        patches.append((s, new[s:s + SECTOR]))
        self.durable[ino] = new
        return Sync(ino, False, len(new), patches)


@dataclass
class Run:
    syncs: list[Sync]
    acks: list[tuple[int, int]]  # (syncs reported when the answer was read, the seq it acknowledged)
    records: list[tuple[Any, ...]]  # every record of the finished journal
    events: dict[int, dict[str, Any]]  # seq → event, for the replay


def build_shim(folder: Path) -> Path:
    assert shutil.which("gcc"), "the power-loss test builds a C shim: scripts/setup.sh test installs gcc"
    return slowdisk.build_shim(folder)


def read_records(db: Path) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        # every column (seq, at, kind, session, source, event, target, hash): the same records, byte for byte
        return conn.execute("SELECT * FROM records ORDER BY seq").fetchall()
    finally:
        conn.close()


def generate(work: Path, shim: Path, commands: int, seed: int) -> Run:
    """The recorded run: a scripted session (undo, redo and refused lines mixed in) through a
    shimmed ``serve --stdin``, one command at a time, each answer read before the next."""
    folder = work / "live"
    folder.mkdir()
    config = work / "config.toml"
    config.write_text("[table]\nclaim_window_s = 0\n")
    from_child, child_out = os.pipe()
    child_in, to_child = os.pipe()
    recorder = Recorder(folder, from_child, to_child)
    recorder.start()
    env = child_env(work, LD_PRELOAD=str(shim), XIAN_SYNC_WATCH=str(folder), XIAN_SYNC_OUT=str(child_out),
                    XIAN_SYNC_IN=str(child_in))
    with (work / "live-stderr.txt").open("wb") as err:
        proc = subprocess.Popen([sys.executable, "-m", "table_app.cli", "serve", "--stdin", "--db",
                                 str(folder / DB), "--config", str(config)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=err, cwd=ROOT, env=env,
                                pass_fds=(child_out, child_in))
    recorder.pid = proc.pid
    recorder.started.set()
    os.close(child_out)
    os.close(child_in)
    assert proc.stdin is not None and proc.stdout is not None
    acks: list[tuple[int, int]] = []
    for cmd in build_script(seed, hands=max(1, commands // 150))[:commands]:
        proc.stdin.write((cmd if isinstance(cmd, str) else json.dumps(cmd)).encode() + b"\n")
        proc.stdin.flush()
        answer = json.loads(proc.stdout.readline())
        if answer["ok"] and cmd != {"type": "state"}:
            acks.append((recorder.count, answer["seq"]))
    proc.stdin.close()
    assert proc.wait(60) == 0, (work / "live-stderr.txt").read_text()
    recorder.join(30)
    os.close(to_child)
    records = read_records(folder / DB)
    events = {r[0]: json.loads(r[5]) for r in records if r[2] == "event"}
    assert [seq for _, seq in acks] == list(range(1, len(records) + 1))  # every record acknowledged, in order
    return Run(recorder.syncs, acks, records, events)


def disk_after(syncs: list[Sync], cuts: list[int]) -> Any:
    """For each cut (ascending), ``(cut, {name: bytes})``: the folder as the first ``cut`` syncs left it."""
    content: dict[int, bytearray] = {}
    names: dict[str, int] = {}
    done = 0
    for cut in cuts:
        for sync in syncs[done:cut]:
            if sync.folder:
                names = dict(sync.names or {})
            else:
                buf = content.setdefault(sync.ino, bytearray())
                del buf[sync.size:]
                buf.extend(bytes(sync.size - len(buf)))
                for offset, data in sync.patches:
                    buf[offset:offset + len(data)] = data
        done = cut
        yield cut, {name: bytes(content.get(ino, b"")) for name, ino in names.items()}


def torn(old: bytes, sync: Sync, rng: random.Random) -> bytes:
    """Part of an unfinished sync landed: some of its sectors, and the old length or the new."""
    size = rng.choice([len(old), sync.size])
    buf = bytearray(old[:size]) + bytes(max(0, size - len(old)))
    for offset, data in sync.patches:
        if rng.random() < 0.5 and offset < size:
            buf[offset:offset + len(data)] = data[:size - offset]
    return bytes(buf)


def restart_from(work: Path, n: int, files: dict[str, bytes], rng: random.Random) -> tuple[dict[str, Any] | None,
                                                                                           str, list[Any]]:
    folder = work / f"cut{n}"
    folder.mkdir()
    for name, data in files.items():
        if not name.endswith("-shm"):
            (folder / name).write_bytes(data)
    if rng.random() < 0.5 and (folder / DB).exists():  # a -shm that was never synced: absent, or garbage
        (folder / (DB + "-shm")).write_bytes(rng.randbytes(32768))
    proc = subprocess.run([sys.executable, "-m", "table_app.cli", "serve", "--stdin", "--db", str(folder / DB),
                           "--config", str(work / "config.toml")], input=b'{"type": "state"}\n',
                          capture_output=True, cwd=ROOT, env=child_env(work), timeout=120)
    answer = json.loads(proc.stdout) if proc.returncode == 0 and proc.stdout else None
    records = read_records(folder / DB) if answer is not None else []
    shutil.rmtree(folder)
    return answer, proc.stderr.decode(errors="replace")[-500:], records


def folder_names(run: Run, cut: int) -> dict[str, int]:
    """The folder's durable names after the first ``cut`` syncs."""
    return next((dict(s.names or {}) for s in reversed(run.syncs[:cut]) if s.folder), {})


def choose_cuts(run: Run, count: int, rng: random.Random) -> list[int]:
    """The first syncs (the journal being made), around the journal file's own syncs (its
    creation and the checkpoints), the very end, then random ones."""
    last = len(run.syncs)
    db_ino = folder_names(run, last)[DB]
    db_syncs = [i for i, s in enumerate(run.syncs) if s.ino == db_ino and not s.folder]
    special = sorted({0, 1, 2, 3, 4, last, *db_syncs[:3], *(i + 1 for i in db_syncs[:3])})[:count]
    rest = sorted(set(range(last + 1)) - set(special))
    return sorted(special + rng.sample(rest, min(len(rest), count - len(special))))


def power_cuts(work: Path, shim: Path, cuts: int, commands: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    run = generate(work, shim, commands, seed)
    assert len(run.syncs) >= len(run.acks), "the shim saw fewer syncs than commits: it is not in the child"
    db_ino = folder_names(run, len(run.syncs))[DB]
    db_syncs = sum(1 for s in run.syncs if s.ino == db_ino and not s.folder)
    tally = {"tries": 0, "survived": 0, "lost": 0, "torn": 0, "syncs": len(run.syncs), "acked": len(run.acks),
             "checkpoints": db_syncs - 4}  # less the journal's creation (3) and the clean exit's (1)
    for n, (cut, files) in enumerate(disk_after(run.syncs, choose_cuts(run, cuts, rng))):
        if cut < len(run.syncs) and not run.syncs[cut].folder and rng.random() < 0.5:
            nxt = run.syncs[cut]
            for name, ino in folder_names(run, cut).items():
                if ino == nxt.ino:
                    files[name] = torn(files[name], nxt, rng)
                    tally["torn"] += 1
        must_have = max((seq for seen, seq in run.acks if seen <= cut), default=0)
        answer, stderr, records = restart_from(work, n, files, rng)
        tally["tries"] += 1
        assert answer is not None and answer["ok"], f"cut after sync {cut}: the journal did not open: {stderr}"
        have = answer["seq"]
        assert records == run.records[:have], f"cut after sync {cut}: the records are not the table's own"
        tally["lost"] += max(0, must_have - have)
        assert have >= must_have, f"cut after sync {cut}: {must_have - have} acknowledged records lost"
        active = _active(run.records[:have])
        assert answer["state"] == public_state(replay([run.events[s] for s in active]))
        tally["survived"] += 1
    return tally


def _active(records: list[tuple[Any, ...]]) -> list[int]:
    from table_app.journal.timeline import timeline

    return timeline([(r[0], r[2], r[6]) for r in records]).active


@pytest.fixture(scope="module")
def shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_shim(tmp_path_factory.mktemp("shim"))


def test_twenty_power_cuts_lose_nothing_acknowledged(shim: Path, tmp_path: Path) -> None:
    # 1,000 commands: the -wal passes SQLite's 1,000-page checkpoint once, so cuts land around
    # the journal's creation, plain commits, a checkpoint and the final one at a clean exit
    tally = power_cuts(tmp_path, shim, cuts=20, commands=1000, seed=16)
    print("power cuts:", tally)
    assert tally["tries"] == 20 and tally["survived"] == 20 and tally["lost"] == 0
    assert tally["torn"] > 0 and tally["checkpoints"] >= 1


@pytest.mark.soak
@pytest.mark.timeout(1800)  # minutes, not the 300 s of a CI test
@pytest.mark.parametrize("seed", range(5))
def test_soak_five_hundred_power_cuts(shim: Path, tmp_path: Path, seed: int) -> None:
    tally = power_cuts(tmp_path, shim, cuts=100, commands=2500, seed=1600 + seed)
    print("power cuts:", tally)
    assert tally["tries"] == 100 and tally["survived"] == 100 and tally["lost"] == 0
