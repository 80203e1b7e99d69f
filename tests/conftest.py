"""Shared fixtures. Real parts only: real files, real processes, real ports."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


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
