"""``xian-table seat-display`` through the real command line against a real broker."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from table_app.mqtt.bridge import MqttBridge
from table_app.mqtt.topics import Topics, parse_url
from tests.support.mqtt import (  # noqa: F401  (the fixtures are used by name)
    HAND,
    WAIT,
    broker_fixture,
    play,
    service_fixture,
)


def test_once_prints_the_seat_large_and_readable(broker, service, cli) -> None:
    bridge = MqttBridge(service, parse_url(broker.url("service")), Topics("xian", "sd1")).start()
    try:
        play(service, HAND[:9])  # Bo (seat 1, South) is to play
        assert bridge.wait_idle(WAIT)
        proc = cli("seat-display", "--seat", "1", "--broker", broker.url("display"), "--table", "sd1", "--once")
        assert proc.returncode == 0, proc.stderr
        out = proc.stdout
        assert "座位 1 · seat 1 · Bo" in out and "南风 South" in out and "▶▶ 轮到你出牌 · your turn ◀◀" in out
        assert "████" in out  # the wind letter S and the score, large
        other = cli("seat-display", "--seat", "3", "--broker", broker.url("display"), "--table", "sd1", "--once")
        assert "北风 North" in other.stdout and "Bo 出牌 · Bo's turn" in other.stdout and "▶▶" not in other.stdout
    finally:
        bridge.stop()


def test_it_updates_live(broker, service, tmp_path: Path) -> None:
    bridge = MqttBridge(service, parse_url(broker.url("service")), Topics("xian", "sd2")).start()
    proc = subprocess.Popen(
        [sys.executable, "-m", "table_app.cli", "seat-display", "--seat", "2", "--broker", broker.url("display"),
         "--table", "sd2", "--plain"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env=dict(os.environ, PYTHONUTF8="1", HOME=str(tmp_path)))
    assert proc.stdout is not None
    try:
        play(service, HAND[:9])
        assert bridge.wait_idle(WAIT)

        def read_until(words: str) -> str:
            seen = ""
            while words not in seen:
                line = proc.stdout.readline()  # type: ignore[union-attr]
                assert line, f"the display stopped: {proc.stderr.read() if proc.stderr else ''}"
                seen += line
            return seen

        read_until("西风 West")
        play(service, [HAND[9]])  # Bo discards: Cy may claim
        read_until("may chow/pong/kong/win ◀◀")  # Cy is Bo's 下家: its own calls, marked
        play(service, HAND[10:])
        assert "你胡了！+1" in read_until("You won! +1")
    finally:
        proc.terminate()
        proc.wait(WAIT)
        bridge.stop()


def test_a_wrong_password_is_refused_and_said(broker, cli) -> None:
    url = broker.url("display", password="wrong")
    proc = cli("seat-display", "--seat", "0", "--broker", url, "--once", "--timeout", "5")
    assert proc.returncode == 2 and "refused" in proc.stderr and "wrong" not in proc.stderr


def test_without_a_broker_it_says_how_to_give_one(cli, tmp_path: Path) -> None:
    proc = cli("seat-display", "--seat", "0", "--config", str(_empty_config(tmp_path)))
    assert proc.returncode == 2 and "--broker" in proc.stderr


def _empty_config(tmp_path: Path) -> Path:
    p = tmp_path / "empty.toml"
    p.write_text("")
    return p
