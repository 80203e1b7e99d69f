"""One panel press acts exactly once whatever the commit time (issue 16, item 2): a real
``serve --stdin --panel`` with its journal's fsync held up 2 s (the fsync shim of the
power-loss test), the panel's real firmware on a pty. The host acknowledges a frame when it
reads it, so the panel neither repeats the press nor gives it up; and a copy of the frame
read late (replayed on the wire 2 s after) is told by its seq and acts no more.

Before: the host acknowledged only after the commit, the panel repeated the frame every
200 ms, gave it up after 1 s (flashing "not delivered") and the repeats read after 1.5 s
were new presses — one DICE press became two rolls."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.firmware_bridge.conftest import fw  # noqa: F401  (the firmware's fixture)
from tests.firmware_bridge.test_transport import PanelThread, Plug, wait_until
from tests.reliability.helpers import ROOT, child_env
from tests.reliability.test_power_loss import build_shim

HOLD_S = 2.0


@pytest.fixture(scope="module")
def shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_shim(tmp_path_factory.mktemp("shim"))


class SlowDisk(threading.Thread):
    """Answers the shimmed child's syncs: each waits ``hold`` seconds while ``slow`` is set."""

    def __init__(self, from_child: int, to_child: int) -> None:
        super().__init__(daemon=True)
        self.from_child, self.to_child = from_child, to_child
        self.slow = threading.Event()
        self.held = 0

    def run(self) -> None:
        with os.fdopen(self.from_child, "rb", buffering=0) as reports:
            buf = b""
            while chunk := reports.read(4096):
                buf += chunk
                while b"\n" in buf:
                    _, buf = buf.split(b"\n", 1)
                    if self.slow.is_set():
                        self.held += 1
                        time.sleep(HOLD_S)
                    os.write(self.to_child, b"x")


def rolls(db: Path) -> list[dict[str, Any]]:
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        events = [json.loads(e) for (e,) in conn.execute("SELECT event FROM records WHERE kind = 'event'")]
    finally:
        conn.close()
    return [e for e in events if e["type"] == "roll"]


def test_a_press_acts_once_while_the_commit_takes_two_seconds(shim: Path, tmp_path: Path, fw: Any) -> None:  # noqa: F811
    folder = tmp_path / "live"
    folder.mkdir()
    db = folder / "table.sqlite3"
    plug = Plug(tmp_path)
    panel = PanelThread(fw, plug.plug())
    dice = iter(bytes([2, 3, 1, 2]))
    panel.panel.dice_source = lambda n: bytes([next(dice)])
    from_child, child_out = os.pipe()
    child_in, to_child = os.pipe()
    disk = SlowDisk(from_child, to_child)
    disk.start()
    env = child_env(tmp_path, LD_PRELOAD=str(shim), XIAN_SYNC_WATCH=str(folder), XIAN_SYNC_OUT=str(child_out),
                    XIAN_SYNC_IN=str(child_in))
    proc = subprocess.Popen([sys.executable, "-m", "table_app.cli", "serve", "--stdin", "--db", str(db),
                             "--panel", str(plug.link)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env, pass_fds=(child_out, child_in))
    os.close(child_out)
    os.close(child_in)
    try:
        assert proc.stdin is not None and proc.stdout is not None

        def call(cmd: dict[str, Any]) -> dict[str, Any]:
            proc.stdin.write(json.dumps(cmd) + "\n")  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]
            return json.loads(proc.stdout.readline())  # type: ignore[union-attr]

        assert call({"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1})["ok"]
        assert call({"type": "seating", "method": "C", "east": 0})["ok"]
        wait_until(lambda: panel.panel.linked, what="the panel linked")
        link = panel.panel.link
        disk.slow.set()  # from now on every fsync of the journal takes 2 s
        sent = link.stats["retransmits"]
        frames: list[bytes] = []
        with panel.lock:
            real_write = panel.panel._write

            def write(data: bytes) -> None:  # what the panel puts on the wire
                frames.append(bytes(data))
                real_write(data)

            panel.panel._write = write
        panel.board.low_inputs.add(fw.app.DICE_PIN)  # the dealer's dice button
        wait_until(lambda: any(b",DICE," in f for f in frames), what="the DICE frame")
        panel.board.low_inputs.discard(fw.app.DICE_PIN)
        wait_until(lambda: not link.pending, timeout=1.0, what="the ACK at once, before the commit")
        wait_until(lambda: disk.held >= 1, what="the slow commit")
        time.sleep(HOLD_S + 1.5)  # the commit, and longer than the panel's whole retry span
        assert link.stats["given_up"] == 0 and link.stats["retransmits"] == sent  # never repeated, never lost
        # a copy of the DICE frame read late (a repeat that sat on the wire): acts no more
        dice_frame = next(f for f in frames if b",DICE," in f)
        assert sum(1 for f in frames if f == dice_frame) == 1  # sent once: never repeated
        os.write(plug.master, dice_frame)
        time.sleep(0.5)
        disk.slow.clear()
        state = call({"type": "state"})["state"]
        assert state["dice"]["dealer"] == [3, 4] and state["dice"]["owner"] is None  # one roll, not two
    finally:
        disk.slow.clear()
        assert proc.stdin is not None
        proc.stdin.close()
        try:
            proc.wait(30)
        finally:
            if proc.poll() is None:
                proc.kill()
        panel.stop()
        plug.unplug()
    assert [r["dice"] for r in rolls(db)] == [[3, 4]]
