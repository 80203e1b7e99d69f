"""One view of the table per change (issue 40): a :class:`TableViews` builds each change's view
once, from the one claim deadline and the one session clock, and MQTT ``seat/<n>`` and the
phones say what it says — under a fee by the hour too, where MQTT once said ``"fee": null``
while the phone said "Fee so far 60".

A real mosquitto, the real web server and bound phones reading their own event streams; the
service's clock is a ManualClock (the claim window stays open) and the session's seconds are
read with a wall clock the test moves (the journal's times are real instants)."""

from __future__ import annotations

import http.client
import json
import queue
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from table_app.core.service import ManualClock, TableService
from table_app.journal.journal import Journal
from table_app.mqtt.bridge import MqttBridge
from table_app.mqtt.local_broker import LocalBroker
from table_app.mqtt.topics import Topics, parse_url
from table_app.present.money import Money
from table_app.views.table_views import TableViews
from table_app.web.server import SeatPages
from tests.support.mqtt import Watcher

FEE = {"mode": "hour", "rate": 30, "min": 40, "cap": None, "payer": "aa", "tea": 5}
EVENING: list[dict[str, Any]] = [
    {"type": "new_session", "players": ["阿明", "Bo", "Cy", "Di"], "base": 1, "fee": FEE},
    {"type": "seating", "method": "C", "east": 0},
    {"type": "bets", "bets": [0, 1, 0, 0]},
    {"type": "roll", "dice": [3, 4]},
    {"type": "roll", "dice": [2, 2]},
    {"type": "discard", "seat": 0},  # claims open: the window's seconds in the views that may claim
    {"type": "claim", "seat": 2, "call": "pong"},
    {"type": "pass", "seat": 1},
    {"type": "pass", "seat": 3},
    {"type": "discard", "seat": 2},
    {"type": "pass", "seat": 3},
    {"type": "pass", "seat": 0},
    {"type": "claim", "seat": 1, "call": "win"},
    {"type": "confirm_win", "wait": "closed"},  # a hand settled: the fee so far has its hours and tea
    {"type": "next_hand"},
    {"type": "roll", "dice": [1, 1]},
    {"type": "roll", "dice": [3, 3]},
    {"type": "win", "seat": 1},
    {"type": "confirm_win", "wait": "plain"},
    {"type": "end_session"},
]
STEP_S = 600  # the wall clock moves 10 minutes a step: the hours begun climb through the evening


class Wall:
    """The wall clock the session's seconds are read with: stopped at the evening's start (set
    just before its first record is written), plus what the test adds."""

    def __init__(self) -> None:
        self.at = time.time()
        self.ahead = 0.0

    def __call__(self) -> float:
        return self.at + self.ahead


class PhoneStream:
    """A phone bound to its seat, reading its own view stream (``/phone/<n>/events``) as its page does."""

    def __init__(self, port: int, token: str, seat: int) -> None:
        join = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        join.request("POST", f"/join/{token}", body=json.dumps({"seat": seat}),
                     headers={"Content-Type": "application/json"})
        r = join.getresponse()
        answer = json.loads(r.read())
        assert r.status == 200 and answer["ok"], answer
        cookie = r.getheader("Set-Cookie", "").split(";")[0]
        join.close()
        self.views: queue.Queue[dict[str, Any]] = queue.Queue()
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.request("GET", f"/phone/{seat}/events", headers={"Cookie": cookie})
        self.stream = self.conn.getresponse()
        assert self.stream.status == 200
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            while line := self.stream.readline():
                if line.startswith(b"data: "):
                    self.views.put(json.loads(line[6:]))
        except (OSError, ValueError):
            return

    def view_at(self, seq: int) -> dict[str, Any]:
        """The phone's view of record ``seq`` (the stream may skip a burst's middle: never this one, the last)."""
        deadline = time.monotonic() + 20
        while True:
            v = self.views.get(timeout=max(0.1, deadline - time.monotonic()))
            if v["seq"] == seq:
                return v
            assert v["seq"] < seq, f"the phone's stream went past record {seq}: {v['seq']}"

    def close(self) -> None:
        self.conn.close()


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TableService]:
    journal = Journal.open(tmp_path / "journal.sqlite3")
    svc = TableService(journal, claim_window_s=3.0, clock=ManualClock(), dice=lambda: (2, 3)).start()
    yield svc
    svc.stop()
    journal.close()


