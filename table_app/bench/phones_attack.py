"""A stranger on the table's Wi-Fi trying to stop it (issue 27), as another process: half-open
connections (connect, send nothing), slow bodies (``Content-Length: 1000``, a byte every
``every_s``) and event streams held open, from the given source addresses (on loopback any
127.x.y.z), each reopened as soon as the server lets it go, for as long as it runs.

``Attack(port, ...)`` starts it and waits until every connection was opened once;
``.stop()`` ends it and returns what it met (:class:`Met`). Used by ``xian-table bench --only
phones`` and by tests/table_app/web/test_web_attack.py; ``python -m table_app.bench.phones_attack
CONFIG`` is the process itself (CONFIG as JSON; it prints ``ready``, then what it met when its
stdin closes).
"""

from __future__ import annotations

import contextlib
import errno
import json
import resource
import selectors
import socket
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import TypedDict

TICK_S = 0.05  # the attacker's pace: bytes trickled, connections reopened
REOPEN_PER_TICK = 50  # at most this many reopened a tick (1,000 a second)
SLOW_HEAD = (b"POST /join/not-the-token HTTP/1.1\r\nHost: table\r\nContent-Type: application/json\r\n"
             b"Content-Length: 1000\r\n\r\n")
STREAM_HEAD = b"GET /seat/%d/events HTTP/1.1\r\nHost: table\r\n\r\n"


class Config(TypedDict):
    port: int
    half_open: int
    slow: int
    streams: int
    sources: list[str]
    every_s: float


@dataclass
class Met:
    """What the attack met: how its connections ended, by kind and answer."""

    ended: dict[str, int] = field(default_factory=dict)  # "slow 408", "half 503", "half closed", …
    streams_open: int = 0  # streams the server answered 200 …
    streams_refused: int = 0  # … or 503
    slow_most_sent: int = 0  # the most body bytes a slow body sent before it was cut
    slow_soonest_cut_s: float | None = None  # the shortest life of a slow body cut with a 408


@dataclass(eq=False)
class _Conn:
    kind: str  # "half", "slow", "stream"
    sock: socket.socket
    opened: float
    connected: bool = False
    sent: int = 0  # body bytes (slow)
    got: bytes = b""


class _Attacker:
    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.sel = selectors.DefaultSelector()
        self.met = Met()
        self.conns: dict[int, _Conn] = {}
        self.missing = {"half": cfg["half_open"], "slow": cfg["slow"], "stream": cfg["streams"]}
        self.n = 0
        self.started = 0  # connections that were connected (ready: every one once)

    def open(self, kind: str) -> None:
        source = self.cfg["sources"][self.n % len(self.cfg["sources"])]
        self.n += 1
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            s.bind((source, 0))
            code = s.connect_ex(("127.0.0.1", self.cfg["port"]))
        except OSError:
            s.close()
            return
        if code not in (0, errno.EINPROGRESS):
            s.close()
            return
        conn = _Conn(kind, s, time.monotonic())
        self.conns[s.fileno()] = conn
        self.sel.register(s, selectors.EVENT_WRITE, conn)
        self.missing[kind] -= 1

    def connected(self, conn: _Conn) -> None:
        if conn.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
            self.end(conn, "refused")
            return
        conn.connected = True
        self.started += 1
        self.sel.modify(conn.sock, selectors.EVENT_READ, conn)
        with contextlib.suppress(OSError):
            if conn.kind == "slow":
                conn.sock.send(SLOW_HEAD)
            elif conn.kind == "stream":
                conn.sock.send(STREAM_HEAD % (self.n % 4))

    def readable(self, conn: _Conn) -> None:
        try:
            chunk = conn.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if conn.kind == "stream" and not conn.got and chunk:
            if chunk.startswith(b"HTTP/1.1 200"):
                self.met.streams_open += 1
            else:
                self.met.streams_refused += 1
        conn.got = (conn.got + chunk)[:64]
        if not chunk:
            status = conn.got[9:12].decode("latin-1") if conn.got.startswith(b"HTTP/") else "closed"
            self.end(conn, status)

    def end(self, conn: _Conn, how: str) -> None:
        key = f"{conn.kind} {how}"
        self.met.ended[key] = self.met.ended.get(key, 0) + 1
        if conn.kind == "slow" and how == "408":
            life = time.monotonic() - conn.opened
            soonest = self.met.slow_soonest_cut_s
            self.met.slow_soonest_cut_s = life if soonest is None else min(soonest, life)
            self.met.slow_most_sent = max(self.met.slow_most_sent, conn.sent)
        self.sel.unregister(conn.sock)
        del self.conns[conn.sock.fileno()]
        conn.sock.close()
        self.missing[conn.kind] += 1

    def tick(self) -> None:
        now = time.monotonic()
        for conn in list(self.conns.values()):
            if conn.kind == "slow" and conn.connected and now - conn.opened >= (conn.sent + 1) * self.cfg["every_s"]:
                with contextlib.suppress(OSError):
                    conn.sent += conn.sock.send(b" ")
        budget = REOPEN_PER_TICK
        for kind in ("half", "slow", "stream"):
            while self.missing[kind] > 0 and budget > 0:
                budget -= 1
                before = self.missing[kind]
                self.open(kind)
                if self.missing[kind] == before:  # (could not even try: the next tick)
                    break

    def run(self) -> None:
        self.sel.register(sys.stdin, selectors.EVENT_READ, None)
        ready = False
        next_tick = 0.0
        while True:
            if time.monotonic() >= next_tick:
                self.tick()
                next_tick = time.monotonic() + TICK_S
            for key, events in self.sel.select(TICK_S):
                conn = key.data
                if conn is None:
                    return
                if events & selectors.EVENT_WRITE:
                    self.connected(conn)
                else:
                    self.readable(conn)
            if not ready and self.started >= self.cfg["half_open"] + self.cfg["slow"] + self.cfg["streams"]:
                ready = True
                print("ready", flush=True)


class Attack:
    """The attacker process: ``Attack(port, half_open=200, slow=130, sources=[...])``; ``.stop()``."""

    def __init__(self, port: int, *, half_open: int = 200, slow: int = 130, streams: int = 0,
                 sources: list[str] | None = None, every_s: float = 5.0, timeout_s: float = 30.0) -> None:
        cfg: Config = {"port": port, "half_open": half_open, "slow": slow, "streams": streams,
                       "sources": sources or ["127.0.0.2"], "every_s": every_s}
        self.proc = subprocess.Popen([sys.executable, "-m", "table_app.bench.phones_attack", json.dumps(cfg)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        if not sel.select(timeout_s) or self.proc.stdout.readline().strip() != "ready":
            self.proc.kill()
            raise RuntimeError("the attacker could not open its connections")

    def stop(self) -> Met:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        out = self.proc.stdout.read()
        self.proc.wait(30)
        return Met(**json.loads(out))


def main(cfg: Config) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = cfg["half_open"] + cfg["slow"] + cfg["streams"] + 64
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, want)), hard))
    attacker = _Attacker(cfg)
    attacker.run()
    print(json.dumps(asdict(attacker.met)), flush=True)


if __name__ == "__main__":
    main(json.loads(sys.argv[1]))
