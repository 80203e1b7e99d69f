"""The parlour's long run (issue 30): 40 tables on one parlour, one of them offline for an hour
of play, the parlour service on SQLite (or PostgreSQL).

    xian-table bench --only parlour --runs 1

Only run when named (``--only parlour``): it takes the offline time and more. Environment:
``XIAN_PARLOUR_TABLES`` (40), ``XIAN_PARLOUR_OFFLINE_S`` (3600: the hour; try it short),
``XIAN_PARLOUR_PACE`` (``0.5,1.5``: seconds between a table's presses, drawn evenly),
``XIAN_PARLOUR_DB`` (``sqlite`` or ``postgresql``: a server started for the run),
``XIAN_PARLOUR_DIR`` (keep the run's folder there; default a temporary one).

The run: every table plays; after a minute table ``t01``'s uplink goes silent (no byte
passes either way, as when a table's Wi-Fi or the parlour's router goes down) for the
offline time while it plays on; then it comes back, the others play another minute, the
players stop, and the parlour must then hold every table's journal record by record.
Reported: event → parlour database p50/p99/max for the records committed outside any outage
(the record's own commit time ``at`` to the moment the rig's poll of the database first saw
it; poll every 50 ms), the catch-up time after the outage, the parlour service's CPU (share
of one core over its life) and peak memory, and the database's size per 1,000 hands.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from table_app.bench import Result, result
from table_app.bench.parlour_rig import Figures, Rig

NAME = "parlour"
DESCRIPTION = "40 tables mirrored to one parlour, one offline for an hour of play (XIAN_PARLOUR_OFFLINE_S)"

TARGET_P99_MS = 500.0
TARGET_CATCH_UP_S = 10.0
TARGET_CPU_PCT = 20.0
WARM_S = 60.0
AFTER_S = 60.0


def settings() -> tuple[int, float, tuple[float, float], str]:
    pace = tuple(float(x) for x in os.environ.get("XIAN_PARLOUR_PACE", "0.5,1.5").split(","))
    if len(pace) != 2 or not 0 < pace[0] <= pace[1]:
        raise ValueError("XIAN_PARLOUR_PACE: two numbers of seconds, low,high (e.g. 0.5,1.5)")
    return (int(os.environ.get("XIAN_PARLOUR_TABLES", "40")), float(os.environ.get("XIAN_PARLOUR_OFFLINE_S", "3600")),
            (pace[0], pace[1]), os.environ.get("XIAN_PARLOUR_DB", "sqlite"))


def one_run(workdir: Path, progress: Callable[[str], None], tables: int, offline_s: float,
            pace: tuple[float, float], db: str, warm_s: float = WARM_S, after_s: float = AFTER_S) -> Figures:
    with Rig(workdir, tables=tables, db=db, pace=pace) as rig:
        progress(f"{tables} tables up; playing ({pace[0]}–{pace[1]} s between presses)")
        rig.play()
        time.sleep(warm_s)
        progress(f"t01's uplink silent for {offline_s:.0f} s")
        rig.cut("t01")
        end = time.monotonic() + offline_s
        while (left := end - time.monotonic()) > 0:
            time.sleep(min(left, 300.0))
            if left > 300:
                progress(f"{left / 60:.0f} min of the outage left")
            if rig.errors():
                raise RuntimeError("; ".join(rig.errors()))
        rig.restore("t01")
        progress("t01 back; playing on")
        time.sleep(after_s)
        settled = rig.settle(timeout=120)
        problems = rig.compare()
        if problems or rig.errors():
            raise RuntimeError("the parlour's copy differs from the journals: " + "; ".join(problems + rig.errors()))
        fig = rig.figures(exclude_s=15.0)
        progress(f"the parlour held everything {settled:.1f} s after the players stopped; {fig}")
        return fig


def run(runs: int, progress: Callable[[str], None]) -> list[Result]:
    tables, offline_s, pace, db = settings()
    figs = []
    for r in range(runs):
        progress(f"run {r + 1} of {runs}")
        keep = os.environ.get("XIAN_PARLOUR_DIR")
        if keep:
            figs.append(one_run(Path(keep) / f"run{r + 1}", progress, tables, offline_s, pace, db))
            continue
        with tempfile.TemporaryDirectory(prefix="xian-bench-parlour-") as tmp:
            figs.append(one_run(Path(tmp), progress, tables, offline_s, pace, db))
    what = f"{tables} tables, {db}, t01 offline {offline_s:.0f} s"
    catch = [max(f.catch_up.values(), default=float("nan")) for f in figs]
    return [
        result(NAME, "event → parlour database, p50", [f.latency_p50 * 1e3 for f in figs], "ms", note=what),
        result(NAME, "event → parlour database, p99", [f.latency_p99 * 1e3 for f in figs], "ms",
               target_max=TARGET_P99_MS, note="records committed outside any outage; polled every 50 ms"),
        result(NAME, "event → parlour database, max", [f.latency_max * 1e3 for f in figs], "ms"),
        result(NAME, "catch-up after the outage", catch, "s", target_max=TARGET_CATCH_UP_S,
               note="from the link's return until the parlour held all t01 had committed by then"),
        result(NAME, "parlour service CPU", [f.service_cpu_share * 100 for f in figs], "% core",
               target_max=TARGET_CPU_PCT, note="over its life, start-up included"),
        result(NAME, "parlour service peak memory", [f.service_peak_rss_mb for f in figs], "MB", note="VmHWM"),
        result(NAME, "database per 1,000 hands", [f.db_bytes_per_1000_hands / 1e6 for f in figs], "MB",
               note=f"hands: {', '.join(str(f.hands) for f in figs)}; records: "
                    f"{', '.join(str(f.records) for f in figs)}"),
    ]
