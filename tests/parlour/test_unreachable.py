"""``parlour serve`` with no broker where it is told to look (by hand, before mosquitto is set
up): it says so in its log once, instead of running in silence with an empty floor."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

import pytest

from parlour.service import Parlour, Settings
from table_app.mqtt.local_broker import free_port
from table_app.mqtt.topics import parse_url


def test_a_broker_nobody_answers_is_said_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    port = free_port()  # (nothing listens there)
    parlour = Parlour(Settings(tmp_path / "parlour.sqlite3", parse_url(f"mqtt://127.0.0.1:{port}"), ha_prefix=None))
    worker = threading.Thread(target=parlour.run)
    with caplog.at_level(logging.ERROR, logger="xian.parlour"):
        worker.start()
        try:
            end = time.monotonic() + 20
            while not [r for r in caplog.records if "cannot reach" in r.getMessage()] and time.monotonic() < end:
                time.sleep(0.05)
            time.sleep(2.5)  # (paho tries again after 1 s, then 2 s: said once all the same)
        finally:
            parlour.stop.set()
            worker.join(10)
    said = [r.getMessage() for r in caplog.records if "cannot reach" in r.getMessage()]
    assert said == [f"cannot reach the parlour broker 127.0.0.1:{port} (is mosquitto running? --broker): trying again"]
