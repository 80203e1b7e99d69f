"""``make run`` on a machine without a display (issue 20): the table in the browser. In
headless Chromium a table page (1280×720) and four seat pages — four tabs of one browser,
joined by the session's link — play an evening: the tabs start the session with their
names, seat the players (whoever drew East), play a hand to a drawn end (the quick 下家's
TURN, held while the others may still claim, then their passes: the last makes its draw and
discard, docs/rules.md §17) and a hand to a self-drawn
win (its wait chosen on the winner's tab), and end the session; the table page follows it
press by press to each settlement and the settle-up. Screenshots of the table page at
1280×720 and at a phone's size go to ``docs/table-page/`` with ``XIAN_TABLE_DOC_SHOTS=1``."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from table_app.journal.journal import Journal
from table_app.present.words import tr
from tests.support.chromium import Chromium, Page, shots_dir, until
from tests.table_app.web.test_phones_browser import free_port

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[3]
NAMES = ["王小明", "Ana", "欧阳司马诸葛上官", "Christabella"]


class MakeRun:
    """``make run`` with no display, its journal and port given through ARGS."""

    def __init__(self, tmp: Path, db: Path, port: int) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        env.update(PYTHONUTF8="1", HOME=str(tmp), XDG_CONFIG_HOME=str(tmp / "config"),
                   XDG_DATA_HOME=str(tmp / "data"))
        self.proc = subprocess.Popen(["make", "-s", "-C", str(ROOT), "run", f"ARGS=--web 127.0.0.1:{port} --db {db}"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, env=env, start_new_session=True)
        self.port = port
        self.said: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.said.append(line)

    def saying(self, text: str) -> bool:
        return any(text in line for line in self.said)

    def join_url(self) -> str:
        """The latest join link the table printed (a new session prints a new one)."""
        for line in reversed(self.said):
            if "phones join the table at " in line:
                return line.split("phones join the table at ", 1)[1].split()[0]
        return ""

    def table(self, lang: str = "zh") -> dict[str, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        conn.request("GET", f"/table.json?lang={lang}")
        data: dict[str, Any] = json.loads(conn.getresponse().read())
        conn.close()
        return data

    def stop(self) -> int:
        """SIGTERM to the table (as systemd or Ctrl-C would stop it); make passes on its status."""
        table = subprocess.run(["pgrep", "-g", str(self.proc.pid), "-f", "xian-table run"], capture_output=True,
                               text=True).stdout.split()
        for pid in table:
            os.kill(int(pid), signal.SIGTERM)
        try:
            return self.proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            raise AssertionError("the table did not stop on SIGTERM within 30 s") from None


def press(run: MakeRun, tab: Page, table_page: Page, selector: str = "[data-press=TURN]") -> None:
    """A button in a seat's tab; the table page shows what it became."""
    seq = run.table()["seq"]
    tab.wait(f"document.body.dataset.seq === '{seq}'", "the seat's page as the table is now")
    tab.click(selector)
    assert until(lambda: run.table()["seq"] > seq), tab.js("document.getElementById('msg').textContent")
    now = run.table()["seq"]
    table_page.wait(f"Number(document.body.dataset.seq) >= {now}", f"the table page at {now}")


def roll_and_deal(run: MakeRun, tabs: list[Page], table_page: Page) -> None:
    """The rolls, each from the tab of the seat due to roll (its TURN is 掷骰 then)."""
    while run.table()["phase"] in ("betting", "rolling"):
        roller = next(s["seat"] for s in run.table()["seats"] if s["roller"])
        press(run, tabs[roller], table_page)
    assert run.table()["phase"] == "turn"


def text(page: Page, selector: str) -> Any:
    return page.js(f"document.querySelector({json.dumps(selector)}).textContent")


