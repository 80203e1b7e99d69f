"""The phone page itself (issue 27), in headless Chromium at a phone's size against a real
``xian-table serve --web``: the language chosen on the phone (中文 / English / both) and
remembered over a reload; zoom allowed and the page whole at 200 %; each phone showing its
player's name and its seat's place before the session starts; the longest names never cut
(390 and 360 px wide); a drawn hand saying 荒牌; the end page with the settle-up first, shared
as a PNG (the download where the browser has no Web Share, as headless Chromium) and as text.
Screenshots go to ``docs/phones/`` with ``XIAN_TABLE_DOC_SHOTS=1``."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from tests.support.chromium import Chromium, Page, join_phone, shots_dir, until
from tests.table_app.web.test_phones_browser import Serve, free_port, lines, tap

pytestmark = pytest.mark.browser

# the longest names the table takes (8 Chinese characters, 12 letters: present.names.NAME_ROOM)
NAMES = ["欧阳司马诸葛上官", "Maximilianus", "王小明", "MMMMMMMMMMMM"]
PLACES = [f"屏幕{zh}方的座位 · the seat at the screen's {en}"
          for zh, en in (("下", "bottom"), ("右", "right"), ("上", "top"), ("左", "left"))]


def text(page: Page, selector: str) -> str:
    return str(page.js(f"document.querySelector({json.dumps(selector)}).textContent"))


def uncut(page: Page, selector: str) -> bool:
    """Nothing of the element's text hidden: it is no wider than its box, nor the page than the screen."""
    return bool(page.js(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                        " return e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight + 1"
                        " && document.documentElement.scrollWidth <= window.innerWidth; })()"))


def one_line(page: Page, selector: str) -> bool:
    return bool(page.js(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                        " return e.getClientRects().length === 1"
                        " && e.getBoundingClientRect().height < 1.5 * parseFloat(getComputedStyle(e).lineHeight);"
                        " })()"))


