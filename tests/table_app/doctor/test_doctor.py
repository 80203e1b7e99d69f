"""``xian-table doctor`` against prepared folders, real journals, real programs and real brokers."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from table_app.doctor.broker import check_broker, check_mosquitto
from table_app.doctor.check import ERROR, OK, WARNING, Check, Probe
from table_app.doctor.machine import check_display, check_font, check_power, check_service
from table_app.doctor.panel import check_panel, installed_panel
from table_app.doctor.report import render, to_json
from table_app.doctor.storage import DISK_ERROR_BYTES, DISK_WARN_BYTES, check_backups, check_disk, check_journal
from table_app.journal.journal import Journal

NEW_SESSION = {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = tmp_path / "root"
    r.mkdir()
    return r


def probe(root: Path, **kw: Any) -> Probe:
    kw.setdefault("env", {})
    return Probe(root=root, **kw)


def fake_program(folder: Path, name: str, output: str, status: int = 0) -> str:
    """A real executable that prints ``output`` (what vcgencmd prints on a Pi)."""
    folder.mkdir(parents=True, exist_ok=True)
    p = folder / name
    p.write_text(f"#!/bin/sh\nprintf '%s\\n' '{output}'\nexit {status}\n")
    p.chmod(0o755)
    return str(p)


# -- journal, backups, disk ------------------------------------------------------------


def test_journal_ok_missing_and_damaged(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    missing = check_journal(path)
    assert missing.level == WARNING and "no journal yet" in missing.message
    with Journal.open(path) as j:
        j.append_event(NEW_SESSION, None, new_session=True)
        j.append_event(NEW_SESSION, None, new_session=True)
        good = check_journal(path)  # while the writer has it open
    assert good.level == OK and "2 records" in good.message and "quick_check ok" in good.message
    data = bytearray(path.read_bytes())
    data[200:4000] = b"\xff" * 3800  # the SD card lost part of a page
    path.write_bytes(bytes(data))
    broken = check_journal(path)
    assert broken.level == ERROR and "damaged" in broken.message and "backup" in broken.fix


def test_backups_none_fresh_and_stale(tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    assert check_backups(folder).level == WARNING
    folder.mkdir()
    newest = folder / "journal-20261201T030000Z.sqlite3"
    newest.write_bytes(b"x")
    (folder / "journal-20261130T030000Z.sqlite3").write_bytes(b"x")
    fresh = check_backups(folder, now=newest.stat().st_mtime + 3600)
    assert fresh.level == OK and fresh.message.startswith("2 in ") and "1 h ago" in fresh.message
    stale = check_backups(folder, now=newest.stat().st_mtime + 3 * 86400)
    assert stale.level == WARNING and "xian-table-backup" in stale.fix


def test_disk_reports_free_space_of_the_journal_folder(tmp_path: Path) -> None:
    c = check_disk(tmp_path / "not" / "yet" / "journal.sqlite3")  # walks up to what exists
    free = shutil.disk_usage(tmp_path).free
    expected = OK if free >= DISK_WARN_BYTES else WARNING if free >= DISK_ERROR_BYTES else ERROR
    assert c.level == expected and "free of" in c.message and str(tmp_path) in c.message


# -- power ----------------------------------------------------------------------------


@pytest.mark.parametrize(("output", "level", "words"), [
    ("throttled=0x0", OK, "no under-voltage"),
    ("throttled=0x50005", ERROR, "under-voltage now"),
    ("throttled=0x50000", WARNING, "under-voltage since boot"),
    ("throttled=0x80000", WARNING, "hot"),
])
def test_power_flags_from_vcgencmd(root: Path, tmp_path: Path, output: str, level: str, words: str) -> None:
    tool = fake_program(tmp_path / "bin", "vcgencmd", output)
    c = check_power(probe(root, which=lambda name: tool if name == "vcgencmd" else None))
    assert c.level == level and words in c.message, c
    assert (c.fix != "") == (level != OK)


def test_power_without_vcgencmd(root: Path, tmp_path: Path) -> None:
    assert check_power(probe(root, which=lambda name: None)).level == OK  # not a Pi
    (root / "proc/device-tree").mkdir(parents=True)
    (root / "proc/device-tree/model").write_text("Raspberry Pi 4 Model B Rev 1.5\0")
    c = check_power(probe(root, which=lambda name: None))
    assert c.level == WARNING and "raspi-utils" in c.fix
    failing = fake_program(tmp_path / "bin", "vcgencmd", "VCHI initialization failed", status=255)
    c = check_power(probe(root, which=lambda name: failing))
    assert c.level == WARNING and "VCHI initialization failed" in c.message


# -- panel, font, display -------------------------------------------------------------


def test_panel_port(root: Path) -> None:
    assert check_panel(probe(root)).level == OK  # none: the panel is optional
    (root / "dev").mkdir()
    (root / "dev/ttyACM0").write_text("")
    found = check_panel(probe(root))
    assert found.level == OK and "/dev/ttyACM0 present" in found.message
    wrong = check_panel(probe(root), configured="/dev/ttyUSB7")
    assert wrong.level == ERROR and "does not exist" in wrong.message
    (root / "etc/xian-table").mkdir(parents=True)
    (root / "etc/xian-table/inputs.env").write_text("XIAN_TABLE_INPUTS=--gpio --panel /dev/ttyUSB7\n")
    assert installed_panel(probe(root)) == "/dev/ttyUSB7"  # what run_checks passes as configured


class FakePanelEnd:
    """The panel's end of a real pty: the doctor opens the device path, this writes lines into it."""

    def __init__(self) -> None:
        import tty

        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.stop = threading.Event()

    def keep_sending(self, line: bytes, every_s: float = 0.1) -> None:
        def loop() -> None:
            while not self.stop.wait(every_s):
                os.write(self.master, line)

        threading.Thread(target=loop, daemon=True).start()

    def close(self) -> None:
        self.stop.set()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def panel_end() -> Iterator[FakePanelEnd]:
    end = FakePanelEnd()
    yield end
    end.close()


