"""Seats through restarts (issue 27), in headless Chromium at a phone's size: four phones join a
real ``xian-table serve --web`` (no stdin: stopped as systemd stops it), start a session and
play into a hand; the table is stopped by SIGTERM, then killed by SIGKILL, and started again
each time on the same journal. All four phones carry on at their seats without scanning; a
tap made while the table was down is shown as not sent and, sent again, applied once; a tap
sent again after a restart with its id gets its first answer, not a second command; a reloaded
phone is still its seat; the table page opened by the display-key link shows the current join
code (read back off its screenshot by zbarimg) through restarts and a new code, a stranger's
table page none. A second phone asks for a seat: the seat's phone refuses, then allows, and
every screen says the seat changed phone; a phone refused its stream (503) opens it again by
itself. Screenshots go to ``docs/phones/`` (the question)
and ``docs/table-page/`` (the display-key page) with ``XIAN_TABLE_DOC_SHOTS=1``."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from table_app.core.service import ManualClock, TableService
from table_app.http_kit.admission import Limits
from table_app.journal.journal import Journal
from table_app.web.server import SeatPages
from tests.support.chromium import Chromium, Page, join_phone, shots_dir, until
from tests.table_app.web.test_phones_browser import free_port

pytestmark = pytest.mark.browser

NAMES = ["王小明", "Ana", "李雷", "Zoë"]


class ServeWeb:
    """``xian-table serve --web`` with no stdin, as the systemd unit runs it."""

    def __init__(self, tmp: Path, port: int) -> None:
        self.tmp, self.port = tmp, port
        self.db = tmp / "table.sqlite3"
        self.said: list[str] = []
        self.proc: subprocess.Popen[str] | None = None

    def start(self, *more: str) -> ServeWeb:
        env = dict(os.environ, PYTHONUTF8="1", XDG_CONFIG_HOME=str(self.tmp), XDG_DATA_HOME=str(self.tmp))
        self.said = []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "table_app.cli", "serve", "--db", str(self.db), "--web", f"127.0.0.1:{self.port}",
             *more], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            env=env, cwd=self.tmp)
        threading.Thread(target=self._read, args=(self.proc,), daemon=True).start()
        assert until(lambda: bool(self.link("display")) and self.answers(), 30), "".join(self.said)
        return self

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            self.said.append(line)

    def link(self, which: str) -> str:
        """The latest join link (``join``) or display-key link (``display``) it printed."""
        pattern = r"phones join the table at (\S+)" if which == "join" else r"on any screen at the table: (\S+)"
        found = [m.group(1) for line in self.said if (m := re.search(pattern, line))]
        return found[-1] if found else ""

    def answers(self) -> bool:
        try:
            self.table()
        except OSError:
            return False
        return True

    def table(self) -> dict[str, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request("GET", "/table.json?lang=en")
            data: dict[str, Any] = json.loads(conn.getresponse().read())
        finally:
            conn.close()
        return data

    def stop(self, sig: int) -> int:
        assert self.proc is not None
        self.proc.send_signal(sig)
        code = self.proc.wait(30)
        self.proc = None
        return code


def press(serve: ServeWeb, phone: Page, selector: str = "[data-press=TURN]") -> None:
    """A finger on a phone's button; the table takes it."""
    seq = serve.table()["seq"]
    phone.wait(f"document.body.dataset.seq === '{seq}'", "the table as it is now")
    phone.click(selector)
    assert until(lambda: serve.table()["seq"] > seq), phone.js("document.getElementById('msg').textContent")


def carry_on(serve: ServeWeb, phones: list[Page]) -> None:
    """Every phone live again at its seat, showing the table as it is, without scanning."""
    seq = serve.table()["seq"]
    for seat, phone in enumerate(phones):
        phone.wait(f"!document.body.classList.contains('stale') && Number(document.body.dataset.seq) >= {seq}",
                   f"phone {seat} live again", 30)
        assert phone.js("location.pathname") == f"/phone/{seat}"
        assert phone.js("document.getElementById('name').textContent").startswith(NAMES[seat])


def fetch_tap(phone: Page, tap: str, body: dict[str, Any]) -> dict[str, Any]:
    """The phone itself sends a press with a given tap id (as its page does on a retry)."""
    sent = json.dumps(json.dumps({**body, "tap": tap}))
    answer: dict[str, Any] = phone.js(
        f"fetch(HERE + '/press', {{method: 'POST', headers: {{'Content-Type': 'application/json'}}, body: {sent}}})"
        ".then(r => r.json())")
    return answer


def qr_of(page: Page, path: Path) -> str:
    shot = page.screenshot(path)
    read = subprocess.run(["zbarimg", "--raw", "-q", str(shot)], capture_output=True, text=True, timeout=30)
    return read.stdout.strip()


