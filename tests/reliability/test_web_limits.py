"""Issue 16, items 7 and 10: the phone page bounds what the network can take from the table.

Real sockets against a real :class:`SeatPages` (and, for the file-descriptor case, a real
``xian-table serve --web`` child with the usual 1,024-descriptor limit). How fast the table
commits meanwhile is measured by ``xian-table bench --only web``, not asserted here.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import resource
import select
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from table_app.core.service import TableService
from table_app.http_kit.admission import Limits
from table_app.web.server import MAX_STREAMS, SeatPages
from tests.reliability.helpers import ROOT, child_env
from tests.support.mqtt import HAND, WAIT, play, service_fixture, until  # noqa: F401  (a fixture)

HALF = b"GET /seat/1 HTTP/1.1\r\nHost: table\r\nUser-Agent: "  # never finished


@pytest.fixture
def small(service: TableService) -> Iterator[SeatPages]:
    """Pages with small limits, so a test reaches them with a handful of sockets."""
    p = SeatPages(service, "127.0.0.1", 0, limits=Limits(request_timeout_s=1.0, waiting=4, waiting_per_client=4,
                                                          requests=4, streams=2, trusted_streams=0)).start()
    yield p
    p.stop()


def connect(pages: SeatPages) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", pages.port), timeout=WAIT)
    return s


def response(s: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and what came after them, read until the server closes or goes quiet."""
    data = b""
    s.settimeout(WAIT)
    with contextlib.suppress(TimeoutError):
        while b"\r\n\r\n" not in data and (chunk := s.recv(65536)):
            data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines and lines[0].startswith("HTTP/") else 0
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return status, headers, rest


