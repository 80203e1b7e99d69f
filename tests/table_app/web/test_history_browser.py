"""Issue 29, "Done when" (Chromium): after an evening of three hands, the table page shows the
session in its history, replays hand 2 step by step to its settlement — each step's wall and
discards, as drawn on the page, checked against the engine's state at that record (the journal's
events in effect up to it, replayed by the engine here: not the archive's own answer) — and a
phone shows its player's record and the session. Hand 3 is played out to a draw (荒牌).

Hand 2 has a pong, a concealed kong (its replacement from the wall's tail) and a discard taken
back by an undo (the replay marks it, and it changes nothing). The table page is driven with its
buttons, the arrow keys, Home and End and the slider; its history, replay and records are
screenshot in both languages (``XIAN_TABLE_DOC_SHOTS=1``: into docs/table-page/)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.public import PublicState, public_state
from table_app.core.service import TableService
from table_app.journal.journal import Journal
from table_app.journal.state import state_after
from table_app.present.seat import seat_lines
from table_app.present.table_page import table_view
from table_app.web import history_routes
from table_app.web.server import SeatPages
from tests.support.chromium import Chromium, Page, join_phone, phone_table, shots_dir
from tests.table_app.web.test_phones_browser import lines

pytestmark = pytest.mark.browser

NAMES = ["王小明", "Ana", "李雷", "Zoë"]
FEE = {"mode": "hand", "rate": 8, "payer": "aa", "tea": 5}  # (issue 31: the house's lines beside the settle-up)
START = [{"type": "new_session", "players": NAMES, "base": 1, "fee": FEE},
         {"type": "seating", "method": "C", "east": 0}]
HAND_1 = [{"type": "roll", "dice": [3, 4]}, {"type": "roll", "dice": [2, 3]},
          {"type": "discard", "seat": 0}, {"type": "resolve"},
          {"type": "win", "seat": 1}, {"type": "confirm_win", "wait": "plain"}, {"type": "next_hand"}]
HAND_2 = [{"type": "roll", "dice": [5, 6]}, {"type": "roll", "dice": [1, 2]},  # seat 1 deals
          {"type": "discard", "seat": 1}, {"type": "claim", "seat": 3, "call": "pong"}, {"type": "resolve"},
          {"type": "discard", "seat": 3}, {"type": "resolve"},
          {"type": "kong", "seat": 0, "kind": "concealed"},  # its replacement from the tail
          {"type": "discard", "seat": 0}, {"type": "undo"},  # taken back: marked, changes nothing
          {"type": "discard", "seat": 0}, {"type": "resolve"},
          {"type": "discard", "seat": 1}, {"type": "resolve"},
          {"type": "win", "seat": 2}, {"type": "confirm_win", "wait": "single"}]
HAND_3 = [{"type": "next_hand"}, {"type": "roll", "dice": [6, 6]}, {"type": "roll", "dice": [4, 4]}]
# (then every seat discards in turn, nobody claims, until the wall is played out: a drawn hand, 荒牌)


@pytest.fixture
def evening(tmp_path: Path) -> Iterator[tuple[Journal, TableService, SeatPages, Chromium]]:
    """A table with a roster (the players' ids), its pages, a Chromium."""
    with phone_table(tmp_path, "history", roster=True) as table:
        yield table


def play(service: TableService, commands: list[dict[str, Any]]) -> None:
    for command in commands:
        answer = service.call(command, "test", 10)
        assert answer.ok, (command, answer.error)


def play_to_a_draw(service: TableService) -> None:
    """Discard after discard, nobody claiming, until the hand is over with nothing left to draw."""
    while service.public["phase"] != "hand_over":
        public = service.public
        play(service, [{"type": "discard", "seat": public["turn"]}] if public["phase"] == "turn" else
             [{"type": "resolve"}])
    assert service.public["last_settlement"]["winner"] is None


def engine_public(journal: Journal, seq: int) -> PublicState:
    """The engine's public state at record ``seq``: the events in effect up to it, replayed."""
    reader = journal.reader()
    try:
        active = [s for s in reader.timeline().active if s <= seq]
        return public_state(state_after(reader, active)[0])
    finally:
        reader.close()


def drawn_wall(page: Page) -> list[list[dict[str, Any]]]:
    """The wall as the page's SVG draws it: each stack's upper and lower tile and its reserve mark."""
    tags = page.js("[...document.querySelectorAll('#wall rect[data-t]')].map((r) => r.dataset.t)")
    walls: list[list[dict[str, Any]]] = [[{"u": None, "l": None, "r": False} for _ in range(17)] for _ in range(4)]
    for tag in tags:
        wall, stack, part, state = tag.split(",")
        walls[int(wall)][int(stack)][part] = True if part == "r" else state
    return walls


def check_step(page: Page, journal: Journal, lang: str) -> tuple[int, bool]:
    """The page's replayed step against the engine's state at its record: the wall stack by stack,
    each seat's discards (and the rest of its line), the phase."""
    seq = int(page.js("document.body.dataset.replaySeq"))
    expected = engine_public(journal, seq)
    assert drawn_wall(page) == table_view(expected, lang)["wall"]["walls"], f"the wall at record {seq}"
    details = page.js("[...document.querySelectorAll('main .seat .detail')].map((d) => d.textContent)")
    assert details == [seat_lines(expected, s, lang)["detail"] for s in range(4)], f"the seats at record {seq}"
    assert page.js("document.body.dataset.phase") == expected["phase"]
    return seq, page.js("document.body.dataset.replayUndone") == "true"


def slide(page: Page, i: int) -> None:
    """The slider moved to step ``i`` (as a drag ends there: its value, then its input event)."""
    page.js(f"(() => {{ const s = document.getElementById('slider'); s.value = '{i}';"
            " s.dispatchEvent(new Event('input')); })()")


def at_step(page: Page, i: int) -> None:
    page.wait(f"document.body.dataset.replayStep === '{i}'", f"replay step {i}")


def test_an_evening_in_history_hand_2_replayed_step_by_step_and_a_phones_record(
        evening: tuple[Journal, TableService, SeatPages, Chromium], tmp_path: Path) -> None:
    journal, service, pages, browser = evening
    shots = shots_dir("table-page", tmp_path)
    play(service, START)
    phone = join_phone(browser, pages.join_url, 1)  # Ana's phone (her name kept: the session's)
    play(service, HAND_1 + HAND_2 + HAND_3)
    play_to_a_draw(service)
    play(service, [{"type": "end_session"}])
    final = service.public
    assert final["phase"] == "ended" and len(final["results"]) == 3

    table = browser.page(f"http://127.0.0.1:{pages.port}/table?lang=zh", width=1280, height=720, mobile=False)
    table.wait("document.body.dataset.phase === 'ended'", "the ended session")
    # the house's lines beside the settle-up (台费: 3 hands × 8, AA; 茶水 5 each), on the table page and a phone
    assert final["house"] == {"mode": "hand", "units": 3, "fee": 24, "table": [6, 6, 6, 6], "tea": [5, 5, 5, 5],
                              "total": 44}
    house = ["台费 24（3 局 × 8）", "每人付台费 6", "每人付茶水 5", "共付店家 44（台费 24 + 茶水 20）"]
    assert table.js("document.querySelector('#final .house').textContent") == "付给店家"
    assert table.js("[...document.querySelectorAll('#final .houselines div')].map((d) => d.textContent)") == house
    table.screenshot(shots / "final-fee-zh.png")
    phone.wait("!document.getElementById('settle').hidden", "the phone's settle-up")
    assert phone.js("document.getElementById('house-head').textContent") == "付给店家 · To the house"
    assert lines(phone, "house-lines") == ["台费 24（3 局 × 8） · Table fee 24 (3 hands × 8)",
                                           "每人付台费 6 · each pays the house 6", "每人付茶水 5 · each pays 5 for tea",
                                           "共付店家 44（台费 24 + 茶水 20） · "
                                           "to the house in all 44 (table 24 + tea 20)"]
    assert lines(phone, "settle-lines")[-2:] == ["你付台费 6 · You pay the house 6", "你付茶水 5 · You pay 5 for tea"]
    phone.screenshot(shots_dir("phones", tmp_path) / "end-fee.png")
    table.click("#final .close")

    # the history: the session, its ranking and settle-up; its hands (the third drawn: 荒牌)
    table.click("#showhistory")
    table.wait("!!document.querySelector('#history.open .sess[data-session]')", "the session in the history")
    text = table.js("document.querySelector('#history .sess').textContent")
    for name in NAMES:
        assert name in text
    ranked = sorted(range(4), key=lambda s: (-final["scores"][s], s))
    line = table.js("document.querySelector('#history .sline').textContent")  # (each total, best first)
    assert line.index(NAMES[ranked[0]]) < line.index(NAMES[ranked[1]]) < line.index(NAMES[ranked[3]])
    table.screenshot(shots / "history-zh.png")
    table.click("#history .sess")
    table.wait("document.querySelectorAll('#history .hand').length === 3", "the session's three hands")
    drawn = table.js("[...document.querySelectorAll('#history .hand')].map((h) => h.classList.contains('drawn'))")
    assert drawn == [False, False, True]
    assert "荒牌" in table.js("document.querySelector(\"#history .hand[data-hand='3'] .hline\").textContent")
    table.screenshot(shots / "history-hands-zh.png")

    # hand 2 step by step: the buttons, the arrow keys, the slider, Home and End
    table.click("#history .hand[data-hand='2'] button.play")
    at_step(table, 0)
    steps = int(table.js("document.body.dataset.replaySteps"))
    assert steps >= len(HAND_2)  # (the hand's records: from its first roll to its settlement, the undone one too)
    seen: list[tuple[int, bool]] = [check_step(table, journal, "zh")]
    for i in range(1, steps):
        if i % 2:
            table.click("#replay button[data-go='next']")
        else:
            table.browser.send("Input.dispatchKeyEvent", table.session, type="keyDown", key="ArrowRight",
                               code="ArrowRight", windowsVirtualKeyCode=39)
            table.browser.send("Input.dispatchKeyEvent", table.session, type="keyUp", key="ArrowRight",
                               code="ArrowRight", windowsVirtualKeyCode=39)
        at_step(table, i)
        seen.append(check_step(table, journal, "zh"))
        if seen[-1][1]:
            caption = table.js("document.querySelector('#replay .caption.undone .text').textContent")
            assert caption.endswith("（已撤销）")
            table.screenshot(shots / "replay-undone-zh.png")
    seqs = [seq for seq, _ in seen]
    assert seqs == sorted(seqs) and len(set(seqs)) == steps
    assert [undone for _, undone in seen].count(True) == 1, "the discard taken back, marked"
    assert table.js("document.body.dataset.phase") == "hand_over"  # the last step: the settlement
    assert table.js("document.querySelector('#settlement').classList.contains('open')")
    table.screenshot(shots / "replay-settlement-zh.png")
    assert table.js("document.querySelector(\"#replay button[data-go='next']\").disabled")

    # Home, End and the slider land where they say
    for key, code, target in (("Home", 36, 0), ("End", 35, steps - 1)):
        table.browser.send("Input.dispatchKeyEvent", table.session, type="keyDown", key=key, code=key,
                           windowsVirtualKeyCode=code)
        at_step(table, target)
        check_step(table, journal, "zh")
    middle = steps // 2
    slide(table, middle)
    at_step(table, middle)
    check_step(table, journal, "zh")
    table.screenshot(shots / "replay-zh.png")
    table.click("#replay button[data-go='first']")
    at_step(table, 0)

    # in English: the same step drawn again in the other language
    table.click("#lang")
    table.wait("document.documentElement.lang === 'en' && document.querySelector('#replay .count')"
               ".textContent.startsWith('step 1 of')", "the replay in English")
    table.click("#replay button[data-go='last']")
    at_step(table, steps - 1)
    check_step(table, journal, "en")
    slide(table, middle)
    at_step(table, middle)
    table.screenshot(shots / "replay-en.png")

    # back to the table: the live view again, drawn as before
    table.click("#replay button[data-go='live']")
    table.wait("document.body.dataset.replayStep === undefined && document.body.dataset.phase === 'ended'",
               "the live table again")

    # the records: the leaderboard, a player's record
    table.click("#final .close")
    table.click("#showrecords")
    table.wait("document.querySelectorAll('#records tr[data-player]').length === 4", "the leaderboard's four players")
    board = table.js("[...document.querySelectorAll('#records tr[data-player]')].map((r) =>"
                     " [...r.children].map((c) => c.textContent))")
    assert sorted(row[0] for row in board) == sorted(NAMES)
    net = {row[0]: int(row[-1]) for row in board}
    assert net == {NAMES[s]: final["scores"][s] for s in range(4)}
    assert all(row[1:3] == ["1", "3"] for row in board)  # one session, three hands each
    table.screenshot(shots / "records-en.png")
    table.click("#showhistory")
    table.click("#history .sess")
    table.wait("document.querySelectorAll('#history .hand').length === 3"
               " && document.querySelector('#history h3').textContent === 'Hands'", "the session's hands in English")
    table.screenshot(shots / "history-en.png")
    table.click("#showrecords")
    table.wait("document.querySelectorAll('#records tr[data-player]').length === 4", "the leaderboard again")
    table.click("#lang")
    table.wait("document.documentElement.lang === 'zh' && document.querySelector('#records h2')"
               ".textContent === '排行榜'", "the records in Chinese")
    table.click("#records td.who")
    table.wait("document.querySelector('#records').dataset.shown === 'player'", "a player's record")
    table.screenshot(shots / "records-zh.png")
    table.click("#records button.back")
    table.click("#showhistory")
    table.wait("!!document.querySelector('#history.open .sess')", "the history in Chinese")

    # the phone: its player's record and the session it played
    ana = final["player_ids"][1]
    assert ana is not None
    phone.wait(f"document.getElementById('hist').dataset.player === '{ana}'"
               " && document.querySelectorAll('#hist-sessions li[data-session]').length === 1", "Ana's history")
    record = phone.js("document.getElementById('hist-record').textContent")
    assert f"{final['scores'][1]:+d}" in record, "her net in her record"
    mine = phone.js("document.querySelector('#hist-sessions li').textContent")
    assert f"{final['scores'][1]:+d}" in mine
    phone.js("document.getElementById('hist').scrollIntoView()")
    phone.screenshot(shots_dir("phones", tmp_path) / "history-both.png")
    # her choice: not shown on the parlour's leaderboards (the roster's listed, published to the parlour)
    assert phone.js("document.getElementById('hist-listed').dataset.listed") == "true"
    phone.click("#hist-listed")
    phone.wait("document.getElementById('hist-listed').dataset.listed === 'false'", "Ana hidden from the boards")
    assert service.roster is not None and service.roster.get(ana).listed is False  # type: ignore[union-attr]
    phone.screenshot(shots_dir("phones", tmp_path) / "history-hidden.png")


def test_the_history_routes_refuse_bad_input_shortly(
        evening: tuple[Journal, TableService, SeatPages, Chromium], monkeypatch: pytest.MonkeyPatch) -> None:
    """Bounded and checked: a page, a step, a period, a session or a hand the archive does not
    have get a short refusal in both languages, never a traceback; a read that cannot have the
    archive soon is told to come back (503), and the table goes on meanwhile."""
    import http.client

    _, service, pages, _ = evening
    play(service, START + HAND_1)

    def get(path: str) -> tuple[int, dict[str, Any]]:
        conn = http.client.HTTPConnection("127.0.0.1", pages.port, timeout=10)
        conn.request("GET", path)
        r = conn.getresponse()
        body = json.loads(r.read())
        conn.close()
        return r.status, body

    status, body = get("/history/sessions.json?lang=en")
    assert status == 200 and body["total"] == 1 and body["sessions"][0]["hands"] == 1
    number = body["sessions"][0]["number"]
    for path, code, key in (("/history/sessions.json?page=7", 404, "history.page"),
                            ("/history/sessions.json?page=-1", 400, "history.page"),
                            ("/history/sessions.json?page=99999", 400, "history.page"),
                            (f"/history/{number + 5}.json", 404, "history.unknown"),
                            (f"/history/{number}/9.json", 404, "history.unknown"),
                            (f"/history/{number}/1.json?step=9999", 404, "history.step"),
                            (f"/history/{number}/1.json?step=10000", 400, "history.step"),
                            (f"/history/{number}/1.json?step=a", 400, "history.step"),
                            ("/history/records.json?period=year", 400, "history.period"),
                            ("/history/player/999.json", 404, "history.unknown"),
                            ("/phone/1/history.json", 401, "phone.unbound")):
        status, body = get(path)
        assert (status, body["ok"], body["code"]) == (code, False, key), path
        assert body["zh"] and body["en"], path
    # one read at a time: while another holds the archive, a request waits a little, then 503
    monkeypatch.setattr(history_routes, "READ_WAIT_S", 0.2)
    with pages.history._lock:
        conn = http.client.HTTPConnection("127.0.0.1", pages.port, timeout=10)
        conn.request("GET", "/history/sessions.json")
        r = conn.getresponse()
        assert (r.status, r.getheader("Retry-After"), json.loads(r.read())["code"]) == (503, "1", "history.busy")
        conn.close()
        assert service.call({"type": "state"}, "test", 1).ok  # (the table itself never waits for the history)
    status, body = get(f"/history/{number}/1.json?step=0&lang=en")
    assert status == 200 and body["step"] == 0 and body["view"]["phase"] == "seating"  # (hand 1 begins at new_session)
