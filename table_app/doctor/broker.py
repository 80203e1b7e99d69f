"""The MQTT broker: does it answer, and does it let the table (and only the table) in."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import struct
from urllib.parse import unquote, urlsplit

from table_app.doctor.check import ERROR, OK, WARNING, Check, Probe, read_text


def _broker_login(probe: Probe, url: str) -> tuple[str, int, str | None, str | None]:
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = parts.port or (8883 if parts.scheme == "mqtts" else 1883)
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password is not None else None
    if user and password is None:
        password = probe.env.get("XIAN_TABLE_MQTT_PASSWORD")
        if password is None:
            env_file = read_text(probe.path("etc/xian-table/mqtt.env"))
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


# mosquitto before 2.0.12 decrements a listener's client count twice for some disconnects, so
# after N disconnects a listener takes max_connections + N clients (eclipse/mosquitto#1460,
# fixed in 2.0.12: "Fix max_connections option not being correctly counted"). Debian 12 ships 2.0.11.
MAX_CONNECTIONS_FIXED = (2, 0, 12)
DROPIN = "etc/systemd/system/mosquitto.service.d/xian-table.conf"
UPGRADE = ("upgrade mosquitto to 2.0.12 or later: on Debian 12 add bookworm-backports to the apt sources, then "
           "sudo apt install -t bookworm-backports mosquitto (or use the Mosquitto project's Debian repository)")


def mosquitto_version(text: str) -> tuple[int, int, int] | None:
    """The version ``mosquitto -h`` prints on its first line.

    >>> mosquitto_version("mosquitto version 2.0.11\\n\\nmosquitto is an MQTT v5.0/v3.1.1/v3.1 broker.")
    (2, 0, 11)
    >>> mosquitto_version("usage: something else") is None
    True
    """
    m = re.search(r"mosquitto version (\d+)\.(\d+)\.(\d+)", text)
    return (int(m[1]), int(m[2]), int(m[3])) if m else None


def _files_limit(probe: Probe) -> str | None:
    """mosquitto.service's LimitNOFILE: what systemd has loaded, else what the drop-in says."""
    if probe.systemd:
        shown = probe.run(["systemctl", "show", "-p", "LimitNOFILE", "--value", "mosquitto.service"])
        value = shown.stdout.strip()
        if shown.returncode == 0 and value:  # "infinity" or systemd's default (1024 and up): no cap of ours
            return value if value.isdigit() and int(value) < 1024 else None
    m = re.search(r"^LimitNOFILE=(\d+)\s*$", read_text(probe.path(DROPIN)), re.M)
    return m[1] if m else None


def check_mosquitto(probe: Probe) -> Check:
    """The version of this machine's mosquitto, and a warning where it miscounts connections."""
    binary = probe.which("mosquitto") or next(
        (str(p) for p in (probe.path("usr/sbin/mosquitto"),) if p.exists()), None)
    if binary is None:
        return Check("mosquitto", OK, "no mosquitto on this machine (the broker is elsewhere): version not checked")
    done = probe.run([binary, "-h"])  # prints its version and usage, exit status 3
    version = mosquitto_version(done.stdout + done.stderr)
    if version is None:
        return Check("mosquitto", WARNING, f"{binary} -h did not say its version "
                     f"({(done.stdout + done.stderr).strip()[:80]!r})", "dpkg -l mosquitto")
    shown = ".".join(map(str, version))
    if version >= MAX_CONNECTIONS_FIXED:
        return Check("mosquitto", OK, f"mosquitto {shown}")
    limit = _files_limit(probe)
    capped = (f"the table's drop-in caps the broker at {limit} open files (LimitNOFILE), so it cannot take "
              f"more than about that many clients" if limit else
              "nothing caps it here: sudo xian-table install writes a drop-in with LimitNOFILE")
    return Check("mosquitto", WARNING,
                 f"mosquitto {shown} stops enforcing max_connections after clients connect and disconnect "
                 f"(fixed in 2.0.12; eclipse/mosquitto#1460): each disconnect lets one more client in; {capped}",
                 UPGRADE + ("" if limit else "; until then: sudo xian-table install"))