def test_each_change_has_one_view_built_once(service: TableService) -> None:
    views = TableViews(service, Money.of("0.5")).start()
    try:
        first = views.context()
        assert views.context() is first and first.seq == 0 and first.claim_left is None  # asked again: the same
        assert service.call(EVENING[0], source="test", timeout=10).ok
        now = views.context()
        assert now is not first and now.seq == service.seq and now.public == service.public
        assert now.money == Money.of("0.5") and now.seconds is not None  # by the hour: the session's seconds
        assert now.seat(0)["fee"] == now.fee is not None
        views.set_money(None)  # the touchscreen's Settings: the next view says points only
        assert views.context().money is None and views.context().seq == now.seq
    finally:
        views.stop()


def test_the_mqtt_seat_views_say_the_phones_fee_at_every_step_of_an_hourly_evening(
        service: TableService, tmp_path: Path) -> None:
    wall = Wall()
    views = TableViews(service, Money.of("0.5"), wall=wall)
    with LocalBroker(tmp_path / "broker") as broker:
        topics = Topics("xian", "hourly")
        bridge = MqttBridge(service, parse_url(broker.url("service")), topics, ha_prefix=None, commands=False,
                            views=views).start()
        watcher = Watcher(broker.url("display"), "xian/hourly/seat/+")
        pages = SeatPages(service, "127.0.0.1", 0, table="hourly", views=views).start()
        phones: list[PhoneStream] = []
        try:
            fees = _play(service, bridge, watcher, pages, phones, wall, topics)
        finally:
            for phone in phones:
                phone.close()
            pages.stop()
            watcher.close()
            bridge.stop()
            views.stop()
    # nothing owed before a hand is settled; then the hours begun (3 h at 2 h 15 min, 4 h at 3 h 5 min)
    # in money too (0.5 a point), with the tea; the session's end says the bill instead
    shown = [None if f is None else f.replace("\xa0", " ") for f in fees]
    assert shown[0] == shown[12] == "Fee so far 0 (0 yuan)"
    assert shown[13] == "Fee so far 90 (45 yuan) (3 h × 30 (15 yuan)) + tea 20 (10 yuan)"
    assert shown[18] == "Fee so far 120 (60 yuan) (4 h × 30 (15 yuan)) + tea 20 (10 yuan)"
    assert shown[-1] is None


def _play(service: TableService, bridge: MqttBridge, watcher: Watcher, pages: SeatPages,
          phones: list[PhoneStream], wall: Wall, topics: Topics) -> list[str | None]:
    fees: list[str | None] = []
    for step, event in enumerate(EVENING):
        if not step:
            wall.at = time.time()  # (the session begins just after: its seconds are ``ahead``, less a few ms)
        wall.ahead = 300 + STEP_S * step  # (5 minutes from a whole hour: the record's milliseconds change nothing)
        answer = service.call(event, source="test", timeout=10)
        assert answer.ok, (event, answer.error)
        if event["type"] == "new_session":
            token = urlsplit(pages.join_url).path.split("/")[2]
            phones.extend(PhoneStream(pages.port, token, seat) for seat in range(4))
        assert bridge.wait_idle(10)
        for seat, phone in enumerate(phones):
            mqtt = watcher.wait_json(topics.seat(seat), lambda v, seq=answer.seq: v["seq"] == seq)
            mine = phone.view_at(answer.seq)
            assert mqtt["fee"] == mine["fee"], f"seat/{seat} ≠ phone {seat} after {event}"
            assert mqtt["claim_left"] == mine["claim_left"] and mqtt["settle_up"] == mine["settle_up"]
            if event["type"] != "end_session":
                assert mqtt["fee"] is not None, f"MQTT seat/{seat} has no fee so far after {event}"
            if mqtt["can_claim"]:
                assert mqtt["claim_left"] == 3.0  # the window's seconds, read once for every front end
        fees.append(None if not phones or mqtt["fee"] is None else mqtt["fee"]["en"])
    return fees