def test_a_live_panel_is_heard(panel_end: FakePanelEnd) -> None:
    from firmware_bridge.protocol import Heartbeat, encode

    panel_end.keep_sending(encode(4, Heartbeat()))
    c = check_panel(Probe(listen_s=5), configured=panel_end.path)
    assert c == Check("panel", OK, f"the panel answers on {panel_end.path} (Heartbeat frame)")


def test_a_silent_or_foreign_device_is_reported(panel_end: FakePanelEnd) -> None:
    silent = check_panel(Probe(listen_s=0.3), configured=panel_end.path)
    assert silent.level == WARNING and "silent" in silent.message and "Flashing" in silent.fix
    panel_end.keep_sending(b"AT+GMR\r\n")  # a modem, not the panel
    foreign = check_panel(Probe(listen_s=5), configured=panel_end.path)
    assert foreign.level == ERROR and "not panel frames" in foreign.message


def test_font(root: Path) -> None:
    missing = check_font(probe(root))
    assert missing.level == ERROR and missing.fix == "sudo apt install fonts-noto-cjk"
    font = root / "usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    font.parent.mkdir(parents=True)
    font.write_bytes(b"ttcf")
    assert check_font(probe(root)) == Check(
        "font", OK, "Chinese font /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
    assert check_font(probe(root, env={"XIAN_TABLE_FONT": "/opt/fonts/mine.ttf"})).level == ERROR
    (root / "opt/fonts").mkdir(parents=True)
    (root / "opt/fonts/mine.ttf").write_bytes(b"\0\1\0\0")
    assert check_font(probe(root, env={"XIAN_TABLE_FONT": "/opt/fonts/mine.ttf"})) == Check(
        "font", OK, "configured font /opt/fonts/mine.ttf")


def make_drm(root: Path, status: str) -> None:
    (root / "dev/dri").mkdir(parents=True)
    (root / "dev/dri/card1").write_text("")
    connector = root / "sys/class/drm/card1-HDMI-A-1"
    connector.mkdir(parents=True)
    (connector / "status").write_text(status + "\n")
    driver = root / "sys/bus/platform/drivers/vc4-drm"
    driver.mkdir(parents=True)
    (root / "sys/class/drm/card1/device").mkdir(parents=True)
    (root / "sys/class/drm/card1/device/driver").symlink_to(driver)


def test_display(root: Path, tmp_path: Path) -> None:
    none = check_display(probe(root, mode="app"))
    assert none.level == ERROR and "vc4-kms-v3d" in none.fix
    assert check_display(probe(root, mode="headless")).level == OK
    make_drm(root, "connected")
    assert check_display(probe(root, mode="app")) == Check(
        "display", OK, "kmsdrm: card1-HDMI-A-1 connected (driver vc4-drm)")
    other = tmp_path / "other"
    make_drm(other, "disconnected")
    off = check_display(probe(other, mode="app"))
    assert off.level == WARNING and "cable" in off.fix


def test_service_mode_comes_from_the_installed_unit(root: Path) -> None:
    c = check_service(probe(root))
    assert c.level == WARNING and "xian-table install" in c.fix
    units = root / "etc/systemd/system"
    units.mkdir(parents=True)
    (units / "xian-table-headless.service").write_text("")
    assert probe(root).installed_mode() == "headless"
    assert check_display(probe(root)).message == "headless: no display needed"
    assert check_service(probe(root)).level == OK


def test_service_on_a_live_system_reads_systemctl(tmp_path: Path) -> None:
    answers = {"is-active": "failed\n", "show": "0\n"}

    def systemctl(argv: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(argv, 0, answers[argv[1]], "")

    (tmp_path / "etc/systemd/system").mkdir(parents=True)
    (tmp_path / "etc/systemd/system/xian-table.service").write_text("")
    live = Probe(root=tmp_path, run=systemctl, ask_systemd=True)
    c = check_service(live)
    assert c.level == ERROR and "xian-table.service is failed" in c.message and "journalctl -u" in c.fix
    answers.update({"is-active": "active\n", "show": "3\n"})
    assert check_service(live).message == "xian-table.service active, restarted 3 times (crash or watchdog)"
    answers.update({"show": "0\n"})
    assert check_service(live) == Check("service", OK, "xian-table.service active")


# -- broker (real mosquitto) -----------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Any]:
    """Start a real mosquitto on a free port: ``start(anonymous)`` returns the port."""
    procs: list[subprocess.Popen[bytes]] = []

    def start(anonymous: bool) -> int:
        port = free_port()
        folder = tmp_path / f"mosq{port}"
        folder.mkdir()
        (folder / "passwd").touch(mode=0o600)
        subprocess.run(["mosquitto_passwd", "-b", str(folder / "passwd"), "xian-table", "s3cret"], check=True,
                       capture_output=True)
        conf = folder / "mosquitto.conf"
        conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous {'true' if anonymous else 'false'}\n"
                        f"password_file {folder / 'passwd'}\n"
                        # as root mosquitto would switch to its own user, who cannot read pytest's folders
                        + ("user root\n" if os.geteuid() == 0 else ""))
        procs.append(subprocess.Popen(["mosquitto", "-c", str(conf)], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL))
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return port
            except OSError:
                assert time.monotonic() < deadline, "mosquitto did not start"
                time.sleep(0.05)

    yield start
    for p in procs:
        p.terminate()
        p.wait(10)


def test_broker_checks_against_a_real_mosquitto(root: Path, mosquitto: Any) -> None:
    port = mosquitto(anonymous=False)
    url = f"mqtt://xian-table@127.0.0.1:{port}"
    assert check_broker(probe(root, env={"XIAN_TABLE_MQTT_PASSWORD": "s3cret"}), url) == Check(
        "broker", OK, f"broker at 127.0.0.1:{port} accepts the table's login (xian-table)")
    (root / "etc/xian-table").mkdir(parents=True)
    (root / "etc/xian-table/mqtt.env").write_text("XIAN_TABLE_MQTT_PASSWORD=wrong\n")  # the installed file
    refused = check_broker(probe(root), url)
    assert refused.level == ERROR and "refuses the table's login" in refused.message
    anonymous = check_broker(probe(root), f"mqtt://127.0.0.1:{port}")
    assert anonymous.level == OK and "refuses anonymous clients" in anonymous.message
    open_port = mosquitto(anonymous=True)
    wide_open = check_broker(probe(root), f"mqtt://127.0.0.1:{open_port}")
    assert wide_open.level == WARNING and "lets anyone in" in wide_open.message


def test_no_broker_and_not_a_broker(root: Path) -> None:
    closed = check_broker(probe(root), f"mqtt://127.0.0.1:{free_port()}")
    assert closed.level == ERROR and "connection refused" in closed.message and "mosquitto" in closed.fix
    with socket.socket() as server:  # something else listens there and says hello in its own way
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]

        def answer() -> None:
            conn, _ = server.accept()
            conn.recv(100)
            conn.sendall(b"SSH-2.0-OpenSSH\r\n")
            conn.close()

        t = threading.Thread(target=answer)
        t.start()
        c = check_broker(probe(root), f"mqtt://127.0.0.1:{port}")
        t.join(10)
    assert c.level == ERROR and "did not answer like an MQTT broker" in c.message


