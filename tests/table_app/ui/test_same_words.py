"""Every front end says the same to each seat (issue 25): a recorded evening is played into one
table service, and after every step the words for each seat are read off the touchscreen (the
Kivy app's seat panels and status line), the table page (headless Chromium, zh and en), each
seat's bound phone page (Chromium) and MQTT ``seat/<n>`` (a real mosquitto) — and compared.

The touchscreen shows a seat's own prompt on its panel and the table's line once, over the
table; a phone and a seat's MQTT view show the seat's own prompt, or the table's line when
nothing is asked of the seat. Names and scores are the same everywhere.

The session has a fee by the hour and a point is worth money (issue 40): the fee so far — its
hours begun, in points and money — and the claim window's countdown are compared too, on MQTT
``seat/<n>``, each phone page, the table page and the touchscreen, at every step; all four read
the one view of each change (``TableViews``). The session's seconds are read with a wall clock the
test moves 25 minutes a step; the service's clock stands still (the claim window stays open).
"""

from __future__ import annotations

import json
import re
import time
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
FEE = {"mode": "hour", "rate": 30, "min": 40, "cap": None, "payer": "aa", "tea": 5}
EVENING: list[dict[str, Any]] = [
    {"type": "new_session", "players": ["阿明", "Bo", "Cy", "Maximilianus"], "base": 1, "fee": FEE},
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
SECONDS = re.compile(r" · (\d+) (秒|s)$")  # the claim window's countdown, which each screen counts itself
STEP_S = 600  # the wall clock moves 10 minutes a step (5 min from a whole hour at most: see _play)


class Wall:
    """The wall clock the session's seconds are read with: stopped at the evening's start (set
    just before its first record is written), plus what the test adds."""

    def __init__(self) -> None:
        self.at = time.time()
        self.ahead = 0.0

    def __call__(self) -> float:
        return self.at + self.ahead


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


def touch_extras(ui: UI, lang: str) -> tuple[str, int | None]:
    """(the fee so far, the claim countdown's seconds) on the touchscreen in ``lang``: the scores
    screen's title ends with the fee so far; the table's status line with the seconds left."""
    ui.app.set_lang(lang)
    scores = ui.app.screen("scores")
    scores.refresh()
    parts = scores.ids.top.title.split(" · ", 2)  # the scoreboard · the hands played · the fee so far
    fee = parts[2] if len(parts) == 3 else ""
    counting = SECONDS.search(ui.app.screen("table").status)
    return fee, None if counting is None else int(counting.group(1))


def page_extras(page: Page, table: bool) -> dict[str, Any]:
    """The fee so far a page shows, and the claim window's seconds it counts down from (its view's)."""
    if table:  # (the line its view gave it: shown till the next hour begun, seconds_left from now)
        return page.js("({fee: feeShown === null ? '' : feeShown.line,"
                       " left: view.countdown ? view.countdown.left : null})")
    return page.js("({fee: document.getElementById('fee-now').textContent, left: view.claim_left})")


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
    service, views, wall = ui.service, ui.app.views, Wall()
    views.session.wall = wall  # (the touchscreen's views: MQTT and the pages are given the same)
    ui.app.money_per_point = "0.5"  # as Settings sets it: every front end's next view has it
    with LocalBroker(tmp_path / "broker") as broker:
        topics = Topics("xian", "same")
        bridge = MqttBridge(service, parse_url(broker.url("service")), topics, ha_prefix=None, commands=False,
                            views=views).start()
        watcher = Watcher(broker.url("display"), "xian/same/seat/+")
        pages = SeatPages(service, "127.0.0.1", 0, table="same", views=views).start()
        browser = Chromium(tmp_path / "profile")
        try:
            _play(ui, service, bridge, watcher, pages, browser, topics, wall)
        finally:
            browser.close()
            pages.stop()
            watcher.close()
            bridge.stop()


def _play(ui: UI, service: Any, bridge: MqttBridge, watcher: Watcher, pages: SeatPages, browser: Chromium,
          topics: Topics, wall: Wall) -> None:
    base = f"http://127.0.0.1:{pages.port}"
    tables = {lang: browser.page(f"{base}/table", width=1280, height=720, mobile=False) for lang in ("zh", "en")}
    tables["en"].wait("document.body.dataset.seq !== undefined", "the table page's first view")
    tables["en"].click("#lang")
    tables["en"].wait("document.documentElement.lang === 'en'", "the table page in English")
    phones: list[Page] = []
    steps = 0
    fees: list[str] = []
    counted: list[int | None] = []  # the claim countdown's seconds the touchscreen showed, step by step
    for event in EVENING:
        if not steps:
            wall.at = time.time()  # (the session begins just after: its seconds are ``ahead``, less a few ms)
        wall.ahead = 300 + STEP_S * steps  # (5 minutes from a whole hour: no line changes while a step is compared)
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
        fee, counting = _extras_agree(ui, tables, phones, mqtt, event)
        fees.append(fee)
        counted.append(counting)
        steps += 1
    assert steps == len(EVENING) and service.public["phase"] == "ended"
    assert json.loads(json.dumps(mqtt))[0]["settle_up"]  # the evening ended with a settle-up on every screen
    assert all("yuan" in line["en"] for line in mqtt[0]["settle_up"])  # in money too
    # the fee so far climbed with the hours begun once a hand was settled (in money too), and
    # the session's end said the bill instead
    settled = EVENING.index({"type": "confirm_win", "wait": "closed"})
    assert fees[0] == fees[settled - 1] == "Fee so far 0 (0 yuan)"
    assert fees[settled] == "Fee so far 120 (60 yuan) (4 h × 30 (15 yuan)) + tea 20 (10 yuan)", fees
    assert counted[EVENING.index({"type": "discard", "seat": 0})] == 3 and counted[-1] is None  # claims: 3 s left
    assert fees[-2] == "Fee so far 210 (105 yuan) (7 h × 30 (15 yuan)) + tea 20 (10 yuan)" and fees[-1] == ""


def _extras_agree(ui: UI, tables: dict[str, Page], phones: list[Page], mqtt: list[Any],
                  event: Any) -> tuple[str, int | None]:
    """The fee so far and the claim countdown are the same on the touchscreen, the table page,
    each phone and MQTT ``seat/<n>``; (the English fee line, no-break spaces as spaces; the
    touchscreen's countdown)."""
    phone_seen = [page_extras(phone, table=False) for phone in phones]
    fee: dict[str, str] = {}
    for lang in ("zh", "en"):
        fee[lang], counting = touch_extras(ui, lang)
        table = page_extras(tables[lang], table=True)
        assert table["fee"] == fee[lang], f"table page's fee ≠ touchscreen's ({lang}) after {event}"
        assert table["left"] == (None if counting is None else 3.0) and counting in (None, 3), \
            f"the claim countdown: table page {table['left']}, touchscreen {counting} after {event}"
        for seat, view in enumerate(mqtt):
            assert (view["fee"] or {}).get(lang, "") == fee[lang], f"MQTT seat/{seat}'s fee ≠ touchscreen's"
            assert view["claim_left"] == (table["left"] if view["can_claim"] else None), \
                f"MQTT seat/{seat}'s claim_left after {event}"
    for seat, seen in enumerate(phone_seen):
        assert seen["fee"] == (both(fee["zh"], fee["en"]) if fee["zh"] else ""), f"phone {seat}'s fee after {event}"
        assert seen["left"] == mqtt[seat]["claim_left"], f"phone {seat}'s countdown after {event}"
    return fee["en"].replace("\xa0", " "), counting
