"""``xian-table run`` through the real command line: a screenshot of the running app, the
terminal table, and what happens with no display."""

from __future__ import annotations

import contextlib
import os
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from table_app.ui.palette import BUTTON
from tests.table_app.ui.conftest import _free_display

pytestmark = pytest.mark.kivy


def _run(args: list[str], env: dict[str, str], cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``stdin`` None: /dev/null, as under systemd (not piped input)."""
    return subprocess.run([sys.executable, "-m", "table_app.cli", "run", *args], input=stdin, capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=120,
                          **({"stdin": subprocess.DEVNULL} if stdin is None else {}))


def _env(tmp_path: Path, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(PYTHONUTF8="1", HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), KIVY_HOME=str(tmp_path / "kivy"))
    env.update(more)
    return env


def test_screenshot_of_the_running_app(xvfb: str, tmp_path: Path) -> None:
    shot = tmp_path / "shots" / "table.png"
    proc = _run(["--sim", "--size", "800x480", "--screenshot", str(shot), "--exit-after", "3"],
                _env(tmp_path, DISPLAY=xvfb), tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (800, 480)
    assert "first frame" in proc.stderr
    # --sim keeps its journal in the user data dir
    assert (tmp_path / "data" / "xian-table" / "journal.sqlite3").is_file()


def test_no_display_and_a_busy_port_says_which_port_to_take(tmp_path: Path) -> None:
    """With no display ``run`` serves the table in the browser (tests/table_app/web/test_table_page.py
    plays a hand that way); a port that is taken is refused with the way out."""
    import socket

    if list(Path("/dev/dri").glob("card*")) if Path("/dev/dri").is_dir() else False:
        pytest.fail("this machine has a KMS console: the no-display path cannot be checked here")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = _run(["--web", f"127.0.0.1:{port}"], _env(tmp_path), tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "Address already in use" in proc.stderr and "--web :8081" in proc.stderr


def test_piped_hands_go_to_the_terminal_table_even_with_a_display(tmp_path: Path) -> None:
    # :7777 has no X server: the app is never started, the pipe is read as hands
    proc = _run([], _env(tmp_path, DISPLAY=":7777"), tmp_path, stdin="123m13p456s789s11z2p win=2p\n")
    assert proc.returncode == 0, proc.stderr
    assert "夹张 closed" in proc.stdout and "no display" not in proc.stderr


def test_terminal_mode_is_still_there(tmp_path: Path) -> None:
    proc = _run(["--terminal"], _env(tmp_path, DISPLAY=":0"), tmp_path, stdin="1112345678999m\nquit\n")
    assert proc.returncode == 0 and "听牌 ready — waiting on 9 tile(s)" in proc.stdout


def test_under_the_app_unit_ready_waits_for_the_screen_and_the_watchdog_is_fed(xvfb: str, tmp_path: Path) -> None:
    """systemd's ``Type=notify`` unit with ``XIAN_TABLE_WATCHDOG_SOURCES=service,ui``: READY=1
    and the WATCHDOG=1 pings need the Kivy clock's beat as well as the service loop's."""
    import socket

    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(60)
    env = _env(tmp_path, DISPLAY=xvfb, NOTIFY_SOCKET=path, WATCHDOG_USEC="2000000",
               XIAN_TABLE_WATCHDOG_SOURCES="service,ui")
    child = subprocess.Popen([sys.executable, "-m", "table_app.cli", "run", "--sim", "--exit-after", "5"],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env, cwd=tmp_path)
    try:
        got: list[str] = []
        while not ("READY=1" in got and got.count("WATCHDOG=1") >= 2):
            got += sock.recv(4096).decode().splitlines()
    finally:
        _out, err = child.communicate(timeout=120)
        sock.close()
    assert child.returncode == 0, err
    assert got.index("READY=1") < got.index("WATCHDOG=1")


def test_fullscreen_takes_the_displays_own_size_and_facing_turns_the_panels(xvfb: str, tmp_path: Path) -> None:
    """``--fullscreen`` on the test's 1280×720 X screen: the window is the display's own size,
    whatever ``--size`` says (it once laid 1280×720 out on an 800×480 display); ``--facing``
    from the command line."""
    shot = tmp_path / "full.png"
    proc = _run(["--fullscreen", "--size", "800x480", "--facing", "--screen", "table", "--screenshot", str(shot),
                 "--exit-after", "3"], _env(tmp_path, DISPLAY=xvfb), tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = shot.read_bytes()
    assert struct.unpack(">II", data[16:24]) == (1280, 720)
    assert "(1280×720, facing, zh, 7\")" in proc.stderr


def test_the_ui_settings_come_from_the_config(xvfb: str, tmp_path: Path) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text('[ui]\nlang = "en"\nlayout = "facing"\ndiagonal_in = 10.1\n')
    shot = tmp_path / "en.png"
    proc = _run(["--config", str(cfg), "--size", "800x480", "--screenshot", str(shot), "--exit-after", "3"],
                _env(tmp_path, DISPLAY=xvfb), tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "(800×480, facing, en, 10.1\")" in proc.stderr


@contextlib.contextmanager
def _screen(width: int, height: int) -> Iterator[str]:
    """An X screen of its own size (no window manager, as on a kiosk Pi with X)."""
    n = _free_display()
    proc = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        sock = Path(f"/tmp/.X11-unix/X{n}")
        deadline = time.monotonic() + 20
        while not sock.exists():
            assert proc.poll() is None and time.monotonic() < deadline, f"Xvfb :{n} did not start"
            time.sleep(0.05)
        yield f":{n}"
    finally:
        proc.terminate()
        proc.wait(10)


def _menu_button(shot: Any) -> tuple[int, int]:
    """The centre of the 菜单 button as drawn: the plain button's colour at the top right."""
    w, h = shot.size
    plain = tuple(round(c * 255) for c in BUTTON["plain"][:3])
    px = shot.load()
    # (the top bar only: the session screen's ＋ 新名字 below it is a plain button too)
    found = [(x, y) for y in range(0, h // 10, 2) for x in range(w // 2, w, 2)
             if all(abs(a - b) <= 3 for a, b in zip(px[x, y][:3], plain, strict=True))]
    assert found, "no 菜单 button drawn at the top right"
    xs, ys = [p[0] for p in found], [p[1] for p in found]
    return (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2


def _edge_light(shot: Any) -> float:
    """How light the screen's bottom edge is (a dialog darkens what is around it)."""
    from PIL import ImageStat

    w, h = shot.size
    band = shot.crop((0, h - h // 30, w, h)).convert("L")
    return float(ImageStat.Stat(band).mean[0])


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_fullscreen_on_another_size_a_tap_at_the_drawn_menu_opens_it(tmp_path: Path, size: tuple[int, int]) -> None:
    """``--fullscreen`` on a screen of another size than the default layout (1280×720): the X
    window covers the screen exactly, the layout is drawn for it (the 菜单 button in the top
    right corner of the screen's pixels), and a real X click there (xdotool) opens the menu."""
    from PIL import ImageGrab

    with _screen(*size) as display:
        env = _env(tmp_path, DISPLAY=display)
        app = subprocess.Popen([sys.executable, "-m", "table_app.cli", "run", "--sim", "--fullscreen", "--exit-after",
                                "60"], env=env, cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        try:
            found = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(app.pid)], env=env,
                                   capture_output=True, text=True, timeout=60)
            window = found.stdout.split()[0]
            geometry = subprocess.run(["xdotool", "getwindowgeometry", "--shell", window], env=env, capture_output=True,
                                      text=True, timeout=10).stdout
            assert f"X=0\nY=0\nWIDTH={size[0]}\nHEIGHT={size[1]}" in geometry, geometry
            time.sleep(3)  # (the first frames)
            before = ImageGrab.grab(xdisplay=display)
            assert before.size == size
            x, y = _menu_button(before)
            assert x > size[0] * 0.8 and y < size[1] * 0.12, (x, y)  # at the top right of the screen itself
            subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], env=env, check=True, timeout=10)
            time.sleep(2)
            after = ImageGrab.grab(xdisplay=display)
            assert _edge_light(after) < 0.5 * _edge_light(before), "the menu did not open"
        finally:
            app.terminate()
            app.communicate(timeout=30)
