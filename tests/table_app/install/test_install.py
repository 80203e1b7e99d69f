"""``xian-table install`` / ``uninstall`` into a temporary root, with the real tools.

The real ``systemd-sysusers --root`` and ``systemctl --root`` write only inside the
temporary root; the broker's password file is made by the real ``mosquitto_passwd``.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from table_app.cli import main
from table_app.config.file import load_config
from table_app.install.actions import execute
from table_app.install.contents import config_text, inputs_text, panel_device, unit_text
from table_app.install.plan import plan_install
from table_app.install.system import InstallError, Target

BINARY = str(Path(sys.executable).parent / "xian-table")
GROUPS = ("gpio", "dialout", "video", "input", "render")


def expected_files(headless: bool = False) -> set[str]:
    unit = "xian-table-headless.service" if headless else "xian-table.service"
    files = {
        "/etc/sysusers.d/xian-table.conf",
        "/var/lib/xian-table",
        "/etc/xian-table/config.toml",
        "/etc/xian-table/inputs.env",
        "/etc/mosquitto/xian-table/passwd",
        "/etc/mosquitto/xian-table/acl",
        "/etc/mosquitto/conf.d/xian-table.conf",
        "/etc/systemd/system/mosquitto.service.d/xian-table.conf",
        "/etc/xian-table/mqtt.env",
        "/etc/xian-table/mqtt-users",
        f"/etc/systemd/system/{unit}",
        "/etc/systemd/system/xian-table-backup.service",
        "/etc/systemd/system/xian-table-backup.timer",
    }
    files.add("/usr/share/doc/xian-table/raspberry-pi.md")  # the units' Documentation=
    return files


def paths_in(output: str, root: Path) -> set[str]:
    """Every path under ``root`` the output names, as it is on the installed system."""
    return {m[len(str(root)):] for m in re.findall(re.escape(str(root)) + r"/[^\s,]+", output)}


def snapshot(root: Path) -> dict[str, str]:
    """Every file, link and folder under root with its content hash and mode."""
    out = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        if p.is_symlink():
            out[rel] = "-> " + str(p.readlink())
        elif p.is_dir():
            out[rel] = f"dir {p.stat().st_mode:o}"
        else:
            out[rel] = f"{p.stat().st_mode:o} {hashlib.sha256(p.read_bytes()).hexdigest()}"
    return out


@pytest.fixture
def xt(capsys: pytest.CaptureFixture[str]) -> Any:
    """The real CLI in this process (the child-process entry point is tested once, below)."""

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        capsys.readouterr()
        code = main(list(args))
        out, err = capsys.readouterr()
        assert code == 0, f"xian-table {' '.join(args)} failed ({code}):\n{err}"
        return subprocess.CompletedProcess(list(args), code, out, err)

    return run


def test_dry_run_lists_exactly_the_expected_files_and_changes_nothing(cli: Any, tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    first = cli("install", "--dry-run", "--root", str(root), "--bin", BINARY, check=True)
    assert paths_in(first.stdout, root) == expected_files()
    assert all(line.startswith("would ") for line in first.stdout.splitlines()[:-1]), first.stdout
    assert f"systemctl --root={root} enable xian-table.service xian-table-backup.timer" in first.stdout
    assert f"systemd-sysusers --root={root}" in first.stdout
    assert list(root.iterdir()) == []
    second = cli("install", "--dry-run", "--root", str(root), "--bin", BINARY, check=True)
    assert second.stdout == first.stdout


def test_headless_dry_run_installs_the_headless_unit(xt: Any, tmp_path: Path) -> None:
    out = xt("install", "--headless", "--dry-run", "--root", str(tmp_path), "--bin", BINARY).stdout
    assert paths_in(out, tmp_path) == expected_files(headless=True)
    assert "enable xian-table-headless.service xian-table-backup.timer" in out


def test_install_then_install_again_changes_nothing(xt: Any, tmp_path: Path) -> None:
    root = tmp_path / "root"
    first = xt("install", "--root", str(root), "--bin", BINARY)
    assert paths_in(first.stdout, root) == expected_files()
    before = snapshot(root)
    second = xt("install", "--root", str(root), "--bin", BINARY)
    assert second.stdout.splitlines()[-1] == "installed: nothing to do"
    assert all(line.startswith("ok ") for line in second.stdout.splitlines()[:-1]), second.stdout
    assert snapshot(root) == before
    dry = xt("install", "--dry-run", "--root", str(root), "--bin", BINARY)
    assert "would" not in dry.stdout and dry.stdout.splitlines()[-1] == "dry run: 0 steps to do, nothing changed"


def test_what_the_install_puts_in_place(xt: Any, tmp_path: Path) -> None:
    root = tmp_path
    xt("install", "--root", str(root), "--bin", BINARY)
    passwd = {line.split(":")[0]: line.split(":") for line in (root / "etc/passwd").read_text().splitlines()}
    user = passwd["xian-table"]
    assert user[5] == "/var/lib/xian-table" and user[6] == "/usr/sbin/nologin"
    group_lines = (root / "etc/group").read_text().splitlines()
    groups = {line.split(":")[0]: line.split(":")[3].split(",") for line in group_lines}
    assert all("xian-table" in groups[g] for g in GROUPS)
    state = root / "var/lib/xian-table"
    st = state.stat()
    assert (st.st_uid, st.st_gid, st.st_mode & 0o777) == (int(user[2]), int(user[3]), 0o750)
    cfg = load_config(root / "etc/xian-table/config.toml")
    assert cfg.journal_file() == Path("/var/lib/xian-table/journal.sqlite3")
    unit = (root / "etc/systemd/system/xian-table.service").read_text()
    assert f"ExecStart={BINARY} run --fullscreen --config %E/xian-table/config.toml" in unit
    assert (root / "etc/systemd/system/multi-user.target.wants/xian-table.service").is_symlink()
    assert (root / "etc/systemd/system/timers.target.wants/xian-table-backup.timer").is_symlink()
    env = root / "etc/xian-table/mqtt.env"
    assert env.stat().st_mode & 0o777 == 0o640 and env.stat().st_gid == int(user[3])
    password = re.search(r"^XIAN_TABLE_MQTT_PASSWORD=(\S{20,})$", env.read_text(), re.M)
    assert password
    users = [line.split(":")[0] for line in (root / "etc/mosquitto/xian-table/passwd").read_text().splitlines()]
    assert users == ["xian-table", "display", "homeassistant", "remote"]
    assert password.group(1) not in (root / "etc/mosquitto/xian-table/passwd").read_text()  # hashed there
    assert "user xian-table" in (root / "etc/mosquitto/xian-table/acl").read_text()


def image_root(root: Path, mosquitto_gid: int | None) -> Path:
    """An image's root with its own users and groups (a mosquitto group of its own, or none yet)."""
    (root / "etc").mkdir(parents=True)
    groups = ["root:x:0:"] + ([f"mosquitto:x:{mosquitto_gid}:"] if mosquitto_gid is not None else [])
    users = ["root:x:0:0:root:/root:/bin/sh"]
    if mosquitto_gid is not None:
        users.append(f"mosquitto:x:{mosquitto_gid}:{mosquitto_gid}::/var/lib/mosquitto:/usr/sbin/nologin")
    (root / "etc/group").write_text("\n".join(groups) + "\n")
    (root / "etc/passwd").write_text("\n".join(users) + "\n")
    return root


