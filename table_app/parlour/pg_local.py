"""A throw-away PostgreSQL server in a temporary folder on a free loopback port: for the tests
and the benchmark, never for a parlour (Debian's ``postgresql`` package: initdb, pg_ctl).

PostgreSQL refuses to run as root: as root the cluster is made and run as ``nobody`` (its
folder given to that user), otherwise as whoever runs it. Trust authentication on 127.0.0.1
only, for the user ``parlour``.

    with LocalPostgres(tmp) as pg:
        Database.open(pg.url)
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

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
    def __init__(self, workdir: Path) -> None:
        self.workdir = Path(workdir) / "pg"
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

    def __exit__(self, *exc: object) -> None:
        self.stop()
