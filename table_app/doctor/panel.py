"""The serial button panel: its port, who holds it, and whether it answers."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

from table_app.doctor.check import ERROR, OK, WARNING, Check, Probe, read_text

PANEL_BAUD = 115200  # firmware_bridge.transport.BAUDRATE
PANEL_GLOBS = ("dev/serial/by-id/*", "dev/ttyACM*", "dev/ttyUSB*")


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
                        name = read_text(fd_dir.parent / "comm").strip() or "a process"
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