BROKER_FILES = ("etc/mosquitto/xian-table", "etc/mosquitto/xian-table/passwd", "etc/mosquitto/xian-table/acl")


def test_an_image_root_gets_its_own_mosquitto_group_not_the_build_machines(xt: Any, tmp_path: Path) -> None:
    import grp

    here = grp.getgrnam("mosquitto").gr_gid  # the build machine's (the Debian package made it)
    image = 4242 if here != 4242 else 4243
    root = image_root(tmp_path / "image", image)
    xt("install", "--root", str(root), "--bin", BINARY)
    owner = image if os.geteuid() == 0 else os.getgid()  # only root can give files to a group
    for rel in BROKER_FILES:
        st = (root / rel).stat()
        assert (st.st_uid, st.st_gid) == (os.geteuid(), owner), rel
    assert (root / BROKER_FILES[1]).stat().st_mode & 0o777 == 0o640


def test_an_image_without_mosquitto_yet_gets_the_group_when_mosquitto_starts(xt: Any, tmp_path: Path) -> None:
    """Files root:root 0640 in the image; the drop-in's ExecStartPre gives them the group at start."""
    import grp

    root = image_root(tmp_path / "image", None)
    xt("install", "--root", str(root), "--bin", BINARY)
    for rel in BROKER_FILES:
        assert (root / rel).stat().st_gid == os.getgid()  # root's: no group to give them
    dropin = root / "etc/systemd/system/mosquitto.service.d/xian-table.conf"
    text = dropin.read_text()
    pre = re.search(r"^ExecStartPre=-\+(/bin/chgrp mosquitto .*)$", text, re.M)
    assert pre and re.search(r"^LimitNOFILE=96$", text, re.M)
    argv = pre.group(1).split()
    assert argv[2:] == [f"/{rel}" for rel in BROKER_FILES]
    # What systemd runs at mosquitto's start, run here on the image's files (this machine has the group):
    subprocess.run([argv[0], argv[1], *(str(root) + a for a in argv[2:])], check=True)
    if os.geteuid() == 0:
        assert {(root / rel).stat().st_gid for rel in BROKER_FILES} == {grp.getgrnam("mosquitto").gr_gid}
    # and systemd reads the drop-in without a complaint, beside Debian's mosquitto.service:
    units = tmp_path / "units"
    (units / "mosquitto.service.d").mkdir(parents=True)
    (units / "mosquitto.service.d/xian-table.conf").write_text(text)
    (units / "mosquitto.service").write_text(Path("/lib/systemd/system/mosquitto.service").read_text())
    verify = subprocess.run(["systemd-analyze", "verify", "mosquitto.service"], capture_output=True, text=True,
                            env=dict(os.environ, SYSTEMD_UNIT_PATH=f"{units}:"))
    assert verify.returncode == 0 and "xian-table.conf" not in verify.stderr, verify.stderr
    (units / "mosquitto.service.d/xian-table.conf").write_text(text.replace("LimitNOFILE=96", "LimitNOFILE=x"))
    bad = subprocess.run(["systemd-analyze", "verify", "mosquitto.service"], capture_output=True, text=True,
                         env=dict(os.environ, SYSTEMD_UNIT_PATH=f"{units}:"))
    assert "xian-table.conf" in bad.stderr  # (the check above can see a bad line)


