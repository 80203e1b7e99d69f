"""The parlour benchmark's throw-away servers (``xian-table bench --only parlour``, the rig):
never for a real parlour. The parlour's tests start the same ones. The benchmark needs Debian's
``mosquitto`` and ``postgresql`` packages (``make test``'s set-up installs both).

:class:`LocalParlourBroker`: a mosquitto with the parlour's settings (:func:`broker.conf_text`,
persistence on, in the given folder) on a free loopback port, its service user made.

:class:`LocalPostgres`: a PostgreSQL server in a temporary folder on a free loopback port
(Debian's ``postgresql`` package: initdb, pg_ctl). PostgreSQL refuses to run as root: as root
the cluster is made and run as ``nobody`` (its folder given to that user), otherwise as whoever
runs it. Trust authentication on 127.0.0.1 only, for the user ``parlour``.

    with LocalPostgres(tmp) as pg:
        Database.open(pg.url)
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from parlour import broker
from table_app.mqtt.local_broker import free_port

BIN_DIRS = ("/usr/lib/postgresql/15/bin", "/usr/local/bin", "/usr/bin")
USER = "parlour"
RUN_AS = "nobody"


def pg_tool(name: str) -> str:
    for d in BIN_DIRS:
        if Path(d, name).exists():
            return str(Path(d, name))
    found = shutil.which(name)
    if found is None:
        raise RuntimeError(f"{name} not found: install the Debian package postgresql")
    return found


class LocalPostgres:
    """``workdir`` None: a folder of its own in /tmp, removed by :meth:`cleanup` (``with`` does),
    outside pytest's, whose base folder other runs make private again (as root the server,
    run as ``nobody``, must reach its folder each time it starts)."""

    def __init__(self, workdir: Path | None = None) -> None:
        self._own = workdir is None
        base = Path(tempfile.mkdtemp(prefix="xian-parlour-pg-")) if workdir is None else Path(workdir)
        self.workdir = base / "pg"
        self.data = self.workdir / "data"
        self.port = free_port()
        self.url = f"postgresql://{USER}@127.0.0.1:{self.port}/postgres"
        self.running = False

    def _run(self, argv: list[str]) -> None:
        if os.geteuid() == 0:
            argv = ["runuser", "-u", RUN_AS, "--", *argv]
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd="/")
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed: {proc.stderr.strip() or proc.stdout.strip()}")

    def start(self) -> LocalPostgres:
        if self.running:
            return self
        if not self.data.exists():
            self.workdir.mkdir(parents=True, exist_ok=True)
            if os.geteuid() == 0:
                shutil.chown(self.workdir, RUN_AS)
                for parent in self.workdir.parents:  # nobody must reach its folder
                    if parent == Path("/"):
                        break
                    os.chmod(parent, os.stat(parent).st_mode | 0o011)
            self._run([pg_tool("initdb"), "-D", str(self.data), "-U", USER, "-A", "trust", "--no-sync",
                       "-E", "UTF8", "--locale", "C"])
        opts = f"-p {self.port} -h 127.0.0.1 -k {self.workdir} -c fsync=off"
        self._run([pg_tool("pg_ctl"), "-D", str(self.data), "-o", opts, "-l", str(self.workdir / "log"), "-w",
                   "-t", "60", "start"])
        self.running = True
        return self

    def stop(self) -> None:
        if self.running:
            self._run([pg_tool("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"])
            self.running = False

    def __enter__(self) -> LocalPostgres:
        return self.start()

    def cleanup(self) -> None:
        self.stop()
        if self._own:
            shutil.rmtree(self.workdir.parent, ignore_errors=True)

    def __exit__(self, *exc: object) -> None:
        self.cleanup()


class LocalParlourBroker:
    """``with LocalParlourBroker(tmp) as b:`` … ``b.url()`` (the service's), ``b.restart()``, ``b.reload()``."""

    def __init__(self, workdir: Path, port: int | None = None) -> None:
        exe = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        if not Path(exe).exists():
            raise RuntimeError("mosquitto not found: install the Debian package mosquitto")
        self.exe = exe
        self.dir = Path(workdir) / "parlour-broker"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.service_password = broker.ensure_service_user(self.dir) or \
            (self.dir / broker.SERVICE_PASSWORD).read_text(encoding="utf-8").strip()
        broker.write_acl(self.dir, [])
        self.log_file = self.dir / "mosquitto.log"
        conf = broker.conf_text(self.dir, [f"{self.port} 127.0.0.1"], persistence_dir=self.dir)
        conf += f"log_dest file {self.log_file}\nlog_type all\n" + ("user root\n" if os.geteuid() == 0 else "")
        self.conf = self.dir / "mosquitto.conf"
        self.conf.write_text(conf, encoding="utf-8")
        self.proc: subprocess.Popen[bytes] | None = None

    def url(self, user: str = broker.SERVICE_USER, password: str | None = None) -> str:
        return f"mqtt://{user}:{password or self.service_password}@127.0.0.1:{self.port}"

    def start(self, timeout: float = 10.0) -> LocalParlourBroker:
        if self.proc is not None:
            return self
        self.proc = subprocess.Popen([self.exe, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                self.proc = None
                raise RuntimeError(f"mosquitto exited at start: {self.log_file}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not listen in time")

    def reload(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGHUP)
            time.sleep(0.2)  # mosquitto reads the files between two rounds of its loop

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()  # SIGTERM: it writes its persistence file first
            self.proc.wait(timeout=20)
            self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def __enter__(self) -> LocalParlourBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
