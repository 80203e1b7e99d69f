"""MQTT latency: a button press entering the service → a subscriber holding the new seat views.

Starts its own mosquitto (the shipped config, generated users, a free loopback port), a
service with a journal in a temporary folder (durable commits, as on a table) and the
bridge; a display user's client subscribes to ``seat/+``. Each of 1,000 presses (a tracked
game played by the buttons alone: the dice button, each player's TURN — the quick 下家's
press, held while the others may still claim, then their passes, the last of which makes its
draw and discard (docs/rules.md §17) — hands played out to the end of the wall;
the next hand is started as the screen does) is submitted only after the previous one's
four seat views have arrived; its latency is the time from ``submit`` until the last of
the four views carrying its last journal seq is received. The service turns each press
into events with the engine's button mapping in its own thread: that is measured too.
"""

from __future__ import annotations

import json
import math
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

from engine.public import PublicState
from table_app.bench import Result, result

NAME = "mqtt"
DESCRIPTION = ("a button press into the service → a subscriber has the 4 new seat views, over a local mosquitto "
               "(1,000 presses; journal commits included)")

EVENTS = 1000
TARGET_P99_US = 20_000.0
WAIT_S = 10.0


def next_command(public: PublicState) -> dict[str, object]:
    """A legal next event for an endless tracked game (discards and passes only)."""
    phase = public["phase"]
    if phase == "betting":
        return {"type": "bets", "bets": [0, 0, 0, 0]}
    if phase == "rolling":
        return {"type": "roll", "dice": [3, 4]}
    if phase == "turn":
        return {"type": "discard", "seat": public["turn"]}
    if public["claims"] is not None:
        return {"type": "pass", "seat": public["claims"]["waiting"][0]}
    if phase == "hand_over":
        return {"type": "next_hand"}
    raise RuntimeError(f"the benchmark game cannot move in phase {phase!r}")


class Command(TypedDict, total=False):
    type: str
    seat: int | None
    button: str


def next_press(public: PublicState) -> Command:
    """The next press of an endless tracked game played by the buttons (the next hand, which
    has no button, is the screen's event): the engine's ``actions`` say who may act; during
    claims the discarder's 下家 has drawn and discarded (``claims.next``), then — its press
    held while they may still claim (docs/rules.md §17) — the others pass (the last answer
    makes its draw and discard)."""
    phase, claims = public["phase"], public["claims"]
    if phase in ("betting", "rolling"):
        return {"type": "press", "seat": None, "button": "DICE"}
    if phase == "turn":
        return {"type": "press", "seat": public["turn"], "button": "TURN"}
    if claims is not None and claims["next"] is not None:
        return {"type": "press", "seat": claims["next"], "button": "TURN"}
    if claims is not None and claims["waiting"]:
        return {"type": "press", "seat": claims["waiting"][0], "button": "TURN"}
    if phase == "hand_over":
        return {"type": "next_hand"}
    raise RuntimeError(f"the benchmark game cannot move in phase {phase!r}")


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile.

    >>> percentile([float(i) for i in range(1, 101)], 99)
    99.0
    """
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[k]


class _Seats:
    """A display's subscription: when each seat's view of each seq arrived."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.arrived: dict[int | None, list[float]] = {}

    def on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        now = time.perf_counter()
        seq = json.loads(msg.payload).get("seq")
        with self.cond:
            self.arrived.setdefault(seq, []).append(now)
            self.cond.notify_all()

    def wait_all(self, seq: int | None) -> float:
        with self.cond:
            if not self.cond.wait_for(lambda: len(self.arrived.get(seq, ())) >= 4, WAIT_S):
                raise RuntimeError(f"the seat views of seq {seq} did not arrive within {WAIT_S} s")
            return max(self.arrived.pop(seq))


@dataclass
class Timings:
    """One run: per press, µs from submit to the last of the four seat views (``total``), from
    the service's notice to them (``after_commit``), and how many events it became (``events``:
    a press's events are journaled in one durable commit)."""

    total: list[float] = field(default_factory=list)
    after_commit: list[float] = field(default_factory=list)
    events: list[int] = field(default_factory=list)