def test_switching_to_headless_replaces_the_app_unit(xt: Any, tmp_path: Path) -> None:
    xt("install", "--root", str(tmp_path), "--bin", BINARY)
    out = xt("install", "--headless", "--root", str(tmp_path), "--bin", BINARY).stdout
    units = tmp_path / "etc/systemd/system"
    assert not (units / "xian-table.service").exists()
    assert not (units / "multi-user.target.wants/xian-table.service").exists()
    assert (units / "multi-user.target.wants/xian-table-headless.service").is_symlink()
    assert "disable xian-table.service" in out
    assert "broker users" in out and "ok            broker users" in out  # passwords kept


def test_an_edited_config_is_kept_by_install_and_uninstall(xt: Any, tmp_path: Path) -> None:
    config = tmp_path / "etc/xian-table/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[table]\nid = "kitchen"\n')
    xt("install", "--root", str(tmp_path), "--bin", BINARY)
    assert config.read_text() == '[table]\nid = "kitchen"\n'
    out = xt("uninstall", "--root", str(tmp_path)).stdout
    assert config.exists() and re.search(r"^keep +.*config.toml \(edited", out, re.M)


def test_uninstall_undoes_it_and_keeps_the_journal(xt: Any, tmp_path: Path) -> None:
    root = tmp_path
    xt("install", "--root", str(root), "--bin", BINARY)
    journal = root / "var/lib/xian-table/journal.sqlite3"
    journal.write_bytes(b"the table's history")
    (root / "var/lib/xian-table/backups").mkdir()
    dry = xt("uninstall", "--dry-run", "--root", str(root))
    assert "would remove" in dry.stdout and (root / "etc/systemd/system/xian-table.service").exists()
    xt("uninstall", "--root", str(root))
    left = {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() or p.is_symlink()}
    assert left == {"var/lib/xian-table/journal.sqlite3", "etc/passwd", "etc/group", "etc/shadow",
                    "etc/gshadow", "etc/.pwd.lock"}
    assert journal.read_bytes() == b"the table's history"
    again = xt("uninstall", "--root", str(root))
    assert again.stdout.splitlines()[-1] == "uninstalled: nothing to do"


