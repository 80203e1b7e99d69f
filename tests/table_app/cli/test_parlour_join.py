"""``xian-table parlour-join`` and the bridge it writes, on real mosquitto brokers: the table's
broker (the shipped config, users and ACL, plus the conf.d file parlour-join wrote) bridged
to a parlour broker with per-table credentials and ACL; the journal arrives there chained,
replays answer across the bridge, a cut link loses nothing the queue holds, and doctor
tells the bridge's state."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import stat
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from table_app.core.service import TableService
from table_app.doctor.check import OK, WARNING, Probe
from table_app.doctor.parlour import check_parlour
from table_app.journal.journal import Journal
from table_app.mqtt.bridge import MqttBridge
from table_app.mqtt.broker_setup import DEFAULT_USERS, SHIPPED_CONF, setup, write_password_file
from table_app.mqtt.local_broker import free_port, render_conf
from table_app.mqtt.parlour_bridge import ACL_MARK, CONF_NAME, QUEUED_MESSAGES
from table_app.mqtt.topics import Topics, parse_url
from tests.support.mqtt import HAND, WAIT, Cable, Watcher, chained, play
from tests.table_app.mqtt.test_journal_link import play_tracked

TABLE = "p7"
PASSWORD = "parlour-secret-7"


def mosquitto(conf: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c", str(conf)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def wait_port(port: int, proc: subprocess.Popen[bytes]) -> None:
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"mosquitto exited: {proc.stderr.read().decode() if proc.stderr else ''}")
        with contextlib.suppress(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        time.sleep(0.02)
    raise AssertionError(f"mosquitto did not listen on {port}")


@contextlib.contextmanager
def running(conf: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    proc = mosquitto(conf)
    try:
        wait_port(port, proc)
        yield proc
    finally:
        proc.terminate()
        proc.wait(10)
        if proc.stderr:
            proc.stderr.close()


def parlour_broker(tmp: Path) -> tuple[Path, int]:
    """The parlour's mosquitto as the contract has it: table-T writes xian/T/#, reads xian/T/cmd."""
    folder = tmp / "parlour"
    folder.mkdir()
    write_password_file(folder / "passwd", [(f"table-{TABLE}", PASSWORD), ("parlour", "p")])
    (folder / "acl").write_text(f"user table-{TABLE}\ntopic write xian/{TABLE}/#\ntopic read xian/{TABLE}/cmd\n"
                                f"topic write $SYS/broker/connection/parlour-{TABLE}/state\n\n"
                                "user parlour\ntopic read xian/+/#\ntopic write xian/+/cmd\n"
                                "topic read $SYS/broker/connection/+/state\n", encoding="utf-8")
    port = free_port()
    conf = folder / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous false\npassword_file {folder / 'passwd'}\n"
                    f"acl_file {folder / 'acl'}\npersistence false\n"
                    + ("user root\n" if os.geteuid() == 0 else ""), encoding="utf-8")
    return conf, port


def table_broker(tmp: Path, root: Path) -> tuple[Path, int, dict[str, str]]:
    """The table's mosquitto: the shipped config with its users and ACL where an install puts
    them (under ``root``), persistence on, and conf.d as parlour-join fills it."""
    data = root / "etc/mosquitto/xian-table"
    passwords = setup(data, DEFAULT_USERS, force=True)
    confd = root / "etc/mosquitto/conf.d"
    confd.mkdir(parents=True, exist_ok=True)
    port = free_port()
    main = render_conf(SHIPPED_CONF.read_text(encoding="utf-8"), data, port, tmp / "table-broker.log")
    main = main.replace("persistence false\n", "")
    (tmp / "persist").mkdir()
    main += f"persistence_location {tmp / 'persist'}/\ninclude_dir {confd}\n"
    conf = tmp / "table-broker.conf"
    conf.write_text(main, encoding="utf-8")
    return conf, port, passwords


def join(cli: Any, tmp: Path, root: Path, address: str, *more: str) -> subprocess.CompletedProcess[str]:
    secret = tmp / "secret"
    secret.write_text(PASSWORD + "\n", encoding="utf-8")
    config = tmp / "config.toml"
    config.write_text(f'[table]\nid = "{TABLE}"\n[mqtt]\nurl = "mqtt://xian-table@localhost:1883"\n', encoding="utf-8")
    return cli("parlour-join", address, "--password-file", str(secret), "--config", str(config), "--root", str(root),
               *more)