# -- the whole screen -----------------------------------------------------------------


def test_render_one_line_per_check_and_a_fix_under_each_problem() -> None:
    checks = [Check("journal", OK, "fine"), Check("power", ERROR, "under-voltage now", "use the official supply")]
    assert render(checks, "head").splitlines() == [
        "head",
        "ok       journal  fine",
        "error    power    under-voltage now",
        "                  → use the official supply",
    ]
    assert to_json(checks)["status"] == ERROR


def test_render_never_lets_quoted_text_act_on_the_terminal() -> None:
    """A path or a journal's text with an escape sequence, NUL or a lone surrogate (issue 26)."""
    checks = [Check("journal", ERROR, "cannot read '/srv/\x1b[2Jx\x00.sqlite3'", "move '\ud800\x9b' away")]
    text = render(checks)
    assert "\x1b" not in text and "\x00" not in text and "\x9b" not in text and "\ud800" not in text
    assert "\\x1b[2Jx\\x00" in text and "\\ud800\\x9b" in text
    text.encode("utf-8")  # (a lone surrogate would not even print)


def test_cli_doctor_json(cli: Any, tmp_path: Path) -> None:
    journal = tmp_path / "data" / "journal.sqlite3"
    with Journal.open(journal) as j:
        j.append_event(NEW_SESSION, None, new_session=True)
    config = tmp_path / "config.toml"
    config.write_text(f'[journal]\npath = "{journal}"\n[mqtt]\nurl = "mqtt://127.0.0.1:{free_port()}"\n')
    proc = cli("doctor", "--json", "--headless", "--config", str(config))
    report = json.loads(proc.stdout)
    by_name = {c["name"]: c for c in report["checks"]}
    assert list(by_name) == ["journal", "backup", "disk", "power", "panel", "broker", "mosquitto", "parlour", "font",
                            "display", "service"]
    assert by_name["parlour"]["level"] == OK and "not linked" in by_name["parlour"]["message"]
    assert by_name["journal"]["level"] == OK and "1 records" in by_name["journal"]["message"]
    assert by_name["broker"]["level"] == ERROR  # nobody listens on that port
    assert by_name["display"]["message"] == "headless: no display needed"
    assert report["status"] == ERROR and proc.returncode == 1
    text = cli("doctor", "--headless", "--config", str(config))
    assert text.stdout.startswith("xian-table doctor — table 'table', config ") and text.returncode == 1
    assert all(line.split()[0] in ("ok", "warning", "error", "→") for line in text.stdout.splitlines()[1:])
    assert os.path.exists(journal)


