"""What the installed files say: the sysusers entry, the config, the units, the inputs line,
and the ``xian-table`` program the units run."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from table_app.install.system import GROUPS, SHIPPED_BIN, STATE_DIR, USER, InstallError

REPO = Path(__file__).resolve().parents[2]
UNITS_SRC = REPO / "systemd"
DOC_SRC = REPO / "docs" / "raspberry-pi.md"


def sysusers_text() -> str:
    lines = ["# xian-table: the table's system user and the device groups it uses (systemd-sysusers)"]
    lines += [f"g {g} -" for g in GROUPS]
    lines.append(f'u {USER} - "xian-table mahjong table" {STATE_DIR} /usr/sbin/nologin')
    lines += [f"m {USER} {g}" for g in GROUPS]
    return "\n".join(lines) + "\n"


def config_text(mqtt_user: str | None) -> str:
    """The installed config: every key at its default, the journal in the state directory."""
    from table_app.config.file import defaults_toml, parse_config

    text = defaults_toml()
    lines = text.splitlines()
    out: list[str] = []
    section = ""
    for line in lines:
        if line.startswith("["):
            section = line.strip("[]")
        if section == "journal" and line.startswith("path = "):
            line = f'path = "{STATE_DIR / "journal.sqlite3"}"'
        if section == "mqtt" and line.startswith("url = ") and mqtt_user:
            line = f'url = "mqtt://{mqtt_user}@localhost:1883"'
        out.append(line)
    result = "# xian-table: written by `xian-table install`; edit freely (docs/config.md)\n" + "\n".join(out) + "\n"
    parse_config(result, "installed config")  # never install a file the table would refuse
    return result


def is_installed_config(config: Path) -> bool:
    """Whether ``config`` is still the file an install wrote (no owner's edits in it)."""
    try:
        text = config.read_text(encoding="utf-8")
    except OSError:
        return False
    return text in (config_text(None), config_text("xian-table"))


def unit_text(name: str, binary: str) -> bytes:
    src = UNITS_SRC / name
    try:
        text = src.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InstallError(f"the unit {name} is not at {src}: install from a xian-table checkout") from None
    text = text.replace(SHIPPED_BIN, binary)
    if binary.startswith(("/home/", "/root/")):
        # The program lives in a home folder (a checkout's .venv): let the service read it.
        text = text.replace("ProtectHome=yes", "ProtectHome=read-only")
    return text.encode()


def find_binary() -> str:
    """The ``xian-table`` program to run from the units: the one beside this Python."""
    beside = Path(sys.executable).parent / "xian-table"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside.absolute())
    found = shutil.which("xian-table")
    if found:
        return str(Path(found).absolute())
    raise InstallError("cannot find the xian-table program (give --bin PATH)")


def inputs_text(inputs: Sequence[str]) -> str:
    """The units' ``XIAN_TABLE_INPUTS`` (``--gpio``, ``--panel DEVICE``), one EnvironmentFile line.

    >>> print(inputs_text(["--gpio", "--panel", "/dev/ttyACM0"]), end="")
    # the table's buttons for the units' ExecStart (xian-table install --gpio / --panel DEVICE)
    XIAN_TABLE_INPUTS=--gpio --panel /dev/ttyACM0
    """
    for word in inputs:
        if not word or any(c.isspace() or c in "$\\\"'" for c in word):
            raise InstallError(f"an input argument cannot contain spaces, quotes or '$': {word!r}")
    return ("# the table's buttons for the units' ExecStart (xian-table install --gpio / --panel DEVICE)\n"
            f"XIAN_TABLE_INPUTS={' '.join(inputs)}\n")


def panel_device(inputs_env: Path) -> str:
    """The ``--panel`` device an installed table uses ("" when none)."""
    try:
        text = inputs_env.read_text(encoding="utf-8")
    except OSError:
        return ""
    for line in text.splitlines():
        if line.startswith("XIAN_TABLE_INPUTS="):
            words = line.split("=", 1)[1].split()
            if "--panel" in words[:-1]:
                return words[words.index("--panel") + 1]
    return ""
