"""sd_notify through a real datagram socket standing in for systemd's notify socket."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from table_app.core.service import TableService
from table_app.journal.journal import Journal
from table_app.system import sdnotify
from table_app.system.sdnotify import Notifier, Watchdog, socket_address, watchdog_interval

NEW_SESSION = {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}


class FakeSystemd:
    """A bound AF_UNIX datagram socket: what systemd listens on as NOTIFY_SOCKET."""

    def __init__(self, address: str | bytes) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(address)
        self.env_value = address if isinstance(address, str) else "@" + address[1:].decode()

    def receive(self, timeout: float = 10.0) -> str:
        self.sock.settimeout(timeout)
        return self.sock.recv(4096).decode()

    def wait_for(self, wanted: str, timeout: float = 10.0) -> list[str]:
        """Datagrams up to and including the first that has the line ``wanted``."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            msg = self.receive(max(0.01, deadline - time.monotonic()))
            seen.append(msg)
            if wanted in msg.splitlines():
                return seen

    def drain(self) -> list[str]:
        out = []
        self.sock.setblocking(False)
        try:
            while True:
                out.append(self.sock.recv(4096).decode())
        except BlockingIOError:
            return out
        finally:
            self.sock.setblocking(True)

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[FakeSystemd]:
    fake = FakeSystemd(str(tmp_path / "notify"))
    yield fake
    fake.close()


@pytest.fixture
def abstract_systemd() -> Iterator[FakeSystemd]:
    fake = FakeSystemd(b"\0xian-table-test-" + str(os.getpid()).encode())
    yield fake
    fake.close()


@pytest.fixture(autouse=True)
def fresh_process_watchdog() -> Iterator[None]:
    sdnotify._reset_for_tests()
    yield
    sdnotify._reset_for_tests()


def test_messages_reach_a_path_socket(systemd: FakeSystemd) -> None:
    n = Notifier.from_env({"NOTIFY_SOCKET": systemd.env_value})
    assert n.ready("serving") and n.status("seq 4") and n.watchdog() and n.stopping()
    assert [systemd.receive() for _ in range(4)] == ["READY=1\nSTATUS=serving", "STATUS=seq 4", "WATCHDOG=1",
                                                     "STOPPING=1"]


def test_messages_reach_an_abstract_socket(abstract_systemd: FakeSystemd) -> None:
    assert abstract_systemd.env_value.startswith("@")
    n = Notifier.from_env({"NOTIFY_SOCKET": abstract_systemd.env_value})
    assert n.address == b"\0" + abstract_systemd.env_value[1:].encode()
    assert n.watchdog()
    assert abstract_systemd.receive() == "WATCHDOG=1"


def test_without_systemd_nothing_is_sent_and_nothing_fails(tmp_path: Path) -> None:
    assert not Notifier.from_env({}).ready()
    assert socket_address("relative/path") is None
    gone = Notifier(str(tmp_path / "nobody-listens"))
    assert not gone.watchdog()  # ENOENT is swallowed: the table goes on without systemd


def test_watchdog_interval_follows_sd_watchdog_enabled() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}, pid=5) == 30.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "5"}, pid=5) == 30.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "6"}, pid=5) is None  # a parent's
    assert watchdog_interval({"WATCHDOG_USEC": "0"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "soon"}) is None
    assert watchdog_interval({}) is None


def test_ready_waits_for_every_source_and_pings_need_every_source_again(systemd: FakeSystemd) -> None:
    now = [0.0]
    dog = Watchdog(Notifier(systemd.env_value), interval_s=4.0, sources=("service", "ui"), clock=lambda: now[0])
    dog.beat("service")
    dog.beat("service")
    assert systemd.drain() == [] and not dog.ready_sent  # the UI has not drawn yet
    dog.beat("ui")
    assert systemd.drain() == ["READY=1\nSTATUS=table service running", "WATCHDOG=1"]
    now[0] = 2.0
    for _ in range(5):
        dog.beat("service")  # the service goes on, the UI is frozen
    assert systemd.drain() == []
    dog.beat("ui")
    assert systemd.drain() == ["WATCHDOG=1"]


