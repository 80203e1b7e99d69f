"""Where an install puts things, the :class:`Target` it works on, and what that system already
has (users, groups, enabled units); files are written atomically."""

from __future__ import annotations

import os
import pwd
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

USER = "xian-table"
GROUPS = ("gpio", "dialout", "video", "input", "render")
APP_UNIT = "xian-table.service"
HEADLESS_UNIT = "xian-table-headless.service"
BACKUP_SERVICE = "xian-table-backup.service"
BACKUP_TIMER = "xian-table-backup.timer"
ALL_UNITS = (APP_UNIT, HEADLESS_UNIT, BACKUP_SERVICE, BACKUP_TIMER)
SHIPPED_BIN = "/usr/local/bin/xian-table"  # ExecStart in systemd/*.service, replaced at install

SYSUSERS = Path("/etc/sysusers.d/xian-table.conf")
CONFIG_DIR = Path("/etc/xian-table")
CONFIG = CONFIG_DIR / "config.toml"
MQTT_ENV = CONFIG_DIR / "mqtt.env"
MQTT_USERS = CONFIG_DIR / "mqtt-users"  # the other broker users' passwords, root only (xian-table mqtt-users)
CA_PUBLIC = CONFIG_DIR / "ca.crt"  # the broker's CA for clients to trust, when TLS is on
INPUTS_ENV = CONFIG_DIR / "inputs.env"
STATE_DIR = Path("/var/lib/xian-table")
UNIT_DIR = Path("/etc/systemd/system")
MOSQUITTO_CONF = Path("/etc/mosquitto/conf.d/xian-table.conf")
MOSQUITTO_PARLOUR = Path("/etc/mosquitto/conf.d/xian-table.parlour.conf")  # the bridge (xian-table parlour-join)
MOSQUITTO_DATA = Path("/etc/mosquitto/xian-table")
MOSQUITTO_DROPIN = UNIT_DIR / "mosquitto.service.d" / "xian-table.conf"  # limits, file groups at start
DOC = Path("/usr/share/doc/xian-table/raspberry-pi.md")

Runner = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]


class InstallError(RuntimeError):
    """The install cannot go on; what was done so far is listed and stays consistent."""


def run_command(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(argv), capture_output=True, text=True, timeout=300)


@dataclass
class Target:
    """Where and how: the file system ``root`` ("/" for the real system), commands runner."""

    root: Path = Path("/")
    runner: Runner = run_command
    binary: str = SHIPPED_BIN

    @property
    def live(self) -> bool:
        """True on the running system: systemctl talks to systemd, services are started."""
        return self.root.resolve() == Path("/")

    def path(self, p: Path) -> Path:
        return self.root / p.relative_to("/")

    def run(self, argv: Sequence[str]) -> None:
        proc = self.runner(argv)
        if proc.returncode != 0:
            detail = (proc.stderr or proc.stdout or "").strip()
            raise InstallError(f"{' '.join(argv)} failed ({proc.returncode}): {detail}")

    def systemctl(self, *args: str) -> list[str]:
        return ["systemctl", *([] if self.live else [f"--root={self.root}"]), *args]


# -- looking at the system -------------------------------------------------------------


def read_passwd(root: Path) -> dict[str, tuple[int, int]]:
    try:
        text = (root / "etc/passwd").read_text(encoding="utf-8")
    except OSError:
        return {}
    out = {}
    for line in text.splitlines():
        parts = line.split(":")
        if len(parts) >= 4 and parts[2].isdigit() and parts[3].isdigit():
            out[parts[0]] = (int(parts[2]), int(parts[3]))
    return out


def read_groups(root: Path) -> dict[str, tuple[int, set[str]]]:
    try:
        text = (root / "etc/group").read_text(encoding="utf-8")
    except OSError:
        return {}
    out = {}
    for line in text.splitlines():
        parts = line.split(":")
        if len(parts) >= 4 and parts[2].isdigit():
            out[parts[0]] = (int(parts[2]), {m for m in parts[3].split(",") if m})
    return out


def ids_in(root: Path, user: str | None) -> tuple[int, int] | None:
    if user is None:
        return None
    if root.resolve() == Path("/"):
        try:
            pw = pwd.getpwnam(user)
            return pw.pw_uid, pw.pw_gid
        except KeyError:
            return None
    return read_passwd(root).get(user)


def group_id(root: Path, name: str) -> int | None:
    found = read_groups(root).get(name)
    return found[0] if found else None


def user_ready(root: Path) -> bool:
    if USER not in read_passwd(root):
        return False
    groups = read_groups(root)
    return all(g in groups and USER in groups[g][1] for g in GROUPS)


def unit_enabled(root: Path, unit: str) -> bool:
    wants = "timers.target.wants" if unit.endswith(".timer") else "multi-user.target.wants"
    return (root / UNIT_DIR.relative_to("/") / wants / unit).is_symlink()


def unit_active(t: Target, unit: str) -> bool:
    return t.runner(["systemctl", "is-active", "--quiet", unit]).returncode == 0


def write_atomic(p: Path, data: bytes, mode: int, group_of: tuple[Path, str] | None = None) -> None:
    """Write through a temporary file and rename: a power cut leaves the old file or the new."""
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(tmp, mode)
    if group_of is not None and os.geteuid() == 0:
        ids = ids_in(*group_of)
        if ids is not None:
            os.chown(tmp, 0, ids[1])
    os.replace(tmp, p)