def test_a_user_who_may_not_read_the_table_is_told_to_use_sudo() -> None:
    """The state folder is the table user's own (0750): other users get a clear line, not a crash."""
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="xt-doctor-"))  # not under pytest's 0700 folders: 'nobody' must get in
    try:
        base.chmod(0o755)
        state = base / "state"
        state.mkdir()
        (state / "journal.sqlite3").write_bytes(b"x")
        root = os.geteuid() == 0
        if root:  # the table user's own folder (here nobody's), seen by root without its capabilities
            os.chown(state / "journal.sqlite3", 65534, 65534)
            os.chown(state, 65534, 65534)
        state.chmod(0o700 if root else 0o000)
        config = base / "config.toml"
        config.write_text(f'[journal]\npath = "{state / "journal.sqlite3"}"\n')
        config.chmod(0o644)
        # As root, dropping every capability (rather than becoming another user) keeps the
        # checkout and its .venv readable wherever CI cloned them, even under a 0700 folder.
        as_other = ["setpriv", "--bounding-set=-all", "--inh-caps=-all"] if root else []
        proc = subprocess.run([*as_other, sys.executable, "-m", "table_app.cli", "doctor", "--json", "--headless",
                               "--config", str(config)], capture_output=True, text=True, timeout=60,
                              cwd=Path(__file__).resolve().parents[3], env=dict(os.environ, HOME=str(base)))
    finally:
        (base / "state").chmod(0o700)
        shutil.rmtree(base)
    assert proc.stdout, proc.stderr
    checks = {c["name"]: c for c in json.loads(proc.stdout)["checks"]}
    assert checks["journal"]["level"] == ERROR and "permission denied" in checks["journal"]["message"]
    assert checks["journal"]["fix"] == "run the doctor as root: sudo xian-table doctor"
    assert checks["backup"]["level"] == ERROR and "permission denied" in checks["backup"]["message"]


