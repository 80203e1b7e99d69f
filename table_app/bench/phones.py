"""A phone's press → the table's state and all four seat pages updated (issue 18), on loopback.

Starts a service with a journal in a temporary folder (durable commits) and the web server;
four phones join their seats over HTTP and each keeps its page's event stream open. Each of
500 presses (an endless tracked game played from the phones: the dice, each player's TURN —
the quick 下家's one press per discard — the next hand from the table's screen) is sent as
``POST /phone/<seat>/press`` 100 ms after the previous one's four views have arrived (faster than
any player, slower than the streams' fastest pace in a burst); its latency is from sending
the request until the last of the four streams has a view with its seq.
"""

from __future__ import annotations

import http.client
import json
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from table_app.bench import Result, result
from table_app.bench.mqtt import next_press, percentile

NAME = "phones"
DESCRIPTION = "a phone's press → the table's state and all four seat pages updated (500 presses over loopback HTTP)"

PRESSES = 500
GAP_S = 0.1  # between a press's views and the next press
TARGET_P99_MS = 50.0
WAIT_S = 10.0


class _Stream:
    """One phone's event stream: the seq of each view as it arrives."""

    def __init__(self, port: int, seat: int, cookie: str) -> None:
        self.seat = seat
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.request("GET", f"/phone/{self.seat}/events", headers={"Cookie": cookie})
        self.resp = self.conn.getresponse()
        self.cond = threading.Condition()
        self.seq = -1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            while line := self.resp.readline():
                if line.startswith(b"data: "):
                    seq = json.loads(line[6:]).get("seq")
                    with self.cond:
                        self.seq = seq
                        self.cond.notify_all()
        except OSError:
            return

    def wait_for(self, seq: int) -> float:
        with self.cond:
            if not self.cond.wait_for(lambda: self.seq >= seq, WAIT_S):
                raise RuntimeError(f"a phone's page never showed seq {seq}")
        return time.perf_counter()

    def close(self) -> None:
        self.conn.close()


def _post(port: int, path: str, body: dict[str, Any], cookie: str = "") -> tuple[int, dict[str, Any], str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S)
    headers = {"Content-Type": "application/json"}
    if cookie:
        headers["Cookie"] = cookie
    conn.request("POST", path, body=json.dumps(body), headers=headers)
    r = conn.getresponse()
    data = json.loads(r.read())
    set_cookie = r.getheader("Set-Cookie") or ""
    conn.close()
    return r.status, data, set_cookie.split(";")[0]


def one_run(workdir: Path, progress: Callable[[str], None], presses: int = PRESSES) -> list[float]:
    from urllib.parse import urlsplit

    from table_app.journal import Journal
    from table_app.service import TableService
    from table_app.web.server import SeatPages

    journal = Journal.open(workdir / "journal.sqlite3")
    service = TableService(journal, claim_window_s=0).start()
    pages = SeatPages(service, "127.0.0.1", 0, table="bench").start()
    streams: list[_Stream] = []
    try:
        for ev in ({"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
                   {"type": "seating", "method": "C", "east": 0}):
            service.call(ev, "touch", timeout=WAIT_S)
        token = urlsplit(pages.join_url).path.split("/")[2]
        cookies = []
        for seat in range(4):
            status, answer, cookie = _post(pages.port, f"/join/{token}", {"seat": seat, "name": None})
            if status != 200 or not answer.get("ok"):
                raise RuntimeError(f"seat {seat}'s phone could not join: {answer}")
            cookies.append(cookie)
        streams = [_Stream(pages.port, s, c) for s, c in enumerate(cookies)]
        for s in streams:
            s.wait_for(service.seq)
        latencies: list[float] = []
        while len(latencies) < presses:
            cmd = next_press(service.public)
            if cmd["type"] != "press":  # the next hand: from the table's screen
                service.call(cmd, "touch", timeout=WAIT_S)
                continue
            pressed = cmd["seat"]  # the dice (None): the phone of the seat due to roll
            seat = pressed if pressed is not None else next(
                s for s, acts in enumerate(service.public["actions"]) if "roll" in acts)
            body = {"type": "press", "button": cmd["button"], "held": False}
            time.sleep(GAP_S)
            t0 = time.perf_counter()
            status, answer, _ = _post(pages.port, f"/phone/{seat}/press", body, cookies[seat])
            if status != 200 or not answer.get("ok"):
                raise RuntimeError(f"the benchmark game was refused: {body} from seat {seat}: {answer}")
            done = max(s.wait_for(answer["seq"]) for s in streams)
            latencies.append((done - t0) * 1000)
            if len(latencies) % 100 == 0:
                progress(f"{len(latencies)} presses")
        return latencies
    finally:
        for s in streams:
            s.close()
        pages.stop()
        service.stop()
        journal.close()


def run(runs: int, progress: Callable[[str], None]) -> list[Result]:
    p50, p99, worst = [], [], []
    for r in range(runs):
        progress(f"run {r + 1} of {runs}: four phones, {PRESSES} presses")
        with tempfile.TemporaryDirectory(prefix="xian-bench-phones-") as tmp:
            lat = one_run(Path(tmp), progress)
        p50.append(percentile(lat, 50))
        p99.append(percentile(lat, 99))
        worst.append(max(lat))
    note = "POST /phone/<seat>/press → the 4 phones' streams have the new view; journal commits included"
    return [
        result(NAME, "phone press → 4 seat pages, p50", p50, "ms", note=note),
        result(NAME, "phone press → 4 seat pages, p99", p99, "ms", target_max=TARGET_P99_MS, note=note),
        result(NAME, "phone press → 4 seat pages, max", worst, "ms"),
    ]
