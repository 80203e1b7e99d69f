"""Every front end says the same to each seat (issue 25): a recorded evening is played into one
table service, and after every step the words for each seat are read off the touchscreen (the
Kivy app's seat panels and status line), the table page (headless Chromium, zh and en), each
seat's bound phone page (Chromium) and MQTT ``seat/<n>`` (a real mosquitto) — and compared.

The touchscreen shows a seat's own prompt on its panel and the table's line once, over the
table; a phone and a seat's MQTT view show the seat's own prompt, or the table's line when
nothing is asked of the seat. Names and scores are the same everywhere.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine import replay
from table_app.mqtt.bridge import MqttBridge
from table_app.mqtt.local_broker import LocalBroker
from table_app.mqtt.topics import Topics, parse_url
from table_app.web.server import SeatPages
from tests.support.chromium import Chromium, Page
from tests.support.mqtt import Watcher
from tests.table_app.ui.conftest import UI

pytestmark = [pytest.mark.kivy, pytest.mark.browser]

LONG = "欧阳诸葛司马东方"
EVENING: list[dict[str, Any]] = [
    {"type": "new_session", "players": ["阿明", "Bo", "Cy", "Maximilianus"], "base": 1},
    {"type": "seating", "method": "C", "east": 0},
    {"type": "bets", "bets": [0, 1, 0, 0]},
    {"type": "roll", "dice": [3, 4]},
    {"type": "roll", "dice": [2, 2]},
    {"type": "discard", "seat": 0},
    {"type": "claim", "seat": 2, "call": "pong"},
    {"type": "pass", "seat": 1},
    {"type": "pass", "seat": 3},  # (the claims resolve: seat 2 pongs)
    {"type": "discard", "seat": 2},
    {"type": "claim", "seat": 3, "call": "chow"},
    {"type": "pass", "seat": 0},
    {"type": "pass", "seat": 1},
    {"type": "discard", "seat": 3},
    {"type": "pass", "seat": 0},
    {"type": "pass", "seat": 1},
    {"type": "pass", "seat": 2},
    {"type": "kong", "seat": 0, "kind": "concealed"},
    {"type": "discard", "seat": 0},
    {"type": "claim", "seat": 1, "call": "win"},
    {"type": "pass", "seat": 2},
    {"type": "pass", "seat": 3},
    {"type": "confirm_win", "wait": "closed"},
    {"type": "name", "seat": 0, "name": LONG},
    {"type": "next_hand"},
    {"type": "roll", "dice": [1, 1]},
    {"type": "roll", "dice": [3, 3]},
    {"type": "discard", "seat": 1},
    {"type": "pass", "seat": 2},
    {"type": "pass", "seat": 3},
    {"type": "pass", "seat": 0},
    {"type": "win", "seat": 2},
    {"type": "reject_win"},  # 诈胡: play goes on
    {"type": "discard", "seat": 2},
    {"type": "pass", "seat": 3},
    {"type": "pass", "seat": 0},
    {"type": "pass", "seat": 1},
    {"type": "win", "seat": 3},
    {"type": "confirm_win", "wait": "plain"},
    {"type": "next_hand"},
    {"type": "end_session"},
]
SECONDS = re.compile(r" · \d+ (秒|s)$")  # the claim window's countdown, which each screen counts itself


def both(zh: str, en: str) -> str:
    """A line as the phone page shows it: both languages (once where they are the same)."""
    return zh if zh == en else f"{zh} · {en}"


def touchscreen(ui: UI, lang: str) -> tuple[str, list[dict[str, str]]]:
    """The status line and each seat's panel, read off the Kivy widgets in ``lang``."""
    ui.app.set_lang(lang)
    table = ui.app.screen("table")
    table.refresh()
    ui.frames(1)
    panels = [{"name": p.name, "wind": p.wind, "mark": p.mark, "score": p.score, "prompt": p.prompt}
              for p in table.panels]
    return SECONDS.sub("", table.status), panels


def table_page(page: Page) -> tuple[str, list[dict[str, str]]]:
    got = page.js("(() => ({status: document.getElementById('status').textContent,"
                  " seats: [...document.querySelectorAll('main .seat')].map(s => ({"
                  " name: s.querySelector('.name').textContent, wind: s.querySelector('.badge').textContent,"
                  " mark: s.querySelector('.mark').textContent, score: s.querySelector('.score').textContent,"
                  " prompt: s.querySelector('.prompt').textContent}))}))()")
    return SECONDS.sub("", got["status"]), got["seats"]