def one_run(workdir: Path, progress: Callable[[str], None], presses: int = EVENTS,
            journal_dir: Path | None = None) -> Timings:
    """``presses`` presses through a service with its journal in ``journal_dir`` (default
    ``workdir``) and a local mosquitto in ``workdir``."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from table_app.core.service import TableService
    from table_app.journal.journal import Journal
    from table_app.mqtt.bridge import MqttBridge
    from table_app.mqtt.local_broker import LocalBroker
    from table_app.mqtt.topics import Topics, parse_url

    topics = Topics("xian", "bench")
    with LocalBroker(workdir) as broker:
        journal = Journal.open((journal_dir or workdir) / "journal.sqlite3")
        service = TableService(journal, claim_window_s=0).start()
        bridge = MqttBridge(service, parse_url(broker.url("service")), topics, ha_prefix=None).start()
        noticed: dict[int, float] = {}
        service.subscribe(lambda n: noticed.__setitem__(n.seq, time.perf_counter()))
        seats = _Seats()
        sub = mqtt.Client(CallbackAPIVersion.VERSION2)
        display = parse_url(broker.url("display"))
        sub.username_pw_set(display.username, display.password)
        subscribed = threading.Event()
        sub.on_message = seats.on_message
        sub.on_connect = lambda c, u, f, rc, p: c.subscribe(topics.seats, qos=1)
        sub.on_subscribe = lambda c, u, mid, rcs, p: subscribed.set()
        try:
            sub.connect("127.0.0.1", broker.port)
            sub.loop_start()
            if not subscribed.wait(WAIT_S) or not bridge.wait_idle(WAIT_S):
                raise RuntimeError("the benchmark's broker, bridge or subscriber did not come up")
            for ev in ({"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
                       {"type": "seating", "method": "C", "east": 0}):
                answer = service.call(ev, timeout=WAIT_S)
                seats.wait_all(answer.seq)
            out = Timings()
            for i in range(presses):
                cmd = next_press(service.public)
                seq = service.seq
                t0 = time.perf_counter()
                answer = service.submit(cmd, source="bench").result(WAIT_S)
                if not answer.ok:
                    raise RuntimeError(f"the benchmark game was refused: {cmd} → {answer.error}")
                done = seats.wait_all(answer.seq)
                out.total.append((done - t0) * 1e6)
                out.after_commit.append((done - noticed.pop(answer.seq or 0)) * 1e6)
                out.events.append((answer.seq or seq) - seq)
                if (i + 1) % 250 == 0:
                    progress(f"{i + 1} events")
            return out
        finally:
            sub.disconnect()
            sub.loop_stop()
            bridge.stop()
            service.stop()
            journal.close()


def run(runs: int, progress: Callable[[str], None]) -> list[Result]:
    p50, p99, c50, c99, worst = [], [], [], [], []
    for r in range(runs):
        progress(f"run {r + 1} of {runs}: a local mosquitto, 1,000 events")
        with tempfile.TemporaryDirectory(prefix="xian-bench-mqtt-") as tmp:
            timings = one_run(Path(tmp), progress)
        total, after = timings.total, timings.after_commit
        p50.append(percentile(total, 50))
        p99.append(percentile(total, 99))
        c50.append(percentile(after, 50))
        c99.append(percentile(after, 99))
        worst.append(max(total))
    note = "loopback; includes the durable journal commit (fsync)"
    return [
        result(NAME, "press → 4 seat views, p50", p50, "µs", note=note),
        result(NAME, "press → 4 seat views, p99", p99, "µs", target_max=TARGET_P99_US, note=note),
        result(NAME, "commit notice → seat views, p50", c50, "µs", note="the MQTT part alone"),
        result(NAME, "commit notice → seat views, p99", c99, "µs"),
        result(NAME, "press → 4 seat views, max", worst, "µs",
                note=f"the slowest of {EVENTS} (median over runs: {statistics.median(worst):,.0f} µs)"),
    ]
