"""A phone's press → the table's state on all four seat pages and the table page (issues 18 and
27), on loopback: quiet, then while a stranger tries to stop the table.

Starts a service with a journal in a temporary folder (durable commits) and the web server;
four phones join their seats over HTTP and each keeps its page's event stream open, and so
does the table page (``/table/events``). Each of 500 presses (an endless tracked game played
from the phones: the dice, each player's TURN — the quick 下家's press, then the others'
passes while it waits for them (docs/rules.md §17) — the next hand from the table's screen)
is sent as ``POST /phone/<seat>/press`` on a new connection 100 ms after the previous one's
views have arrived (faster than any player, slower than the streams' fastest pace in a
burst); its latency is from sending the request until the last of
the four phones' streams, and the table page's, has a view with its seq.

Under attack, another process (:mod:`table_app.bench.phones_attack`) holds 200 half-open
connections and 130 slow bodies (``Content-Length: 1000``, a byte every 5 s) from ten
addresses, reopening each as soon as it is let go; a refused press is counted and sent again.
"""

from __future__ import annotations

import http.client
import json
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from table_app.bench import Result, result
from table_app.bench.mqtt import next_press, percentile
from table_app.bench.phones_attack import Attack

if TYPE_CHECKING:
    from table_app.core.service import TableService
    from table_app.web.server import SeatPages

NAME = "phones"
DESCRIPTION = ("a phone's press → the table's state on all four seat pages and the table page (500 presses over "
               "loopback HTTP), quiet and under attack (200 half-open connections, 130 slow bodies)")

PRESSES = 500
GAP_S = 0.1  # between a press's views and the next press
TARGET_P99_MS = 50.0
TARGET_ATTACKED_P99_MS = 250.0  # issue 27: tap → table page under the slow-body and half-open attack
WAIT_S = 10.0
HALF_OPEN, SLOW = 200, 130
ATTACKERS = [f"127.0.0.{n}" for n in range(2, 12)]  # ten addresses, none a phone's


class Watch:
    """An event stream (a phone's page, the table page): the seq of each view as it arrives."""

    def __init__(self, port: int, path: str, cookie: str = "") -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        self.resp = self.conn.getresponse()
        self.status = self.resp.status
        self.cond = threading.Condition()
        self.seq = -1
        self.ended = False  # the server closed it
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            while line := self.resp.readline():
                if line.startswith(b"data: "):
                    seq = json.loads(line[6:]).get("seq")
                    with self.cond:
                        self.seq = seq
                        self.cond.notify_all()
        except (OSError, ValueError, http.client.HTTPException):
            pass
        with self.cond:
            self.ended = True
            self.cond.notify_all()

    def wait_for(self, seq: int) -> float:
        with self.cond:
            if not self.cond.wait_for(lambda: self.seq >= seq or self.ended, WAIT_S) or self.seq < seq:
                raise RuntimeError(f"a page never showed seq {seq}")
        return time.perf_counter()

    def close(self) -> None:
        self.conn.close()


def post(port: int, path: str, body: dict[str, Any], cookie: str = "",
         source: str = "127.0.0.1") -> tuple[int, dict[str, Any], str]:
    """(status, the JSON answer or {}, the cookie it set) of a POST on a new connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S, source_address=(source, 0))
    headers = {"Content-Type": "application/json"}
    if cookie:
        headers["Cookie"] = cookie
    try:
        conn.request("POST", path, body=json.dumps(body), headers=headers)
        r = conn.getresponse()
        text = r.read()
    finally:
        conn.close()
    try:
        data = json.loads(text)
    except ValueError:
        data = {}
    return r.status, data if isinstance(data, dict) else {}, (r.getheader("Set-Cookie") or "").split(";")[0]


def join_phones(pages: SeatPages) -> list[str]:
    """Four phones join seats 0–3 (each a name already set); their cookies."""
    from urllib.parse import urlsplit

    token = urlsplit(pages.join_url).path.split("/")[2]
    cookies = []
    for seat in range(4):
        status, answer, cookie = post(pages.port, f"/join/{token}", {"seat": seat, "name": None})
        if status != 200 or not answer.get("ok"):
            raise RuntimeError(f"seat {seat}'s phone could not join: {status} {answer}")
        cookies.append(cookie)
    return cookies


def next_phone_press(service: TableService) -> tuple[int, dict[str, Any]] | None:
    """The game's next press, from the phone of its seat (None: the next hand was started at the table)."""
    cmd = next_press(service.public)
    if cmd["type"] != "press":  # the next hand: from the table's screen
        service.call(cmd, "touch", timeout=WAIT_S)
        return None
    pressed = cmd["seat"]  # the dice (None): the phone of the seat due to roll
    seat = pressed if pressed is not None else next(
        s for s, acts in enumerate(service.public["actions"]) if "roll" in acts)
    return seat, {"type": "press", "button": cmd["button"], "held": False}


