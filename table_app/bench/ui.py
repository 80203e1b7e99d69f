"""The touchscreen app's start: launch to first frame, and memory at rest, beside a bare Kivy
window with the same font in the same run (the same Xvfb, one after the other).

Each run starts ``xian-table run --size 800x480`` on a fresh journal (the new-session screen)
and ``table_app.bench.ui_bare`` on its own virtual display; both report their first frame
(from the process's start: the interpreter and the imports are included) and their RSS when
they stop after the same few seconds. The app's figure above the bare window is what the
app itself costs: the engine (its hand tables), the service and the journal, its screens.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from table_app.bench import Result, result

NAME = "ui"
DESCRIPTION = ("`xian-table run` at 800×480: first frame and RSS at rest, beside a bare Kivy window with the same "
               "font (one Xvfb)")
FIRST_FRAME_MAX_S = 1.5
ABOVE_BARE_MAX_MB = 40.0
SECONDS = 4.0


def _xvfb() -> tuple[subprocess.Popen[bytes], str]:
    for n in range(410, 600):
        if not Path(f"/tmp/.X{n}-lock").exists() and not Path(f"/tmp/.X11-unix/X{n}").exists():
            break
    proc = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "800x480x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while not Path(f"/tmp/.X11-unix/X{n}").exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"Xvfb :{n} did not start")
        time.sleep(0.05)
    return proc, f":{n}"


def _env(display: str, home: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY", "NOTIFY_SOCKET")}
    env.update(DISPLAY=display, HOME=home, XDG_DATA_HOME=f"{home}/data", XDG_CONFIG_HOME=f"{home}/config",
               KIVY_HOME=f"{home}/kivy", PYTHONUTF8="1")
    return env


def bare(env: dict[str, str], app_sizes: bool = False) -> tuple[float, float]:
    """The bare window's first frame (s) and RSS (MB); ``app_sizes``: its label at the app's four font sizes."""
    out = subprocess.run([sys.executable, "-m", "table_app.bench.ui_bare", "--size", "800x480", "--exit-after",
                          str(SECONDS), *(["--app-sizes"] if app_sizes else [])],
                         env=env, capture_output=True, text=True, timeout=120, check=True)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return float(data["first_frame_s"]), float(data["rss_mb"])


def app(env: dict[str, str], db: str) -> tuple[float, float]:
    out = subprocess.run([sys.executable, "-m", "table_app.cli", "run", "--size", "800x480", "--db", db,
                          "--exit-after", str(SECONDS)], env=env, capture_output=True, text=True, timeout=120,
                         stdin=subprocess.DEVNULL)
    first = re.search(r"first frame ([0-9.]+) s", out.stderr)
    rss = re.search(r"RSS ([0-9.]+) MB", out.stderr)
    if out.returncode or not first or not rss:
        raise RuntimeError(f"xian-table run failed ({out.returncode}): {out.stderr[-2000:]}")
    return float(first.group(1)), float(rss.group(1))


def run(runs: int, progress: Callable[[str], None]) -> list[Result]:
    if shutil.which("Xvfb") is None:
        progress("no Xvfb here (apt-get install xvfb): the ui suite is skipped")
        return []
    xvfb, display = _xvfb()
    firsts, rsss, bare_firsts, bare_rsss = [], [], [], []
    try:
        with tempfile.TemporaryDirectory(prefix="xian-bench-ui-") as home:
            env = _env(display, home)
            for i in range(runs):
                b_first, b_rss = bare(env)
                a_first, a_rss = app(env, f"{home}/journal-{i}.sqlite3")
                progress(f"run {i + 1}: app {a_first:.2f} s, {a_rss:.0f} MB; bare window {b_first:.2f} s, "
                         f"{b_rss:.0f} MB")
                firsts.append(a_first)
                rsss.append(a_rss)
                bare_firsts.append(b_first)
                bare_rsss.append(b_rss)
    finally:
        xvfb.terminate()
        xvfb.wait(10)
    above = [a - b for a, b in zip(rsss, bare_rsss, strict=True)]
    return [
        result(NAME, "first frame, app (launch → frame)", firsts, "s", target_max=FIRST_FRAME_MAX_S),
        result(NAME, "first frame, bare Kivy window", bare_firsts, "s"),
        result(NAME, "RSS at rest, app", rsss, "MB"),
        result(NAME, "RSS at rest, bare Kivy window", bare_rsss, "MB"),
        result(NAME, "RSS, app above the bare window", above, "MB", target_max=ABOVE_BARE_MAX_MB),
    ]
