"""Inputs never block (issue 25): with every sync of the journal slowed to 500 ms (a real
``fsync``, held up by the shim ``table_app/bench/fsync_shim.c`` preloaded into a child), eight
presses in quick succession from different seats all reach the journal, once each, in order —
from GPIO buttons (gpiozero's MockFactory, in a child that opens the table as ``serve`` does)
and from the serial panel (``xian-table serve --panel`` with the panel's real firmware on a
pty). The panel's frames are all answered within the protocol's 200 ms: none repeated, none
given up.

Before: the GPIO poll thread handed each press to the table and waited for its commit, so a
press and release made meanwhile were never seen (the debouncer settled on "up" again); the
panel's reader did the same, so a frame read seconds late had been repeated, given up (the
seat's LED flashed "not delivered"), and the panel dropped the presses made until its next
HELLO — the players press again, and a press the table did act on counts twice.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from engine import apply, replay
from engine.presses import Press, press_events
from engine.public import public_state
from table_app.bench.slowdisk import build_shim, slow_env
from table_app.core.service import TableService
from table_app.journal.journal import Journal
from tests.firmware_bridge.conftest import fw  # noqa: F401  (the firmware's fixture)
from tests.firmware_bridge.test_transport import PanelThread, Plug, wait_until
from tests.hardware.tables import START
from tests.reliability.helpers import ROOT, child_env

SYNC_MS = 500
# From seat 0 to move: a discard, two passes, the 下家's TURN (nobody else may claim now:
# resolve, then its discard), round again, and a 下家's TURN held while the others may still
# claim (docs/rules.md §17) — ten events from eight presses, each from another seat than the one before.
PRESSES = [(0, "TURN"), (2, "TURN"), (3, "TURN"), (1, "TURN"), (3, "TURN"), (0, "TURN"), (2, "TURN"), (3, "TURN")]


@pytest.fixture(scope="module")
def shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_shim(tmp_path_factory.mktemp("shim"))


def seated_table(folder: Path) -> Path:
    """A journal with START played (seat 0 to move), written at full speed before the test."""
    folder.mkdir()
    db = folder / "table.sqlite3"
    journal = Journal.open(db)
    try:
        with TableService(journal, claim_window_s=0) as service:
            for ev in START:
                assert service.call(ev, source="touch", timeout=10).ok
    finally:
        journal.close()
    return db


def expected(source: str) -> list[tuple[dict[str, Any], str]]:
    """The events PRESSES become after START, each with its journal source, in order."""
    state, out = replay(START), []
    for seat, button in PRESSES:
        press = Press(seat, button)
        for event in press_events(state, press, lambda: (1, 1)):  # type: ignore[union-attr]
            state, _ = apply(state, event)
            out.append((event.to_json(), f"{source} press {press.label()}"))
    claims = public_state(state)["claims"]
    assert len(out) == 10 and claims is not None and claims["from"] == 2 and claims["held"] == 3
    return out


def journal_after_start(db: Path) -> list[tuple[dict[str, Any], str]]:
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT kind, event, source FROM records ORDER BY seq").fetchall()
    finally:
        conn.close()
    assert all(kind == "event" for kind, _, _ in rows)
    return [(json.loads(event), source) for _, event, source in rows[len(START):]]


def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text("[table]\nclaim_window_s = 0\n", encoding="utf-8")  # no timer: only the presses resolve
    return path


def test_eight_gpio_presses_during_slow_commits_reach_the_journal_once_each_in_order(shim: Path,
                                                                                    tmp_path: Path) -> None:
    folder = tmp_path / "live"
    db = seated_table(folder)
    presses = [f"{seat}:{button}" for seat, button in PRESSES]
    env = slow_env(shim, folder, SYNC_MS, base=child_env(tmp_path))
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "tests.reliability.gpio_table", str(db), str(config(tmp_path)),
                           *presses], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert journal_after_start(db) == expected("gpio")
    assert time.monotonic() - started > 11 * SYNC_MS / 1000  # the syncs were slow: ≥ 500 ms each commit


def test_eight_panel_presses_during_slow_commits_are_answered_at_once_and_act_once_each_in_order(
        shim: Path, tmp_path: Path, fw: Any) -> None:  # noqa: F811
    folder = tmp_path / "live"
    db = seated_table(folder)
    plug = Plug(tmp_path)
    panel = PanelThread(fw, plug.plug())
    env = slow_env(shim, folder, SYNC_MS, base=child_env(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "table_app.cli", "serve", "--stdin", "--db", str(db),
                             "--config", str(config(tmp_path)), "--panel", str(plug.link)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, env=env)
    try:
        assert proc.stdin is not None and proc.stdout is not None

        def seq() -> int:
            proc.stdin.write('{"type": "state"}\n')  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]
            return int(json.loads(proc.stdout.readline())["seq"])  # type: ignore[union-attr]

        wait_until(lambda: panel.panel.linked, what="the panel linked")
        link = panel.panel.link
        before = dict(link.stats)
        for seat, button in PRESSES:
            panel.tap(seat, button)  # 0.1 s down, 0.1 s up: eight presses in 1.6 s
        end = time.monotonic() + 30
        while len(panel.panel.delivered) < len(PRESSES) and time.monotonic() < end:
            time.sleep(0.05)
        last, quiet_since = seq(), time.monotonic()
        while time.monotonic() - quiet_since < 2.0:  # until the table has been quiet for four syncs
            time.sleep(0.1)
            if (now := seq()) != last:
                last, quiet_since = now, time.monotonic()
        stats = {k: link.stats[k] - before[k] for k in ("given_up", "retransmits")}
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        try:
            proc.wait(60)
        finally:
            if proc.poll() is None:
                proc.kill()
        panel.stop()
        plug.unplug()
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    assert journal_after_start(db) == expected("panel")
    # every frame answered within the protocol's 200 ms: none repeated, none given up (no new HELLO)
    assert stats == {"given_up": 0, "retransmits": 0}
    assert len(panel.panel.delivered) == panel.panel.sent_presses == len(PRESSES)