def test_dry_run_prints_the_config_without_the_password_and_writes_nothing(cli, tmp_path) -> None:
    root = tmp_path / "root"
    proc = join(cli, tmp_path, root, "parlour.local", "--dry-run")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for line in (f"connection parlour-{TABLE}", "address parlour.local:1883", f"remote_username table-{TABLE}",
                 "cleansession false", "local_cleansession false", "notifications true", "persistence true",
                 f"topic xian/{TABLE}/# out 1", f"topic xian/{TABLE}/cmd in 1",
                 f"max_queued_messages {QUEUED_MESSAGES}"):
        assert f"\n{line}\n" in out, line
    assert PASSWORD not in out and "remote_password <the first line of" in out
    assert not root.exists()


def test_bad_addresses_and_passwords_are_refused_clearly(cli, tmp_path) -> None:
    root = tmp_path / "root"
    for address, said in [("parlour.local:0", "port must be a number from 1 to 65535"),
                          ("parlour.local:99999", "port must be"), ("parlour.local:http", "port must be"),
                          ("bad host!", "is not a host name"), ("x-.local", "is not a host name"),
                          ("[::1]:1883", "IPv6"), ("", "is not a host name")]:
        proc = join(cli, tmp_path, root, address)
        assert proc.returncode == 2 and said in proc.stderr, (address, proc.stderr)
    proc = join(cli, tmp_path, root, "parlour.local", "--tls")
    assert proc.returncode == 2 and "--cafile" in proc.stderr
    (tmp_path / "secret").unlink()
    proc = cli("parlour-join", "parlour.local", "--password-file", str(tmp_path / "secret"), "--root", str(root))
    assert proc.returncode == 2 and "cannot read" in proc.stderr
    assert not root.exists()


def test_the_bridge_carries_the_journal_replays_and_a_cut_link_loses_nothing(cli, tmp_path) -> None:
    root = tmp_path / "root"
    pconf, pport = parlour_broker(tmp_path)
    tconf, tport, passwords = table_broker(tmp_path, root)
    cable = Cable(pport)  # the link between the two brokers, to cut
    proc = join(cli, tmp_path, root, f"127.0.0.1:{cable.port}")
    assert proc.returncode == 0, proc.stderr
    written = root / "etc/mosquitto/conf.d" / CONF_NAME
    assert stat.S_IMODE(written.stat().st_mode) == 0o600 and PASSWORD in written.read_text()
    acl = (root / "etc/mosquitto/xian-table/acl").read_text()
    assert acl.count(ACL_MARK) == 1
    assert join(cli, tmp_path, root, f"127.0.0.1:{cable.port}").returncode == 0  # again: the same files
    assert (root / "etc/mosquitto/xian-table/acl").read_text() == acl

    journal = Journal.open(tmp_path / "journal.sqlite3")
    service = TableService(journal, claim_window_s=0).start()
    t = Topics("xian", TABLE)
    table_url = f"mqtt://xian-table:{passwords['xian-table']}@127.0.0.1:{tport}"
    display_url = f"mqtt://display:{passwords['display']}@127.0.0.1:{tport}"
    with running(pconf, pport), running(tconf, tport):
        link_state = f"$SYS/broker/connection/parlour-{TABLE}/state"
        parlour = Watcher(f"mqtt://parlour:p@127.0.0.1:{pport}",
                          [t.journal, t.journal_replay, t.cmd_result, t.state, link_state])
        display = Watcher(display_url, [t.state])  # the table's own clients as before
        bridge = MqttBridge(service, parse_url(table_url), t, ha_prefix=None, max_backoff=0.5).start()
        probe = Probe(root=root, env={"XIAN_TABLE_MQTT_PASSWORD": passwords["xian-table"]})
        try:
            parlour.wait_subscribed()
            assert until_level(probe, tport, OK).message.startswith(f"linked to the parlour at 127.0.0.1:{cable.port}")
            assert parlour.wait(lambda: parlour.latest.get(link_state) == b"1")  # the parlour hears it too
            play(service, HAND)
            assert parlour.wait(lambda: len(parlour.of(t.journal)) >= len(HAND))
            got = parlour.of(t.journal)
            assert [r["seq"] for r in got] == list(range(1, len(HAND) + 1))
            assert chained(got)
            jid = got[0]["hash"]
            assert display.wait_json(t.state, lambda s: s["phase"] == "hand_over")
            # a replay asked at the parlour, answered across the bridge
            parlour.publish(t.cmd, json.dumps({"type": "journal_replay", "journal": jid, "from": 3, "to": 9,
                                               "request": "gap-1"}))
            assert parlour.wait(lambda: any(c["done"] for c in parlour.of(t.journal_replay)))
            (chunk,) = parlour.of(t.journal_replay)
            assert chunk["records"] == got[2:9] and chunk["last"] == len(HAND)
            parlour.publish(t.cmd, json.dumps({"type": "journal_replay", "journal": "f" * 32, "from": 1, "to": 2,
                                               "request": "x", "transaction": "t-x"}))
            assert parlour.wait(lambda: any(a.get("transaction") == "t-x" for a in parlour.of(t.cmd_result)))
            refused = next(a for a in parlour.of(t.cmd_result) if a.get("transaction") == "t-x")
            assert refused["code"] == "journal.other" and refused["params"]["journal"] == jid
            # the link cut: the table plays on, its broker queues (more than its old 1,000 a client)
            cable.unplug()
            assert until_level(probe, tport, WARNING).message.startswith("the link to the parlour")
            assert parlour.wait(lambda: parlour.latest.get(link_state) == b"0")  # the bridge's will, at the parlour
            before = service.seq
            play_more(service, 200)
            assert bridge.wait_idle(WAIT)
            time.sleep(1.0)
            assert len(parlour.of(t.journal)) == before
            cable.plug()
            assert parlour.wait(lambda: len(parlour.of(t.journal)) >= service.seq, timeout=60)
            got = parlour.of(t.journal)
            assert [r["seq"] for r in got] == list(range(1, service.seq + 1))  # none missing, none twice
            assert chained(got)
            assert until_level(probe, tport, OK).level == OK
        finally:
            bridge.stop()
            parlour.close()
            display.close()
            cable.unplug()
            service.stop()
            journal.close()