@dataclass
class Played:
    phones_ms: list[float]  # press → the four phones' pages
    table_ms: list[float]  # press → the table page
    refused: int  # presses answered other than 200 ok (sent again)


def play(service: TableService, pages: SeatPages, cookies: list[str], phones: list[Watch], table: Watch,
         presses: int, progress: Callable[[str], None] = lambda _: None, gap_s: float = GAP_S) -> Played:
    """``presses`` presses from the phones, each timed until the pages have its view."""
    out = Played([], [], 0)
    while len(out.phones_ms) < presses:
        move = next_phone_press(service)
        if move is None:
            continue
        seat, body = move
        time.sleep(gap_s)
        t0 = time.perf_counter()
        try:
            status, answer, _ = post(pages.port, f"/phone/{seat}/press", body, cookies[seat])
        except OSError:
            status, answer = 0, {}
        if status != 200 or not answer.get("ok"):
            out.refused += 1
            if out.refused > 50:
                raise RuntimeError(f"the benchmark game was refused: {body} from seat {seat}: {status} {answer}")
            continue
        out.phones_ms.append((max(w.wait_for(answer["seq"]) for w in phones) - t0) * 1000)
        out.table_ms.append((table.wait_for(answer["seq"]) - t0) * 1000)
        if len(out.phones_ms) % 100 == 0:
            progress(f"{len(out.phones_ms)} presses")
    return out


def one_run(workdir: Path, progress: Callable[[str], None], presses: int = PRESSES) -> list[float]:
    """A quiet run's latencies, press → the four phones' pages."""
    return run_once(workdir, progress, presses).phones_ms


def run_once(workdir: Path, progress: Callable[[str], None], presses: int = PRESSES,
             attacked: bool = False) -> Played:
    from table_app.core.service import TableService
    from table_app.journal.journal import Journal
    from table_app.web.server import SeatPages

    journal = Journal.open(workdir / "journal.sqlite3")
    service = TableService(journal, claim_window_s=0).start()
    pages = SeatPages(service, "127.0.0.1", 0, table="bench").start()
    watches: list[Watch] = []
    attack = None
    try:
        for ev in ({"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
                   {"type": "seating", "method": "C", "east": 0}):
            service.call(ev, "touch", timeout=WAIT_S)
        cookies = join_phones(pages)
        watches = [Watch(pages.port, f"/phone/{s}/events", c) for s, c in enumerate(cookies)]
        table = Watch(pages.port, "/table/events")
        watches.append(table)
        for w in watches:
            w.wait_for(service.seq)
        if attacked:
            attack = Attack(pages.port, half_open=HALF_OPEN, slow=SLOW, sources=ATTACKERS)
        return play(service, pages, cookies, watches[:4], table, presses, progress)
    finally:
        if attack is not None:
            attack.stop()
        for w in watches:
            w.close()
        pages.stop()
        service.stop()
        journal.close()


def run(runs: int, progress: Callable[[str], None]) -> list[Result]:
    quiet: list[Played] = []
    attacked: list[Played] = []
    for r in range(runs):
        for under, into in ((False, quiet), (True, attacked)):
            what = f"under attack ({HALF_OPEN} half-open, {SLOW} slow bodies)" if under else "quiet"
            progress(f"run {r + 1} of {runs}: four phones and the table page, {PRESSES} presses, {what}")
            with tempfile.TemporaryDirectory(prefix="xian-bench-phones-") as tmp:
                into.append(run_once(Path(tmp), progress, attacked=under))

    def each(runs_: list[Played], q: float, table: bool = False) -> list[float]:
        return [percentile(p.table_ms if table else p.phones_ms, q) for p in runs_]

    note = "POST /phone/<seat>/press → the 4 phones' streams have the new view; journal commits included"
    hostile = f"{HALF_OPEN} half-open connections and {SLOW} slow bodies from 10 addresses, reopened when let go"
    return [
        result(NAME, "phone press → 4 seat pages, p50", each(quiet, 50), "ms", note=note),
        result(NAME, "phone press → 4 seat pages, p99", each(quiet, 99), "ms", target_max=TARGET_P99_MS, note=note),
        result(NAME, "phone press → 4 seat pages, max", [max(p.phones_ms) for p in quiet], "ms"),
        result(NAME, "phone press → table page, p99", each(quiet, 99, table=True), "ms"),
        result(NAME, "under attack: phone press → table page, p50", each(attacked, 50, table=True), "ms",
               note=hostile),
        result(NAME, "under attack: phone press → table page, p99", each(attacked, 99, table=True), "ms",
               target_max=TARGET_ATTACKED_P99_MS, note=hostile),
        result(NAME, "under attack: phone press → 4 seat pages, p99", each(attacked, 99), "ms"),
        result(NAME, "under attack: presses refused", [float(p.refused) for p in attacked], "presses",
               target_max=0.0, note="answered other than 200 ok (each sent again)"),
    ]
