"""Phones and the roster (issue 28) over real HTTP: a phone joining with a name (any script)
puts it into the roster, its ``name`` event carrying the player's id; the phones' new-session
form offers the roster's names; its base is whole points, anything else refused in both
languages with nothing changed (item 4). In headless Chromium: a roster name fills a place
with one tap."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from table_app.core.roster import Roster
from table_app.core.service import ManualClock, TableService
from table_app.journal.journal import Journal
from table_app.web.server import SeatPages
from tests.support.chromium import Chromium, join_phone
from tests.table_app.web.test_phone_score import keeping, step
from tests.table_app.web.test_phones import Phone, token_of
from tests.table_app.web.test_phones_browser import Serve, free_port

pytestmark = pytest.mark.browser

NAMES = ["Nguyễn Thị", "Ана", "李雷", "Zoë"]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[TableService, SeatPages, Roster]]:
    path = tmp_path / "j.sqlite3"
    journal = Journal.open(path)
    roster = Roster.open(path)
    service = TableService(journal, claim_window_s=3.0, clock=ManualClock(), roster=roster).start()
    pages = SeatPages(service, "127.0.0.1", 0, table="t-roster").start()
    yield service, pages, roster
    pages.stop()
    service.stop()
    roster.close()
    journal.close()


def _joined(pages: SeatPages, names: list[str]) -> list[Phone]:
    token = token_of(pages)
    phones = [Phone(pages) for _ in names]
    for seat, (phone, name) in enumerate(zip(phones, names, strict=True)):
        assert phone.join(token, seat, name)[1]["ok"]
    return phones


def test_a_phone_joining_with_a_name_puts_it_into_the_roster(table: tuple[TableService, SeatPages, Roster]) -> None:
    service, pages, roster = table
    assert service.call({"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}, "touch", 10).ok
    _joined(pages, NAMES)
    for seat, name in enumerate(NAMES):
        player = roster.find(name)
        assert player is not None and service.public["player_ids"][seat] == player.id
    j = service.journal_reader()
    named = [r.event for r in j.records() if r.event is not None and r.event["type"] == "name"]
    j.close()
    assert [e["player_id"] for e in named] == [roster.find(n).id for n in NAMES]  # type: ignore[union-attr]


def test_the_form_offers_the_roster_and_refuses_a_base_that_is_not_whole_points(
        table: tuple[TableService, SeatPages, Roster]) -> None:
    service, pages, roster = table
    for names in (["王小明", "Bo", "Cy", "Di"], ["欧阳诸葛司马东方", "Maximilianus", "Cy", "Di"]):
        assert service.call({"type": "new_session", "players": names, "base": 1}, "touch", 10).ok
    assert service.call({"type": "end_session"}, "touch", 10).ok
    phones = _joined(pages, ["Di", "Cy", "Maximilianus", "欧阳诸葛司马东方"])
    form = keeping(phones[0])["form"]
    assert form["roster"][:4] == [p.name for p in roster.players()][:4] and "王小明" in form["roster"]
    start = {"type": "new_session", "confirm": True, "players": ["王小明", "Bo", "Cy", "Di"]}
    seq = service.seq
    for base in ("1.5", 1.5, "0.5", 0.5, "abc", 0, -1, 10**12, None, [2]):
        status, answer = step(phones[0], **start, base=base)
        assert status == 400 and answer["code"] == "invalid.base", (base, answer)
        assert answer["zh"] == "基数要是 1 到 1000000 的整数"
        assert answer["en"] == "The base is a whole number, 1 to 1000000"
    assert service.seq == seq and service.public["phase"] == "ended"
    status, answer = step(phones[0], **start, base=3)
    assert status == 200 and service.public["base"] == 3


@pytest.mark.slow
def test_a_roster_name_fills_a_place_with_one_tap_on_a_phone(tmp_path: Path) -> None:
    serve = Serve(tmp_path, free_port())
    browser = Chromium(tmp_path / "profile")
    try:
        for command in ({"type": "new_session", "players": ["王小明", "Bo", "Cy", "Di"], "base": 1},
                        {"type": "end_session"}):
            assert serve.call(command)["ok"]
        page = join_phone(browser, serve.join_url_of(1), 0, "Ана")  # (the new session's code)
        page.wait("document.getElementById('sc-new').offsetParent !== null", "开新牌局")
        page.click("#sc-new")
        offered = page.js("[...document.querySelectorAll('#sc-roster button')].map(b => b.textContent)")
        assert offered[0] == "Ана" and set(offered) == {"Ана", "王小明", "Bo", "Cy", "Di"}
        seated = "[...document.querySelectorAll('#sc-roster button.seated')].map(b => b.textContent)"
        assert set(page.js(seated)) == {"Ана", "Bo", "Cy", "Di"}  # (the form's start: marked seated)
        shown = "[0, 1, 2, 3].map(i => document.getElementById('sc-name' + i).value).join()"
        page.js("document.getElementById('sc-name2').focus()")
        page.js("[...document.querySelectorAll('#sc-roster button')].find(b => b.textContent === '王小明').click()")
        page.wait(f"{shown} === 'Ана,Bo,王小明,Di'", "王小明 at the place focused last")  # (the table's answer)
        assert set(page.js(seated)) == {"Ана", "Bo", "王小明", "Di"}
        page.js("[...document.querySelectorAll('#sc-roster button')].find(b => b.textContent === 'Bo').click()")
        page.wait(f"{shown} === 'Ана,Di,王小明,Bo'", "Bo, seated already, swapped into the next place")
        assert page.js("document.getElementById('msg').textContent") == ""
    finally:
        browser.close()
        serve.close()