def play_more(service: TableService, records: int) -> None:
    """More records (a tracked game) in a session of its own."""
    start = service.seq
    play_tracked(service, records)
    assert service.seq == start + records


def until_level(probe: Probe, port: int, level: str) -> Any:
    end = time.monotonic() + WAIT
    while True:
        c = check_parlour(probe, f"mqtt://xian-table@127.0.0.1:{port}")
        if c.level == level or time.monotonic() > end:
            assert c.level == level, c
            return c
        time.sleep(0.2)


def test_a_tls_link_checks_the_parlours_certificate(cli, tmp_path) -> None:
    from table_app.mqtt import tls

    root = tmp_path / "root"
    pconf, pport = parlour_broker(tmp_path)
    certs = tmp_path / "parlour-tls"
    tls.make(certs, ["localhost", "127.0.0.1"])
    tls_port = free_port()
    with pconf.open("a", encoding="utf-8") as f:
        f.write(f"listener {tls_port} 127.0.0.1\ncafile {certs / 'ca.crt'}\ncertfile {certs / 'server.crt'}\n"
                f"keyfile {certs / 'server.key'}\ntls_version tlsv1.2\n")
    tconf, tport, passwords = table_broker(tmp_path, root)
    proc = join(cli, tmp_path, root, f"127.0.0.1:{tls_port}", "--tls", "--cafile", str(certs / "ca.crt"))
    assert proc.returncode == 0, proc.stderr
    assert f"bridge_cafile {certs / 'ca.crt'}" in (root / "etc/mosquitto/conf.d" / CONF_NAME).read_text()
    journal = Journal.open(tmp_path / "journal.sqlite3")
    service = TableService(journal, claim_window_s=0).start()
    t = Topics("xian", TABLE)
    with running(pconf, pport), running(tconf, tport):
        parlour = Watcher(f"mqtt://parlour:p@127.0.0.1:{pport}", [t.journal])
        bridge = MqttBridge(service, parse_url(f"mqtt://xian-table:{passwords['xian-table']}@127.0.0.1:{tport}"), t,
                            ha_prefix=None, max_backoff=0.5).start()
        probe = Probe(root=root, env={"XIAN_TABLE_MQTT_PASSWORD": passwords["xian-table"]})
        try:
            parlour.wait_subscribed()
            until_level(probe, tport, OK)
            play(service, HAND[:6])
            assert parlour.wait(lambda: len(parlour.of(t.journal)) >= 6)
            assert chained(parlour.of(t.journal))
        finally:
            bridge.stop()
            parlour.close()
            service.stop()
            journal.close()
    # a CA that did not sign the parlour's certificate: the bridge never comes up
    other = tmp_path / "other-tls"
    tls.make(other, ["localhost"])
    proc = join(cli, tmp_path, root, f"127.0.0.1:{tls_port}", "--tls", "--cafile", str(other / "ca.crt"))
    assert proc.returncode == 0, proc.stderr
    with running(pconf, pport), running(tconf, tport):
        time.sleep(3)
        assert until_level(probe, tport, WARNING).message.startswith("the link to the parlour")


def test_uninstall_takes_the_parlour_link_away_too(cli, tmp_path) -> None:
    root = tmp_path / "root"
    assert join(cli, tmp_path, root, "parlour.local").returncode == 0
    written = root / "etc/mosquitto/conf.d" / CONF_NAME
    assert written.exists()
    proc = cli("uninstall", "--root", str(root))
    assert proc.returncode == 0, proc.stderr
    assert not written.exists() and str(written) in proc.stdout