@pytest.mark.slow
def test_phones_keep_their_seats_through_sigterm_and_sigkill(tmp_path: Path) -> None:
    port = free_port()
    docs, table_docs = shots_dir("phones", tmp_path), shots_dir("table-page", tmp_path)
    serve = ServeWeb(tmp_path, port).start()
    browser = Chromium(tmp_path / "profile")
    try:
        join, key = serve.link("join"), serve.link("display").split("?key=")[1]
        assert len(key) >= 22 and serve.link("display") == f"http://127.0.0.1:{port}/table?key={key}"
        # the table page by the display key, under a name that is not this machine's (*.localhost
        # is loopback to Chromium): the key alone shows it the code; a stranger's page gets none
        table = browser.page(f"http://table.localhost:{port}/table?key={key}", width=1280, height=720, mobile=False)
        stranger = browser.page(f"http://table.localhost:{port}/table", width=390, height=844)
        table.wait(f"document.getElementById('join').dataset.url === {json.dumps(join)}", "the join code")
        table.wait("document.getElementById('join').classList.contains('open')", "the code up by itself")
        assert table.js("document.querySelector('#join svg') !== null")
        assert qr_of(table, table_docs / "table-key-zh.png") == join
        table.click("#lang")
        table.wait("document.getElementById('newcode').textContent === 'New code'", "the page in English")
        if not table.js("document.getElementById('join').classList.contains('open')"):
            table.click("#showjoin")
        table.wait("document.getElementById('join').classList.contains('open')", "the code in English")
        assert qr_of(table, table_docs / "table-key-en.png") == join
        stranger.wait("document.body.dataset.phase === 'idle'", "the stranger's table page live")
        assert stranger.js("document.querySelector('#join svg') === null")
        assert stranger.js("!document.getElementById('join').dataset.url")

        phones: list[Page] = []
        for seat, name in enumerate(NAMES):
            phone = join_phone(browser, join, seat, name)
            phones.append(phone)
        # the phones start the session (they keep their seats and the code) and seat the players
        phones[0].click("#sc-new")  # the new session's form: 开始 takes two taps
        phones[0].wait(f"document.getElementById('sc-name3').value === {json.dumps(NAMES[3])}", "every joined name")
        phones[0].click("#sc-start")
        phones[0].click("#sc-start")
        assert until(lambda: serve.table()["phase"] == "seating")
        phones[0].wait("document.querySelector('[data-step=seating]') !== null", "I drew East")
        press(serve, phones[0], "[data-step=seating]")
        while (view := serve.table())["phase"] in ("betting", "rolling"):
            press(serve, phones[next(s["seat"] for s in view["seats"] if s["roller"])])
        press(serve, phones[0])  # the dealer discards, the others pass: seat 1 draws next (no timer running)
        for seat in (1, 2, 3):
            press(serve, phones[seat], "[data-press=pass]")
        assert serve.table()["seats"][1]["turn"] and serve.table()["phase"] == "turn"

        # SIGTERM mid-hand; a tap while the table is down is shown as not sent
        seq = serve.table()["seq"]
        assert serve.stop(signal.SIGTERM) == 0
        phones[1].wait("document.body.classList.contains('stale')", "the phone sees the table gone")
        phones[1].click("[data-press=TURN]")
        phones[1].wait("!document.getElementById('lk-unsent').hidden", "the tap not sent, offered again")
        assert "没送到" in phones[1].js("document.getElementById('msg').textContent")
        serve.start()
        assert serve.link("join") == join and serve.link("display").endswith(key)  # the same codes
        carry_on(serve, phones)
        assert serve.table()["seq"] == seq and not phones[1].js("document.getElementById('lk-unsent').hidden")
        phones[1].click("#lk-again")  # sent again (the same tap id): applied once (the journal says, below)
        assert until(lambda: serve.table()["seats"][2]["turn"] or serve.table()["phase"] == "claims")
        phones[1].wait("document.getElementById('lk-unsent').hidden && !document.getElementById('msg').textContent",
                       "nothing left to send")
        table.wait(f"Number(document.body.dataset.seq) > {seq} && !document.body.classList.contains('stale')",
                   "the table page live again")
        assert table.js("document.getElementById('join').dataset.url") == join

        # a tap committed just before SIGKILL, sent again with its id after the restart: its answer
        first = fetch_tap(phones[2], "restart-tap-0001", {"type": "press", "button": "TURN", "held": False})
        assert first["ok"] is True and first["tap"] == "restart-tap-0001"
        assert serve.stop(signal.SIGKILL) == -signal.SIGKILL
        serve.start()
        carry_on(serve, phones)
        again = fetch_tap(phones[2], "restart-tap-0001", {"type": "press", "button": "TURN", "held": False})
        assert again == first  # its first answer (ok, the seq): never a second command
        phones[3].go(f"http://127.0.0.1:{port}/phone/3")  # a reloaded phone is still its seat
        carry_on(serve, phones)
        now = serve.table()["seq"]
        table.wait(f"Number(document.body.dataset.seq) >= {now}", "the table page after SIGKILL")
        table.wait(f"document.getElementById('join').dataset.url === {json.dumps(join)}", "the code after SIGKILL")
        table.click("#showjoin")  # (mid-hand the code is put away: a tap shows it)
        table.wait("document.getElementById('join').classList.contains('open')", "the code shown")
        assert qr_of(table, tmp_path / "after-kill.png") == join

        # a new code on demand, from the display-key page: the page shows it at once
        table.click("#newcode")
        assert until(lambda: serve.link("join") != join)
        table.wait(f"document.getElementById('join').dataset.url === {json.dumps(serve.link('join'))}", "new code")
        assert qr_of(table, tmp_path / "new-code.png") == serve.link("join") != join
        join = serve.link("join")

        # serve --new-code: a new join code and display key; the seats stay, the old key shows no code
        assert serve.stop(signal.SIGTERM) == 0
        serve.start("--new-code")
        assert serve.link("join") != join and serve.link("display").split("?key=")[1] != key
        carry_on(serve, phones)
        table.wait("document.querySelector('#join svg') === null && !document.getElementById('join').dataset.url",
                   "no code for the old key")
        join = serve.link("join")

        # a second phone asks for seat 2: the phone at seat 2 refuses, then allows
        newcomer = browser.page(join)
        newcomer.wait("document.querySelector(\".seat[data-seat='2'] .taken\").textContent.includes('has a phone')",
                      "seat 2 taken")
        newcomer.click(".seat[data-seat='2']")
        newcomer.click("#join")
        phones[2].wait("!document.getElementById('lk-ask').hidden", "the question on seat 2's phone")
        phones[2].js("document.getElementById('lk-ask').scrollIntoView({block: 'center'})")
        phones[2].screenshot(docs / "takeover.png")
        phones[2].click("#lk-ask [data-allow=false]")
        newcomer.wait("document.getElementById('msg').textContent.includes('said no')", "the refusal")
        assert newcomer.js("location.pathname").startswith("/join/")
        newcomer.click("#join")
        phones[2].wait("!document.getElementById('lk-ask').hidden", "the question again")
        phones[2].click("#lk-ask [data-allow=true]")
        newcomer.wait("location.pathname === '/phone/2' && document.body.dataset.seq !== ''", "seat 2's page")
        phones[2].wait("document.getElementById('msg').textContent.includes('Another phone took this seat')", "told")
        for page in (phones[0], newcomer):
            page.wait("document.getElementById('lk-changed').textContent.includes('李雷 changed phone')", "changed")
        table.wait("document.getElementById('changed').textContent.includes('李雷 changed phone')", "the table says")
    finally:
        browser.close()
        if serve.proc is not None:
            serve.stop(signal.SIGTERM)

    journal = Journal.open(serve.db, readonly=True)
    try:
        records = [(r.seq, r.source) for r in journal.records()]
    finally:
        journal.close()
    # each tap applied once: the tap sent before SIGKILL and again after it made one command's records …
    assert [seq for seq, source in records if source.startswith("phone 2 tap restart-tap-0001")][-1] == first["seq"]
    # … and seat 1's one TURN, not sent during the outage and sent again, is one tap in the journal
    turns = {m.group(1) for _, source in records if (m := re.match(r"phone 1 tap (\S+) press 1:TURN", source))}
    assert len(turns) == 1, records


