"""An evening from phones alone (issue 27, "Done when"), in headless Chromium at a phone's size
(390×844): four phones join by the table's join link with their names (汉字 and Latin); one starts
the session from its form with a base of 2; the player who drew East says so on their phone;
each seat bets from its phone; the first hand is played by the phones' buttons (rolls, a 碰, a 吃,
the quick 下家, passes, a self-drawn win) and confirmed, with its wait, from the winner's phone;
the next two hands are entered result-only (只记分: proposed on one phone, agreed on a second; the
first carries the bets three phones entered); a phone ends the session with two taps and the
settle-up is shared as a picture (the downloaded PNG decodes) and as text (its payments the
engine's ``settle_up``). Nothing is done at the table but through the phones: every journal
record's source is a phone's tap. The journal's events in effect equal the events of the same
evening played from a play file (``xian-table play --events``), and the final public state
equals the play file's. The dice are fixed (``TableService(dice=...)``), so the play file is
written beforehand."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engine.scoring import settle_up
from table_app.core.service import ManualClock, TableService
from table_app.journal.journal import Journal
from table_app.web.server import SeatPages
from tests.support.chromium import Chromium, Page, join_phone, until
from tests.table_app.web.test_phone_decide_browser import tap_text
from tests.table_app.web.test_phone_score_browser import fill

pytestmark = pytest.mark.browser

NAMES = ["王小明", "Ana", "李雷", "Zoë"]
BASE = 2
EAST = 1  # Ana drew the East wind tile: seat 1 deals the first hand
BETS = [1, 0, 2, 3]
DICE = [(4, 6), (2, 3)]  # the dealer's roll, then the wall owner's


def press(seat: int | None, button: str, **more: Any) -> dict[str, Any]:
    return {"type": "press", "seat": seat, "button": button, **more}


def passes(seat: int) -> dict[str, Any]:
    return {"type": "pass", "seat": seat}


# the same evening as a play file: the events a table's own inputs would send, and presses
BETS_2 = [2, 1, 0]  # hand 2's bets from three phones; the fourth's stays 0 in the result's form
HAND_2 = {"type": "score_hand", "winner": 1, "how": "discard", "discarder": 3, "wait": "closed",
          "bets": [*BETS_2, 0]}  # (the form's bets row: what the phones bet, shown and agreed with the result)
HAND_3 = {"type": "score_hand", "winner": 0, "how": "self_drawn",  # (a plain wait: the form's default, unsaid)
          "kongs": [{"seat": 0, "kind": "concealed"}], "bets": [0, 0, 0, 0]}  # (nobody bet: the form's zeros)
PLAY = [
    {"type": "new_session", "players": NAMES, "base": BASE},
    {"type": "seating", "method": "C", "east": EAST},
    {"type": "bets", "bets": BETS},
    press(None, "DICE", dice=list(DICE[0])), press(None, "DICE", dice=list(DICE[1])),
    press(1, "TURN"),  # the dealer discards
    press(3, "PENG"), passes(2), passes(0),  # seat 3 pongs
    press(3, "TURN"),
    press(0, "CHI"), passes(1), passes(2),  # seat 0, the 下家, chows
    press(0, "TURN"),
    press(1, "TURN"),  # the quick 下家: one press — held while seats 2 and 3 may still claim (rules §17)
    passes(2), passes(3),  # their answers: the last makes seat 1's draw and discard
    passes(3), passes(0), passes(2),  # all pass: seat 2 draws
    press(2, "HU"),  # and wins on its own draw
    {"type": "confirm_win", "wait": "single"},
    {"type": "next_hand"},
    HAND_2,
    {"type": "next_hand"},
    HAND_3,
    {"type": "end_session"},
]


class Evening:
    """The table (its service and its web pages) and the four phones at it."""

    def __init__(self, service: TableService, phones: list[Page]) -> None:
        self.service, self.phones = service, phones

    def state(self) -> dict[str, Any]:
        """The table's public state now, as JSON (as ``play --json`` prints it)."""
        state: dict[str, Any] = json.loads(json.dumps(self.service.public, ensure_ascii=False))
        return state

    def tap(self, seat: int, selector: str, changes: int = 1) -> None:
        """A finger on a button of ``seat``'s phone, once it shows the table as it is; wait until
        the table has taken what the tap became (``changes`` events)."""
        page, seq = self.phones[seat], self.service.seq
        page.wait(f"document.body.dataset.seq === '{seq}'", "the table as it is now")
        page.click(selector)
        if not until(lambda: self.service.seq >= seq + changes):
            said = page.js("document.getElementById('msg').textContent")
            raise AssertionError(f"{selector} on phone {seat} did nothing: it says {said!r}")
        assert self.service.seq == seq + changes, (selector, self.service.seq - seq)

    def ready(self, seat: int, selector: str) -> None:
        self.phones[seat].wait(f"document.body.dataset.seq === '{self.service.seq}'", "the table as it is now")
        self.phones[seat].wait(f"!document.querySelector({json.dumps(selector)}).disabled", f"{selector} enabled")

    def agreed(self, proposer: int, second: int, choices: list[tuple[str, int]], said: str) -> None:
        """Result-only entry: filled in on ``proposer``'s phone (each choice a button's words and
        which of the buttons so worded), agreed on ``second``'s."""
        seq = self.service.seq
        page = self.phones[proposer]
        page.wait(f"document.body.dataset.seq === '{seq}'", "the table as it is now")
        tap_text(page, "只记分")
        for text, n in choices:
            tap_text(page, text, n)
        tap_text(page, "提交")
        other = self.phones[second]
        other.wait("!!document.querySelector('#decide .proposal[data-kind=score_hand]')", "the result to agree to")
        assert other.js("document.querySelector('#decide .proposal .what').textContent").startswith(said)
        assert self.service.seq == seq  # (one phone's entry alone changes nothing)
        tap_text(other, "同意")
        assert until(lambda: self.service.seq == seq + 1), "the agreed result not taken"


