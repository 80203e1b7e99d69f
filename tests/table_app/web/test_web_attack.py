"""A stranger on the Wi-Fi can't stop the table (issue 27, items 2, 4 and 5), over real sockets.

A real :class:`SeatPages` and :class:`TableService`; the stranger is another process
(:class:`table_app.bench.phones_attack.Attack`: half-open connections, slow bodies, event
streams, each reopened as soon as it is let go) on other loopback addresses, or on the phones'
own. Four bound phones play a hand by HTTP presses meanwhile. How fast they are answered is
measured by ``xian-table bench --only phones``, never asserted here.
"""

from __future__ import annotations

import http.client
import socket
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from table_app.bench.phones import Watch, join_phones, next_phone_press, post
from table_app.bench.phones_attack import Attack
from table_app.core.service import TableService
from table_app.http_kit.admission import Limits
from table_app.journal.journal import Journal
from table_app.web.phones import JOINS_PER_CLIENT, MAX_CLIENTS_TRACKED, Phones
from table_app.web.server import SeatPages
from tests.support.mqtt import WAIT, until

LIMITS = Limits(request_timeout_s=2.0, write_timeout_s=5.0)  # the defaults, but a 2 s deadline
OTHERS = [f"127.0.0.{n}" for n in range(2, 22)]  # twenty addresses: together they fill everyone's streams
START = [{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
         {"type": "seating", "method": "C", "east": 0}]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[TableService, SeatPages]]:
    journal = Journal.open(tmp_path / "j.sqlite3")
    service = TableService(journal, claim_window_s=0).start()
    pages = SeatPages(service, "127.0.0.1", 0, table="t-attack", limits=LIMITS).start()
    for ev in START:
        assert service.call(ev, "touch", timeout=WAIT).ok
    yield service, pages
    pages.stop()
    service.stop()
    journal.close()


def get(port: int, path: str, host: str = "table", source: str = "127.0.0.1") -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT, source_address=(source, 0))
    conn.putrequest("GET", path, skip_host=True)
    conn.putheader("Host", host)
    conn.endheaders()
    status = conn.getresponse().status
    conn.close()
    return status


@pytest.mark.parametrize("where", ["other addresses", "the phones' address"])
def test_strangers_never_stop_four_phones_playing_a_hand(table: tuple[TableService, SeatPages], where: str) -> None:
    """200 half-open connections, 130 slow bodies (a byte every 0.5 s: each wait for a byte is
    short, the request never whole) and event streams, all reopened as soon as they are let
    go: every press of a whole hand is taken, every phone's stream is kept (and one opened
    anew meanwhile is let in), and the slow bodies are cut at the request's deadline."""
    service, pages = table
    cookies = join_phones(pages)
    phones = [Watch(pages.port, f"/phone/{s}/events", c) for s, c in enumerate(cookies)]
    screen = Watch(pages.port, "/table/events")
    sources = OTHERS if where == "other addresses" else ["127.0.0.1"]
    attack = Attack(pages.port, half_open=200, slow=130, streams=80 if len(sources) > 1 else 4,
                    sources=sources, every_s=0.5)
    try:
        phones[2].close()  # a phone that slept wakes up: its stream anew, while strangers hold theirs
        phones[2] = Watch(pages.port, "/phone/2/events", cookies[2])
        assert phones[2].status == 200
        presses = Counter()
        while service.public["phase"] != "hand_over":
            move = next_phone_press(service)
            assert move is not None
            seat, body = move
            status, answer, _ = post(pages.port, f"/phone/{seat}/press", body, cookies[seat])
            presses[status, answer.get("ok")] += 1
            assert (status, answer.get("ok")) == (200, True), (presses, answer)
        assert sum(presses.values()) >= 40  # (a hand: the dice, then a press a discard)
        for w in (*phones, screen):
            w.wait_for(service.seq)  # every view came, on the stream it opened with
            assert w.status == 200 and not w.ended
        if len(sources) > 1:
            assert until(lambda: pages.cut >= 200 + 130)  # (the first deadlines of them all passed, under attack)
            assert get(pages.port, "/table/join.json", "evil.example") == 403  # the table's own machine: its Host
            assert get(pages.port, "/table/join.json", f"localhost:{pages.port}") == 200
    finally:
        met = attack.stop()
        for w in (*phones, screen):
            w.close()
    slow = {how for how in met.ended if how.startswith("slow ")}
    assert slow <= {"slow 408", "slow 503"}, met  # no slow body was ever answered (it never finished)
    if len(sources) > 1:
        assert met.ended.get("slow 408", 0) > 0, met  # slow bodies cut, told why, at their deadline, not sooner
        assert met.slow_soonest_cut_s is not None and met.slow_soonest_cut_s >= LIMITS.request_timeout_s - 0.01
        assert met.streams_refused > 0, met  # everyone's streams were all taken: the phone's had its reserve
    else:  # one address holds at most 128 waiting: beyond, its oldest unfinished ones were let go
        assert met.ended.get("half 503", 0) + met.ended.get("slow 503", 0) > 0, met


