"""Issue 16, item 9: the broker is bounded and bound, can speak TLS, and its passwords are kept.

Real mosquitto processes on free loopback ports run the config the product writes; real
``mosquitto_passwd`` and ``openssl`` make the users and certificates; the install and
``xian-table mqtt-users`` run into a temporary root, as ``tests/table_app/install/test_install.py`` does.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import resource
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from table_app.cli import main
from table_app.doctor.broker import mqtt_connect_packet
from table_app.mqtt import broker_setup
from table_app.mqtt.local_broker import free_port
from tests.reliability.helpers import ROOT

BINARY = str(Path(sys.executable).parent / "xian-table")
WAIT = 15.0


def settings(conf: str) -> list[tuple[str, str]]:
    return [(k, v.strip()) for k, _, v in (line.partition(" ") for line in conf.splitlines())
            if k and not k.startswith("#")]


def test_the_shipped_config_has_explicit_limits_and_listens_on_this_machine_only() -> None:
    shipped = broker_setup.SHIPPED_CONF.read_text(encoding="utf-8")
    s = dict(settings(shipped))
    assert int(s["message_size_limit"]) == 1_048_576 and int(s["max_packet_size"]) == 16 * 2**20
    assert int(s["max_queued_messages"]) == 1000 and int(s["max_queued_bytes"]) == 4 * 2**20
    assert [v for k, v in settings(shipped) if k == "listener"] == ["1883 127.0.0.1"]
    assert [v for k, v in settings(shipped) if k == "max_connections"] == ["64"]
    assert broker_setup.conf_text() == shipped  # what install writes for the defaults is the shipped file


def test_listeners_follow_the_config() -> None:
    conf = broker_setup.conf_text(["192.168.1.20:1883", "wlan0:1883", ":1884"], ["[::]:8883"])
    blocks = conf.split("# -- listeners", 1)[1]
    assert "listener 1883 192.168.1.20\nmax_connections 64\n" in blocks
    assert "listener 1883\nbind_interface wlan0\nmax_connections 64\n" in blocks
    assert "listener 1884\nmax_connections 64\n" in blocks
    assert "listener 8883 ::\nmax_connections 64\ncafile /etc/mosquitto/xian-table/tls/ca.crt\n" in blocks
    with pytest.raises(ValueError, match="neither an IP address nor an interface"):
        broker_setup.parse_listener("my table:1883")


@contextlib.contextmanager
def mosquitto(folder: Path, conf: str, port: int, files: int | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """mosquitto with ``conf`` (plus a log, no persistence), until it listens on ``port``;
    ``files``: its open-files limit, as systemd's LimitNOFILE sets it."""
    path = folder / "mosquitto.conf"
    extra = ["persistence false", f"log_dest file {folder / 'mosquitto.log'}", "log_type all"]
    if os.geteuid() == 0:
        extra.append("user root")
    path.write_text(conf + "\n".join(extra) + "\n")
    limit = (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))) if files else None
    proc = subprocess.Popen([shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c", str(path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=limit)
    try:
        end = time.monotonic() + WAIT
        log = folder / "mosquitto.log"
        while "running" not in (log.read_text() if log.exists() else ""):  # (a probe connection would count)
            assert proc.poll() is None, (proc.stderr.read() if proc.stderr else b"").decode()
            assert time.monotonic() < end, "mosquitto did not start"
            time.sleep(0.05)
        yield proc
    finally:
        proc.terminate()
        proc.wait(10)
        if proc.stderr:
            proc.stderr.close()


def connack(host: str, port: int, user: str, password: str) -> int | None:
    """The CONNACK code for a raw MQTT 3.1.1 login, None if the broker closed instead."""
    with socket.create_connection((host, port), timeout=WAIT) as s:
        s.sendall(mqtt_connect_packet(f"t-{os.urandom(4).hex()}", user, password))
        data = b""
        with contextlib.suppress(OSError):
            while len(data) < 4 and (chunk := s.recv(4)):
                data += chunk
    return data[3] if len(data) == 4 and data[0] == 0x20 else None


@pytest.fixture
def users(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    data = tmp_path / "broker"
    return data, broker_setup.setup(data, force=True)


def test_the_broker_takes_64_connections_a_listener_and_no_more(tmp_path: Path, users: Any) -> None:
    data, creds = users
    port = free_port()
    conf = broker_setup.conf_text([f"127.0.0.1:{port}"], data_dir=data)
    with mosquitto(tmp_path, conf, port):
        held = []
        for _ in range(64):
            s = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
            s.sendall(mqtt_connect_packet(f"d-{len(held)}", "display", creds["display"]))
            assert s.recv(4)[:1] == b"\x20"
            held.append(s)
        assert connack("127.0.0.1", port, "display", creds["display"]) is None  # the 65th is closed at once
        held.pop().close()
        time.sleep(0.2)
        assert connack("127.0.0.1", port, "display", creds["display"]) == 0
        for s in held:
            s.close()


def mosquitto_version() -> tuple[int, ...]:
    first = subprocess.run(["mosquitto", "-h"], capture_output=True, text=True).stdout.splitlines()[0]
    return tuple(int(n) for n in first.removeprefix("mosquitto version ").split("."))


def churn_then_count(port: int, user: str, password: str, churn: int, most: int) -> int:
    """Log in and out ``churn`` times, then hold as many logins at once as the broker takes (≤ most)."""
    for i in range(churn):
        with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as s:
            s.sendall(mqtt_connect_packet(f"churn-{i}", user, password))
            assert s.recv(4)[:1] == b"\x20"
            s.sendall(b"\xe0\x00")  # DISCONNECT
    time.sleep(0.3)
    held: list[socket.socket] = []
    try:
        for i in range(most):
            s = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
            held.append(s)
            s.settimeout(3)
            s.sendall(mqtt_connect_packet(f"held-{i}", user, password))
            with contextlib.suppress(OSError):
                if s.recv(4)[:1] == b"\x20":
                    continue
            held.pop().close()
        return len(held)
    finally:
        for s in held:
            s.close()


def test_connection_churn_cannot_take_the_broker_past_its_file_limit(tmp_path: Path, users: Any) -> None:
    """mosquitto before 2.0.12 lets one more client in per disconnect (eclipse/mosquitto#1460);
    the drop-in's LimitNOFILE bounds what churn can open, whatever the version."""
    data, creds = users
    churn, most = 300, 500
    limit = broker_setup.open_files_limit(1)
    counts = {}
    for name, files in (("plain", None), ("limited", limit)):
        (tmp_path / name).mkdir()
        port = free_port()
        conf = broker_setup.conf_text([f"127.0.0.1:{port}"], data_dir=data)
        with mosquitto(tmp_path / name, conf, port, files=files) as proc:
            first = churn_then_count(port, "display", creds["display"], churn, most)
            again = churn_then_count(port, "display", creds["display"], 0, most)  # the held ones were churn too
            assert proc.poll() is None
        counts[name] = (first, again)
    (unbounded, unbounded_again), (bounded, bounded_again) = counts["plain"], counts["limited"]
    if mosquitto_version() < (2, 0, 12):
        assert unbounded == 64 + churn and unbounded_again == most  # the bug, for real, and it compounds
    else:
        assert unbounded == unbounded_again == 64
    assert 64 <= bounded == bounded_again < limit  # bounded, and still serving after the flood


def test_a_listener_on_one_address_is_not_on_the_others(tmp_path: Path, users: Any) -> None:
    data, creds = users
    port = free_port()
    with mosquitto(tmp_path, broker_setup.conf_text([f"127.0.0.1:{port}"], data_dir=data), port):
        assert connack("127.0.0.1", port, "display", creds["display"]) == 0
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.2", port), timeout=WAIT)  # loopback too, but another address


def test_a_listener_bound_to_an_interface(tmp_path: Path, users: Any) -> None:
    data, creds = users
    port = free_port()
    with mosquitto(tmp_path, broker_setup.conf_text([f"lo:{port}"], data_dir=data), port):
        assert connack("127.0.0.1", port, "remote", creds["remote"]) == 0


def test_a_message_over_the_limit_never_reaches_the_table(tmp_path: Path, users: Any) -> None:
    data, creds = users
    port = free_port()
    with mosquitto(tmp_path, broker_setup.conf_text([f"127.0.0.1:{port}"], data_dir=data), port):
        got: list[int] = []
        subscribed = threading.Event()
        table = client("xian-table", creds["xian-table"], port)
        table.on_message = lambda c, u, m: got.append(len(m.payload))
        table.on_subscribe = lambda *a: subscribed.set()
        table.subscribe("xian/t/cmd", 1)
        phone = client("remote", creds["remote"], port)
        try:
            assert subscribed.wait(WAIT)
            # over message_size_limit: dropped by the broker, the sender stays connected
            phone.publish("xian/t/cmd", b"x" * 1_050_000, qos=1).wait_for_publish(WAIT)
            phone.publish("xian/t/cmd", b"small", qos=1).wait_for_publish(WAIT)
            # over max_packet_size: the sender is disconnected; the next client is served
            gone = threading.Event()
            big = client("remote", creds["remote"], port)
            big.on_disconnect = lambda *a: gone.set()
            big.publish("xian/t/cmd", b"x" * 17_000_000, qos=1)
            assert gone.wait(WAIT)
            big.loop_stop()
            phone.publish("xian/t/cmd", b"after", qos=1).wait_for_publish(WAIT)
            end = time.monotonic() + WAIT
            while len(got) < 2 and time.monotonic() < end:
                time.sleep(0.05)
            assert got == [5, 5]  # "small" and "after": nothing big ever reached the table
        finally:
            for c in (phone, table):
                c.disconnect()
                c.loop_stop()


def client(user: str, password: str, port: int) -> mqtt.Client:
    c = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    c.username_pw_set(user, password)
    c.reconnect_delay_set(3600, 3600)  # a disconnect stays one
    c.connect("127.0.0.1", port)
    c.loop_start()
    return c


# -- install: TLS and the passwords kept -------------------------------------------------


def xt(*args: str) -> int:
    return int(main(list(args)))


@pytest.fixture
def installed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, int]:
    """An install into a temporary root with a TLS listener and the plain one, both on loopback."""
    root = tmp_path / "root"
    plain, secure = free_port(), free_port()
    config = root / "etc/xian-table/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'[broker]\nlisten = ["127.0.0.1:{plain}"]\ntls_listen = ["127.0.0.1:{secure}"]\n'
                      f'tls_names = ["table.example"]\n')
    assert xt("install", "--headless", "--root", str(root), "--bin", BINARY) == 0
    out = capsys.readouterr().out
    assert "TLS for the broker" in out and "table.example" in out
    return root, secure


def show(root: Path, capsys: pytest.CaptureFixture[str], *role: str) -> dict[str, str]:
    capsys.readouterr()
    assert xt("mqtt-users", "show", *role, "--root", str(root)) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    return {line.split()[0]: line.split()[2] for line in lines}


def digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def test_install_keeps_every_password_and_show_changes_nothing(installed: Any, capsys: Any) -> None:
    root, _ = installed
    kept = root / "etc/xian-table/mqtt-users"
    assert kept.stat().st_mode & 0o777 == 0o600
    before = {p: digest(p) for p in (kept, root / "etc/xian-table/mqtt.env", root / "etc/mosquitto/xian-table/passwd")}
    passwords = show(root, capsys)
    assert set(passwords) == {"service", "display", "homeassistant", "remote"}
    assert all(len(p) >= 20 for p in passwords.values())
    assert passwords["service"] in (root / "etc/xian-table/mqtt.env").read_text()
    assert show(root, capsys, "remote") == {"remote": passwords["remote"]}
    assert {p: digest(p) for p in before} == before  # reading them rotates nothing


def test_rotate_changes_one_user_and_never_the_tables_own(installed: Any, capsys: Any, tmp_path: Path) -> None:
    root, _ = installed
    env, passwd = root / "etc/xian-table/mqtt.env", root / "etc/mosquitto/xian-table/passwd"
    old = show(root, capsys)
    table_env = digest(env)
    hashes = {line.split(":")[0]: line for line in passwd.read_text().splitlines()}
    assert xt("mqtt-users", "rotate", "display", "--root", str(root)) == 0
    new = show(root, capsys)
    assert new["display"] != old["display"] and {k: v for k, v in new.items() if k != "display"} == \
        {k: v for k, v in old.items() if k != "display"}
    assert digest(env) == table_env
    after = {line.split(":")[0]: line for line in passwd.read_text().splitlines()}
    assert after["display"] != hashes["display"] and all(after[u] == hashes[u] for u in hashes if u != "display")
    # the new password is what mosquitto now accepts, the old one is refused
    port = free_port()
    with mosquitto(tmp_path, broker_setup.conf_text([f"127.0.0.1:{port}"],
                                                    data_dir=root / "etc/mosquitto/xian-table"), port):
        assert connack("127.0.0.1", port, "display", new["display"]) == 0
        assert connack("127.0.0.1", port, "display", old["display"]) == 5
        assert connack("127.0.0.1", port, "xian-table", old["service"]) == 0
    assert xt("mqtt-users", "rotate", "--root", str(root)) == 2  # a role must be named


def test_the_tls_listener_speaks_only_to_clients_that_trust_the_tables_ca(installed: Any, capsys: Any,
                                                                          tmp_path: Path) -> None:
    root, secure = installed
    data = root / "etc/mosquitto/xian-table"
    ca = root / "etc/xian-table/ca.crt"
    assert ca.read_bytes() == (data / "tls/ca.crt").read_bytes()
    assert (data / "tls/ca.key").stat().st_mode & 0o777 == 0o600
    installed_conf = (root / "etc/mosquitto/conf.d/xian-table.conf").read_text()
    assert f"listener {secure} 127.0.0.1\nmax_connections 64\ncafile /etc/mosquitto/xian-table/tls/ca.crt" \
        in installed_conf
    password = show(root, capsys, "display")["display"]
    with mosquitto(tmp_path, installed_conf.replace("/etc/mosquitto/xian-table", str(data)), secure):
        ctx = ssl.create_default_context(cafile=str(ca))
        for name in ("localhost", "127.0.0.1"):
            with socket.create_connection(("127.0.0.1", secure), timeout=WAIT) as raw, \
                    ctx.wrap_socket(raw, server_hostname=name) as s:
                s.sendall(mqtt_connect_packet("tls-test", "display", password))
                assert s.recv(4) == b"\x20\x02\x00\x00"  # CONNACK, accepted
        with socket.create_connection(("127.0.0.1", secure), timeout=WAIT) as raw, pytest.raises(ssl.SSLError):
            ssl.create_default_context().wrap_socket(raw, server_hostname="localhost")  # the system's CAs: no
    again = subprocess.run([BINARY, "install", "--headless", "--root", str(root), "--bin", BINARY],
                           capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert again.returncode == 0 and again.stdout.splitlines()[-1] == "installed: nothing to do", again.stdout