def closed_by_server(s: socket.socket, within: float = WAIT) -> bool:
    """True once the server has closed the connection (EOF), False if it is still open after ``within``."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        ready, _, _ = select.select([s], [], [], 0.1)
        if ready:
            try:
                if s.recv(65536) == b"":
                    return True
            except ConnectionResetError:
                return True
    return False


def test_head_and_options_are_answered_not_501(service: TableService, small: SeatPages) -> None:
    play(service, HAND[:3])
    conn = http.client.HTTPConnection("127.0.0.1", small.port, timeout=WAIT)
    for path in ("/", "/seat/2", "/seat/2.json"):
        conn.request("HEAD", path)
        r = conn.getresponse()
        assert r.status == 200 and int(r.headers["Content-Length"]) > 0 and r.read() == b"", path
    conn.request("OPTIONS", "/seat/2")
    r = conn.getresponse()
    assert r.status == 204 and r.headers["Allow"] == "GET, HEAD, OPTIONS" and r.read() == b""
    conn.request("GET", "/seat/2.json")  # the same connection still serves a GET after them
    assert json.loads(conn.getresponse().read())["seq"] == 3
    conn.close()
    conn = http.client.HTTPConnection("127.0.0.1", small.port, timeout=WAIT)
    conn.request("HEAD", "/seat/2/events")
    r = conn.getresponse()
    assert r.status == 200 and r.headers["Content-Type"].startswith("text/event-stream") and r.read() == b""
    conn.close()
    conn = http.client.HTTPConnection("127.0.0.1", small.port, timeout=WAIT)
    conn.request("POST", "/seat/2", body=b"x" * 100)
    r = conn.getresponse()
    assert r.status == 405 and r.headers["Allow"] == "GET, HEAD, OPTIONS"
    conn.close()


def test_a_half_sent_request_is_dropped_after_the_header_timeout(small: SeatPages) -> None:
    s = connect(small)
    s.sendall(HALF)
    assert closed_by_server(s), "a request that never finished kept its connection"
    s.close()


def test_a_request_sent_a_byte_at_a_time_is_cut_off(small: SeatPages) -> None:
    """The header timeout is for the whole request, not for each byte."""
    s = connect(small)
    request = HALF + b"x" * 200 + b"\r\n\r\n"
    cut = False
    for byte in request:
        try:
            s.send(bytes([byte]))
        except OSError:
            cut = True
            break
        if closed_by_server(s, within=0.05):
            cut = True
            break
    s.close()
    assert cut, "the server waited for a request that took longer than its header timeout"


def test_a_request_with_huge_headers_is_cut_off(service: TableService) -> None:
    """http.server alone reads up to 100 header lines of 64 KiB each, 6.5 MB a connection.
    Here the header timeout is a minute: only the 16 KiB budget can end this request."""
    pages = SeatPages(service, "127.0.0.1", 0, limits=Limits(request_timeout_s=60)).start()
    try:
        s = connect(pages)
        s.sendall(b"GET / HTTP/1.1\r\nHost: table\r\n" + (b"X-Pad: " + b"y" * 8000 + b"\r\n") * 3)
        assert closed_by_server(s), "the server kept reading headers past 16 KiB"
        s.close()
    finally:
        pages.stop()


def test_an_idle_keep_alive_connection_is_closed(small: SeatPages) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", small.port, timeout=WAIT)
    conn.request("GET", "/seat/0.json")
    assert conn.getresponse().read()
    assert conn.sock is not None and closed_by_server(conn.sock)
    conn.close()


def test_beyond_the_cap_the_oldest_unfinished_connection_is_answered_503(small: SeatPages) -> None:
    """Waiting for a request holds no thread; beyond the cap room is made for the newcomer (a
    phone's request comes with its connection), and the oldest one still unfinished is told."""
    held = [connect(small) for _ in range(4)]
    for s in held:
        s.sendall(HALF)
    assert until(lambda: small.connections == 4)
    extra = connect(small)
    extra.sendall(b"GET / HTTP/1.1\r\nHost: table\r\n\r\n")
    assert response(extra)[0] == 200
    status, headers, body = response(held[0])
    assert status == 503 and headers.get("retry-after") == "5" and b"busy" in body
    extra.close()
    for s in held:
        s.close()
    assert until(lambda: small.connections == 0)  # their places come back
    conn = http.client.HTTPConnection("127.0.0.1", small.port, timeout=WAIT)
    conn.request("GET", "/")
    assert conn.getresponse().status == 200
    conn.close()


def open_stream(pages: SeatPages, seat: int = 1, source: str = "127.0.0.1") -> tuple[socket.socket, int, bytes]:
    s = socket.create_connection(("127.0.0.1", pages.port), timeout=WAIT, source_address=(source, 0))
    s.sendall(f"GET /seat/{seat}/events HTTP/1.1\r\nHost: table\r\n\r\n".encode())
    status, _, rest = response(s)
    if status != 200:  # a refusal: the rest of it, up to the server's close
        with contextlib.suppress(OSError):
            while chunk := s.recv(65536):
                rest += chunk
    return s, status, rest


def read_until_seq(s: socket.socket, seq: int, already: bytes = b"") -> bool:
    data = already
    s.settimeout(WAIT)
    while f"id: {seq}\n".encode() not in data:
        try:
            chunk = s.recv(65536)
        except TimeoutError:
            return False
        if not chunk:
            return False
        data += chunk
    return True


def test_streams_beyond_the_cap_are_answered_503(service: TableService, small: SeatPages) -> None:
    play(service, HAND[:2])
    first, second = open_stream(small), open_stream(small)
    assert first[1] == second[1] == 200
    third = open_stream(small)
    assert third[1] == 503 and b"too many event streams" in third[2]
    third[0].close()
    first[0].close()
    play(service, HAND[2:3])  # the closed stream's thread sees it when it next writes
    assert until(lambda: small.streams == 1)
    again = open_stream(small)
    assert again[1] == 200 and read_until_seq(again[0], 3, again[2])
    for s in (second[0], again[0]):
        s.close()


def test_150_streams_get_their_views_or_503_and_the_table_plays_on(service: TableService) -> None:
    pages = SeatPages(service, "127.0.0.1", 0).start()
    try:
        per = pages.limits.streams_per_client  # (from as many addresses as that takes: one has at most that many)
        opened = [open_stream(pages, seat=n % 4, source=f"127.0.0.{2 + n // per}") for n in range(150)]
        served = [(s, rest) for s, status, rest in opened if status == 200]
        assert len(served) == MAX_STREAMS and sum(status == 503 for _, status, _ in opened) == 150 - MAX_STREAMS
        play(service, HAND)
        assert all(read_until_seq(s, len(HAND), rest) for s, rest in served), "a stream missed the final view"
        assert pages.streams == MAX_STREAMS
    finally:
        for s, _, _ in opened:
            s.close()
        pages.stop()


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime (fields 14 and 15 of stat)


def test_1016_half_sent_requests_neither_spin_nor_stop_the_table(tmp_path: Path) -> None:
    """The review's reproducer: a ``serve --web`` child with the usual limit of 1,024 open files
    gets 1,016 connections that each send half a request. Before this work every one took a
    thread and a descriptor, accept() then failed with EMFILE on a listening socket that stayed
    readable, and the server thread spun at 100% CPU."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4096)), hard))  # room for our own sockets

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))

    proc = subprocess.Popen([sys.executable, "-m", "table_app.cli", "serve", "--stdin", "--db",
                             str(tmp_path / "j.sqlite3"), "--web", "127.0.0.1:0"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=child_env(tmp_path),
                            preexec_fn=low_limit)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    sockets: list[socket.socket] = []
    try:
        seen = ""
        while not (m := re.search(r"seat pages for phones at http://[^:]+:(\d+)/", seen)):
            line = proc.stderr.readline().decode()
            assert line, seen
            seen += line
        port = int(m.group(1))
        for _ in range(1016):
            s = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
            s.sendall(HALF)
            sockets.append(s)
        for _ in range(24):  # and a few more, surely past the 1,024 descriptors: never waited for
            s = socket.socket()
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", port))
            sockets.append(s)
        time.sleep(1)  # let the server take them in (or turn them away)
        ticks = os.sysconf("SC_CLK_TCK")
        before, start = cpu_ticks(proc.pid), time.monotonic()
        time.sleep(3)
        used = (cpu_ticks(proc.pid) - before) / ticks / (time.monotonic() - start)
        assert used < 0.25, f"the server used {used:.0%} of a CPU while 1,040 requests sat idle"
        proc.stdin.write(json.dumps(HAND[0]).encode() + b"\n")  # the table still plays
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["seq"] == 1
        fresh = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
        fresh.sendall(b"GET /seat/0.json HTTP/1.1\r\nHost: table\r\n\r\n")
        status, _, _ = response(fresh)
        assert status in (200, 503)  # an answer, not a hang
        fresh.close()
    finally:
        for s in sockets:
            s.close()
        proc.stdin.close()
        proc.wait(60)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_failing_request_logs_its_traceback_once_per_kind_then_counts(caplog: pytest.LogCaptureFixture) -> None:
    """A bug met by every request of a flood: one traceback, then a count (issue 26)."""
    import logging
    import threading

    from table_app.http_kit.server import Route, Router, Server

    def broken(site: object, request: object) -> object:
        raise RuntimeError("a bug in a route")

    class NoStreams:
        def open_stream(self) -> bool:
            return False

        def close_stream(self) -> None:
            pass

        def wait_tick(self, seen: int, timeout: float) -> tuple[bool, int]:
            return True, seen

    router = Router([Route("GET", "/broken", broken, "a route with a bug")], None)  # type: ignore[arg-type]
    server = Server(("127.0.0.1", 0), router, NoStreams(), Limits(request_timeout_s=5, write_timeout_s=5, requests=8))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with caplog.at_level(logging.DEBUG, logger="table_app.http_kit.server"):
            for _ in range(12):
                conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)
                conn.request("GET", "/broken")
                with contextlib.suppress(http.client.HTTPException, OSError):
                    conn.getresponse().read()  # (no reply: the connection ends)
                conn.close()
            deadline = time.monotonic() + 5
            while server.faults.count("web: a request failed", RuntimeError) < 12 and time.monotonic() < deadline:
                time.sleep(0.01)
    finally:
        server.shutdown()
        server.server_close()  # (logs the count not yet logged)
    assert server.faults.count("web: a request failed", RuntimeError) == 12
    tracebacks = [r for r in caplog.records if r.exc_info]
    counts = [r.getMessage() for r in caplog.records if "more like this" in r.getMessage()]
    assert len(tracebacks) == 1 and "a bug in a route" in tracebacks[0].getMessage(), tracebacks
    assert len(counts) == 1 and "11 more like this" in counts[0] and "(12 in all)" in counts[0], counts
