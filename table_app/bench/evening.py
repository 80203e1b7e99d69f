"""The touchscreen app's memory after a whole evening (issue 28), beside a bare Kivy window with
the same font on the same virtual display.

``table_app.bench.evening_app`` plays the evening in a fresh process — sessions of hands played
by presses (by touch and from the wired buttons), hands scored only, every screen and dialog
visited, the language switched — and reports VmRSS and VmHWM at the start, after each session
and at the end; ``table_app.bench.ui_bare`` is the yardstick (the ``ui`` suite's). The figure
that counts is the RSS at the end above the bare window's: what an evening leaves the app
holding. One evening per run of the suite (it takes minutes); the bare window is measured as
often as ``--runs`` says.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import TypedDict

from table_app.bench import Result, result
from table_app.bench.ui import _env, _xvfb, bare

NAME = "evening"
DESCRIPTION = ("a scripted evening on the touchscreen app (every screen, both languages): RSS at the end "
               "beside a bare Kivy window with the same font (one Xvfb)")
ABOVE_BARE_MAX_MB = 60.0
PER_LATER_SESSION_MAX_MB = 5.0  # a screen or a session's state kept each time: more (measured 0.43)
FIRST_SESSION_MAX_MB = 70.0  # the first session builds every screen (before issue 28's fix: 94; after: about 50)
SESSIONS, HANDS, SCORE_ONLY = 4, 4, 3
BARE_RUNS_MAX = 3


class Checkpoint(TypedDict):
    """One line of ``evening_app``'s report (MiB; ``at``: ``start``, ``session N``, ``end``)."""

    at: str
    rss_mb: float
    hwm_mb: float
    rss_gc_mb: float


def evening(env: dict[str, str], sessions: int = SESSIONS, hands: int = HANDS, score_only: int = SCORE_ONLY,
            timeout: float = 1800) -> list[Checkpoint]:
    """One evening in a fresh process: its checkpoints (``at``, ``rss_mb``, ``hwm_mb``, ``rss_gc_mb``)."""
    out = subprocess.run([sys.executable, "-m", "table_app.bench.evening_app", "--sessions", str(sessions),
                          "--hands", str(hands), "--score-only", str(score_only)], env=env, capture_output=True,
                         text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    if out.returncode:
        raise RuntimeError(f"the evening failed ({out.returncode}): {out.stderr[-3000:]}")
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def run(runs: int, progress: Callable[[str], None]) -> list[Result]:
    if shutil.which("Xvfb") is None:
        progress("no Xvfb here (apt-get install xvfb): the evening suite is skipped")
        return []
    xvfb, display = _xvfb()
    try:
        with tempfile.TemporaryDirectory(prefix="xian-bench-evening-") as home:
            env = _env(display, home)
            bares = [bare(env)[1] for _ in range(min(runs, BARE_RUNS_MAX))]
            sized = [bare(env, app_sizes=True)[1] for _ in range(min(runs, BARE_RUNS_MAX))]
            progress(f"bare Kivy window: {statistics.median(bares):.0f} MB; now {SESSIONS} sessions of {HANDS} "
                     f"hands played and {SCORE_ONLY} scored (a few minutes)")
            points = evening(env)
    finally:
        xvfb.terminate()
        xvfb.wait(10)
    for p in points:
        progress(f"{p['at']:<10} RSS {p['rss_mb']:.0f} MB (after gc {p['rss_gc_mb']:.0f}), peak {p['hwm_mb']:.0f} MB")
    by = {p["at"]: p for p in points}
    end, base = by["end"], statistics.median(bares)
    sessions = [p for p in points if p["at"].startswith("session")]
    per_session = (sessions[-1]["rss_mb"] - sessions[0]["rss_mb"]) / max(1, len(sessions) - 1)
    return [
        result(NAME, "RSS at start, app", [by["start"]["rss_mb"]], "MB"),
        result(NAME, "RSS after the 1st session", [sessions[0]["rss_mb"]], "MB"),
        result(NAME, "RSS growth in the 1st session", [sessions[0]["rss_mb"] - by["start"]["rss_mb"]], "MB",
               target_max=FIRST_SESSION_MAX_MB),
        result(NAME, "RSS growth per later session", [per_session], "MB", target_max=PER_LATER_SESSION_MAX_MB),
        result(NAME, "RSS at the end, app", [end["rss_mb"]], "MB"),
        result(NAME, "peak RSS (VmHWM), app", [end["hwm_mb"]], "MB"),
        result(NAME, "RSS, bare Kivy window", bares, "MB"),
        result(NAME, "RSS at the end above the bare window", [end["rss_mb"] - base], "MB",
               target_max=ABOVE_BARE_MAX_MB),
        result(NAME, "RSS, bare window at the app's 4 font sizes", sized, "MB"),
        result(NAME, "RSS at the end above that window", [end["rss_mb"] - statistics.median(sized)], "MB"),
    ]
