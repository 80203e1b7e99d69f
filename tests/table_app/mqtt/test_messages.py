"""Topics, messages, command parsing, discovery and the broker set-up files (no broker)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import replay
from engine.public import public_state
from table_app.mqtt import broker_setup
from table_app.mqtt.discovery import discovery_messages
from table_app.mqtt.messages import event_message, parse_command, result_message, table_messages
from table_app.mqtt.topics import PASSWORD_ENV, Topics, parse_url
from table_app.present.view_context import ViewContext
from tests.support.mqtt import HAND

ROOT = Path(__file__).resolve().parents[3]


def test_topics() -> None:
    t = Topics("house/xian", "kitchen")
    assert (t.status, t.state, t.seat(3), t.seats, t.event, t.cmd, t.cmd_result) == (
        "house/xian/kitchen/status", "house/xian/kitchen/state", "house/xian/kitchen/seat/3",
        "house/xian/kitchen/seat/+", "house/xian/kitchen/event", "house/xian/kitchen/cmd",
        "house/xian/kitchen/cmd/result")


def test_broker_urls() -> None:
    u = parse_url("mqtt://xian-table:p%40ss@pi.local")
    assert (u.host, u.port, u.username, u.password, u.tls) == ("pi.local", 1883, "xian-table", "p@ss", False)
    assert "p@ss" not in u.redacted() and u.redacted() == "mqtt://xian-table@pi.local:1883"
    assert parse_url("mqtts://h").port == 8883 and parse_url("mqtts://h").tls
    assert parse_url("mqtt://display@h", env={PASSWORD_ENV: "from-env"}).password == "from-env"
    assert parse_url("mqtt://h:1884", env={PASSWORD_ENV: "x"}).password is None
    for bad in ("http://h", "mqtt://", "mqtt://h:99999", "mqtt://h/topic", "h:1883"):
        with pytest.raises(ValueError):
            parse_url(bad)


def test_retained_messages_for_a_state() -> None:
    t = Topics("xian", "t")
    public = public_state(replay(HAND[:5]))
    msgs = table_messages(t, ViewContext(public, 5))
    assert [m.topic for m in msgs] == [t.state, *(t.seat(s) for s in range(4))]
    assert all(m.retain and m.qos == 1 and m.seq == 5 for m in msgs)
    assert json.loads(msgs[0].payload) == public
    assert json.loads(msgs[1].payload)["seq"] == 5 and json.loads(msgs[1].payload)["your_turn"]


def test_events_are_not_retained() -> None:
    m = event_message(Topics("xian", "t"), seq=7, kind="undo", event=None, at=1.5, source="ui", undone=(5, 6))
    assert not m.retain and m.qos == 1
    assert json.loads(m.payload) == {"seq": 7, "kind": "undo", "event": None, "at": 1.5, "source": "ui",
                                     "undone": [5, 6]}


@pytest.mark.parametrize(("payload", "error"), [
    (b"", "not JSON"),
    (b"{", "not JSON"),
    (b"\xc3\x28", "UTF-8"),
    (b'"discard"', "JSON object"),
    (b"null", "JSON object"),
    (b'{"type": "pass", "seat": 1, "transaction": {"a": 1}}', "transaction"),
    (b'{"type": "pass", "seat": 1, "transaction": 1.5}', "transaction"),
    (b" " * 20_000, "at most"),
])
def test_commands_that_are_refused_before_the_service(payload: bytes, error: str) -> None:
    cmd = parse_command(payload)
    assert cmd.event is None and cmd.error is not None and error in cmd.error


def test_commands_for_the_service() -> None:
    cmd = parse_command(b'{"type": "discard", "seat": 0, "transaction": 12}')
    assert cmd.event == {"type": "discard", "seat": 0} and cmd.transaction == 12 and cmd.error is None
    # everything else about the event (unknown fields, types, rules) the service judges
    assert parse_command(b'{"type": "nonsense", "x": 1}').event == {"type": "nonsense", "x": 1}


def test_results_have_the_zigbee2mqtt_shape() -> None:
    t = Topics("xian", "t")
    ok = json.loads(result_message(t, transaction="a", data={"seq": 3}).payload)
    bad = json.loads(result_message(t, transaction=None, error="no").payload)
    assert ok == {"status": "ok", "data": {"seq": 3}, "transaction": "a"}
    assert bad == {"status": "error", "error": "no", "transaction": None}


def test_discovery_configs() -> None:
    t = Topics("xian", "t1")
    msgs = discovery_messages(t, "ha")
    assert len(msgs) == 6 and all(m.retain and m.topic.startswith("ha/sensor/xian_t1/") for m in msgs)
    bodies = [json.loads(m.payload) for m in msgs]
    assert len({b["unique_id"] for b in bodies}) == 6
    assert all(b["availability_topic"] == t.status and b["device"]["identifiers"] == ["xian_t1"] for b in bodies)


def test_the_shipped_acl_is_the_generated_one_and_denies_by_default() -> None:
    shipped = (ROOT / "systemd/mosquitto/xian-table.acl").read_text()
    assert shipped == broker_setup.acl_text()
    sections = {s.split("\n")[1]: s for s in shipped.split("\n\n")[1:] if s.strip()}
    display = sections["user display"]
    assert "topic read xian/+/state" in display and "write" not in display.replace("writes", "")
    assert "xian/#" not in display  # (it would let every client read every other client's answers)
    assert shipped.rstrip().endswith("pattern read xian/+/cmd/result/%c")
    remote = sections["user remote"]
    assert [line for line in remote.splitlines() if " write " in line] == ["topic write xian/+/cmd"]
    # the one grant to every user: reading the answers to its own client id
    assert [line for line in shipped.splitlines() if "pattern" in line and not line.startswith("#")] == \
        ["pattern read xian/+/cmd/result/%c"]


def test_the_shipped_config_has_no_anonymous_access_and_no_password() -> None:
    conf = (ROOT / "systemd/mosquitto/xian-table.conf").read_text()
    assert "allow_anonymous false" in conf
    assert "password_file /etc/mosquitto/xian-table/passwd" in conf
    assert "acl_file /etc/mosquitto/xian-table/acl" in conf
    for f in (ROOT / "systemd/mosquitto").iterdir():
        assert "$7$" not in f.read_text() and f.name != "passwd"


def test_setup_generates_fresh_passwords_each_time(tmp_path: Path) -> None:
    a = broker_setup.setup(tmp_path / "a")
    b = broker_setup.setup(tmp_path / "b")
    assert sorted(a) == ["display", "homeassistant", "remote", "xian-table"]
    assert all(len(p) >= 20 for p in a.values()) and not set(a.values()) & set(b.values())
    passwd = (tmp_path / "a" / "passwd").read_text()
    assert all(p not in passwd for p in a.values())  # hashed by mosquitto_passwd
    assert [line.split(":")[0] for line in passwd.splitlines()] == list(a)
    assert (tmp_path / "a" / "passwd").stat().st_mode & 0o077 == 0o040
    with pytest.raises(FileExistsError):
        broker_setup.setup(tmp_path / "a")


def test_setup_command_prints_the_credentials_once(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "table_app.mqtt.broker_setup", "--dir", str(tmp_path / "d"),
                           "--prefix", "home/xian", "--user", "service:table-1", "--user", "display:hall"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "table-1" in proc.stdout and "hall" in proc.stdout and 'url = "mqtt://table-1:' in proc.stdout
    acl = (tmp_path / "d" / "acl").read_text()
    assert "user hall\ntopic read home/xian/+/status" in acl and "user remote" not in acl
    assert "pattern read home/xian/+/cmd/result/%c" in acl
    again = subprocess.run([sys.executable, "-m", "table_app.mqtt.broker_setup", "--dir", str(tmp_path / "d")],
                           capture_output=True, text=True, timeout=60)
    assert again.returncode == 1 and "--force" in again.stderr
