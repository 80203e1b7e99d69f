"""The seat pages for phones: over real HTTP, and in headless Debian Chromium driven through
the DevTools protocol on a pipe (``--remote-debugging-pipe``)."""

from __future__ import annotations

import json
import os
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from table_app.core.service import TableService
from table_app.present.seat import seat_view
from table_app.web.server import SeatPages
from tests.support.chromium import Chromium, Page
from tests.support.mqtt import HAND, WAIT, play, service_fixture, until  # noqa: F401  (a fixture)

pytestmark = pytest.mark.browser


@pytest.fixture
def pages(service: TableService) -> Iterator[SeatPages]:
    p = SeatPages(service, "127.0.0.1", 0, table="t-web").start()
    yield p
    p.stop()


def get(url: str, method: str = "GET") -> tuple[int, str, str]:
    req = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(req, timeout=WAIT) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read().decode()


def test_the_pages_and_the_json_view(service: TableService, pages: SeatPages) -> None:
    play(service, HAND[:5])
    status, ctype, body = get(pages.url)
    assert status == 200 and "text/html" in ctype and "/seat/3" in body and "Di" in body
    status, _, body = get(pages.url + "seat/2")
    assert status == 200 and "EventSource" in body and 'id="wind-zh"' in body
    status, ctype, body = get(pages.url + "seat/2.json")
    assert status == 200 and ctype == "application/json"
    assert json.loads(body) == {**seat_view(service.public, 2), "seq": 5}
    assert get(pages.url + "seat/4")[0] == 404 and get(pages.url + "nothing")[0] == 404


def test_the_pages_are_read_only(service: TableService, pages: SeatPages) -> None:
    play(service, HAND[:2])
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        assert get(pages.url + "seat/0", method)[0] == 405
    assert service.seq == 2


def test_the_event_stream_sends_the_view_now_and_after_each_change(service: TableService, pages: SeatPages) -> None:
    play(service, HAND[:5])
    with urllib.request.urlopen(pages.url + "seat/1/events", timeout=WAIT) as r:
        assert r.headers["Content-Type"].startswith("text/event-stream")

        def next_view() -> dict[str, Any]:
            lines: list[str] = []
            while not any(x.startswith("data: ") for x in lines):  # (a ": keepalive" block when the table is slow)
                lines = []
                while (line := r.readline().decode()) != "\n":
                    lines.append(line.rstrip("\n"))
            data = next(x for x in lines if x.startswith("data: "))
            assert "event: view" in lines
            return json.loads(data[6:])

        first = next_view()
        assert first["seq"] == 5 and first["wind"] == "S" and not first["your_turn"]
        play(service, HAND[5:9])
        # a burst shows its end (a stream sends at most twenty views a second), in order
        seqs = [next_view()["seq"]]
        while seqs[-1] != 9:
            seqs.append(next_view()["seq"])
        assert seqs == sorted(set(seqs)) and set(seqs) <= {6, 7, 8, 9}, seqs
        assert service.public["turn"] == 1
        assert pages.view(1)["your_turn"]
        play(service, [HAND[9]])  # one change alone is sent as it comes
        assert next_view()["seq"] == 10


def texts(browser: Page) -> dict[str, str]:
    return browser.js(  # type: ignore[return-value]
        "Object.fromEntries(['wind-zh','wind-en','score','turn','prompt-zh','prompt-en','delta','name']"
        ".map(id => [id, document.getElementById(id).textContent]))") or {}


def test_the_phone_page_in_chromium_shows_wind_score_and_turn_and_updates_live(
        service: TableService, pages: SeatPages, tmp_path: Path) -> None:
    play(service, HAND[:9])  # seat 1 (Bo, South) is to play; the page is seat 2's (Cy, West)
    chromium = Chromium(tmp_path / "profile")
    try:
        browser = chromium.page(pages.url + "seat/2")
        assert until(lambda: texts(browser).get("wind-zh") == "西", WAIT * 2), texts(browser)
        t = texts(browser)
        assert t["wind-en"].startswith("West") and t["score"] == "0" and "Cy" in t["name"]
        assert t["turn"] == "Bo 出牌 · Bo's turn"  # the table's status line, as every screen says it
        assert t["prompt-en"] == "Bo's turn"  # (nothing asked of Cy now: the status line again)
        dealer_badge = "getComputedStyle(document.getElementById('dealer')).display"
        assert browser.js(dealer_badge) == "none"  # Ann (seat 0) deals, not Cy
        browser.js("window.loadedOnce = 'yes'")  # gone if the page were reloaded
        play(service, [HAND[9]])  # Bo discards: Cy may claim
        # its own calls (Cy is Bo's 下家: 吃 too)
        assert until(lambda: texts(browser).get("prompt-zh") == "可以吃碰杠胡"), texts(browser)
        play(service, HAND[10:])  # Cy wins on Di's discard
        assert until(lambda: texts(browser).get("score") == "+1"), texts(browser)
        t = texts(browser)
        assert "+1" in t["delta"] and t["prompt-en"] == "You won! +1" and t["prompt-zh"] == "你胡了！+1"
        assert browser.js("window.loadedOnce") == "yes"
        assert browser.js("performance.getEntriesByType('navigation').length") == 1
        assert browser.js("document.body.dataset.seq") == str(len(HAND))
    finally:
        chromium.close()


def test_serve_web_serves_the_pages_of_its_table(tmp_path: Path) -> None:
    import re
    import signal
    import sys

    conf = tmp_path / "c.toml"
    conf.write_text('[table]\nid = "den"\n')
    proc = subprocess.Popen(
        [sys.executable, "-m", "table_app.cli", "serve", "--config", str(conf), "--db", str(tmp_path / "j.sqlite3"),
         "--web", "127.0.0.1:0"],
        stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=dict(os.environ, PYTHONUTF8="1"))
    assert proc.stderr is not None
    try:
        seen = ""
        while not (m := re.search(r"seat pages for phones at (http://\S+)", seen)):
            line = proc.stderr.readline()
            assert line, seen
            seen += line
        assert "without MQTT" in seen
        status, _, body = get(m.group(1))
        assert status == 200 and "den" in body
        status, _, body = get(m.group(1) + "seat/0.json")
        assert status == 200 and json.loads(body)["phase"] == "idle"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(WAIT) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
