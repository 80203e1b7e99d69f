"""Shared fixtures. Real parts only: real files, real processes, real ports."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Final

import pytest

GROUPS: Final = (("rig", "rig"), ("browser", "chromium"))
"""The markers that hold a heavy shared resource, first match first, and the xdist group each
runs in: headless Chromium, the parlour's 8-table rig. A module says which it needs with
``pytestmark``. The Kivy tests (``kivy``: a window on the worker's own Xvfb, a new app for each
test) are in no group: any worker takes the next one, each worker its own window. In two
groups the larger made the suite's wall time: by module, 710 s against 500 s of one loaded
run (the layout checks at three sizes, the fee and the past screens all fell in one); by a
hash of each test's id, that run's tests would have made 570 s against 340."""


def _group(item: pytest.Item) -> str | None:
    return next((g for marker, g in GROUPS if item.get_closest_marker(marker)), None)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``make test`` runs the suite on four workers (on two cores) (pytest-xdist, ``--dist loadgroup``; most
    tests wait on disks, brokers, browsers and windows more than they compute): a group's tests
    run one at a time on one worker, so one Chromium and one rig are busy at once, beside the
    other tests on the other workers."""
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
