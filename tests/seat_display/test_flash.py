"""``xian-table seat-display --flash`` as far as it goes without a board: the files it lays
out (complete: they import under MicroPython and the config loads with the firmware's own
reader), the mpremote command it builds, and the real mpremote failing on a missing port."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from table_app.seat_display.flash import FIRMWARE, FlashError, device_config, files_for
from tests.seat_display.test_firmware_micropython import WASM

HERE = Path(__file__).resolve().parent
BROKER = "mqtt://display:s3cret@192.168.1.20"


def flash_args(*extra: str) -> list[str]:
    return ["seat-display", "--seat", "3", "--table", "den", "--broker", BROKER, "--wifi", "home", *extra]


def test_stage_lays_out_the_board_and_prints_the_command(cli, tmp_path: Path, fw) -> None:
    board = tmp_path / "board"
    proc = cli(*flash_args("--display", "st7789", "--wifi-password", "wpw", "--stage", str(board)))
    assert proc.returncode == 0, proc.stderr
    names = [*files_for("st7789"), "seat_config.json"]
    assert f"cd {board} && mpremote connect auto fs cp -r {' '.join(names)} : + reset" in proc.stdout
    assert sorted(p.name for p in board.iterdir()) == sorted(names)
    assert (board / "umqtt" / "simple.py").read_bytes() == (FIRMWARE / "umqtt" / "simple.py").read_bytes()
    cfg = fw.config.load(str(board / "seat_config.json"))  # the firmware's own reader
    assert (cfg["host"], cfg["port"], cfg["user"], cfg["password"]) == ("192.168.1.20", 1883, "display", "s3cret")
    assert (cfg["wifi_ssid"], cfg["wifi_password"], cfg["table"], cfg["seat"]) == ("home", "wpw", "den", 3)
    assert cfg["display"] == "st7789" and cfg["pins"]["dc"] == 16 and cfg["claim_window_s"] == 3
    assert fw.config.topics(cfg) == (b"xian/den/seat/3", b"xian/den/seat/3/name", b"xian/den/status")


def test_the_wifi_password_can_come_from_the_environment(tmp_path: Path) -> None:
    board = tmp_path / "board"
    env = dict(os.environ, PYTHONUTF8="1", XIAN_SEAT_WIFI_PASSWORD="from-env")
    proc = subprocess.run([sys.executable, "-m", "table_app.cli", *flash_args("--stage", str(board))],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads((board / "seat_config.json").read_text())["wifi_password"] == "from-env"


@pytest.mark.parametrize("display", ["ssd1306", "st7789"])
def test_the_staged_board_is_complete_under_micropython(cli, tmp_path: Path, display: str) -> None:
    board = tmp_path / "board"
    assert cli(*flash_args("--display", display, "--stage", str(board))).returncode == 0
    script = tmp_path / "boot_check.py"
    script.write_text(
        "import sys\n"
        "class socket:  # the WebAssembly port has no sockets; a board has\n"
        "    pass\n"
        "sys.modules['socket'] = socket\n"
        "from umqtt.simple import MQTTClient\n"
        "import seat_app, seat_config\n"
        "cfg = seat_config.load()\n"
        f"mod = __import__({'ssd1306' if display == 'ssd1306' else 'st7789'!r})\n"
        "font = seat_app.load_font('font_s.bin' if cfg['display'] == 'ssd1306' else 'font_l.bin')\n"
        "print('ok', cfg['display'], cfg['seat'], len(font.faces))\n")
    node = shutil.which("node")
    assert node, "node is missing: scripts/setup.sh test installs nodejs"
    proc = subprocess.run([node, str(HERE / "mpy_run.mjs"), str(board), str(script)], capture_output=True, text=True,
                          env=dict(os.environ, NODE_PATH=str(WASM)), timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["ok", display, "3", "4"]


def test_flash_runs_mpremote_and_says_when_there_is_no_board(cli) -> None:
    proc = cli(*flash_args("--flash", "--port", "/dev/xian-no-such-board"))
    assert proc.returncode == 1
    assert "connect /dev/xian-no-such-board fs cp -r main.py" in proc.stdout
    assert "failed to access /dev/xian-no-such-board" in proc.stderr  # mpremote's own words
    assert "is the board plugged in" in proc.stderr


@pytest.mark.parametrize(("broker", "extra", "words"), [
    ("mqtt://display:pw@localhost", (), "cannot reach the broker at 'localhost'"),
    ("mqtt://display@192.168.1.20", (), "no password for the broker user 'display'"),
    ("mqtts://display:pw@192.168.1.20", (), "plain MQTT"),
    (BROKER, ("--wifi", ""), "Wi-Fi network's name"),
])
def test_flash_refuses_what_a_board_could_not_use(cli, tmp_path: Path, broker: str, extra: tuple[str, ...],
                                                   words: str) -> None:
    proc = cli("seat-display", "--seat", "1", "--broker", broker, "--wifi", "home", *extra, "--stage",
               str(tmp_path / "b"))
    assert proc.returncode == 2 and words in proc.stderr, proc.stderr
    assert not (tmp_path / "b").exists()


def test_device_config_checks_its_input() -> None:
    with pytest.raises(FlashError, match="seat must be 0–3, got 4"):
        device_config(seat=4, table="t", prefix="xian", host="pi", port=1883, user="display", password="p",
                      ssid="s", wifi_password="", display="ssd1306")
    with pytest.raises(FlashError, match="display must be one of ssd1306, st7789, got 'lcd'"):
        device_config(seat=0, table="t", prefix="xian", host="pi", port=1883, user="display", password="p",
                      ssid="s", wifi_password="", display="lcd")
