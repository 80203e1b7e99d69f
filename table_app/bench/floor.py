"""The owner's floor view under load (issue 31): 40 tables at table pace on the parlour rig,
``parlour serve --http``, and a headless Chromium on ``/parlour`` at 1920×1080 (a TV).

    xian-table bench --only floor

Only run when named (``--only floor``): 40 tables take a few minutes to start and stop.
Environment: ``XIAN_FLOOR_TABLES`` (40), ``XIAN_FLOOR_PLAY_S`` (60: seconds measured),
``XIAN_PARLOUR_PACE`` (``0.5,1.5``: seconds between a table's presses, drawn evenly; every
session with a fee by the hour, so each tile shows its fee so far),
``XIAN_FLOOR_SHOTS`` (a folder: a screenshot of the floor there before the measuring).

Measured, for every record the tables commit while the page watches (after a warm-up of
``WARM_S``): from its commit (the record's own ``at``, the table's clock: the same machine)
to the moment the page has applied a tile of that table at that seq or later (the page's
``Date.now()`` in the next animation frame after the frame was applied: drawn) — its p50, p99
and max, and how many records the page never showed (superseded within a frame is shown: the
tile says the newer). The page's CPU: the renderer's main thread busy (DevTools
``Performance.getMetrics``' ``TaskDuration``) and the renderer process's CPU time
(``SystemInfo.getProcessInfo``), as a share of one core over the measured time.
"""

from __future__ import annotations

import bisect
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from table_app.bench import Result, result
from table_app.bench.browser import Chromium, Page
from table_app.bench.mqtt import percentile
from table_app.bench.parlour_rig import Rig
from table_app.bench.parlour_watch import at_time, journal_rows

NAME = "floor"
DESCRIPTION = "the floor view (/parlour) in Chromium with 40 tables at table pace: event → shown, the page's CPU"

TARGET_P99_MS = 500.0
FEE = {"mode": "hour", "rate": 30, "min": 20, "payer": "aa", "tea": 5}  # every session's (the fee so far shown)
WARM_S = 10.0
INSTRUMENT = """(() => {
  window.FLOOR_LOG = [];
  const applied = apply;  // the page's own frame handler (a global of its script), timed
  apply = (m) => { applied(m); requestAnimationFrame(() => {
    const t = Date.now(); for (const d of m.tiles) FLOOR_LOG.push([d.id, d.seq, t]); }); };
  return true; })()"""


@dataclass
class FloorFigures:
    latencies: list[float] = field(default_factory=list)  # seconds, each record's commit → shown
    to_db: list[float] = field(default_factory=list)  # … its commit → in the parlour database (the rig's poll)
    db_to_page: list[float] = field(default_factory=list)  # … in the database → shown
    load: tuple[float, float] = (0.0, 0.0)  # the machine's load average (1 min) before and after
    missed: int = 0  # records committed while watched that the page never showed
    frames: int = 0
    main_thread_share: float = 0.0  # of one core
    renderer_share: float | None = None
    seconds: float = 0.0


def settings() -> tuple[int, float, tuple[float, float]]:
    pace = tuple(float(x) for x in os.environ.get("XIAN_PARLOUR_PACE", "0.5,1.5").split(","))
    if len(pace) != 2 or not 0 < pace[0] <= pace[1]:
        raise ValueError("XIAN_PARLOUR_PACE: two numbers of seconds, low,high (e.g. 0.5,1.5)")
    return int(os.environ.get("XIAN_FLOOR_TABLES", "40")), float(os.environ.get("XIAN_FLOOR_PLAY_S", "60")), (
        pace[0], pace[1])


def _dicts(value: object) -> list[dict[str, object]]:
    return [x for x in value if isinstance(x, dict)] if isinstance(value, list) else []


def _number(value: object) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


def _metrics(browser: Chromium, page: Page) -> dict[str, float]:
    got = browser.send("Performance.getMetrics", page.session)["metrics"]
    return {str(m["name"]): _number(m.get("value")) for m in _dicts(got)}


def _renderer_cpu(browser: Chromium) -> float | None:
    """The renderer processes' CPU seconds (None where the browser does not say)."""
    try:
        info = browser.send("SystemInfo.getProcessInfo")["processInfo"]
    except AssertionError:
        return None
    return sum(_number(p.get("cpuTime")) for p in _dicts(info) if p.get("type") == "renderer")


