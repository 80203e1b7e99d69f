"""The machine the table runs on: its power supply, the Chinese font, the display, the unit."""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

from table_app.doctor.check import ERROR, OK, WARNING, Check, Probe, read_text

UNDER_VOLTAGE_NOW, CAPPED_NOW, THROTTLED_NOW, SOFT_TEMP_NOW = 0x1, 0x2, 0x4, 0x8
UNDER_VOLTAGE_SEEN, CAPPED_SEEN, THROTTLED_SEEN, SOFT_TEMP_SEEN = 0x10000, 0x20000, 0x40000, 0x80000
FONT_GLOBS = ("usr/share/fonts/**/Noto*CJK*.tt[cf]", "usr/share/fonts/**/Noto*CJK*.otf",
              "usr/local/share/fonts/**/Noto*CJK*.tt[cf]", "usr/local/share/fonts/**/Noto*CJK*.otf")


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
    model = read_text(probe.path("proc/device-tree/model")).strip("\0 \n")
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


def check_font(probe: Probe, configured: str = "") -> Check:
    """The app's Chinese font, looked for as the app does (``table_app/present/fonts.py``).

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
        from table_app.present.fonts import KNOWN

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
        if read_text(status).strip() == "connected":
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