@pytest.mark.slow
def test_a_phone_refused_a_stream_503_opens_it_again_by_itself(tmp_path: Path) -> None:
    """The event streams are full (a 503, as a phone waking beside 64 open streams meets): the
    phone's page keeps trying and is live as soon as there is room, without a reload."""
    journal = Journal.open(tmp_path / "j.sqlite3")
    service = TableService(journal, clock=ManualClock()).start()
    pages = SeatPages(service, "127.0.0.1", 0, table="t-503",
                      limits=Limits(streams=1, trusted_streams=0)).start()  # (no reserve: a bound phone meets 503)
    browser = Chromium(tmp_path / "profile")
    try:
        assert service.call({"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}, "touch", 10).ok
        phone = browser.page(pages.join_url)
        phone.wait("document.querySelectorAll('.seat').length === 4", "the four seats")
        blocker = http.client.HTTPConnection("127.0.0.1", pages.port, timeout=10)
        blocker.request("GET", "/seat/0/events")  # the one stream there is room for
        assert blocker.getresponse().status == 200 and until(lambda: pages.streams == 1)
        phone.click(".seat[data-seat='1']")
        phone.click("#join")
        phone.wait("location.pathname === '/phone/1'", "the seat's page")
        phone.wait("document.getElementById('link').textContent.includes('reconnecting')", "the page retrying")
        assert pages.refused >= 1 and phone.js("document.body.classList.contains('stale')")
        blocker.close()  # room again (found gone at the next change)
        assert service.call({"type": "name", "seat": 0, "name": "阿明"}, "touch", 10).ok
        phone.wait("!document.body.classList.contains('stale') && document.body.dataset.seq !== ''", "live", 30)
        assert phone.js("document.getElementById('link').textContent") == "在线 · live"
    finally:
        browser.close()
        pages.stop()
        service.stop()
        journal.close()