def measure(rig: Rig, browser: Chromium, page: Page, play_s: float) -> FloorFigures:
    """Watch the floor for ``play_s`` while the tables play; the figures."""
    browser.send("Performance.enable", page.session)
    page.js(INSTRUMENT)
    m0, cpu0, t0, load0 = _metrics(browser, page), _renderer_cpu(browser), time.time(), os.getloadavg()[0]
    time.sleep(play_s)
    m1, cpu1, t1 = _metrics(browser, page), _renderer_cpu(browser), time.time()
    raw = page.js("FLOOR_LOG")
    log = [(str(r[0]), int(r[1]), float(r[2])) for r in (raw if isinstance(raw, list) else []) if isinstance(r, list)]
    for t in rig.tables.values():
        t.stop_playing()
    fig = FloorFigures(frames=len({row[2] for row in log}), seconds=t1 - t0, load=(load0, os.getloadavg()[0]))
    fig.main_thread_share = (m1.get("TaskDuration", 0.0) - m0.get("TaskDuration", 0.0)) / (t1 - t0)
    if cpu0 is not None and cpu1 is not None:
        fig.renderer_share = (cpu1 - cpu0) / (t1 - t0)
    shown: dict[str, list[tuple[int, float]]] = {}
    for table, seq, at_ms in log:
        shown.setdefault(table, []).append((seq, at_ms / 1000))
    for table, t in rig.tables.items():
        seen = sorted(shown.get(table, []), key=lambda x: x[1])
        seqs_by_time, best = [], 0  # (the highest seq shown by each moment: a tile says its latest)
        for seq, when in seen:
            best = max(best, seq)
            seqs_by_time.append((best, when))
        highs = [s for s, _ in seqs_by_time]
        in_db = rig.watch.first_seen[table] if rig.watch is not None else {}
        for row in journal_rows(t.journal):
            at = at_time(row[2])
            if not t0 <= at <= t1 - 2.0:  # (the last two seconds: not yet due)
                continue
            i = bisect.bisect_left(highs, row[1])
            if i == len(highs):
                fig.missed += 1
                continue
            fig.latencies.append(max(0.0, seqs_by_time[i][1] - at))
            if row[1] in in_db:
                fig.to_db.append(max(0.0, in_db[row[1]] - at))
                fig.db_to_page.append(max(0.0, seqs_by_time[i][1] - in_db[row[1]]))
    return fig


def one_run(workdir: Path, progress: Callable[[str], None], tables: int, play_s: float,
            pace: tuple[float, float]) -> FloorFigures:
    with Rig(workdir, tables=tables, pace=pace, floor=True, fee=FEE) as rig:
        progress(f"{tables} tables up; playing ({pace[0]}–{pace[1]} s between presses); a browser on /parlour")
        rig.play()
        browser = Chromium(workdir / "profile")
        try:
            page = browser.page(rig.floor_url(), width=1920, height=1080, mobile=False)
            page.wait(f"document.querySelectorAll('.tile').length === {tables}", "every table's tile", 60)
            time.sleep(WARM_S)
            shots = os.environ.get("XIAN_FLOOR_SHOTS")
            if shots:  # (a picture of the floor with every table, for the documentation)
                page.screenshot(Path(shots) / f"floor-tv-1920-{tables}-tables.png")
            fig = measure(rig, browser, page, play_s)
        finally:
            browser.close()
        if rig.errors():
            raise RuntimeError("; ".join(rig.errors()))
    progress(f"{len(fig.latencies)} records shown, {fig.missed} never; p99 "
             f"{percentile(fig.latencies, 99) * 1e3:.0f} ms; page main thread {fig.main_thread_share * 100:.1f}%")
    return fig


def run(runs: int, progress: Callable[[str], None]) -> list[Result]:
    tables, play_s, pace = settings()
    figs = []
    for r in range(runs):
        progress(f"run {r + 1} of {runs}")
        with tempfile.TemporaryDirectory(prefix="xian-bench-floor-") as tmp:
            figs.append(one_run(Path(tmp), progress, tables, play_s, pace))
    what = f"{tables} tables, presses every {pace[0]}–{pace[1]} s, {play_s:.0f} s watched at 1920×1080"
    out = [
        result(NAME, "event → floor page, p50", [percentile(f.latencies, 50) * 1e3 for f in figs], "ms", note=what),
        result(NAME, "event → floor page, p99", [percentile(f.latencies, 99) * 1e3 for f in figs], "ms",
               target_max=TARGET_P99_MS, note="the record's commit to the page's next animation frame after it"),
        result(NAME, "event → floor page, max", [max(f.latencies) * 1e3 for f in figs], "ms",
               note="the machine's load average: " + ", ".join(f"{f.load[0]:.1f}→{f.load[1]:.1f}" for f in figs)),
        result(NAME, "  of which event → parlour database, p99", [percentile(f.to_db, 99) * 1e3 for f in figs], "ms",
               note="the rig's poll of the database (every 50 ms) first saw the record"),
        result(NAME, "  of which parlour database → page, p99", [percentile(f.db_to_page, 99) * 1e3 for f in figs],
               "ms"),
        result(NAME, "records never shown", [float(f.missed) for f in figs], "records",
               note=f"of {', '.join(str(len(f.latencies) + f.missed) for f in figs)} committed while watched"),
        result(NAME, "frames applied", [f.frames / f.seconds for f in figs], "/s"),
        result(NAME, "page main thread busy", [f.main_thread_share * 100 for f in figs], "% core",
               note="DevTools Performance.getMetrics TaskDuration"),
    ]
    shares = [f.renderer_share for f in figs if f.renderer_share is not None]
    if shares:
        out.append(result(NAME, "renderer process CPU", [s * 100 for s in shares], "% core",
                          note="SystemInfo.getProcessInfo cpuTime"))
    return out
