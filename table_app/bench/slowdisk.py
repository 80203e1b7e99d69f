"""A slow disk for a child process: the fsync shim (``fsync_shim.c``, built with gcc) preloaded
so that every ``fsync``/``fdatasync`` of the journal's folder takes as long as asked.

:func:`build_shim` compiles it (gcc and libc6-dev are needed; without them it says so and
nothing is built); :func:`slow_env` is the environment that makes a child's journal slow.
The tests in ``tests/reliability/`` use the same shim.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

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