def phone_page(page: Page) -> dict[str, str]:
    return page.js("Object.fromEntries(['name', 'score', 'turn', 'prompt']"
                   ".map(id => [id, document.getElementById(id).textContent]))")


def test_every_front_end_says_the_same_to_each_seat(ui: UI, tmp_path: Path) -> None:
    replay(EVENING)  # (the recorded evening is one the engine takes)
    service = ui.service
    with LocalBroker(tmp_path / "broker") as broker:
        topics = Topics("xian", "same")
        bridge = MqttBridge(service, parse_url(broker.url("service")), topics, ha_prefix=None, commands=False).start()
        watcher = Watcher(broker.url("display"), "xian/same/seat/+")
        pages = SeatPages(service, "127.0.0.1", 0, table="same").start()
        browser = Chromium(tmp_path / "profile")
        try:
            _play(ui, service, bridge, watcher, pages, browser, topics)
        finally:
            browser.close()
            pages.stop()
            watcher.close()
            bridge.stop()


def _play(ui: UI, service: Any, bridge: MqttBridge, watcher: Watcher, pages: SeatPages, browser: Chromium,
          topics: Topics) -> None:
    base = f"http://127.0.0.1:{pages.port}"
    tables = {lang: browser.page(f"{base}/table", width=1280, height=720, mobile=False) for lang in ("zh", "en")}
    tables["en"].wait("document.body.dataset.seq !== undefined", "the table page's first view")
    tables["en"].click("#lang")
    tables["en"].wait("document.documentElement.lang === 'en'", "the table page in English")
    phones: list[Page] = []
    steps = 0
    for event in EVENING:
        answer = service.call(event, source="test", timeout=10)
        assert answer.ok, (event, answer.error)
        seq = answer.seq
        if event["type"] == "new_session":  # the session's join link: each seat's phone joins
            token = pages.phones.phones.token
            for seat in range(4):
                phone = browser.page(f"{base}/join/{token}")
                joined = phone.js(f"fetch('/join/{token}', {{method: 'POST', headers: {{'Content-Type':"
                                  f" 'application/json'}}, body: JSON.stringify({{seat: {seat}}})}})"
                                  ".then(r => r.json())")
                assert joined["ok"], joined
                phone.go(f"{base}/phone/{seat}")
                phones.append(phone)
        ui.settled()
        assert bridge.wait_idle(10)
        for page in [*tables.values(), *phones]:
            page.wait(f"document.body.dataset.seq === '{seq}'", f"the table after record {seq}")
        mqtt = [watcher.wait_json(topics.seat(s), lambda v, seq=seq: v["seq"] == seq) for s in range(4)]
        seen: dict[str, tuple[str, list[dict[str, str]]]] = {}
        for lang in ("zh", "en"):
            status, panels = touchscreen(ui, lang)
            seen[lang] = status, panels
            assert table_page(tables[lang]) == (status, panels), f"table page ≠ touchscreen after {event}"
            for seat, panel in enumerate(panels):
                view = mqtt[seat]
                assert (view["prompt"][lang], view["status"][lang]) == (panel["prompt"] or status, status), \
                    f"MQTT seat/{seat} ≠ touchscreen ({lang}) after {event}"
                assert view["name"] == panel["name"] and f"{view['score']:+d}".replace("+0", "0") == panel["score"]
        for seat, phone in enumerate(phones):
            (zh_status, zh), (en_status, en) = seen["zh"], seen["en"]
            prompt_zh, prompt_en = zh[seat]["prompt"] or zh_status, en[seat]["prompt"] or en_status
            got = phone_page(phone)
            assert got["turn"] == both(zh_status, en_status), f"phone {seat} after {event}: {got}"
            assert got["prompt"] == ("" if prompt_zh == zh_status else both(prompt_zh, prompt_en)), \
                f"phone {seat} after {event}: {got}"
            assert got["name"].startswith(zh[seat]["name"]) and got["score"] == zh[seat]["score"]
        steps += 1
    assert steps == len(EVENING) and service.public["phase"] == "ended"
    assert json.loads(json.dumps(mqtt))[0]["settle_up"]  # the evening ended with a settle-up on every screen