def test_pings_are_spaced_at_a_quarter_of_the_interval(systemd: FakeSystemd) -> None:
    now = [0.0]
    dog = Watchdog(Notifier(systemd.env_value), interval_s=4.0, clock=lambda: now[0])
    dog.beat()
    systemd.drain()
    for t in (0.1, 0.5, 0.9):
        now[0] = t
        dog.beat()
    assert systemd.drain() == []
    now[0] = 1.0
    dog.beat()
    assert systemd.drain() == ["WATCHDOG=1"] and dog.pings == 2


def test_a_stalled_service_loop_stops_sending_watchdog(tmp_path: Path, systemd: FakeSystemd) -> None:
    dog = Watchdog(Notifier(systemd.env_value), interval_s=0.2)
    journal = Journal.open(tmp_path / "journal.sqlite3")
    service = TableService(journal, heartbeat=dog.heartbeat("service"), heartbeat_s=0.02)
    entered, release = threading.Event(), threading.Event()

    def stuck_observer(notice: object) -> None:  # e.g. an output that hangs on a dead device
        entered.set()
        release.wait(30)

    try:
        service.start()
        assert systemd.wait_for("READY=1")[0].startswith("READY=1")
        systemd.wait_for("WATCHDOG=1")  # idle, the loop still beats every heartbeat_s
        systemd.wait_for("WATCHDOG=1")
        service.subscribe(stuck_observer)
        answer = service.submit(NEW_SESSION)
        assert entered.wait(10)
        systemd.drain()  # anything sent before the loop got stuck
        pings = dog.pings
        time.sleep(0.5)  # 2.5 watchdog intervals, 25 heartbeat periods: systemd would kill it now
        assert systemd.drain() == [] and dog.pings == pings
        release.set()
        assert answer.result(10).ok
        systemd.wait_for("WATCHDOG=1")  # the loop is back, so are the pings
    finally:
        release.set()
        service.stop()
        journal.close()


def test_the_service_uses_the_process_watchdog_under_a_notify_unit(
        tmp_path: Path, abstract_systemd: FakeSystemd, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", abstract_systemd.env_value)
    monkeypatch.setenv("WATCHDOG_USEC", "200000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    monkeypatch.delenv(sdnotify.SOURCES_ENV, raising=False)
    journal = Journal.open(tmp_path / "journal.sqlite3")
    try:
        with TableService(journal):  # no heartbeat argument: systemd's, from the environment
            assert abstract_systemd.wait_for("READY=1")
            abstract_systemd.wait_for("WATCHDOG=1")
    finally:
        journal.close()


def test_outside_systemd_the_service_has_no_heartbeat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    journal = Journal.open(tmp_path / "journal.sqlite3")
    try:
        service = TableService(journal)
        assert service._heartbeat is None and service._wait_time() is None  # blocks until a command comes
    finally:
        journal.close()


def test_ui_tick_is_the_second_source_of_the_app_unit(
        systemd: FakeSystemd, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", systemd.env_value)
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.setenv(sdnotify.SOURCES_ENV, "service,ui")
    beat = sdnotify.process_heartbeat("service")
    assert beat is not None
    beat()
    assert systemd.drain() == []
    sdnotify.ui_tick(0.5)  # what Clock.schedule_interval(ui_tick, 1.0) calls
    assert systemd.drain()[0].startswith("READY=1")


def test_xian_table_serve_tells_systemd_it_is_ready_and_alive(tmp_path: Path, systemd: FakeSystemd) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[log]\nlevel = \"warning\"\n")
    env = dict(os.environ, NOTIFY_SOCKET=systemd.env_value, WATCHDOG_USEC="400000", PYTHONUTF8="1")
    env.pop("WATCHDOG_PID", None)
    proc = subprocess.Popen([sys.executable, "-m", "table_app.cli", "serve", "--config", str(config),
                             "--db", str(tmp_path / "journal.sqlite3")], env=env, cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert systemd.wait_for("READY=1", timeout=30)
        systemd.wait_for("WATCHDOG=1", timeout=10)
        systemd.wait_for("WATCHDOG=1", timeout=10)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
