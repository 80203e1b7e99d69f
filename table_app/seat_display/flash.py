"""``xian-table seat-display --flash``: the firmware and its one configuration file onto a
board over USB, with ``mpremote``.

The files are first laid out in a folder exactly as they go on the board (``stage``), then
one ``mpremote`` command copies them and resets the board (``mpremote_command``). Nothing
here needs a board except running that command.

>>> cfg = device_config(seat=2, table="den", prefix="xian", host="192.168.1.20", port=1883, user="display",
...                     password="pw", ssid="home", wifi_password="wpw", display="ssd1306")
>>> cfg["seat"], cfg["host"], cfg["display"], cfg["claim_window_s"]
(2, '192.168.1.20', 'ssd1306', 3)
>>> mpremote_command("mpremote", "auto", ["main.py", "umqtt"])
['mpremote', 'connect', 'auto', 'fs', 'cp', '-r', 'main.py', 'umqtt', ':', '+', 'reset']
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

FIRMWARE = Path(__file__).resolve().parent / "firmware"
CONFIG_NAME = "seat_config.json"
DISPLAYS = ("ssd1306", "st7789")
DEFAULT_CLAIM_WINDOW_S = 3
# what each display needs on the board besides the common files
COMMON = ("main.py", "seat_app.py", "seat_config.py", "seat_countdown.py", "seat_font.py", "seat_link.py",
          "seat_screen.py", "seat_time.py", "seat_words.py", "umqtt")
FOR_DISPLAY = {"ssd1306": ("ssd1306.py", "font_s.bin"), "st7789": ("st7789.py", "font_l.bin")}
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "0.0.0.0")


class FlashError(ValueError):
    """What was wrong with the request, quoting it."""


def device_config(*, seat: int, table: str, prefix: str, host: str, port: int, user: str | None,
                  password: str | None, ssid: str, wifi_password: str, display: str,
                  claim_window_s: float = DEFAULT_CLAIM_WINDOW_S, pins: dict[str, int] | None = None) -> dict[str, Any]:
    """The board's ``seat_config.json`` (the keys of ``firmware/seat_config.py``), checked."""
    if not 0 <= seat <= 3:
        raise FlashError(f"seat must be 0–3, got {seat}")
    if display not in DISPLAYS:
        raise FlashError(f"display must be one of {', '.join(DISPLAYS)}, got {display!r}")
    if not ssid:
        raise FlashError("the board needs the Wi-Fi network's name: give --wifi SSID")
    if host in LOCAL_HOSTS or host.startswith("127."):
        raise FlashError(f"the board cannot reach the broker at {host!r}: give the Pi's address or name as the "
                         "board sees it (mqtt://display:PASS@pi.local)")
    if user and not password:
        raise FlashError(f"no password for the broker user {user!r}: put it in the URL (mqtt://{user}:PASS@{host})")
    cfg: dict[str, Any] = {"wifi_ssid": ssid, "wifi_password": wifi_password, "host": host, "port": port,
                           "user": user or "", "password": password or "", "prefix": prefix, "table": table,
                           "seat": seat, "display": display, "claim_window_s": claim_window_s}
    if pins:
        cfg["pins"] = pins
    return cfg


def files_for(display: str) -> list[str]:
    return [*COMMON, *FOR_DISPLAY[display]]


def stage(cfg: dict[str, Any], folder: Path) -> list[str]:
    """Lay out the board's files in ``folder`` (the firmware for the display and the config);
    returns the names to copy, in order."""
    folder.mkdir(parents=True, exist_ok=True)
    names = files_for(cfg["display"])
    for name in names:
        src = FIRMWARE / name
        if src.is_dir():
            shutil.copytree(src, folder / name, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, folder / name)
    (folder / CONFIG_NAME).write_text(json.dumps(cfg, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                                      encoding="utf-8")
    return [*names, CONFIG_NAME]


def find_mpremote() -> str | None:
    beside = Path(sys.executable).with_name("mpremote")
    return shutil.which("mpremote") or (str(beside) if beside.exists() else None)


def mpremote_command(mpremote: str, port: str, names: list[str]) -> list[str]:
    """Copy ``names`` (run from the staged folder) to the board's root, then reset it."""
    return [mpremote, "connect", port, "fs", "cp", "-r", *names, ":", "+", "reset"]
