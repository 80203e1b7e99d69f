"""A seat changes phone only with consent (issue 27), over real HTTP: a photo of the QR code
(the join link, reused) asks the seat's phone and gets nothing until it allows; a refusal
stands; only the seat's own phone answers; a phone gone for a minute is taken over unasked;
every screen says the seat changed phone. The display key: the join code for a page that
carries it, from any Host; a new code from the table's pages only."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from table_app.core.service import ManualClock, TableService
from table_app.journal.journal import Journal
from table_app.web.phones import GONE_S, JOINS_PER_CLIENT, Phones
from table_app.web.server import SeatPages
from tests.table_app.web.test_phones import START, Phone, token_of


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[TableService, SeatPages, Clock]]:
    journal = Journal.open(tmp_path / "j.sqlite3")
    service = TableService(journal, claim_window_s=3.0, clock=ManualClock(), dice=lambda: (3, 4)).start()
    clock = Clock()
    pages = SeatPages(service, "127.0.0.1", 0, table="t-takeover", phones=Phones(clock=clock)).start()
    for ev in START:
        assert service.call(ev, "touch", timeout=10).ok
    yield service, pages, clock
    pages.stop()
    service.stop()
    journal.close()


def view(pages: SeatPages, phone: Phone) -> dict[str, Any]:
    """The first view on the phone's event stream (its stream open: the phone is here)."""
    conn = http.client.HTTPConnection("127.0.0.1", pages.port, timeout=10)
    conn.request("GET", f"/phone/{phone.seat}/events", headers={"Cookie": phone.cookie})
    r = conn.getresponse()
    lines = []
    while not (line := r.fp.readline().decode()).startswith("data: "):
        lines.append(line)
    conn.close()
    data: dict[str, Any] = json.loads(line[len("data: "):])
    return data


def get(pages: SeatPages, path: str, host: str = "") -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", pages.port, timeout=10)
    conn.request("GET", path, headers={"Host": host} if host else {})
    r = conn.getresponse()
    body = r.read()
    conn.close()
    return r.status, json.loads(body)


def test_a_photo_of_the_qr_code_cannot_take_a_seat_silently(table: tuple[TableService, SeatPages, Clock]) -> None:
    service, pages, clock = table
    token = token_of(pages)
    owner, photo = Phone(pages), Phone(pages)
    assert owner.join(token, 2, "李雷")[0] == 200
    assert view(pages, owner)["takeover"] is None  # nobody asks
    status, asking = photo.join(token, 2)
    assert status == 202 and asking["asking"] is True and asking["en"] == "asking the phone at this seat…"
    assert not photo.cookie and photo.press(page=2, type="pass")[0] == 401  # nothing gained
    question = view(pages, owner)["takeover"]
    assert isinstance(question, int)
    for _ in range(JOINS_PER_CLIENT + 2):  # asking again is not a join attempt: never rate-limited
        status, again, _ = photo.request("POST", f"/join/{token}/ask", {"seat": 2, "ask": asking["ask"]})
        assert (status, again["ask"]) == (202, asking["ask"])
    assert photo.request("POST", "/phone/2/takeover", {"allow": True})[0] == 401  # only the seat's phone answers
    assert photo.request("POST", f"/join/{token}/ask", {"seat": 2, "ask": "0" * 32})[0] == 403  # a made-up ask
    assert owner.request("POST", "/phone/2/takeover", {"allow": "yes"})[0] == 400
    assert owner.request("POST", "/phone/2/takeover", {"allow": False})[1] == {"ok": True, "allow": False}
    status, refused, _ = photo.request("POST", f"/join/{token}/ask", {"seat": 2, "ask": asking["ask"]})
    assert (status, refused["code"], refused["en"]) == (403, "join.refused", "the phone at this seat said no")
    assert not photo.cookie and owner.press(type="pass")[0] != 401  # the owner still has its seat
    assert view(pages, owner)["takeover"] is None and get(pages, "/table/phones.json")[1]["changed"] == []

    status, second = photo.join(token, 2)  # asked again: a new question, allowed this time
    assert status == 202 and view(pages, owner)["takeover"] != question
    assert owner.request("POST", "/phone/2/takeover", {"allow": True})[0] == 200
    status, joined, _ = photo.request("POST", f"/join/{token}/ask", {"seat": 2, "ask": second["ask"]})
    assert status == 200 and joined["replaced"] is True and photo.cookie
    assert owner.press(type="pass")[0] == 401
    photo.seat = 2
    line = {"zh": "李雷 换了手机", "en": "李雷 changed phone"}
    assert get(pages, "/table/phones.json")[1]["changed"] == [line]  # the table page says so …
    assert view(pages, photo)["changed"] == [line]  # … and every phone
    clock.now += 61
    assert get(pages, "/table/phones.json")[1]["changed"] == []  # (for a while)
    assert service.public["players"][2] == "李雷"


def test_a_phone_gone_for_a_minute_is_taken_over_unasked(table: tuple[TableService, SeatPages, Clock]) -> None:
    _, pages, clock = table
    token = token_of(pages)
    owner, newcomer = Phone(pages), Phone(pages)
    assert owner.join(token, 1)[0] == 200
    view(pages, owner)  # its stream opened, then closed (the phone asleep, or broken)
    clock.now += GONE_S - 1
    assert newcomer.join(token, 1)[0] == 202  # not yet a minute
    clock.now += 1
    status, joined = newcomer.join(token, 1)
    assert status == 200 and joined["replaced"] is True
    assert get(pages, "/table/phones.json")[1]["changed"] == [{"zh": "B 换了手机", "en": "B changed phone"}]


def test_the_display_key_shows_the_code_from_any_host_and_makes_a_new_one(
        table: tuple[TableService, SeatPages, Clock]) -> None:
    _, pages, _ = table
    key = pages.phones.phones.key
    assert pages.table_url == f"http://127.0.0.1:{pages.port}/table?key={key}" and len(key) >= 22
    assert get(pages, "/table/join.json", "table.lan:8080")[0] == 403  # a stranger's page elsewhere
    assert get(pages, f"/table/join.json?key={key[:-1]}x", "table.lan:8080")[0] == 403
    status, code = get(pages, f"/table/join.json?key={key}", "table.lan:8080")
    assert status == 200 and code["url"] == pages.join_url and "<svg" in code["svg"]
    assert code["code"] == get(pages, "/table/phones.json")[1]["code"]
    old = pages.join_url

    def post(body: dict[str, Any], host: str) -> int:
        conn = http.client.HTTPConnection("127.0.0.1", pages.port, timeout=10)
        conn.request("POST", "/table/code", body=json.dumps(body), headers={"Host": host,
                                                                          "Content-Type": "application/json"})
        status = conn.getresponse().status
        conn.close()
        return status

    assert post({"key": "wrong"}, "table.lan:8080") == 403 and pages.join_url == old
    assert post({"key": key}, "table.lan:8080") == 200 and pages.join_url != old
    assert get(pages, f"/table/join.json?key={key}", "table.lan:8080")[1]["code"] != code["code"]
    assert Phone(pages).join(old.rsplit("/", 1)[1], 0)[0] == 403  # the old code (a photo of it) stops working
