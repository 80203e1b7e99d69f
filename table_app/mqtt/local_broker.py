"""A throw-away mosquitto on a free loopback port, run with the shipped configuration
(``systemd/mosquitto/xian-table.conf``) and freshly generated users: for the tests and
the benchmark, never for a table.

Only three things differ from an installed broker: the listener is ``127.0.0.1:<free
port>``, the password file and ACL live in the given folder, and nothing is persisted (so
a restart shows that the table itself restores every retained view).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

from table_app.mqtt.broker_setup import DATA_DIR, DEFAULT_USERS, SHIPPED_CONF, setup
from table_app.mqtt.topics import DEFAULT_PREFIX, HA_PREFIX


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def render_conf(shipped: str, data_dir: Path, port: int, log_file: Path) -> str:
    lines = []
    for line in shipped.replace(str(DATA_DIR), str(data_dir)).splitlines():
        if line.strip().startswith("listener "):
            line = f"listener {port} 127.0.0.1"
        lines.append(line)
    lines += ["persistence false", f"log_dest file {log_file}", "log_type all"]
    if os.geteuid() == 0:
        lines.append("user root")  # keep root's access to the temporary folder
    return "\n".join(lines) + "\n"


class LocalBroker:
    """``with LocalBroker(tmp) as b:`` ... ``b.url("display")``, ``b.stop()``, ``b.start()``."""

    def __init__(self, workdir: Path, prefix: str = DEFAULT_PREFIX, ha_prefix: str = HA_PREFIX) -> None:
        exe = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
        if exe is None:
            raise RuntimeError("mosquitto not found: install the Debian package mosquitto (scripts/setup.sh does)")
        self.exe = exe
        self.workdir = Path(workdir)
        self.data_dir = self.workdir / "broker"
        self.passwords = setup(self.data_dir, DEFAULT_USERS, prefix=prefix, ha_prefix=ha_prefix, force=True)
        self.users = {role: name for role, name in DEFAULT_USERS}
        self.port = free_port()
        self.log_file = self.workdir / "mosquitto.log"
        self.conf = self.workdir / "mosquitto.conf"
        self.conf.write_text(render_conf(SHIPPED_CONF.read_text(encoding="utf-8"), self.data_dir, self.port,
                                         self.log_file), encoding="utf-8")
        self.proc: subprocess.Popen[bytes] | None = None

    def url(self, role: str, password: str | None = None) -> str:
        name = self.users[role]
        return f"mqtt://{name}:{password or self.passwords[name]}@127.0.0.1:{self.port}"

    def start(self, timeout: float = 10.0) -> LocalBroker:
        if self.proc is not None:
            return self
        self.proc = subprocess.Popen([self.exe, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                log = self.log_file.read_text(errors="replace") if self.log_file.exists() else ""
                self.proc = None
                raise RuntimeError(f"mosquitto exited at start:\n{err}\n{log[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"mosquitto did not listen on port {self.port} within {timeout} s")

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        if self.proc.stderr:
            self.proc.stderr.close()
        self.proc = None

    def __enter__(self) -> LocalBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
