"""``make run`` on a machine without a display (issue 20): the table in the browser. In
headless Chromium a table page (1280×720) and four seat pages — four tabs of one browser,
joined by the session's link — play a hand by the seats' presses; the table page follows
it, press by press, to the settlement. Screenshots of the table page at 1280×720 and at a
phone's size go to ``docs/table-page/``.

The session is started and seated beforehand, in the same journal: those are the
touchscreen's forms, which the browser pages do not have yet. Nobody claims, so the hand
ends drawn when the wall runs out; every discard is one press (the quick 下家's TURN
closes the claims and discards)."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from table_app.journal import Journal
from table_app.service import TableService
from table_app.ui.text import tr
from tests.table_app.chromium import Chromium, Page, until
from tests.table_app.test_phones_browser import free_port

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "table-page"
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
        for line in self.said:
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


def seated_journal(path: Path) -> None:
    """A session started and seated (東: seat 0), as the touchscreen's forms would leave it."""
    journal = Journal.open(path)
    service = TableService(journal).start()
    try:
        for ev in ({"type": "new_session", "players": ["P0", "P1", "P2", "P3"], "base": 1},
                   {"type": "seating", "method": "C", "east": 0}):
            assert service.call(ev, source="touch").ok
    finally:
        service.stop()
        journal.close()


def press_turn(run: MakeRun, tab: Page, table_page: Page) -> None:
    """The seat's TURN (or its dice) in its tab; the table page shows what it became."""
    seq = run.table()["seq"]
    tab.wait(f"document.body.dataset.seq === '{seq}'", "the seat's page as the table is now")
    tab.click("[data-press=TURN]")
    assert until(lambda: run.table()["seq"] > seq), tab.js("document.getElementById('msg').textContent")
    now = run.table()["seq"]
    table_page.wait(f"Number(document.body.dataset.seq) >= {now}", f"the table page at {now}")


@pytest.mark.slow
def test_make_run_without_a_display_plays_a_hand_in_the_browser(tmp_path: Path) -> None:
    if list(Path("/dev/dri").glob("card*")) if Path("/dev/dri").is_dir() else False:
        pytest.fail("this machine has a KMS console: the no-display path cannot be checked here")
    db = tmp_path / "table.sqlite3"
    seated_journal(db)
    port = free_port()
    run = MakeRun(tmp_path, db, port)
    browser = Chromium(tmp_path / "profile")
    try:
        assert until(lambda: run.saying("so the table is in the browser") and bool(run.join_url()), 120), \
            "".join(run.said)
        assert run.saying(f"http://localhost:{port}/table")
        table_page = browser.page(f"http://127.0.0.1:{port}/table", width=1280, height=720, mobile=False)
        table_page.wait("document.body.dataset.phase === 'betting'", "the table page live")
        table_page.wait("document.getElementById('showjoin').style.display === 'inline-block'",
                        "the join code's button (this machine)")
        assert table_page.js("document.getElementById('join').dataset.url") == run.join_url()
        table_page.click("#showjoin")
        table_page.wait("document.getElementById('join').classList.contains('open')", "the join code")
        shot = table_page.screenshot(tmp_path / "join.png")
        read = subprocess.run(["zbarimg", "--raw", "-q", str(shot)], capture_output=True, text=True, timeout=30)
        assert read.stdout.strip() == run.join_url()  # (a phone's camera reads it off the page)
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
        table_page.wait(f"document.querySelector('.seat[data-seat=\"2\"] .name').textContent === '{NAMES[2]}'",
                        "the names from the tabs")
        assert [s["name"] for s in run.table()["seats"]] == NAMES

        press_turn(run, tabs[0], table_page)  # the dealer's dice (its TURN is 掷骰 while it is due to roll)
        owner = next(s["seat"] for s in run.table()["seats"] if s["roller"])
        press_turn(run, tabs[owner], table_page)
        view = run.table()
        assert view["phase"] == "turn" and view["seats"][0]["turn"] and view["wall"]["broken"]
        # the table page says what the touchscreen would: the same view model, the same words
        assert table_page.js("document.getElementById('status').textContent") == view["status"]
        prompt = table_page.js("document.querySelector('.seat[data-seat=\"0\"] .prompt').textContent")
        assert prompt == tr("your_turn", "zh")

        presses = 0
        shot = False
        while (view := run.table())["phase"] != "hand_over":
            assert presses < 200, view
            if view["phase"] == "turn":
                seat = next(s["seat"] for s in view["seats"] if s["turn"])
            else:  # claims: nobody claims, the 下家's one press closes them and discards
                assert view["phase"] == "claims", view
                seat = (next(s["seat"] for s in view["seats"] if s["discarder"]) + 1) % 4
                if not shot and presses > 20:  # mid-hand, the claim window open: the countdown shows
                    table_page.wait("document.querySelector('#midbar > div').style.width !== '0%'", "the countdown")
                    table_page.screenshot(DOCS / "table-1280x720.png")
                    shot = True
            press_turn(run, tabs[seat], table_page)
            presses += 1
        assert presses > 40  # a whole wall, one press per discard

        table_page.wait("document.getElementById('settlement').classList.contains('open')", "the settlement")
        head = table_page.js("document.querySelector('#settlement h2').textContent")
        assert head == "结算 · 荒牌"
        rows = table_page.js("[...document.querySelectorAll('#settlement tr')].slice(1)"
                             ".map(r => r.firstChild.textContent)")
        assert rows == NAMES
        table_page.screenshot(DOCS / "settlement-1280x720.png")
        table_page.click("#lang")
        table_page.wait("document.querySelector('#settlement h2').textContent === 'Settlement · drawn hand'",
                        "English")
        small = browser.page(f"http://127.0.0.1:{port}/table?lang=en", width=390, height=844)
        small.wait("document.getElementById('settlement').classList.contains('open')", "the phone-sized page")
        small.js("document.getElementById('settlement').classList.remove('open')")  # (to see the table under it)
        time.sleep(0.2)
        small.screenshot(DOCS / "table-phone-en.png")
    finally:
        browser.close()
        code = run.stop()
    assert code == 0, "".join(run.said)