def choose(page: Page, lang: str) -> None:
    page.click(f"#langs [data-lang={lang}]")
    page.wait(f"document.body.dataset.lang === '{lang}'", f"the page in {lang}")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", data[:16]
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.slow
def test_the_page_in_its_language_before_during_and_after_a_session(tmp_path: Path) -> None:
    docs = shots_dir("phones", tmp_path)
    serve = Serve(tmp_path, free_port())
    browser = Chromium(tmp_path / "profile")
    downloads = tmp_path / "downloads"
    try:
        assert until(lambda: "/join/" in serve.join_url()), serve.said
        url = serve.join_url()
        phones = [join_phone(browser, url, 0, NAMES[0], own_cookies=False),  # (the default context: its downloads)
                  join_phone(browser, url, 1, NAMES[1]), join_phone(browser, url, 2, NAMES[2]),
                  join_phone(browser, url, 3, NAMES[3], width=360, height=740)]

        # zoom is the phone's: the page does not forbid it
        viewport = phones[0].js("document.querySelector('meta[name=viewport]').content")
        assert "user-scalable" not in viewport and "maximum-scale" not in viewport

        # before the session: each phone its player's name (kept until the table takes names) and its place
        for seat, page in enumerate(phones):
            page.wait(f"document.getElementById('name').textContent === {json.dumps(NAMES[seat])}", "its name")
            assert text(page, "#where") == PLACES[seat]
            assert uncut(page, "#name") and one_line(page, "#name"), NAMES[seat]
        assert serve.state()["phase"] == "idle"

        # the language, chosen on the phone and kept over a reload; default both
        assert phones[2].js("document.body.dataset.lang") == "both"
        assert text(phones[2], "[data-press=HU]") == "胡Win"
        choose(phones[0], "zh")
        choose(phones[1], "en")
        assert text(phones[0], "#where") == "屏幕下方的座位" and text(phones[0], "#leave") == "离座"
        assert text(phones[0], "[data-press=HU]") == "胡"
        assert text(phones[1], "#where") == "the seat at the screen's right" and text(phones[1], "#leave") == "Leave"
        assert text(phones[1], "[data-press=HU]") == "Win"
        phones[1].go(phones[1].js("location.href"))
        phones[1].wait("document.body.dataset.seq !== ''", "the page again")
        assert phones[1].js("document.body.dataset.lang") == "en"
        assert text(phones[1], "#where") == "the seat at the screen's right"
        assert phones[1].js("document.documentElement.lang") == "en"
        assert phones[1].js("document.querySelector('#langs [data-lang=en]').getAttribute('aria-pressed')") == "true"
        for page, lang in zip(phones, ("zh", "en", "both"), strict=False):
            page.screenshot(docs / f"before-{lang}.png")

        # a session from a phone: the names kept; seating by the wind tiles; the winds on every phone
        phones[2].wait("document.getElementById('sc-new').offsetParent !== null", "开新牌局")
        phones[2].click("#sc-new")
        phones[2].click("#sc-start")  # (the first of two taps: the session it replaces leaves every screen)
        tap(serve, phones[2], "#sc-start")
        assert serve.state()["players"] == NAMES
        tap(serve, phones[0], "[data-step=seating]")
        phones[1].wait("document.getElementById('wind-zh').textContent === 'S'", "the wind, in English")
        phones[0].wait("document.getElementById('wind-zh').textContent === '东'", "the wind")  # (its own stream)
        assert text(phones[0], "#where") == "东风"
        phones[2].wait("document.getElementById('where').textContent === '西风 · West'", "the wind, in both")
        for seat, page in enumerate(phones):
            assert uncut(page, "#name") and one_line(page, "#name"), NAMES[seat]
            assert uncut(page, "#who")

        # mid-hand: the dealer rolls, the wall's owner rolls, the dealer discards
        betting = serve.call({"type": "state"})["seq"]
        tap(serve, phones[0], "[data-press=TURN]")
        owner = next(s for s, acts in enumerate(serve.state()["actions"]) if "roll" in acts)
        tap(serve, phones[owner], "[data-press=TURN]")
        tap(serve, phones[0], "[data-press=TURN]")
        phones[1].wait("!document.querySelector('[data-press=CHI]').disabled", "吃 for the 下家")
        for page, lang in zip(phones, ("zh", "en", "both"), strict=False):
            page.screenshot(docs / f"hand-{lang}.png")
        assert serve.call({"type": "undo", "to": betting})["ok"]  # (back to the bets: the rest by result-only entry)

        # a won hand, then a drawn one: the list says 荒牌
        assert serve.call({"type": "score_hand", "winner": 1, "how": "self_drawn"})["ok"]
        assert serve.call({"type": "next_hand"})["ok"]
        assert serve.call({"type": "score_hand"})["ok"]
        phones[2].wait("document.querySelectorAll('#results li').length === 2", "two hands")
        assert lines(phones[2], "results") == ["第1局 -2 · hand 1: -2", "第2局 荒牌 0 · hand 2: drawn 0"]
        assert lines(phones[0], "results") == ["第1局 -2", "第2局 荒牌 0"]
        phones[1].wait("document.querySelectorAll('#results li').length === 2", "two hands")
        assert lines(phones[1], "results") == ["hand 1: won +6", "hand 2: drawn 0"]
        phones[2].js("document.getElementById('results').scrollIntoView()")
        phones[2].screenshot(docs / "drawn-both.png")

        # the end: the settle-up first, above the buttons, whole on the first screen
        assert serve.call({"type": "end_session"})["ok"]
        for page in phones:
            page.wait("!document.getElementById('settle').hidden", "the settle-up")
            page.js("window.scrollTo(0, 0)")
            assert page.js("document.getElementById('settle').compareDocumentPosition("
                           "document.getElementById('buttons')) & Node.DOCUMENT_POSITION_FOLLOWING")
            assert page.js("document.getElementById('share-row').getBoundingClientRect().bottom <= innerHeight")
        assert lines(phones[2], "final-rank")[0] == "第1名 Maximilianus +6"
        assert lines(phones[2], "settle-lines") == ["你付 Maximilianus 2 · You pay Maximilianus 2"]
        assert lines(phones[1], "final-rank")[0] == "#1 Maximilianus +6"
        assert lines(phones[1], "settle-lines") == [f"{n} pays you 2" for n in (NAMES[0], NAMES[2], NAMES[3])]
        assert uncut(phones[3], "#final-rank")
        for page, lang in zip(phones, ("zh", "en", "both"), strict=False):
            page.screenshot(docs / f"end-{lang}.png")

        # shared: no Web Share in headless Chromium, so a PNG downloaded (and shown), and the text copied
        assert phones[0].js("navigator.share === undefined && document.getElementById('share').hidden")
        browser.send("Browser.setDownloadBehavior", behavior="allow", downloadPath=str(downloads))
        phones[0].wait("!document.getElementById('save').disabled", "the picture drawn")
        phones[0].click("#save")
        assert until(lambda: any(downloads.glob("xian-table-*.png"))), list(downloads.iterdir())
        png = next(downloads.glob("xian-table-*.png"))
        assert until(lambda: png.stat().st_size > 1000)
        (docs / "settle-up.png").write_bytes(png.read_bytes())  # (the picture as shared)
        width, height = png_size(png.read_bytes())
        assert width == 1440 and height > 600
        phones[0].wait("!document.getElementById('share-img').hidden", "the picture on the page")
        phones[2].click("#copy")
        phones[2].wait("!document.getElementById('share-text').hidden"
                       " && document.getElementById('share-msg').textContent !== ''", "the text, copied or to copy")
        shared = phones[2].js("document.getElementById('share-text').value")
        final = serve.state()
        assert final["phase"] == "ended"
        assert shared.startswith("牌局结束 · 共 2 局\n排名\n第1名 Maximilianus +6\n")
        assert "\n\nSession over · 2 hands\nRanking\n#1 Maximilianus +6\n" in shared
        assert "王小明 pays Maximilianus 2" in shared
        assert text(phones[2], "#share-msg") in ("已复制 · Copied",
                                                 "长按下面的文字复制 · Press and hold the text below to copy it")

        # where the browser has the Web Share API (a phone on https): the PNG and the text handed to it.
        # Chromium on Linux has none; a recorder stands in for the phone's share sheet.
        phones[1].js("navigator.canShare = (d) => d.files.length === 1;"
                     " navigator.share = async (d) => { window.sharedWith = {type: d.files[0].type,"
                     " name: d.files[0].name, head: [...new Uint8Array(await d.files[0].slice(0, 8).arrayBuffer())],"
                     " text: d.text}; }")
        choose(phones[1], "both")  # (drawn again: the share button is offered now)
        choose(phones[1], "en")
        phones[1].wait("!document.getElementById('share').hidden && !document.getElementById('share').disabled",
                       "the share button")
        phones[1].click("#share")
        sent = phones[1].wait("window.sharedWith", "the share sheet given the picture")
        assert sent["type"] == "image/png" and bytes(sent["head"]) == b"\x89PNG\r\n\x1a\n"
        assert sent["name"].startswith("xian-table-") and sent["name"].endswith(".png")
        assert sent["text"].startswith("Session over · 2 hands\nRanking\n#1 Maximilianus +6\n")
        assert "牌局" not in sent["text"]

        # a new session: the last one's settle-up stays readable, folded at the bottom
        phones[2].wait("document.getElementById('sc-new').offsetParent !== null", "开新牌局")
        phones[2].click("#sc-new")
        phones[2].click("#sc-start")  # (the first of two taps: the session it replaces leaves every screen)
        tap(serve, phones[2], "#sc-start")
        phones[2].wait("document.getElementById('settle').hidden === false"
                       " && document.getElementById('settle').parentElement.id === 'past'", "the last session")
        assert not phones[2].js("document.getElementById('past').hidden")
        phones[2].go(phones[2].js("location.href"))
        phones[2].wait("document.body.dataset.seq !== '' && !document.getElementById('past').hidden", "kept")
        assert lines(phones[2], "settle-lines") == ["你付 Maximilianus 2 · You pay Maximilianus 2"]
    finally:
        browser.close()
        code = serve.close()
    assert code == 0, "".join(serve.said)


