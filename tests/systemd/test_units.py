"""The systemd units: systemd's own checker accepts them, and they say what the appliance needs.

``systemd-analyze verify`` also checks that ``ExecStart``'s program exists and is
executable. The shipped units name ``/usr/local/bin/xian-table`` (``xian-table install``
puts the real path there), which does not exist on a build machine, so the test verifies
copies with that path replaced by the real ``xian-table`` of this environment — exactly
what the installer does — plus the files the installer itself writes.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from table_app.install.contents import unit_text
from table_app.install.system import SHIPPED_BIN

UNITS = Path(__file__).resolve().parents[2] / "systemd"
SERVICES = ("xian-table.service", "xian-table-headless.service")
ALL = (*SERVICES, "xian-table-backup.service", "xian-table-backup.timer", "xian-table-parlour.service")
BINARY = str(Path(sys.executable).parent / "xian-table")
GROUPS = {"gpio", "dialout", "video", "input", "render"}


def settings(name: str) -> dict[str, list[str]]:
    """Every ``Key=value`` of a unit (keys may repeat), comments and sections left out."""
    out: dict[str, list[str]] = {}
    for line in (UNITS / name).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def verify(folder: Path, names: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["systemd-analyze", "verify", "--man=no", *names], cwd=folder,
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def copies(tmp_path: Path) -> Path:
    assert Path(BINARY).is_file(), BINARY
    for name in ALL:
        (tmp_path / name).write_bytes(unit_text(name, BINARY))
    return tmp_path


def test_every_unit_passes_systemd_analyze_verify(copies: Path) -> None:
    assert shutil.which("systemd-analyze"), "scripts/setup.sh installs Debian's systemd"
    proc = verify(copies, ALL)
    # Unknown keys and bad values are only warnings on stderr (exit 0): none allowed.
    assert proc.returncode == 0 and proc.stderr == "" and proc.stdout == "", proc.stderr + proc.stdout


def test_verify_would_catch_a_misspelt_key(copies: Path) -> None:
    unit = copies / "xian-table.service"
    unit.write_text(unit.read_text().replace("NoNewPrivileges=", "NoNewPrivilege="))
    proc = verify(copies, ("xian-table.service",))
    assert "Unknown key 'NoNewPrivilege'" in proc.stderr


def test_the_shipped_path_is_what_the_installer_replaces() -> None:
    for name in ALL:
        text = (UNITS / name).read_text()
        for line in text.splitlines():
            if line.startswith("ExecStart="):
                assert line.split("=", 1)[1].split()[0] == SHIPPED_BIN
        assert SHIPPED_BIN not in unit_text(name, BINARY).decode()


@pytest.mark.parametrize("name", SERVICES)
def test_table_units_are_notify_with_watchdog_restart_user_groups_and_state(name: str) -> None:
    s = settings(name)
    assert s["Type"] == ["notify"]
    assert s["NotifyAccess"] == ["main"]
    assert re.fullmatch(r"\d+s", s["WatchdogSec"][0])
    assert s["Restart"] == ["on-failure"]
    assert s["User"] == ["xian-table"]
    assert set(s["SupplementaryGroups"][0].split()) == GROUPS
    assert s["StateDirectory"] == ["xian-table"]
    assert s["ProtectSystem"] == ["strict"]
    assert any("XDG_DATA_HOME=%S" in e for e in s["Environment"])
    assert s["EnvironmentFile"] == ["-%E/xian-table/mqtt.env", "-%E/xian-table/inputs.env"]
    assert s["ExecStart"][0].endswith(" $XIAN_TABLE_INPUTS")  # --gpio / --panel DEVICE, or nothing
    assert s["WantedBy"] == ["multi-user.target"]


@pytest.mark.parametrize("name", SERVICES)
def test_devices_are_closed_but_for_what_the_table_uses(name: str) -> None:
    s = settings(name)
    assert s["DevicePolicy"] == ["closed"]
    allowed = {v.split()[0]: v.split()[1] for v in s["DeviceAllow"]}
    # the serial panel and GPIO for both; the display and the touchscreen for the app
    want = {"char-ttyACM", "char-ttyUSB", "char-ttyAMA", "char-gpiochip", "char-*gpiomem*"}
    if name == "xian-table.service":
        want |= {"char-drm", "char-input"}
    assert set(allowed) == want and set(allowed.values()) == {"rw"}
    # each of these would hide the devices, or keep the device groups from mapping
    for hiding in ("PrivateDevices", "PrivateUsers", "ProcSubset"):
        assert hiding not in s, f"{name}: {hiding}= would hide the devices"
    for key in ("NoNewPrivileges", "ProtectHome", "PrivateTmp", "ProtectKernelTunables", "ProtectKernelModules",
                "ProtectControlGroups", "RestrictNamespaces", "LockPersonality", "RestrictSUIDSGID", "ProtectClock"):
        assert s[key] == ["yes"], key
    assert s["CapabilityBoundingSet"] == [""]


@pytest.mark.parametrize("name", SERVICES)
def test_limits_and_no_restart_on_what_a_restart_cannot_fix(name: str) -> None:
    s = settings(name)
    # 2: a bad config or option, 4: a journal the table refuses — restarting changes neither
    assert s["RestartPreventExitStatus"] == ["2 4"]
    assert int(s["TasksMax"][0]) >= 256  # the web page alone may take 144 threads (web.admission.Limits.threads)
    assert int(s["LimitNOFILE"][0]) >= 4096
    assert re.fullmatch(r"\d+[MG]", s["MemoryMax"][0])


def test_the_app_runs_kivy_on_kmsdrm_and_watches_the_ui_too() -> None:
    env = " ".join(settings("xian-table.service")["Environment"])
    assert "SDL_VIDEODRIVER=kmsdrm" in env and "KIVY_WINDOW=sdl2" in env
    assert "XIAN_TABLE_WATCHDOG_SOURCES=service,ui" in env
    assert " run " in settings("xian-table.service")["ExecStart"][0]
    assert " serve " in settings("xian-table-headless.service")["ExecStart"][0]
    assert "MemoryDenyWriteExecute" not in settings("xian-table.service")  # Mesa needs W+X pages
    assert settings("xian-table.service")["Conflicts"] == ["xian-table-headless.service"]
    assert settings("xian-table-headless.service")["Conflicts"] == ["xian-table.service"]


def test_the_backup_runs_daily_and_catches_up_after_a_power_cut() -> None:
    timer = settings("xian-table-backup.timer")
    assert timer["OnCalendar"] == ["daily"] and timer["Persistent"] == ["true"]
    service = settings("xian-table-backup.service")
    assert service["Type"] == ["oneshot"] and service["User"] == ["xian-table"]
    assert " backup " in service["ExecStart"][0]


def security(folder: Path, name: str) -> float:
    proc = subprocess.run(["systemd-analyze", "security", "--offline=true", "--no-pager", name], cwd=folder,
                          capture_output=True, text=True, timeout=60)
    m = re.search(r"Overall exposure level for \S+: (\d+\.\d)", proc.stdout)
    assert m, proc.stdout + proc.stderr
    return float(m.group(1))


def test_security_exposure_is_what_docs_report(copies: Path) -> None:
    """docs/raspberry-pi.md reports these scores (0 = locked down, 10 = exposed)."""
    scores = {name: security(copies, name) for name in (*SERVICES, "xian-table-backup.service")}
    assert scores == {"xian-table.service": 1.6, "xian-table-headless.service": 1.5,
                      "xian-table-backup.service": 0.5}
    assert scores["xian-table-headless.service"] <= 1.5  # issue 16
    doc = (UNITS.parent / "docs" / "raspberry-pi.md").read_text(encoding="utf-8")
    for name, score in scores.items():
        assert f"`{name}` | {score}" in doc


def test_the_parlour_unit_is_notify_with_watchdog_its_own_state_and_the_env_file() -> None:
    s = settings("xian-table-parlour.service")
    assert s["Type"] == ["notify"] and s["WatchdogSec"] == ["60s"] and s["DynamicUser"] == ["yes"]
    assert s["StateDirectory"] == ["xian-parlour"]
    assert s["ExecStart"] == [f"{SHIPPED_BIN} parlour serve"]
    assert "XIAN_PARLOUR_DB=%S/xian-parlour/parlour.sqlite3" in s["Environment"]
    assert s["EnvironmentFile"] == ["-%E/xian-table/parlour.env"]
