"""``xian-table hw-test --panel DEVICE`` as a real process, with the firmware on the other end
of a real pty: the link state, each button named, each panel LED lit in turn."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from tests.firmware_bridge.test_transport import PanelThread, Plug, wait_until


def test_hw_test_names_panel_buttons_and_lights_its_leds(tmp_path, fw):
    plug = Plug(tmp_path)
    panel = PanelThread(fw, plug.plug())
    env = dict(os.environ, PYTHONUTF8="1")
    proc = subprocess.Popen([sys.executable, "-m", "table_app.cli", "hw-test", "--panel", str(plug.link),
                             "--seconds", "4"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        wait_until(lambda: panel.panel.linked, what="the panel linked")
        lit = set()
        end = time.monotonic() + 3
        while time.monotonic() < end and len(lit) < 4:
            lit |= {s for s in range(4) if panel.board.output(fw.app.LED_PINS[s])}
            time.sleep(0.01)
        assert lit == {0, 1, 2, 3}
        panel.tap(1, "CHI")
        panel.tap(3, "HU")
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        panel.stop()
        plug.unplug()
    assert proc.returncode == 0, err
    assert "panel link: connected: panel firmware 1.0.0, 4 seats" in out
    assert "pressed: seat 1 CHI (panel)" in out and "pressed: seat 3 HU (panel)" in out
    assert "lit: panel seat 3 LED" in out
