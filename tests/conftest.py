"""Shared fixtures. Real parts only: real files, real processes, real ports."""

from __future__ import annotations

import os
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Final

import pytest

GROUPS: Final = (("kivy", "kivy"), ("rig", "rig"), ("browser", "chromium"))
"""The markers that hold a heavy shared resource, first match first, and the xdist group each
runs in: a Kivy window (one Xvfb and window per process), headless Chromium, the parlour's
8-table rig. A module says which it needs with ``pytestmark``."""
KIVY_GROUPS: Final = 2
"""The Kivy tests' modules are shared out over this many groups (by a hash of the module's file
name: the same module always in the same group), so that two workers may each hold a window."""


def _group(item: pytest.Item) -> str | None:
    group = next((g for marker, g in GROUPS if item.get_closest_marker(marker)), None)
    if group == "kivy":
        return f"kivy-{zlib.crc32(item.path.name.encode()) % KIVY_GROUPS}"
    return group


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``make test`` runs the suite on three workers (pytest-xdist, ``--dist loadgroup``; most
    tests wait on disks, brokers, browsers and windows more than they compute): a group's tests
    run one at a time on one worker, so at most two Kivy windows, one Chromium and one rig are
    busy at once, beside the light tests on the other workers."""
    for item in items:
        if group := _group(item):
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture
def cli(tmp_path: Path):
    """Run the real ``xian-table`` entry point in a child process; returns CompletedProcess."""

    def run(*args: str, input: str | None = None, check: bool = False) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ, PYTHONUTF8="1")
        proc = subprocess.run(
            [sys.executable, "-m", "table_app.cli", *args],
            input=input, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120,
        )
        if check and proc.returncode != 0:
            raise AssertionError(f"xian-table {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr}")
        return proc

    return run
