"""What ``import engine`` costs a fresh process (issue 19): the time of the import and the
memory it adds to a bare interpreter — most of a crash-test child's start-up, and part of
every process of the app.

Each run is a new interpreter (``sys.executable``) that reads its own clock and peak
resident size around ``import engine``; the median over runs is reported. The modules'
bytecode is cached as in any installation (a first, unmeasured import writes it, even where
``PYTHONDONTWRITEBYTECODE`` is set for the tests): compiling the sources would cost more
than the import.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable

from table_app.bench import Result, result

NAME = "startup"
DESCRIPTION = "import engine in a fresh interpreter: milliseconds and MB above the bare interpreter"

TIME_TARGET_MS = 60
MEMORY_TARGET_MB = 15

CHILD = """
import json, time
def peak_kib():  # the process's peak resident size (not ru_maxrss: that may carry the parent's over exec)
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
before = peak_kib()
start = time.perf_counter()
import engine
seconds = time.perf_counter() - start
after = peak_kib()
print(json.dumps({"ms": 1000 * seconds, "mb": (after - before) / 1024}))
"""


def measure() -> dict[str, float]:
    """One fresh interpreter's ``import engine``: ``ms`` and ``mb`` (peak resident size
    added, in MiB; Linux's ``/proc/self/status``)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True, env=env).stdout
    data: dict[str, float] = json.loads(out)
    return data


def run(runs: int, progress: Callable[[str], None]) -> list[Result]:
    progress(f"import engine in {runs} fresh interpreters (after one that caches the bytecode)")
    measure()
    seen = [measure() for _ in range(runs)]
    return [
        result(NAME, "import engine (time)", [s["ms"] for s in seen], "ms", target_max=TIME_TARGET_MS),
        result(NAME, "import engine (memory added)", [s["mb"] for s in seen], "MB",
               target_max=MEMORY_TARGET_MB),
    ]