@pytest.mark.slow
def test_the_page_whole_at_200_percent_zoom(tmp_path: Path) -> None:
    """200 % zoom on a 360 px phone lays the page out 180 CSS pixels wide: nothing wider than
    the screen, the longest names wrapped but whole."""
    serve = Serve(tmp_path, free_port())
    browser = Chromium(tmp_path / "profile")
    try:
        assert until(lambda: "/join/" in serve.join_url()), serve.said
        first = serve.join_url()
        assert serve.call({"type": "new_session", "players": NAMES, "base": 1})["ok"]
        assert serve.call({"type": "seating", "method": "C", "east": 0})["ok"]
        assert until(lambda: serve.join_url() != first)  # (a session from the table: a new code)
        url = serve.join_url()
        index = browser.page(url.split("/join/")[0] + "/", width=180, height=370)  # the seats' read-only pages
        assert index.js("[...document.querySelectorAll('li a')].map(a => a.textContent)") == [
            f"{zh}风 · {en} {name}" for zh, en, name in zip("东南西北", ("East", "South", "West", "North"), NAMES,
                                                           strict=True)]
        assert index.js("document.documentElement.scrollWidth <= innerWidth")
        for seat in (0, 3):
            page = join_phone(browser, url, seat, NAMES[seat], width=180, height=370)
            page.wait(f"document.getElementById('name').textContent === {json.dumps(NAMES[seat])}", "its name")
            for lang in ("both", "en", "zh"):
                choose(page, lang)
                assert uncut(page, "#name") and uncut(page, "#who") and uncut(page, "#buttons"), (seat, lang)
        assert serve.call({"type": "score_hand"})["ok"]
        assert serve.call({"type": "end_session"})["ok"]
        page.wait("!document.getElementById('settle').hidden", "the settle-up")
        for lang in ("both", "en", "zh"):
            choose(page, lang)
            assert uncut(page, "#settle") and uncut(page, "#share-row"), lang
    finally:
        browser.close()
        code = serve.close()
    assert code == 0, "".join(serve.said)