def test_a_503_says_when_to_come_back_to_that_address_only_and_closes_cleanly(
        table: tuple[TableService, SeatPages]) -> None:
    _, pages = table
    held = [Watch(pages.port, "/seat/1/events") for _ in range(LIMITS.streams_per_client)]
    assert [w.status for w in held] == [200] * LIMITS.streams_per_client
    s = socket.create_connection(("127.0.0.1", pages.port), timeout=WAIT)
    s.sendall(b"GET /seat/2/events HTTP/1.1\r\nHost: table\r\n\r\n")
    data = b""
    while chunk := s.recv(65536):  # to the server's FIN: a clean close, never a reset
        data += chunk
    s.close()
    head = data.decode().split("\r\n\r\n")[0]
    assert head.startswith("HTTP/1.1 503") and "Retry-After: 5" in head and "Connection: close" in head
    conn = http.client.HTTPConnection("127.0.0.1", pages.port, timeout=WAIT, source_address=("127.0.0.9", 0))
    conn.request("GET", "/seat/2/events")
    assert conn.getresponse().status == 200  # another address: let in
    conn.close()
    assert get(pages.port, "/table.json") == 200  # and the same address still gets its pages
    for w in held:
        w.close()


def test_wrong_token_floods_from_ten_addresses_never_refuse_a_right_token(
        table: tuple[TableService, SeatPages]) -> None:
    """Strangers guess the join token as fast as they can from ten addresses, more at once than
    each address may; a phone with the right token joins every time."""
    _, pages = table
    token = urlsplit(pages.join_url).path.split("/")[2]
    stop = threading.Event()
    flood: Counter[int] = Counter()
    lock = threading.Lock()

    def guess(source: str, n: int) -> None:
        while not stop.is_set():
            try:
                status = post(pages.port, f"/join/wrong-{source}-{n}", {"seat": 0}, source=source)[0]
            except OSError:
                status = 0
            with lock:
                flood[status] += 1

    threads = [threading.Thread(target=guess, args=(f"127.0.0.{10 + a}", n), daemon=True)
               for a in range(10) for n in range(LIMITS.requests_per_client + 2)]
    for t in threads:
        t.start()
    try:
        assert until(lambda: flood[429] > 0)  # the limits are met: every address, and everyone's wrong tokens
        joins = [post(pages.port, f"/join/{token}", {"seat": seat % 4}, source=source)[0]
                 for seat, source in enumerate(["127.0.0.1"] * (JOINS_PER_CLIENT - 4) + ["127.0.0.40", "127.0.0.41"])]
    finally:
        stop.set()
        for t in threads:
            t.join(WAIT)
    # never refused: a free seat is joined (200), a taken one asks its phone first (202, issue 27's consent)
    assert joins == [200] * 4 + [202] * (len(joins) - 4), (joins, flood)
    assert flood[200] == 0 and flood[403] > 0 and flood[429] > 0, flood


def test_strangers_from_more_addresses_than_are_tracked_never_lock_a_new_phone_out() -> None:
    now = [0.0]
    phones = Phones(clock=lambda: now[0])
    for n in range(MAX_CLIENTS_TRACKED + 50):
        now[0] += 0.001
        assert phones.may_try(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}")
        phones.wrong_token()
    assert phones.may_try("192.168.1.20")  # a phone that never guessed: it may try (the right token)
    assert phones.token_ok(phones.token)


def test_the_phones_benchmark_runs_under_attack(tmp_path: Path) -> None:
    """``xian-table bench --only phones``, small, under the attack: every press is taken and
    reaches all four phones' pages and the table page."""
    from table_app.bench.phones import run_once

    played = run_once(tmp_path, lambda _: None, presses=20, attacked=True)
    assert played.refused == 0 and len(played.phones_ms) == len(played.table_ms) == 20