def play_file(tmp: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The events and the final public state of the evening played from :data:`PLAY`."""
    script, out = tmp / "evening.jsonl", tmp / "events.jsonl"
    script.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in PLAY), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "table_app.cli", "play", str(script), "--json", "--events", str(out)],
                          capture_output=True, text=True, timeout=60, env=dict(os.environ, PYTHONUTF8="1"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    events = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    public: dict[str, Any] = json.loads(proc.stdout)
    return events, public


def payments(text: str, pattern: str) -> list[tuple[str, str, int]]:
    return [(m[1], m[2], int(m[3])) for m in re.finditer(pattern, text, re.MULTILINE)]


@pytest.mark.slow
def test_an_evening_from_phones_alone_is_the_play_file(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "table.sqlite3")
    rolls: Iterator[tuple[int, int]] = iter(DICE)
    # (a manual clock: the claims close when every seat has answered, as in the play file)
    service = TableService(journal, clock=ManualClock(), dice=lambda: next(rolls)).start()
    pages = SeatPages(service, "127.0.0.1", 0, table="t-evening").start()
    browser = Chromium(tmp_path / "profile")
    downloads = tmp_path / "downloads"
    try:
        # four phones join by the link, each with its player's name
        phones: list[Page] = []
        for seat, name in enumerate(NAMES):
            page = join_phone(browser, pages.join_url, seat, name, own_cookies=seat != 0)
            phones.append(page)
        evening = Evening(service, phones)

        # Zoë's phone starts the session: the names the phones gave, a base of 2, two taps
        form = phones[3]
        form.wait("view.keeping.form.names[3] === 'Zoë'", "the last phone's name")
        form.click("#sc-new")
        assert form.js("[0, 1, 2, 3].map(i => document.getElementById('sc-name' + i).value)") == NAMES
        fill(form, "#sc-base", str(BASE))
        form.click("#sc-start")
        assert service.seq == 0  # (the first tap asks)
        evening.tap(3, "#sc-start")
        assert evening.state()["players"] == NAMES and evening.state()["base"] == BASE

        # seating: Ana drew East and says so on her phone
        evening.tap(EAST, "[data-step=seating]")
        assert evening.state()["dealer"] == EAST and evening.state()["phase"] == "betting"

        # each seat bets from its phone; the fourth bet makes the table's one bets event
        for seat, amount in enumerate(BETS):
            page = phones[seat]
            page.wait("document.getElementById('sc-bets').offsetParent !== null", "the bets")
            fill(page, "#sc-bet", str(amount))
            if seat < 3:
                page.click("#sc-bet-send")
                phones[3].wait(f"document.querySelectorAll('#sc-bet-list li')[{seat}].textContent.startsWith("
                               f"{json.dumps(f'{NAMES[seat]}: {amount} ')})", f"seat {seat}'s bet")
            else:
                evening.tap(seat, "#sc-bet-send")
        assert evening.state()["bets"] == BETS and evening.state()["phase"] == "rolling"

        # the first hand by the phones' buttons: the dealer's phone rolls, then the wall owner's
        evening.ready(EAST, "[data-press=TURN]")
        assert phones[EAST].js("document.querySelector('[data-press=TURN]').dataset.send") == "DICE"
        evening.tap(EAST, "[data-press=TURN]")
        owner = next(s for s, acts in enumerate(evening.state()["actions"]) if "roll" in acts)
        evening.ready(owner, "[data-press=TURN]")
        evening.tap(owner, "[data-press=TURN]")
        assert evening.state()["phase"] == "turn" and evening.state()["turn"] == EAST
        evening.tap(1, "[data-press=TURN]")  # the dealer discards
        evening.ready(3, "[data-press=PENG]")
        evening.tap(3, "[data-press=PENG]")
        evening.tap(2, "[data-press=pass]")
        evening.tap(0, "[data-press=pass]")  # the last answer: seat 3 pongs
        assert evening.state()["turn"] == 3 and evening.state()["seats"][3]["melds"][0]["kind"] == "pong"
        evening.tap(3, "[data-press=TURN]")
        evening.ready(0, "[data-press=CHI]")  # (only seat 3's 下家 chows)
        assert phones[1].js("document.querySelector('[data-press=CHI]').disabled")
        evening.tap(0, "[data-press=CHI]")
        evening.tap(1, "[data-press=pass]")
        evening.tap(2, "[data-press=pass]")
        assert evening.state()["turn"] == 0 and evening.state()["seats"][0]["melds"][0]["kind"] == "chow"
        evening.tap(0, "[data-press=TURN]")
        evening.tap(1, "[data-press=TURN]")  # the quick 下家: held while seats 2 and 3 may still claim
        assert evening.state()["claims"]["held"] == 1
        phones[1].wait("['摸牌了，等别家', 'drew: others may still claim']"
                       ".some(w => document.body.textContent.includes(w))",
                       "the 下家 told it waits")
        for seat in (2, 3):
            evening.tap(seat, "[data-press=pass]")  # the last answer: seat 1's draw and discard
        assert evening.state()["claims"]["from"] == 1
        for seat in (3, 0):
            evening.tap(seat, "[data-press=pass]")
        evening.tap(2, "[data-press=pass]")  # the last pass: seat 2 draws
        assert evening.state()["phase"] == "turn" and evening.state()["turn"] == 2
        evening.ready(2, "[data-press=HU]")
        evening.tap(2, "[data-press=HU]")
        assert evening.state()["phase"] == "win_pending"
        phones[0].wait(f"document.body.dataset.seq === '{service.seq}'", "the win declared")
        assert "等胡牌的人确认" in phones[0].js("document.getElementById('steps').textContent")
        assert not phones[0].js("!!document.querySelector('#steps [data-step^=confirm_win]')")  # the winner's alone
        evening.tap(2, "[data-step='confirm_win:single']")
        assert evening.state()["phase"] == "hand_over"
        assert evening.state()["last_settlement"]["winner"] == 2
        assert evening.state()["last_settlement"]["wait"] == "single"
        evening.tap(0, "[data-step=next_hand]")

        # two hands entered result-only, each proposed on one phone and agreed on another; the
        # first with the bets three phones entered (all four would deal the hand to be played)
        assert evening.state()["phase"] == "betting"
        for seat, amount in enumerate(BETS_2):
            page = phones[seat]
            page.wait("document.getElementById('sc-bets').offsetParent !== null", "the bets")
            fill(page, "#sc-bet", str(amount))
            page.click("#sc-bet-send")
            phones[3].wait(f"document.querySelectorAll('#sc-bet-list li')[{seat}].textContent.startsWith("
                           f"{json.dumps(f'{NAMES[seat]}: {amount} ')})", f"seat {seat}'s bet")
        evening.agreed(0, 3, [("Ana", 0), ("Zoë点炮", 0), ("夹张", 0)], "只记分：Ana 点炮（Zoë） · 夹张")
        assert evening.state()["results"][-1]["winner"] == 1 and evening.state()["results"][-1]["from"] == 3
        evening.tap(3, "[data-step=next_hand]")
        evening.agreed(2, 1, [("王小明", 0), ("自摸", 0), ("暗杠", 0)], "只记分：王小明 自摸")
        assert evening.state()["results"][-1]["winner"] == 0 and evening.state()["hand"] == 3

        # the end, from a phone: two taps
        evening.ready(1, "[data-step=end_session]")
        phones[1].click("[data-step=end_session]")
        phones[1].wait("document.querySelector('[data-step=end_session]').classList.contains('twice')", "tap again")
        assert evening.state()["phase"] == "hand_over"
        evening.tap(1, "[data-step=end_session]")
        final = evening.state()
        assert final["phase"] == "ended"
        pays = settle_up(final["scores"])
        assert pays and final["settle_up"] == pays

        # the settle-up shared as a picture (downloaded: no Web Share in headless Chromium) ...
        browser.send("Browser.setDownloadBehavior", behavior="allow", downloadPath=str(downloads))
        phones[0].wait("!document.getElementById('settle').hidden && !document.getElementById('save').disabled",
                       "the settle-up's picture drawn")
        phones[0].click("#save")
        assert until(lambda: any(downloads.glob("xian-table-*.png"))), list(downloads.iterdir())
        png = next(downloads.glob("xian-table-*.png"))
        assert until(lambda: png.stat().st_size > 1000 and not list(downloads.glob("*.crdownload")))
        with Image.open(png) as image:
            image.verify()  # (every chunk's CRC, the PNG's structure)
        with Image.open(png) as image:
            image.load()  # (the pixels decode)
            assert image.format == "PNG" and image.width == 1440 and image.height > 600

        # ... and as text: the payments the engine's settle-up makes, in both languages
        phones[2].click("#copy")
        phones[2].wait("!document.getElementById('share-text').hidden", "the text to copy")
        text = phones[2].js("document.getElementById('share-text').value")
        names = final["players"]
        expected = [(names[p["from"]], names[p["to"]], p["amount"]) for p in pays]
        assert payments(text, r"^(\S+) 给 (\S+) (\d+)$") == expected
        assert payments(text, r"^(\S+) pays (\S+) (\d+)$") == expected
    finally:
        browser.close()
        pages.stop()
        service.stop()
        journal.close()

    # nothing at the table but through the phones: every record's source is a phone's tap
    journal = Journal.open(tmp_path / "table.sqlite3", readonly=True)
    try:
        records = list(journal.records())
        played = journal.events(journal.timeline().active)
    finally:
        journal.close()
    assert records and all(r.source.startswith("phone ") for r in records), [r.source for r in records]
    agreed = [r.source.split(" agrees ")[-1] for r in records if r.event and r.event["type"] == "score_hand"]
    assert agreed == ["phone 0", "phone 2"]  # (each result proposed by one phone, agreed by another)

    # the journal's events in effect are the play file's, and so is the final state
    events, public = play_file(tmp_path)
    assert played == events
    assert final == public
