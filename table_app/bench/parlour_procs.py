"""The parlour rig's processes that are not tables: mosquitto brokers (a table's own, and the
parlour's) and a link between a table's broker and the parlour's that can be cut (the
throw-away PostgreSQL is ``table_app/bench/parlour_local.py``). For the rig (``parlour_rig.py``), its tests and the soak
benchmark; never for a table or a parlour.

The link is a TCP relay in this process between the bridge of a table's mosquitto and the
parlour's mosquitto. :meth:`Link.cut` makes it carry nothing, as an uplink that goes down
does: the connections it holds stay open but no byte passes either way (so neither broker
hears a reset: each finds the silence by its own keepalive, as over a dead Wi-Fi or a
switched-off router), and new connections are taken but get no answer (as a connect into
an unreachable network waits; one given up on before the link is back never reaches the
parlour). :meth:`Link.restore` lets the bytes pass again: connections
that neither end gave up on go on where they stopped. :meth:`Link.reset` is the other
kind of outage, the one a table sees at once: every connection is reset and new ones are
refused until :meth:`Link.restore`.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

from table_app.mqtt.local_broker import free_port

WAIT_S = 15.0


def ended(proc: subprocess.Popen[bytes] | subprocess.Popen[str]) -> None:
    """Wait up to ``WAIT_S`` for ``proc`` (already told to end) to exit, then kill it."""
    try:
        proc.wait(WAIT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(WAIT_S)


def mosquitto_exe() -> str:
    exe = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
    if exe is None:
        raise RuntimeError("mosquitto not found: install the Debian package mosquitto (scripts/setup.sh does)")
    return exe


def wait_listening(port: int, timeout: float = WAIT_S) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.02)
    return False


class Mosquitto:
    """A mosquitto run with ``conf`` (a file the caller writes; :attr:`port` is its listener),
    started, stopped (SIGTERM: it saves its persistence file) and started again on the same port."""

    def __init__(self, workdir: Path, conf: Path, port: int, name: str) -> None:
        self.workdir, self.conf, self.port, self.name = Path(workdir), Path(conf), port, name
        self.log_file = self.workdir / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> Mosquitto:
        if self.proc is not None:
            return self
        self.proc = subprocess.Popen([mosquitto_exe(), "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=open(self.workdir / f"{self.name}.stderr", "ab"))  # noqa: SIM115
        self.starts += 1
        end = time.monotonic() + WAIT_S
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                self.proc = None
                raise RuntimeError(f"mosquitto {self.name} exited at start: see {self.workdir}/{self.name}.stderr "
                                   f"and {self.log_file}")
            if wait_listening(self.port, 0.2):
                return self
        raise RuntimeError(f"mosquitto {self.name} did not listen on port {self.port} within {WAIT_S} s")

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        ended(self.proc)
        self.proc = None

    def restart(self, down_s: float = 0.0) -> None:
        self.stop()
        time.sleep(down_s)
        self.start()

    def log(self) -> str:
        return self.log_file.read_text(errors="replace") if self.log_file.exists() else ""


def _peer_closed(s: socket.socket) -> bool:
    """Whether the other end has closed (or reset) the connection, without reading from it."""
    try:
        info = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)
    except OSError:
        return True
    return info[0] != 1  # (TCP_ESTABLISHED)


class _Pair:
    """One relayed connection: the table's end and the parlour's end."""

    def __init__(self, down: socket.socket, up: socket.socket | None) -> None:
        self.down, self.up = down, up
        self.reset = False

    def close(self) -> None:
        """Both ends reset (RST). (The pumps blocked in ``recv`` are woken by a shutdown of the
        reading side first: a socket closed under a blocked ``recv`` is not closed until it returns.)"""
        self.reset = True
        for s in (self.down, self.up):
            if s is None:
                continue
            with contextlib.suppress(OSError):
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                s.shutdown(socket.SHUT_RD)
            s.close()


class Link:
    """A table's uplink: ``127.0.0.1:port`` relays to the parlour broker's ``upstream`` port."""

    def __init__(self, upstream: int) -> None:
        self.upstream = upstream
        self.port = free_port()
        self._open = threading.Event()
        self._open.set()
        self._refuse = False
        self._lock = threading.Lock()
        self._pairs: list[_Pair] = []
        self._server: socket.socket | None = self._listen()
        self.cuts: list[tuple[float, float | None]] = []  # (cut at, restored at), time.time()

    def _listen(self) -> socket.socket:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", self.port))
        s.listen(16)
        threading.Thread(target=self._accept, args=(s,), daemon=True, name=f"link-{self.port}").start()
        return s

    @property
    def up(self) -> bool:
        return self._open.is_set()

    def cut(self) -> None:
        """No byte passes either way; connections stay open, new ones wait unanswered."""
        self._open.clear()
        self.cuts.append((time.time(), None))

    def reset(self) -> None:
        """Every connection reset at once; new ones refused until :meth:`restore`."""
        self._open.clear()
        self.cuts.append((time.time(), None))
        with self._lock:
            self._refuse = True
            pairs, self._pairs = self._pairs, []
            server, self._server = self._server, None
        if server is not None:
            with contextlib.suppress(OSError):
                server.shutdown(socket.SHUT_RDWR)
            server.close()
        for p in pairs:
            p.close()

    def restore(self) -> None:
        with self._lock:
            if self._refuse:
                self._refuse = False
                self._server = self._listen()
        if self.cuts and self.cuts[-1][1] is None:
            self.cuts[-1] = (self.cuts[-1][0], time.time())
        self._open.set()

    def close(self) -> None:
        self.reset()

    def _accept(self, server: socket.socket) -> None:
        while True:
            try:
                down, _ = server.accept()
            except OSError:
                return
            threading.Thread(target=self._connect, args=(down,), daemon=True).start()

    def _connect(self, down: socket.socket) -> None:
        # A connect during a cut waits, unanswered, until the link is back; one its maker gave up
        # on meanwhile (closed) never reaches the parlour, as a connection attempt that timed out.
        while not self._open.wait(0.2):
            if _peer_closed(down):
                down.close()
                return
        if _peer_closed(down):
            down.close()
            return
        try:
            up = socket.create_connection(("127.0.0.1", self.upstream), timeout=WAIT_S)
        except OSError:
            down.close()
            return
        up.settimeout(None)
        pair = _Pair(down, up)
        with self._lock:
            if self._refuse:
                pair.close()
                return
            self._pairs.append(pair)
        for a, b in ((down, up), (up, down)):
            threading.Thread(target=self._pump, args=(pair, a, b), daemon=True).start()

    def _pump(self, pair: _Pair, a: socket.socket, b: socket.socket) -> None:
        try:
            while True:
                self._open.wait()
                data = a.recv(65536)
                if not data:
                    break
                self._open.wait()  # (cut while this was read: it waits with the link)
                b.sendall(data)
        except OSError:
            pass
        finally:
            if not pair.reset:  # (an end that closed: its FIN passed on; a reset sends no FIN)
                with contextlib.suppress(OSError):
                    b.shutdown(socket.SHUT_WR)
            with self._lock:
                if pair in self._pairs and a is pair.up:
                    self._pairs.remove(pair)
