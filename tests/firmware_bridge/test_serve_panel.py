"""``xian-table serve --stdin --panel DEVICE`` as a real process with the firmware on a real pty:
the panel's presses reach the table next to the stdin commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.firmware_bridge.test_transport import PanelThread, Plug, wait_until


def test_serve_takes_presses_from_the_panel(tmp_path, fw):
    plug = Plug(tmp_path)
    panel = PanelThread(fw, plug.plug())
    rolls = iter(bytes([2, 3, 1, 2]))  # the panel's dice: 3 4, then 2 3
    panel.panel.dice_source = lambda n: bytes([next(rolls)])
    env = dict(os.environ, PYTHONUTF8="1", XDG_CONFIG_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path))
    proc = subprocess.Popen(
        [sys.executable, "-m", "table_app.cli", "serve", "--stdin", "--db", str(tmp_path / "j.sqlite3"),
         "--panel", str(plug.link)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)

    def call(cmd: dict) -> dict:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(cmd) + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    def roll() -> None:
        panel.press_dice()  # (DICE goes out once the press has settled)
        wait_until(lambda: not panel.panel.link.pending, what="DICE answered")

    try:
        assert call({"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1})["ok"]
        assert call({"type": "seating", "method": "C", "east": 0})["ok"]
        wait_until(lambda: panel.panel.linked, what="the panel linked")
        wait_until(lambda: panel.board.output(fw.app.LED_PINS[0]) == 1, what="the dealer's LED")
        roll()
        wait_until(lambda: call({"type": "state"})["state"]["dice"]["dealer"] == [3, 4], what="the first roll")
        roll()
        wait_until(lambda: call({"type": "state"})["state"]["phase"] == "turn", what="the deal")
        n = len(panel.panel.delivered)
        panel.tap(0, "TURN")
        wait_until(lambda: len(panel.panel.delivered) == n + 1, what="TURN answered")
        state = call({"type": "state"})["state"]
        assert state["phase"] == "claims" and state["claims"]["from"] == 0
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        try:
            proc.wait(20)
        finally:
            if proc.poll() is None:
                proc.kill()
        panel.stop()
        plug.unplug()
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""


def test_attach_reports_the_link_state_and_detaches(tmp_path):
    from table_app.config.file import Config
    from table_app.core.service import TableService
    from table_app.inputs import attach_inputs
    from table_app.journal.journal import Journal

    journal = Journal.open(tmp_path / "j.sqlite3")
    service = TableService(journal).start()
    seen: list[tuple[str, str, str]] = []
    detach = attach_inputs(service, Config(), {"panel": str(tmp_path / "no-such-device")},
                           on_link=lambda name, s, d: seen.append((name, s, d)))
    try:
        assert seen[0][:2] == ("panel", "reconnecting") and "no-such-device" in seen[0][2]
        # the config entry when no option is given
        detach_too = attach_inputs(service, Config(panel_device=str(tmp_path / "other")), {"panel": None},
                                   on_link=lambda name, s, d: seen.append((name, s, d)))
        detach_too()
        assert seen[-1][:2] == ("panel", "reconnecting") and "other" in seen[-1][2]
    finally:
        detach()
        service.stop()
        journal.close()
    assert attach_inputs(service, Config())() is None  # nothing asked for: nothing attached
