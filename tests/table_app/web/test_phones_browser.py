"""Four phones at a real ``xian-table serve --web`` in headless Chromium, each in its own
browser context at a phone's size (issue 18): they join by the session's link, type their
names (Chinese among them) with the phone's keyboard, play a hand by pressing their own
buttons (one claims a pong, one is the quick 下家, one wins on a discard), and see the
settlement and the settle-up. The journal equals the same hand played from a ``play`` file
of presses. Screenshots of the pages go to ``docs/phones/`` with ``XIAN_TABLE_DOC_SHOTS=1``."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from table_app.journal.journal import Journal
from tests.support.chromium import Chromium, Page, shots_dir, until

pytestmark = pytest.mark.browser

NAMES = ["王小明", "Ana", "李雷", "Zoë"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Serve:
    """``xian-table serve --stdin --web``: commands on stdin, what it says on stderr."""

    def __init__(self, tmp: Path, port: int) -> None:
        env = dict(os.environ, PYTHONUTF8="1", XDG_CONFIG_HOME=str(tmp), XDG_DATA_HOME=str(tmp))
        self.db = tmp / "table.sqlite3"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "table_app.cli", "serve", "--stdin", "--db", str(self.db), "--web",
             f"127.0.0.1:{port}"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env=env, cwd=tmp)
        self.said: list[str] = []
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.said.append(line)

    def call(self, command: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(command, ensure_ascii=False) + "\n")
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return answer

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.call({"type": "state"})["state"]
        return state

    def join_urls(self) -> list[str]:
        """The join links the table printed, in order: at start, then one for each new session
        started from the table (a new code)."""
        return [m.group(1) for line in self.said if (m := re.search(r"phones join the table at (\S+)", line))]

    def join_url(self) -> str:
        urls = self.join_urls()
        return urls[-1] if urls else ""

    def join_url_of(self, sessions: int) -> str:
        """The link once ``sessions`` new sessions were started from the table (0: the start's),
        waited for: the latest alone may still be one whose code has gone by."""
        assert until(lambda: len(self.join_urls()) > sessions), self.said
        return self.join_urls()[sessions]

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            return self.proc.wait(30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def tap(serve: Serve, page: Page, selector: str, changes: int = 1) -> None:
    """A finger on a button; wait until the table has taken what it became."""
    seq = serve.call({"type": "state"})["seq"]
    page.wait(f"document.body.dataset.seq === '{seq}'", "the table as it is now")  # (as a player looks first)
    page.click(selector)
    if not until(lambda: serve.call({"type": "state"})["seq"] >= seq + changes):
        said = page.js("document.getElementById('msg').textContent")
        raise AssertionError(f"{selector} did nothing: the phone says {said!r}")


def lines(page: Page, list_id: str) -> list[str]:
    return page.js(f"[...document.querySelectorAll('#{list_id} li')].map(li => li.textContent)")  # type: ignore


@pytest.mark.slow
def test_four_phones_play_a_hand_and_the_journal_is_the_presses(tmp_path: Path) -> None:
    port = free_port()
    docs = shots_dir("phones", tmp_path)
    serve = Serve(tmp_path, port)
    browser = Chromium(tmp_path / "profile")
    try:
        assert serve.call({"type": "new_session", "players": ["P0", "P1", "P2", "P3"], "base": 1})["ok"]
        assert serve.call({"type": "seating", "method": "C", "east": 0})["ok"]
        url = serve.join_url_of(1)  # (the new session's code)
        phones: list[Page] = []
        for seat, name in enumerate(NAMES):
            page = browser.page(url)
            page.wait("document.querySelectorAll('.seat').length === 4", "the four seats")
            page.click(f".seat[data-seat='{seat}']")
            page.type("#name", name)
            if seat == 1:
                page.screenshot(docs / "join.png")
            page.click("#join")
            page.wait(f"location.pathname === '/phone/{seat}' && document.body.dataset.seq !== ''", "the seat's page")
            phones.append(page)
        assert serve.state()["players"] == NAMES
        for seat, page in enumerate(phones):
            page.wait(f"document.getElementById('name').textContent.startsWith({json.dumps(NAMES[seat])})",
                      "its name")

        # the dealer's phone rolls (its TURN button says 掷骰 while it is due to roll), then the wall's owner
        phones[0].wait("document.querySelector('[data-press=TURN]').textContent.startsWith('掷骰')", "roll")
        tap(serve, phones[0], "[data-press=TURN]")
        owner = next(s for s, acts in enumerate(serve.state()["actions"]) if "roll" in acts)
        phones[owner].wait("!document.querySelector('[data-press=TURN]').disabled", "the owner's roll")
        tap(serve, phones[owner], "[data-press=TURN]")
        assert serve.state()["phase"] == "turn" and serve.state()["turn"] == 0

        tap(serve, phones[0], "[data-press=TURN]")  # the dealer discards
        phones[2].wait("!document.querySelector('[data-press=PENG]').disabled", "碰 for seat 2")
        assert phones[3].js("document.querySelector('[data-press=CHI]').disabled")  # only the 下家 chows
        assert not phones[1].js("document.querySelector('[data-press=CHI]').disabled")
        phones[2].screenshot(docs / "buttons.png")
        tap(serve, phones[2], "[data-press=PENG]")
        tap(serve, phones[1], "[data-press=pass]")
        tap(serve, phones[3], "[data-press=pass]")  # the last answer: the claims resolve with it, seat 2 pongs
        state = serve.state()
        assert state["turn"] == 2 and state["seats"][2]["melds"][0]["kind"] == "pong"
        assert state["actions"][2] == ["discard"]  # after a pong: only a discard (docs/rules.md §17)
        tap(serve, phones[2], "[data-press=TURN]")
        tap(serve, phones[3], "[data-press=TURN]")  # the quick 下家: held while seats 0 and 1 may still claim
        phones[3].wait("['摸牌了，等别家', 'drew: others may still claim']"
                       ".some(w => document.body.textContent.includes(w))",
                       "the 下家 told it waits")
        tap(serve, phones[0], "[data-press=pass]")
        tap(serve, phones[1], "[data-press=pass]")  # the last answer: seat 3's draw and discard (rules §17)
        assert serve.state()["claims"]["from"] == 3
        tap(serve, phones[1], "[data-press=HU]")  # a win on seat 3's discard
        tap(serve, phones[0], "[data-press=pass]")
        tap(serve, phones[2], "[data-press=pass]")
        assert serve.state()["phase"] == "win_pending"
        assert serve.call({"type": "confirm_win", "wait": "plain"})["ok"]  # (the wait: on the table's screen)

        phones[3].wait("document.querySelector('#last li').textContent.includes('Ana')", "the last hand")
        assert lines(phones[3], "last") == ["你付 Ana 1 · 胡 · You pay Ana 1 · win"]
        phones[1].wait("document.querySelector('#results li').textContent.includes('+1')", "the results")
        assert lines(phones[1], "last") == ["Zoë 付你 1 · 胡 · Zoë pays you 1 · win"]
        assert lines(phones[1], "results") == ["第1局 胡 +1 · hand 1: won +1"]
        assert serve.call({"type": "end_session"})["ok"]
        phones[3].wait("!document.getElementById('settle').hidden", "the settle-up")
        assert lines(phones[3], "settle-lines") == ["你付 Ana 1 · You pay Ana 1"]
        phones[3].screenshot(docs / "end.png")
    finally:
        browser.close()
        code = serve.close()
    assert code == 0, "".join(serve.said)

    # the same hand as a play file of presses (the dice as the table rolled them)
    journal = Journal.open(serve.db, readonly=True)
    try:
        played = journal.events(journal.timeline().active)
    finally:
        journal.close()
    rolls = [ev["dice"] for ev in played if ev["type"] == "roll"]

    def press(seat: int | None, button: str, **more: Any) -> dict[str, Any]:
        return {"type": "press", "seat": seat, "button": button, **more}

    named = [ev for ev in played if ev["type"] == "name"]  # (with the roster's ids: serve has a roster)
    assert [(ev["seat"], ev["name"]) for ev in named] == list(enumerate(NAMES))
    assert all(isinstance(ev["player_id"], int) for ev in named)
    script = [played[0], played[1], *named,
              press(None, "DICE", dice=rolls[0]), press(None, "DICE", dice=rolls[1]), press(0, "TURN"),
              press(2, "PENG"), {"type": "pass", "seat": 1}, {"type": "pass", "seat": 3},
              press(2, "TURN"), press(3, "TURN"), {"type": "pass", "seat": 0}, {"type": "pass", "seat": 1},
              press(1, "HU"), {"type": "pass", "seat": 0},
              {"type": "pass", "seat": 2}, {"type": "confirm_win", "wait": "plain"}, {"type": "end_session"}]
    (tmp_path / "presses.jsonl").write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in script),
                                            encoding="utf-8")
    out = tmp_path / "events.jsonl"
    proc = subprocess.run([sys.executable, "-m", "table_app.cli", "play", str(tmp_path / "presses.jsonl"),
                           "--events", str(out)], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONUTF8="1"))
    assert proc.returncode == 0, proc.stderr
    # the table stamps its end with the session's length (docs/rules.md, fees); a play file has no clock
    assert played[-1]["type"] == "end_session" and played[-1].pop("seconds") >= 0
    assert [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()] == played