def test_a_program_in_a_home_folder_may_be_read_by_the_service() -> None:
    text = unit_text("xian-table-headless.service", "/home/pi/xian-table/.venv/bin/xian-table").decode()
    assert "ProtectHome=read-only" in text and "ProtectHome=yes" not in text
    assert "ExecStart=/home/pi/xian-table/.venv/bin/xian-table serve" in text
    assert "ProtectHome=yes" in unit_text("xian-table-headless.service", "/opt/xt/bin/xian-table").decode()


def test_the_live_system_needs_root(cli: Any) -> None:
    if os.geteuid() == 0:
        plan = plan_install(Target(binary=BINARY), headless=True)  # looked at, never run
        assert any("systemctl enable --now xian-table-headless.service" in a.what for a in plan)
        assert any(a.what == "systemctl daemon-reload" for a in plan)
    else:
        proc = cli("install")
        assert proc.returncode == 1 and "run it as root" in proc.stderr


@pytest.mark.parametrize("verb", ["install", "uninstall"])
def test_help_lists_the_options(cli: Any, verb: str) -> None:
    out = cli(verb, "--help", check=True).stdout
    assert "--dry-run" in out and "--root" in out


def test_without_mosquitto_the_broker_step_says_it_is_skipped(
        xt: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))  # no mosquitto_passwd to be found
    out = xt("install", "--dry-run", "--root", str(tmp_path), "--bin", BINARY).stdout
    assert re.search(r"^skip +the broker: mosquitto \(mosquitto_passwd\) is not installed", out, re.M)
    assert paths_in(out, tmp_path) == {p for p in expected_files() if "mosquitto" not in p and "mqtt" not in p}
    assert 'url = ""' in config_text(None)  # the table then runs without MQTT


def test_the_buttons_go_to_the_units_through_inputs_env(xt: Any, tmp_path: Path) -> None:
    t = Target(root=tmp_path, binary=BINARY)
    execute(plan_install(t, headless=False, inputs=["--gpio", "--panel", "/dev/ttyACM0"]),
                    dry_run=False, out=open(os.devnull, "w"))  # noqa: SIM115
    env = tmp_path / "etc/xian-table/inputs.env"
    assert env.read_text().splitlines()[-1] == "XIAN_TABLE_INPUTS=--gpio --panel /dev/ttyACM0"
    assert panel_device(env) == "/dev/ttyACM0"
    unit = (tmp_path / "etc/systemd/system/xian-table.service").read_text()
    assert "EnvironmentFile=-%E/xian-table/inputs.env" in unit and unit.count("$XIAN_TABLE_INPUTS") == 1
    again = xt("install", "--root", str(tmp_path), "--bin", BINARY)  # no input options: keep the choice
    assert again.stdout.splitlines()[-1] == "installed: nothing to do"
    assert panel_device(env) == "/dev/ttyACM0"
    cleared = xt("install", "--root", str(tmp_path), "--bin", BINARY, "--no-inputs")
    assert re.search(r"^update +.*inputs.env$", cleared.stdout, re.M)
    assert env.read_text().splitlines()[-1] == "XIAN_TABLE_INPUTS=" and panel_device(env) == ""
    with pytest.raises(InstallError, match="cannot contain spaces"):
        inputs_text(["--panel", "/dev/my panel"])


def test_input_options_are_checked_against_the_program_the_units_run() -> None:
    from table_app.cli.install import _accepts

    assert _accepts("serve", ["--stdin"])
    assert not _accepts("serve", ["--no-such-option"])
