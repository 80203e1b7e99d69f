"""Button presses during a flood of remote commands (issue 16): a client publishes 1,000
commands a second on the MQTT ``cmd`` topic for 10 s while the table's own buttons are
pressed; the presses' latency (submit → the durable answer) must stay low.

Starts its own mosquitto, a service with a journal in a temporary folder (durable commits)
and the bridge; the flood comes from another process (as it would from a phone or a
script on the network). The flood cycles through what a misbehaving phone or dashboard
might send: ``{"type": "state"}`` (answered with the whole public state), an event the
rules refuse, a ``bets`` command (a commit, while bets are allowed). The buttons, every
50 ms, play an endless tracked game (the dice button, each player's TURN, the quick 下家's
press and the others' passes while it waits for them, docs/rules.md §17).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from table_app.bench import Result, result
from table_app.bench.mqtt import next_press, percentile

NAME = "flood"
DESCRIPTION = "button presses while a remote client floods the MQTT command topic (1,000 commands/s for 10 s)"

RATE = 1000  # remote commands a second
SECONDS = 10.0
PRESS_EVERY_S = 0.05
TARGET_P99_MS = 50.0
FLOOD = (json.dumps({"type": "state"}), json.dumps({"type": "confirm_win", "wait": "plain"}),
         json.dumps({"type": "bets", "bets": [0, 0, 0, 1]}))  # (the game below never has a win to confirm)


def one_run(workdir: Path, progress: Callable[[str], None], rate: int = RATE,
            seconds: float = SECONDS) -> tuple[list[float], int, int, int]:
    """(press latencies in ms, remote commands sent, answered, answered busy)."""

    from table_app.core.service import TableService
    from table_app.journal.journal import Journal
    from table_app.mqtt.bridge import MqttBridge
    from table_app.mqtt.local_broker import LocalBroker
    from table_app.mqtt.topics import Topics, parse_url

    topics = Topics("xian", "flood")
    with LocalBroker(workdir) as broker:
        journal = Journal.open(workdir / "journal.sqlite3")
        service = TableService(journal, claim_window_s=0).start()
        bridge = MqttBridge(service, parse_url(broker.url("service")), topics, ha_prefix=None,
                            queue_size=20_000).start()
        remote = broker.url("remote")
        flooder = subprocess.Popen([sys.executable, "-m", "table_app.bench.flood", remote, topics.cmd,
                                    topics.cmd_result, str(rate), str(seconds)],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            if not bridge.wait_idle(10):
                raise RuntimeError("the benchmark's broker or bridge did not come up")
            for ev in ({"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
                       {"type": "seating", "method": "C", "east": 0}):
                if not service.call(ev, source="touch", timeout=10).ok:
                    raise RuntimeError(f"the benchmark table refused {ev}")
            assert flooder.stdout is not None
            if flooder.stdout.readline().strip() != "flooding":
                raise RuntimeError(f"the flooder did not start: {flooder.stderr.read() if flooder.stderr else ''}")
            latencies: list[float] = []
            end = time.perf_counter() + seconds
            shown = 0
            while time.perf_counter() < end:
                press = next_press(service.public)
                t0 = time.perf_counter()
                answer = service.call(press, source="gpio", timeout=30)
                latencies.append((time.perf_counter() - t0) * 1000)
                if not answer.ok:
                    raise RuntimeError(f"a button press was refused during the flood: {answer.error}")
                if int(seconds - (end - time.perf_counter())) > shown:
                    shown += 1
                    progress(f"{shown} s: {len(latencies)} presses")
                time.sleep(PRESS_EVERY_S)
            out, _ = flooder.communicate(timeout=60)
            sent, answered = (int(x) for x in out.split()[-2:])
            return latencies, sent, answered, service.busy_refusals
        finally:
            if flooder.poll() is None:
                flooder.kill()
            bridge.stop()
            service.stop()
            journal.close()


def flood(url: str, topic: str, answers_topic: str, rate: int, seconds: float) -> tuple[int, int]:
    """The flooder (its own process): ``rate`` bets commands a second on ``topic`` for
    ``seconds``, then wait for the answers; (sent, answered)."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from table_app.mqtt.topics import parse_url

    got = {"n": 0}
    lock = threading.Lock()

    def on_message(client: object, userdata: object, msg: object) -> None:
        with lock:
            got["n"] += 1

    broker = parse_url(url)
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    client.username_pw_set(broker.username, broker.password)
    subscribed = threading.Event()
    client.on_message = on_message
    client.on_connect = lambda c, u, f, rc, p: c.subscribe(answers_topic, qos=0)
    client.on_subscribe = lambda c, u, mid, rcs, p: subscribed.set()
    client.connect(broker.host, broker.port)
    client.loop_start()
    if not subscribed.wait(10):
        raise SystemExit("the flooder could not subscribe")
    print("flooding", flush=True)
    sent = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        due = int((time.perf_counter() - start) * rate)
        while sent < due:
            client.publish(topic, FLOOD[sent % len(FLOOD)], qos=0)
            sent += 1
        time.sleep(0.001)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with lock:
            if got["n"] >= sent:
                break
        time.sleep(0.05)
    client.disconnect()
    client.loop_stop()
    with lock:
        return sent, got["n"]


def run(runs: int, progress: Callable[[str], None]) -> list[Result]:
    p50, p99, worst, busy, answered = [], [], [], [], []
    for r in range(runs):
        progress(f"run {r + 1} of {runs}: {RATE:,} commands/s for {SECONDS:.0f} s, a press every {PRESS_EVERY_S}s")
        with tempfile.TemporaryDirectory(prefix="xian-bench-flood-") as tmp:
            lat, sent, got, refused = one_run(Path(tmp), progress)
        p50.append(percentile(lat, 50))
        p99.append(percentile(lat, 99))
        worst.append(max(lat))
        busy.append(100.0 * refused / max(1, sent))
        answered.append(100.0 * got / max(1, sent))
    note = "submit → durable answer, the table's own input, during the flood"
    return [
        result(NAME, "button press during a flood, p50", p50, "ms", note=note),
        result(NAME, "button press during a flood, p99", p99, "ms", target_max=TARGET_P99_MS, note=note),
        result(NAME, "button press during a flood, max", worst, "ms"),
        result(NAME, "remote commands answered 'busy'", busy, "%", note="beyond the 32 that may wait"),
        result(NAME, "remote commands answered", answered, "%", note="every one gets an answer"),
    ]


if __name__ == "__main__":
    n_sent, n_answered = flood(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]))
    print(n_sent, n_answered, flush=True)
