"""The phone page's cost to the table (issue 16): acknowledged events per second while phones
hold the seat page — none, 50 open event streams, and 1,016 requests that never finish.

The table (service, journal, :class:`SeatPages`) runs in this process, as in
``xian-table serve``; the phones are another process (a small script on ``sys.executable``)
that opens the connections, reads every stream and waits. What phones can take from the
table is CPU (and the interpreter's lock), so the rates are events per CPU-second of this
process — every thread of it: the service's and the page's — with the journal on
``/dev/shm`` when there is one. A disk's fsync times and other people's jobs, which swing
wall-clock rates by half on a shared 2-core machine, do not enter (``--only service``
measures commits against a real disk). Even so a virtual machine's CPU time drifts, so each
run brackets every case with measurements without phones — none, streams, none, half-sent,
none, each on a fresh journal — and a share is the case against the mean of the two around
it; the medians over the runs are reported.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from table_app.bench import Result, result

NAME = "web"
DESCRIPTION = "commit rate while phones hold the seat page: none, 50 SSE streams (target ≥ 80% of none), " \
              "1,016 half-sent requests"

EVENTS = 2000
STREAMS = 50
HALF_SENT = 1016
TARGET_SHARE = 80.0

# The phones: open the connections, say "ready", keep reading until stdin closes.
_PHONES = r"""
import resource, selectors, socket, sys
port, kind, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 64)), hard))
sel = selectors.DefaultSelector()
socks = []
for n in range(count):
    # each phone's stream from an address of its own (the server lets one address hold 4
    # streams); the half-sent requests all from one, as one attacker's
    source = (f"127.1.{n // 250}.{n % 250 + 1}", 0) if kind == "streams" else None
    s = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=source)
    if kind == "streams":
        s.sendall(f"GET /seat/{n % 4}/events HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
        assert s.recv(65536).startswith(b"HTTP/1.1 200"), "a stream was refused"
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ)
    else:
        s.sendall(b"GET /seat/1 HTTP/1.1\r\nHost: bench\r\nUser-Agent: ")
    socks.append(s)
sel.register(sys.stdin, selectors.EVENT_READ)
print("ready", flush=True)
while True:
    for key, _ in sel.select():
        if key.fileobj is sys.stdin:
            sys.exit(0)
        try:
            key.fileobj.recv(65536)
        except OSError:
            pass
"""


def _rate(workdir: Path, phones: tuple[str, int] | None, events: list[dict[str, object]]) -> float:
    from table_app.core.service import TableService
    from table_app.journal.journal import Journal
    from table_app.web.server import SeatPages

    with Journal.open(workdir / f"bench-{time.monotonic_ns()}.sqlite3") as journal:
        service = TableService(journal, claim_window_s=0).start()
        pages = SeatPages(service, "127.0.0.1", 0).start()
        proc = None
        try:
            if phones is not None:
                proc = subprocess.Popen([sys.executable, "-c", _PHONES, str(pages.port), *map(str, phones)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                assert proc.stdout is not None
                if proc.stdout.readline().strip() != "ready":
                    raise RuntimeError(f"the phones did not connect ({phones[1]} {phones[0]})")
            start = time.process_time()
            for ev in events:
                if not service.call(ev).ok:
                    raise RuntimeError(f"the scripted event {ev} was refused")
            return len(events) / (time.process_time() - start)
        finally:
            if proc is not None:
                assert proc.stdin is not None
                proc.stdin.close()
                proc.wait(30)
            pages.stop()
            service.stop()


def run(runs: int, progress: Callable[[str], None]) -> list[Result]:
    from table_app.bench.service import scripted_session

    events = scripted_session(14, seed=16)[:EVENTS]
    none: list[float] = []
    streams: list[float] = []
    half: list[float] = []
    share: list[float] = []
    share_half: list[float] = []
    shm = Path("/dev/shm")
    where = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="xian-bench-web-", dir=where) as tmp:
        for i in range(runs):
            progress(f"run {i + 1}/{runs}: {EVENTS} events with no phone, with {STREAMS} event streams, "
                     f"with {HALF_SENT:,} half-sent requests, each between two without")
            before = _rate(Path(tmp), None, events)
            streams.append(_rate(Path(tmp), ("streams", STREAMS), events))
            between = _rate(Path(tmp), None, events)
            half.append(_rate(Path(tmp), ("half", HALF_SENT), events))
            after = _rate(Path(tmp), None, events)
            none += [before, between, after]
            share.append(200 * streams[-1] / (before + between))
            share_half.append(200 * half[-1] / (between + after))
    return [
        result(NAME, "commit rate, no phone", none, "events/CPU-s",
               note="service.call one at a time; per CPU-second of the table's process, journal on /dev/shm"),
        result(NAME, f"commit rate, {STREAMS} SSE streams", streams, "events/CPU-s",
               note="every stream read by another process"),
        result(NAME, f"… with {STREAMS} streams, share of none", share, "%", target=TARGET_SHARE,
               note="per run: streams / the mean of the runs without phones around it, then the median"),
        result(NAME, f"commit rate, {HALF_SENT:,} half-sent requests", half, "events/CPU-s",
               note="one address: at most 128 wait (no thread each) until the deadline; the oldest beyond get 503"),
        result(NAME, f"… with {HALF_SENT:,} half-sent, share of none", share_half, "%",
               note="per run: half-sent / the mean of the runs without phones around it, then the median"),
    ]