# -- mosquitto's version (the real program, and programs that print another version) ------


def test_mosquitto_version_of_the_real_program(root: Path) -> None:
    """What this machine's mosquitto says; Debian 12's 2.0.11 miscounts connections."""
    real = subprocess.run(["mosquitto", "-h"], capture_output=True, text=True)
    first = real.stdout.splitlines()[0]
    version = tuple(int(n) for n in first.removeprefix("mosquitto version ").split("."))
    c = check_mosquitto(probe(root, which=shutil.which))
    assert f"mosquitto {first.removeprefix('mosquitto version ')}" in c.message
    if version < (2, 0, 12):
        assert c.level == WARNING and "stops enforcing max_connections" in c.message
        assert "nothing caps it here" in c.message and "bookworm-backports" in c.fix
        from table_app.mqtt.broker_setup import dropin_text

        dropin = root / "etc/systemd/system/mosquitto.service.d/xian-table.conf"
        dropin.parent.mkdir(parents=True)
        dropin.write_text(dropin_text(1))  # what the install writes
        capped = check_mosquitto(probe(root, which=shutil.which))
        assert capped.level == WARNING and "caps the broker at 96 open files" in capped.message
        assert "sudo xian-table install" not in capped.fix
    else:
        assert c.level == OK


@pytest.mark.parametrize(("printed", "level"), [("mosquitto version 2.0.18", OK), ("mosquitto version 2.0.12", OK),
                                                ("mosquitto version 1.6.12", WARNING), ("Usage: who knows", WARNING)])
def test_mosquitto_versions(root: Path, tmp_path: Path, printed: str, level: str) -> None:
    program = fake_program(tmp_path / "bin", "mosquitto", printed + "\n", status=3)
    c = check_mosquitto(probe(root, which=lambda name: program if name == "mosquitto" else None))
    assert c.level == level and (printed.split()[-1] in c.message or "did not say its version" in c.message)
    nothing = check_mosquitto(probe(root, which=lambda name: None))
    assert nothing.level == OK and "version not checked" in nothing.message