@pytest.mark.slow
def test_make_run_without_a_display_plays_an_evening_in_the_browser(tmp_path: Path) -> None:
    if list(Path("/dev/dri").glob("card*")) if Path("/dev/dri").is_dir() else False:
        pytest.fail("this machine has a KMS console: the no-display path cannot be checked here")
    db = tmp_path / "table.sqlite3"
    docs = shots_dir("table-page", tmp_path)
    port = free_port()
    run = MakeRun(tmp_path, db, port)
    browser = Chromium(tmp_path / "profile")
    try:
        assert until(lambda: run.saying("so the table is in the browser") and bool(run.join_url()), 120), \
            "".join(run.said)
        assert run.saying(f"http://localhost:{port}/table")
        table_page = browser.page(f"http://127.0.0.1:{port}/table", width=1280, height=720, mobile=False)
        table_page.wait("document.body.dataset.phase === 'idle'", "the table page live")
        # before a session the join code is up on the table's own machine; a phone's camera reads it
        table_page.wait("document.getElementById('join').classList.contains('open')", "the join code")
        assert table_page.js("document.getElementById('join').dataset.url") == run.join_url()
        first_url = run.join_url()
        shot = table_page.screenshot(tmp_path / "join.png")
        read = subprocess.run(["zbarimg", "--raw", "-q", str(shot)], capture_output=True, text=True, timeout=30)
        assert read.stdout.strip() == run.join_url()
        table_page.click("#join")
        table_page.wait("!document.getElementById('join').classList.contains('open')", "the code put away")

        tabs: list[Page] = []  # four tabs of one browser: each seat's binding in its own cookie path
        for seat, name in enumerate(NAMES):
            tab = browser.page(run.join_url(), own_cookies=False)
            tab.wait("document.querySelectorAll('.seat').length === 4", "the four seats")
            tab.click(f".seat[data-seat='{seat}']")
            tab.type("#name", name)
            tab.click("#join")
            tab.wait(f"location.pathname === '/phone/{seat}' && document.body.dataset.seq !== ''", "the seat's page")
            tabs.append(tab)

        # the table's own steps from the tabs: a new session with their names, then whoever drew East
        tabs[0].wait(f"view.keeping.form.names.join() === {json.dumps(','.join(NAMES))}", "the tabs' names")
        tabs[0].click("#sc-new")  # the new session's form (docs/phones.md), its names the tabs'
        tabs[0].click("#sc-start")
        tabs[0].click("#sc-start")  # (开始 takes two taps)
        table_page.wait(f"document.querySelector('.seat[data-seat=\"2\"] .name').textContent === '{NAMES[2]}'",
                        "the names from the tabs")
        assert [s["name"] for s in run.table()["seats"]] == NAMES and run.table()["phase"] == "seating"
        tabs[2].wait("document.querySelector('[data-step=seating]') !== null", "I drew East")
        press(run, tabs[2], table_page, "[data-step=seating]")
        assert run.table()["seats"][2]["mark"] == tr("dealer", "zh") and run.table()["seats"][2]["wind"] == "东"
        # the code on demand (the phones started the session: they keep their seats and the code);
        # it is put away by a tap
        assert table_page.js("document.getElementById('join').classList.contains('open')") is False
        table_page.click("#showjoin")
        table_page.wait("document.getElementById('join').classList.contains('open')", "the code again")
        table_page.wait(f"document.getElementById('join').dataset.url === {json.dumps(run.join_url())}", "the code")
        assert "/join/" in run.join_url() and table_page.js("document.getElementById('join').dataset.url") == first_url
        table_page.click("#join")

        # hand 1: nobody claims, the wall runs out
        roll_and_deal(run, tabs, table_page)
        view = run.table()
        assert view["seats"][2]["turn"] and view["wall"]["broken"]
        assert text(table_page, "#status") == view["status"]  # the touchscreen's words, the same view model
        assert text(table_page, '.seat[data-seat="2"] .prompt') == tr("your_turn", "zh")
        presses, held_seen = 0, False
        while (view := run.table())["phase"] != "hand_over":
            assert presses < 400, view
            if view["phase"] == "turn":
                seat = next(s["seat"] for s in view["seats"] if s["turn"])
            else:  # claims: nobody claims; the 下家's one press, held while the others may still claim
                assert view["phase"] == "claims", view
                seat = (next(s["seat"] for s in view["seats"] if s["discarder"]) + 1) % 4
                awaited = [s["seat"] for s in view["seats"] if s["awaited"]]
                if seat not in awaited:  # it has pressed: the others pass (the last makes its draw and discard)
                    if not held_seen:
                        assert "摸牌了，等别家" in text(table_page, "#status"), text(table_page, "#status")
                        held_seen = True
                    press(run, tabs[awaited[0]], table_page, "[data-press=pass]")
                    presses += 1
                    continue
            press(run, tabs[seat], table_page)
            presses += 1
        assert presses > 40 and held_seen  # a whole wall
        table_page.wait("document.getElementById('settlement').classList.contains('open')", "the settlement")
        assert text(table_page, "#settlement h2") == "结算 · 荒牌"
        rows = table_page.js("[...document.querySelectorAll('#settlement tr')].slice(1)"
                             ".map(r => r.firstChild.textContent)")
        assert rows == NAMES
        assert text(table_page, "#settlement .next").endswith(tr("page_next_hint", "zh"))  # where the table goes on
        table_page.click("#settlement .close")  # put away, the table under it
        table_page.wait("!document.getElementById('settlement').classList.contains('open')", "the card put away")

        # hand 2: the dealer discards, the others pass, the next seat draws and wins on its own tile
        tabs[3].wait("document.querySelector('[data-step=next_hand]') !== null", "下一局 on a tab")
        press(run, tabs[3], table_page, "[data-step=next_hand]")
        roll_and_deal(run, tabs, table_page)
        dealer = next(s["seat"] for s in run.table()["seats"] if s["turn"])
        press(run, tabs[dealer], table_page)
        table_page.wait("document.querySelector('#midbar > div').style.width !== '0%'", "the countdown")
        table_page.screenshot(docs / "table-1280x720.png")
        for seat in ((dealer + k) % 4 for k in (1, 2, 3)):
            press(run, tabs[seat], table_page, "[data-press=pass]")
        winner = (dealer + 1) % 4
        assert run.table()["seats"][winner]["turn"]
        press(run, tabs[winner], table_page, "[data-press=HU]")
        assert run.table()["phase"] == "win_pending"
        tabs[winner].wait("document.querySelector(\"[data-step='confirm_win:plain']\") !== null", "the waits")
        tabs[winner].screenshot(docs / "seat-win.png")
        press(run, tabs[winner], table_page, "[data-step='confirm_win:plain']")
        table_page.wait("document.getElementById('settlement').classList.contains('open')", "the settlement")
        assert NAMES[winner] in text(table_page, "#settlement h2") and "平胡" in text(table_page, "#settlement h2")
        table_page.screenshot(docs / "settlement-1280x720.png")
        scores = [int(s["score"]) for s in run.table()["seats"]]

        # the end of the evening: two taps, then the ranking and the settle-up on the table page
        tabs[0].click("[data-step=end_session]")
        tabs[0].wait("document.querySelector('[data-step=end_session]').classList.contains('twice')", "tap again")
        assert run.table()["phase"] == "hand_over"  # one tap does nothing yet
        press(run, tabs[0], table_page, "[data-step=end_session]")
        table_page.wait("document.getElementById('final').classList.contains('open')", "the end")
        ranking = table_page.js("[...document.querySelectorAll('#final tr')].slice(1)"
                                ".map(r => r.children[1].textContent)")
        assert ranking[0] == NAMES[winner] and len(ranking) == 4
        assert text(table_page, "#final .lines") != ""
        table_page.screenshot(docs / "final-1280x720.png")
        table_page.click("#lang")
        table_page.wait("document.querySelector('#final h2').textContent.startsWith('Session over')", "English")
        small = browser.page(f"http://127.0.0.1:{port}/table?lang=en", width=390, height=844)
        small.wait("document.getElementById('final').classList.contains('open')", "the phone-sized page")
        small.screenshot(docs / "table-phone-en.png")
    finally:
        browser.close()
        code = run.stop()
    assert code == 0, "".join(run.said)

    journal = Journal.open(db, readonly=True)
    try:
        records = list(journal.records())
    finally:
        journal.close()
    steps = [r.event["type"] for r in records if r.source.startswith("phone ") and " press " not in r.source
             and r.event["type"] not in ("name", "pass")]
    assert steps == ["new_session", "seating", "next_hand", "confirm_win", "end_session"]
    assert records[0].event["players"] == NAMES
    assert scores[winner] > 0 and sum(scores) == 0
