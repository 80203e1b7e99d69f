"""A slow disk: a button press → the four MQTT seat views with every fsync of the journal
slowed to 100 ms, beside the same presses on this machine's own disk.

An SD card's fsync takes 20–300 ms (a worn one longer); a durable commit waits for one, so
on such a card every press costs at least that much before anyone is told. This suite runs
the ``mqtt`` suite's game (its own mosquitto, a press submitted once the previous one's four
seat views have arrived) in a child process with the fsync shim (``fsync_shim.c``, built
here with gcc) preloaded: every ``fsync``/``fdatasync`` of a file in the journal's folder
sleeps ``DELAY_MS`` first. A press is one or two events (a discard, a pass; the quick 下家's
``resolve`` and its discard) journaled in one durable commit, so its latency is at least
100 ms; "above the fsyncs" is the latency less 100 ms: the table's own time (and any extra
sync, such as a WAL checkpoint's).

:func:`build_shim` compiles the shim (gcc and libc6-dev are needed; without them the suite
says so and is skipped); :func:`slow_env` is the environment that makes a child's journal
slow. The tests in ``tests/reliability/`` use the same shim.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from table_app.bench import Result, result

NAME = "slowdisk"
DESCRIPTION = ("a button press → the 4 MQTT seat views with the journal's fsync slowed to 100 ms (the fsync shim, "
               "in a child process), beside the same presses without")

DELAY_MS = 100
PRESSES = 200

SHIM_SOURCE = Path(__file__).with_name("fsync_shim.c")


class ShimUnavailable(RuntimeError):
    """The shim cannot be built here; the message says what is missing."""


def build_shim(folder: Path) -> Path:
    """``folder/fsync_shim.so``, compiled from :data:`SHIM_SOURCE`."""
    gcc = shutil.which("gcc")
    if gcc is None:
        raise ShimUnavailable("no gcc on this machine to build the fsync shim (Debian: apt install gcc libc6-dev; "
                              "scripts/setup.sh test installs them)")
    if not SHIM_SOURCE.is_file():
        raise ShimUnavailable(f"the fsync shim's source {SHIM_SOURCE} is missing")
    out = Path(folder) / "fsync_shim.so"
    proc = subprocess.run([gcc, "-shared", "-fPIC", "-O2", "-o", str(out), str(SHIM_SOURCE), "-ldl", "-lpthread"],
                          capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise ShimUnavailable(f"gcc could not build the fsync shim: {proc.stderr.strip()[-500:]}")
    return out


def slow_env(shim: Path, folder: Path, delay_ms: int, base: dict[str, str] | None = None) -> dict[str, str]:
    """An environment in which every sync of a file in ``folder`` (and of ``folder``) takes
    ``delay_ms`` milliseconds longer. The shim sees the real path: ``folder`` is resolved."""
    env = dict(os.environ if base is None else base)
    env.update(LD_PRELOAD=str(shim), XIAN_SYNC_WATCH=str(Path(folder).resolve()), XIAN_SYNC_DELAY_MS=str(delay_ms))
    return env


def _ms(values: list[float]) -> list[float]:
    return [v / 1000 for v in values]


def _slow_run(shim: Path, workdir: Path, presses: int) -> tuple[list[float], list[int]]:
    """The presses in a child process whose journal syncs take ``DELAY_MS``: (µs, events) a press."""
    journal_dir = workdir / "journal"
    journal_dir.mkdir(parents=True)
    proc = subprocess.run([sys.executable, "-m", "table_app.bench.slowdisk", str(workdir), str(journal_dir),
                           str(presses)], env=slow_env(shim, journal_dir, DELAY_MS), capture_output=True, text=True,
                          timeout=presses * 5 + 120, stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        raise RuntimeError(f"the slow-disk child failed ({proc.returncode}): {proc.stderr[-2000:]}")
    data = json.loads(proc.stdout.splitlines()[-1])
    return data["total"], data["events"]


def run(runs: int, progress: Callable[[str], None], presses: int = PRESSES) -> list[Result]:
    from table_app.bench.mqtt import one_run, percentile

    fig: dict[str, list[float]] = {k: [] for k in ("plain50", "plain99", "slow50", "slow99", "above50", "above99")}
    per_press: list[float] = []
    with tempfile.TemporaryDirectory(prefix="xian-bench-slowdisk-") as tmp:
        try:
            shim = build_shim(Path(tmp))
        except ShimUnavailable as e:
            progress(f"{e}: the slowdisk suite is skipped")
            return []
        for r in range(runs):
            progress(f"run {r + 1} of {runs}: {presses} presses on this disk, then with a {DELAY_MS} ms fsync")
            (Path(tmp) / f"plain-{r}").mkdir()
            plain = one_run(Path(tmp) / f"plain-{r}", lambda _: None, presses).total
            slow, events = _slow_run(shim, Path(tmp) / f"slow-{r}", presses)
            above = [t - DELAY_MS * 1000 for t in slow]  # (one durable commit a press)
            for name, values in (("plain", plain), ("slow", slow), ("above", above)):
                fig[f"{name}50"].append(percentile(values, 50))
                fig[f"{name}99"].append(percentile(values, 99))
            per_press.append(sum(events) / len(events))
    said = f"{sum(per_press) / len(per_press):.2f} events a press, in one durable commit of ≥ {DELAY_MS} ms"
    sync = f"fsync {DELAY_MS} ms"
    return [
        result(NAME, "press → 4 views, this disk, p50", _ms(fig["plain50"]), "ms",
               note=f"{presses} presses, the journal on this machine's own disk"),
        result(NAME, "press → 4 views, this disk, p99", _ms(fig["plain99"]), "ms"),
        result(NAME, f"press → 4 views, {sync}, p50", _ms(fig["slow50"]), "ms", note=said),
        result(NAME, f"press → 4 views, {sync}, p99", _ms(fig["slow99"]), "ms"),
        result(NAME, f"{sync}: above the fsyncs, p50", _ms(fig["above50"]), "ms",
               note=f"the latency less the press's {DELAY_MS} ms commit: the table's own time on the slow disk"),
        result(NAME, f"{sync}: above the fsyncs, p99", _ms(fig["above99"]), "ms"),
    ]


def _child(workdir: str, journal_dir: str, presses: str) -> int:
    """The slow run, in the shimmed child: the timings as one JSON line on stdout."""
    os.environ.pop("LD_PRELOAD", None)  # (loaded already; mosquitto, started next, needs no shim)
    from table_app.bench.mqtt import one_run

    timings = one_run(Path(workdir), lambda _: None, int(presses), journal_dir=Path(journal_dir))
    print(json.dumps({"total": timings.total, "events": timings.events}))
    return 0


if __name__ == "__main__":
    sys.exit(_child(*sys.argv[1:]))
