"""``xian-table doctor``: one screen of the table's health, each line ok / warning / error.

Every check looks at the real thing — the journal file, the disk, the firmware's power
flags, the serial ports, the broker's port, the fonts, the display driver, the unit — and
says what to do when it is not ok. A :class:`Probe` says where to look (``root`` for
``/dev``, ``/sys``, ``/proc``, fonts and units; the command runner), so tests point it at
a prepared folder and real helper programs.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import sqlite3
import struct
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

OK, WARNING, ERROR = "ok", "warning", "error"
LEVELS = (OK, WARNING, ERROR)

DISK_ERROR_BYTES = 100 * 2**20  # below this the journal may fail to commit: the table stops taking events
DISK_WARN_BYTES = 1024 * 2**20
BACKUP_MAX_AGE_S = 36 * 3600  # the timer runs daily (with up to 30 min random delay)
UNDER_VOLTAGE_NOW, CAPPED_NOW, THROTTLED_NOW, SOFT_TEMP_NOW = 0x1, 0x2, 0x4, 0x8
UNDER_VOLTAGE_SEEN, CAPPED_SEEN, THROTTLED_SEEN, SOFT_TEMP_SEEN = 0x10000, 0x20000, 0x40000, 0x80000
FONT_GLOBS = ("usr/share/fonts/**/Noto*CJK*.tt[cf]", "usr/share/fonts/**/Noto*CJK*.otf",
              "usr/local/share/fonts/**/Noto*CJK*.tt[cf]", "usr/local/share/fonts/**/Noto*CJK*.otf")
PANEL_BAUD = 115200  # firmware_bridge.transport.BAUDRATE
PANEL_GLOBS = ("dev/serial/by-id/*", "dev/ttyACM*", "dev/ttyUSB*")


@dataclass(frozen=True)
class Check:
    name: str
    level: str  # ok | warning | error
    message: str
    fix: str = ""  # what to do; empty when ok

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"level must be one of {LEVELS}, got {self.level!r}")


def run_command(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(list(argv), capture_output=True, text=True, timeout=10)
    except FileNotFoundError as e:
        return subprocess.CompletedProcess(list(argv), 127, "", str(e))
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(list(argv), 124, "", f"{argv[0]} did not answer in 10 s")


@dataclass
class Probe:
    """Where the doctor looks. ``mode``: "app", "headless", or None (from the installed unit)."""

    root: Path = Path("/")
    run: Callable[[Sequence[str]], subprocess.CompletedProcess[str]] = run_command
    which: Callable[[str], str | None] = shutil.which
    mode: str | None = None
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    timeout_s: float = 3.0  # the broker's answer
    listen_s: float = 2.5  # the panel's first frame (it sends HB after 1 s of silence)
    ask_systemd: bool | None = None  # run systemctl about the units (default: on the live system)

    @property
    def live(self) -> bool:
        return self.root.resolve() == Path("/")

    @property
    def systemd(self) -> bool:
        return self.live if self.ask_systemd is None else self.ask_systemd

    def path(self, rel: str) -> Path:
        return self.root / rel.lstrip("/")

    def installed_mode(self) -> str | None:
        if self.mode is not None:
            return self.mode
        units = self.path("etc/systemd/system")
        if (units / "xian-table.service").exists():
            return "app"
        if (units / "xian-table-headless.service").exists():
            return "headless"
        return None


# -- the checks ------------------------------------------------------------------------


def check_journal(journal: Path) -> Check:
    from table_app.backup import keep_sidecar_owner
    from table_app.journal import Journal, JournalError

    try:
        exists = journal.exists()
    except PermissionError:  # /var/lib/xian-table is the table's own (0750)
        return Check("journal", ERROR, f"cannot read {journal}: permission denied",
                     "run the doctor as root: sudo xian-table doctor")
    if not exists:
        return Check("journal", WARNING, f"no journal yet at {journal}",
                     "it is created when the table service first starts: sudo systemctl start xian-table")
    try:
        with keep_sidecar_owner(journal), Journal.open(journal, readonly=True) as j:
            last = j.last_seq()
            version = j.version
            at = _last_record_time(journal) if last else None
    except PermissionError:
        return Check("journal", ERROR, f"cannot read {journal}: permission denied",
                     "run the doctor as root: sudo xian-table doctor")
    except JournalError as e:
        return Check("journal", ERROR, str(e),
                     "stop the table, move the file aside and copy the newest backup in its place "
                     "(docs/raspberry-pi.md, 'Restoring a backup')")
    except OSError as e:
        return Check("journal", ERROR, f"cannot read {journal}: {e.strerror}", "check the SD card (dmesg)")
    when = f", last at {at[:19].replace('T', ' ')} UTC" if at else ""
    if version < 2:
        return Check("journal", OK, f"{journal}: {last} records{when}, quick_check ok (schema {version}: the "
                                    f"service adds the hash chain at its next start)")
    return Check("journal", OK, f"{journal}: {last} records{when}, quick_check ok, hash chain ok")


def _last_record_time(journal: Path) -> str | None:
    conn = sqlite3.connect(f"{journal.resolve().as_uri()}?mode=ro", uri=True)
    try:
        row = conn.execute("SELECT at FROM records ORDER BY seq DESC LIMIT 1").fetchone()
        return str(row[0]) if row else None
    finally:
        conn.close()


def check_backups(folder: Path, now: float | None = None) -> Check:
    from table_app.backup import backups_in

    now = time.time() if now is None else now
    try:
        found = backups_in(folder)
    except PermissionError:
        return Check("backup", ERROR, f"cannot read {folder}: permission denied",
                     "run the doctor as root: sudo xian-table doctor")
    if not found:
        return Check("backup", WARNING, f"no backup in {folder} yet",
                     "the daily timer makes one; now: sudo systemctl start xian-table-backup")
    newest = found[-1]
    age = now - newest.stat().st_mtime
    msg = f"{len(found)} in {folder}, newest {newest.name} ({_ago(age)} ago)"
    if age > BACKUP_MAX_AGE_S:
        return Check("backup", WARNING, msg,
                     "the daily backup has not run: systemctl status xian-table-backup.timer; "
                     "journalctl -u xian-table-backup")
    return Check("backup", OK, msg)


def check_disk(journal: Path) -> Check:
    where = journal.parent
    while not where.exists() and where != where.parent:
        where = where.parent
    usage = shutil.disk_usage(where)
    msg = f"{_size(usage.free)} free of {_size(usage.total)} on the journal's disk ({where})"
    if usage.free < DISK_ERROR_BYTES:
        return Check("disk", ERROR, msg, "free space now or the table cannot record events: "
                     "sudo apt clean; sudo journalctl --vacuum-size=50M; move old backups away")
    if usage.free < DISK_WARN_BYTES:
        return Check("disk", WARNING, msg, "free some space: sudo apt clean; sudo journalctl --vacuum-size=50M")
    return Check("disk", OK, msg)


def parse_throttled(text: str) -> int | None:
    """The flags of ``vcgencmd get_throttled`` (None if the output is not that).

    >>> hex(parse_throttled("throttled=0x50005\\n"))
    '0x50005'
    >>> parse_throttled("VCHI initialization failed") is None
    True
    """
    m = re.search(r"throttled=(0x[0-9a-fA-F]+|\d+)", text)
    return int(m.group(1), 0) if m else None


def check_power(probe: Probe) -> Check:
    tool = probe.which("vcgencmd")
    model = _read(probe.path("proc/device-tree/model")).strip("\0 \n")
    if tool is None:
        if "Raspberry Pi" in model:
            return Check("power", WARNING, f"{model}: vcgencmd is missing, the power flags cannot be read",
                         "sudo apt install raspi-utils (or libraspberrypi-bin on older systems)")
        return Check("power", OK, "not a Raspberry Pi (no vcgencmd): no under-voltage flags to read")
    proc = probe.run([tool, "get_throttled"])
    flags = parse_throttled(proc.stdout) if proc.returncode == 0 else None
    if flags is None:
        detail = (proc.stderr or proc.stdout).strip() or f"exit status {proc.returncode}"
        return Check("power", WARNING, f"vcgencmd get_throttled failed: {detail}",
                     "run the doctor as root, or add your user to the video group")
    if flags & UNDER_VOLTAGE_NOW:
        return Check("power", ERROR, f"under-voltage now (throttled={flags:#x})",
                     "use the official 5 V power supply (5.1 V, 3 A for a Pi 4, 5 A for a Pi 5) and a short, "
                     "thick cable; under-voltage corrupts SD cards")
    if flags & (UNDER_VOLTAGE_SEEN | THROTTLED_NOW | CAPPED_NOW):
        why = []
        if flags & UNDER_VOLTAGE_SEEN:
            why.append("under-voltage since boot")
        if flags & (THROTTLED_NOW | CAPPED_NOW):
            why.append("throttled now")
        return Check("power", WARNING, f"{', '.join(why)} (throttled={flags:#x})",
                     "check the power supply and cable; a heatsink or fan if it is throttled for heat")
    if flags & (SOFT_TEMP_NOW | SOFT_TEMP_SEEN | THROTTLED_SEEN | CAPPED_SEEN):
        return Check("power", WARNING, f"it got hot or was throttled since boot (throttled={flags:#x})",
                     "give the Pi air: a heatsink or fan, and not in a closed box")
    return Check("power", OK, f"no under-voltage or throttling since boot (throttled={flags:#x})")


def check_panel(probe: Probe, configured: str = "") -> Check:
    """The serial panel: its port, and — when the service does not hold the port — its voice.

    The panel sends ``HB`` after a second of silence (firmware_bridge/PROTOCOL.md), so
    listening ``listen_s`` seconds tells a live panel from a dead one. While the table
    service has the port open the doctor does not read from it: it would take frames (a
    button press) meant for the service.
    """
    if configured:
        port = probe.path(configured) if not probe.live else Path(configured)
        if not port.exists():
            return Check("panel", ERROR, f"the configured panel port {configured} does not exist",
                         "plug the panel's USB cable in (ls /dev/serial/by-id/), or fix the port in the config")
        candidates = [port]
    else:
        candidates = []
        for pattern in PANEL_GLOBS:
            candidates += [p for p in sorted(probe.root.glob(pattern)) if p.resolve() not in
                           {c.resolve() for c in candidates}]
        if not candidates:
            return Check("panel", OK, "no serial panel connected (optional: GPIO buttons and the touchscreen work "
                                      "without it)")
    port = candidates[0]
    shown = "/" + str(port.relative_to(probe.root)) if not probe.live else str(port)
    if not os.access(port, os.R_OK | os.W_OK):
        return Check("panel", WARNING, f"panel port {shown} is there but you may not open it",
                     "the service's user is in dialout; to check by hand run the doctor with sudo")
    holder = _holder(port.resolve()) if probe.live or probe.listen_s else None
    if holder is not None:
        return Check("panel", OK, f"panel port {shown} is open in {holder} (the table holds the link; "
                                  f"its log shows the panel's state)")
    if probe.listen_s <= 0 or not port.resolve().is_char_device():
        return Check("panel", OK, f"panel port {shown} present")
    return _listen_panel(port, shown, probe.listen_s)


def installed_panel(probe: Probe) -> str:
    """The ``--panel`` device the installed units pass (``/etc/xian-table/inputs.env``)."""
    from table_app.install.contents import panel_device

    return panel_device(probe.path("etc/xian-table/inputs.env"))


def _holder(device: Path) -> str | None:
    """``name (pid N)`` of a process that has ``device`` open, if we can see one."""
    me = os.getpid()
    for fd_dir in Path("/proc").glob("[0-9]*/fd"):
        pid = int(fd_dir.parent.name)
        if pid == me:
            continue
        try:
            for fd in fd_dir.iterdir():
                with contextlib.suppress(OSError):
                    if Path(os.readlink(fd)) == device:
                        name = _read(fd_dir.parent / "comm").strip() or "a process"
                        return f"{name} (pid {pid})"
        except OSError:
            continue
    return None


def _listen_panel(port: Path, shown: str, listen_s: float) -> Check:
    try:
        import serial

        from firmware_bridge.protocol import ProtocolError, decode
    except ImportError:
        return Check("panel", OK, f"panel port {shown} present")
    frames: list[str] = []
    bad = 0
    try:
        with serial.Serial(str(port), PANEL_BAUD, timeout=0.1) as link:
            buffer = b""
            deadline = time.monotonic() + listen_s
            while time.monotonic() < deadline and not frames and bad < 3:
                buffer += link.read(256)
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    try:
                        frames.append(type(decode(line.rstrip(b"\r"))[1]).__name__)
                    except ProtocolError:
                        bad += 1
    except (OSError, serial.SerialException) as e:
        return Check("panel", ERROR, f"cannot open the panel port {shown}: {e}",
                     "unplug and replug the panel; dmesg | tail shows what the kernel saw")
    if frames:
        return Check("panel", OK, f"the panel answers on {shown} ({frames[0]} frame)")
    if bad:
        return Check("panel", ERROR, f"{shown} sends {bad} line(s) that are not panel frames",
                     f"is this the panel? the link runs at {PANEL_BAUD} baud (docs/panel.md)")
    return Check("panel", WARNING, f"{shown} is there but silent for {listen_s:g} s (a panel sends HB every second)",
                 "flash the panel's firmware (docs/panel.md, 'Flashing') and check its cable")


def _broker_login(probe: Probe, url: str) -> tuple[str, int, str | None, str | None]:
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = parts.port or (8883 if parts.scheme == "mqtts" else 1883)
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password is not None else None
    if user and password is None:
        password = probe.env.get("XIAN_TABLE_MQTT_PASSWORD")
        if password is None:
            env_file = _read(probe.path("etc/xian-table/mqtt.env"))
            m = re.search(r"^XIAN_TABLE_MQTT_PASSWORD=(.*)$", env_file, re.M)
            password = m.group(1).strip() if m else None
    return host, port, user, password


def mqtt_connect_packet(client_id: str, user: str | None, password: str | None) -> bytes:
    """An MQTT 3.1.1 CONNECT (clean session, keep-alive 10 s)."""
    def s(text: str) -> bytes:
        b = text.encode()
        return struct.pack("!H", len(b)) + b
    flags = 0x02 | (0x80 if user else 0) | (0x40 if user and password is not None else 0)
    body = s("MQTT") + bytes([4, flags]) + struct.pack("!H", 10) + s(client_id)
    if user:
        body += s(user)
        if password is not None:
            body += s(password)
    length = len(body)
    encoded = b""
    while True:
        byte, length = length % 128, length // 128
        encoded += bytes([byte | (0x80 if length else 0)])
        if not length:
            break
    return b"\x10" + encoded + body


def check_broker(probe: Probe, url: str = "mqtt://localhost:1883") -> Check:
    host, port, user, password = _broker_login(probe, url)
    where = f"{host}:{port}"
    try:
        with socket.create_connection((host, port), timeout=probe.timeout_s) as sock:
            sock.settimeout(probe.timeout_s)
            sock.sendall(mqtt_connect_packet(f"xian-table-doctor-{os.getpid()}", user, password))
            answer = b""
            while len(answer) < 4:
                chunk = sock.recv(4 - len(answer))
                if not chunk:
                    break
                answer += chunk
            with contextlib.suppress(OSError):
                sock.sendall(b"\xe0\x00")  # DISCONNECT
    except ConnectionRefusedError:
        return Check("broker", ERROR, f"no MQTT broker at {where} (connection refused)",
                     "sudo apt install mosquitto; sudo systemctl enable --now mosquitto; then sudo xian-table install")
    except OSError as e:
        return Check("broker", ERROR, f"cannot reach the MQTT broker at {where}: {e.strerror or e}",
                     "check mqtt.url in the config and the network; systemctl status mosquitto")
    if len(answer) < 4 or answer[0] != 0x20:
        return Check("broker", ERROR, f"{where} did not answer like an MQTT broker ({answer!r})",
                     "check mqtt.url in the config: is that port the broker's?")
    code = answer[3]
    if user and password is not None:
        if code == 0:
            return Check("broker", OK, f"broker at {where} accepts the table's login ({user})")
        return Check("broker", ERROR, f"broker at {where} refuses the table's login {user!r} (CONNACK {code})",
                     "a new password for the table, in the broker and in /etc/xian-table/mqtt.env, and a restart: "
                     "sudo xian-table mqtt-users rotate service")
    if code == 0:
        return Check("broker", WARNING, f"broker at {where} is up but lets anyone in (anonymous login accepted)",
                     "install the table's broker config with users and ACL: sudo xian-table install; "
                     "sudo systemctl restart mosquitto")
    if code in (4, 5):
        why = "" if probe.env.get("XIAN_TABLE_MQTT_PASSWORD") is not None else \
            " (the table's password is not readable here: sudo xian-table doctor checks it)"
        return Check("broker", OK, f"broker at {where} is up and refuses anonymous clients{why}")
    return Check("broker", ERROR, f"broker at {where} refused the connection (CONNACK {code})",
                 "journalctl -u mosquitto")


def check_font(probe: Probe, configured: str = "") -> Check:
    """The app's Chinese font, looked for as the app does (``table_app/ui/fonts.py``).

    ``XIAN_TABLE_FONT`` (or ``configured``) first, then the known Debian files, then any Noto
    CJK file under the font folders.
    """
    configured = configured or probe.env.get("XIAN_TABLE_FONT", "")
    if configured:
        p = probe.path(configured) if not probe.live else Path(configured).expanduser()
        if p.is_file():
            return Check("font", OK, f"configured font {configured}")
        return Check("font", ERROR, f"the configured font {configured} (XIAN_TABLE_FONT) does not exist",
                     "fix the path, or unset it and sudo apt install fonts-noto-cjk")
    known_files: tuple[str, ...] = ()
    with contextlib.suppress(ImportError):  # the app's own list, when the app is there
        from table_app.ui.fonts import KNOWN

        known_files = tuple(KNOWN)
    for known in known_files:
        if probe.path(known).is_file():
            return Check("font", OK, f"Chinese font {known}")
    for pattern in FONT_GLOBS:
        found = sorted(probe.root.glob(pattern))
        if found:
            shown = "/" + str(found[0].relative_to(probe.root))
            return Check("font", OK, f"Chinese font {shown}")
    return Check("font", ERROR, "no Chinese (CJK) font: tiles, winds and names would show as empty boxes",
                 "sudo apt install fonts-noto-cjk")


def check_display(probe: Probe) -> Check:
    mode = probe.installed_mode()
    if mode == "headless":
        return Check("display", OK, "headless: no display needed")
    cards = sorted(p for p in probe.root.glob("dev/dri/card*"))
    if not cards:
        return Check("display", ERROR, "no KMS/DRM display device (/dev/dri/card*): the app cannot draw",
                     "on a Pi: dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt, then reboot; "
                     "or install with --headless")
    connected = []
    drivers = set()
    for status in sorted(probe.root.glob("sys/class/drm/card*-*/status")):
        card = status.parent.name.split("-", 1)[0]
        driver = probe.path(f"sys/class/drm/{card}/device/driver")
        with contextlib.suppress(OSError):
            drivers.add(Path(os.readlink(driver)).name)
        if _read(status).strip() == "connected":
            connected.append(status.parent.name)
    drv = f" (driver {', '.join(sorted(drivers))})" if drivers else ""
    if not connected:
        return Check("display", WARNING, f"KMS device {cards[0].name}{drv} but no screen connected",
                     "check the HDMI or DSI ribbon cable and the screen's power")
    if probe.live and probe.run(["systemctl", "is-active", "--quiet", "display-manager"]).returncode == 0:
        return Check("display", WARNING, f"{', '.join(connected)} connected{drv}, but a desktop holds the display",
                     "use Raspberry Pi OS Lite, or: sudo systemctl disable --now display-manager")
    return Check("display", OK, f"kmsdrm: {', '.join(connected)} connected{drv}")


def check_service(probe: Probe) -> Check:
    units = probe.path("etc/systemd/system")
    installed = [u for u in ("xian-table.service", "xian-table-headless.service") if (units / u).exists()]
    if not installed:
        return Check("service", WARNING, "the table is not installed as a service",
                     "sudo xian-table install (or --headless)")
    unit = installed[0]
    if not probe.systemd:
        return Check("service", OK, f"{unit} installed (not running in {probe.root})")
    state = probe.run(["systemctl", "is-active", unit]).stdout.strip() or "unknown"
    if state != "active":
        return Check("service", ERROR, f"{unit} is {state}",
                     f"sudo systemctl start {unit}; why it stopped: journalctl -u {unit} -b")
    restarts = probe.run(["systemctl", "show", "-P", "NRestarts", unit]).stdout.strip()
    if restarts.isdigit() and int(restarts) > 0:
        return Check("service", WARNING, f"{unit} active, restarted {restarts} times (crash or watchdog)",
                     f"journalctl -u {unit} -b shows why")
    return Check("service", OK, f"{unit} active")


# -- all of it -------------------------------------------------------------------------


def run_checks(cfg: Any, probe: Probe | None = None) -> list[Check]:
    probe = Probe() if probe is None else probe
    journal = cfg.journal_file()
    backup_dir = Path(getattr(cfg, "backup_dir", "") or journal.parent / "backups")
    checks: list[Callable[[], Check]] = [
        lambda: check_journal(journal),
        lambda: check_backups(backup_dir),
        lambda: check_disk(journal),
        lambda: check_power(probe),
        lambda: check_panel(probe, installed_panel(probe)),
        lambda: check_broker(probe, getattr(cfg, "mqtt_url", "") or "mqtt://localhost:1883"),
        lambda: check_font(probe),
        lambda: check_display(probe),
        lambda: check_service(probe),
    ]
    names = ["journal", "backup", "disk", "power", "panel", "broker", "font", "display", "service"]
    out = []
    for name, fn in zip(names, checks, strict=True):
        try:
            out.append(fn())
        except Exception as e:  # a check that breaks is a finding, not a crash
            out.append(Check(name, ERROR, f"the check itself failed: {type(e).__name__}: {e}",
                             "please report this with the output of xian-table doctor"))
    return out


def render(checks: Sequence[Check], header: str = "") -> str:
    width = max(len(c.name) for c in checks)
    lines = [header] if header else []
    for c in checks:
        lines.append(f"{c.level:<7}  {c.name:<{width}}  {c.message}")
        if c.fix:
            lines.append(f"{'':<7}  {'':<{width}}  → {c.fix}")
    return "\n".join(lines) + "\n"


def to_json(checks: Sequence[Check]) -> dict[str, Any]:
    worst = max((LEVELS.index(c.level) for c in checks), default=0)
    return {"status": LEVELS[worst], "checks": [asdict(c) for c in checks],
            "at": datetime.now(UTC).isoformat(timespec="seconds")}


def _read(p: Path) -> str:
    try:
        return p.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _size(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"


def _ago(seconds: float) -> str:
    if seconds < 3600:
        return f"{max(seconds, 0) / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.0f} h"
    return f"{seconds / 86400:.0f} days"
