"""Keeping score from phones over real HTTP (issue 27 item 7): a new session started from a
phone with names, a base and a rule option, and only after its confirm; each seat's bet from
its own phone, one ``bets`` event when all four are in; the last session's ranking and
settle-up readable after a new session, also after a restart (from the journal)."""

from __future__ import annotations

import http.client
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.fields import MAX_AMOUNT
from engine.rules import XIAN
from table_app.core.service import ManualClock, TableService
from table_app.http_kit.server import MAX_BODY
from table_app.journal.journal import Journal
from table_app.present.seat import settle_up_lines
from table_app.present.table import final_view, settle_lines
from table_app.web.server import SeatPages
from tests.support.chromium import until
from tests.table_app.web.test_phones import Phone, token_of

pytestmark = pytest.mark.browser

NAMES = ["王小明", "Ana", "李雷", "Zoë"]
SEATING = {"type": "seating", "method": "C", "east": 0}


class Table:
    """A real service on a journal file, the web server, and four phones that joined."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.journal = Journal.open(path)
        self.service = TableService(self.journal, claim_window_s=3.0, clock=ManualClock(), dice=lambda: (3, 4)).start()
        self.pages = SeatPages(self.service, "127.0.0.1", 0, table="t-score").start()
        self.phones: list[Phone] = []

    def join(self, names: list[str] | None = None) -> list[Phone]:
        token = token_of(self.pages)
        self.phones = [Phone(self.pages) for _ in range(4)]
        for seat, phone in enumerate(self.phones):
            assert phone.join(token, seat, None if names is None else names[seat])[1]["ok"]
        return self.phones

    def call(self, command: dict[str, Any]) -> None:
        answer = self.service.call(command, "touch", timeout=10)
        assert answer.ok, answer

    def close(self) -> None:
        self.pages.stop()
        self.service.stop()
        self.journal.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path / "j.sqlite3")
    yield t
    t.close()


def step(phone: Phone, page: int | None = None, **body: Any) -> tuple[int, Any]:
    status, answer, _ = phone.request("POST", f"/phone/{phone.seat if page is None else page}/table", body)
    return status, answer


def phone_view(phone: Phone) -> dict[str, Any]:
    """The phone's view: the first view of its event stream."""
    conn = http.client.HTTPConnection(phone.host, phone.port, timeout=10)
    conn.request("GET", f"/phone/{phone.seat}/events", headers={"Cookie": phone.cookie})
    r = conn.getresponse()
    assert r.status == 200
    while not (line := r.readline().decode()).startswith("data: "):
        pass
    conn.close()
    view: dict[str, Any] = json.loads(line[6:])
    return view


def keeping(phone: Phone) -> dict[str, Any]:
    """The score part of the phone's view."""
    view: dict[str, Any] = phone_view(phone)["keeping"]
    return view


def events(table: Table) -> list[tuple[dict[str, object] | None, str]]:
    """The journal's records as (event, source), the tap ids taken out of the sources."""
    return [(r.event, re.sub(r" tap \w+", " tap", r.source)) for r in table.journal.records()]


def test_a_session_started_from_a_phone_with_names_a_base_and_a_rule(table: Table) -> None:
    phones = table.join(NAMES)  # (no session yet: the names wait for one)
    form = keeping(phones[2])["form"]
    assert form["names"] == NAMES and form["base"] == 1 and form["base_max"] == MAX_AMOUNT
    rules = {r["option"]: r for r in form["rules"]}
    assert len(rules) == len(XIAN.to_json()) and all(r["now"] == 0 for r in rules.values())  # the defaults
    seven = rules["seven_pairs"]
    assert seven["name"] == {"zh": "七对", "en": "Seven pairs"}
    assert [v["value"] for v in seven["values"]] == [False, True] and seven["values"][1]["zh"] == "算胡"
    assert all(r["default"] == 0 for r in rules.values())  # (the presentation lists each default first)
    assert rules["kong_reserve"]["values"][0]["value"] == [13, 7, 8, 13]

    chosen = ["阿明", "Ana", "李雷", "Zoë"]
    start = {"type": "new_session", "players": chosen, "base": 5, "rules": {"seven_pairs": True}}
    assert step(phones[2], **start) == (409, step(phones[2], **start)[1])
    assert step(phones[2], **start)[1]["code"] == "phone.confirm"  # no confirm: nothing happens
    for wrong, code in (({"base": 0}, "invalid.base"), ({"base": True}, "invalid.base"),
                        ({"base": MAX_AMOUNT + 1}, "invalid.base"), ({"base": "5"}, "invalid.base"),
                        ({"rules": {"sevenpairs": True}}, "invalid.rules"), ({"rules": {"seven_pairs": "yes"}},
                                                                                "invalid.rules"),
                        ({"players": ["A", "A", "B", "C"]}, "seat.same_name"),
                        ({"players": ["A", "B", "C"]}, "invalid"),
                        ({"players": ["A", "B", "C", "欧阳司马诸葛上官令狐"]}, "invalid.name"), ({"x": 1}, "invalid")):
        status, answer = step(phones[2], **{**start, "confirm": True, **wrong})
        assert status == 400 and answer["code"] == code and answer["zh"] and answer["en"], (wrong, answer)
    assert table.service.public["phase"] == "idle" and table.service.seq == 0

    status, answer = step(phones[2], **start, confirm=True)
    assert status == 200 and answer["ok"]
    pub = table.service.public
    assert pub["players"] == chosen and pub["base"] == 5 and pub["rules"] == {"seven_pairs": True}
    assert events(table)[-1] == (start, "phone 2 tap")  # the seat that started it
    assert step(phones[1], type="seating")[1]["ok"]  # the phones kept their seats
    table.call({"type": "score_hand", "winner": 2, "how": "self_drawn"})  # a hand played
    assert step(phones[0], **start, confirm=True)[1]["code"] == "phone.session_on"  # never over a played one
    assert keeping(phones[0])["form"] is None


def test_one_name_at_two_seats_is_refused_from_a_phone_and_nothing_is_journaled(table: Table) -> None:
    """The engine's rule (one player, one seat), asked by the phone's form: refused in words,
    with the engine's code, before anything reaches the journal or the roster."""
    phones = table.join(NAMES)
    for players, name in ((["阿强", "Bo", " 阿强", "Di"], "阿强"), (["Ann", "Bo", "Cy", "ann"], "ann")):
        status, answer = step(phones[1], type="new_session", confirm=True, players=players)
        assert status == 400 and answer["code"] == "seat.same_name", answer
        assert answer["zh"] == f"两位玩家同名：{name}" and answer["en"] == f"Two players have the same name: {name}"
    assert table.service.seq == 0 and table.service.public["phase"] == "idle"
    assert list(table.journal.records()) == []


def test_a_phone_replaces_a_session_nobody_has_played_a_hand_in_with_one_tap_once(table: Table) -> None:
    """Issue 40 item 3: as the touchscreen does, a bound phone starts again over an unplayed
    session (to fix its base): the form's steps — its undo, then the new session — sent once for
    the tap, however often the phone asks; a played session stays the touchscreen's."""
    table.call({"type": "new_session", "players": NAMES, "base": 2})  # (at the table)
    phones = table.join()
    table.call(SEATING)  # seated, the first bets not in: nobody has played
    view = phone_view(phones[1])
    assert view["steps"]["new_session"] and view["keeping"]["form"]["way"] == "replace"
    assert view["keeping"]["form"]["names"] == NAMES and view["keeping"]["form"]["base"] == 2
    assert step(phones[1], type="new_session", base=5)[1]["code"] == "phone.confirm"  # its second tap still needed
    seq = table.service.seq
    body = {"type": "new_session", "confirm": True, "base": 5, "tap": "replacetap1"}
    status, answer = step(phones[1], **body)
    assert status == 200 and answer["ok"], answer
    assert step(phones[1], **body) == (200, answer)  # the same tap again: its answer, nothing sent twice
    pub = table.service.public
    assert pub["phase"] == "seating" and pub["base"] == 5 and pub["players"] == NAMES
    assert events(table)[-2:] == [(None, "phone 1 tap"), ({"type": "new_session", "players": NAMES, "base": 5},
                                                           "phone 1 tap")]
    records = list(table.journal.records())
    assert [r.kind for r in records if r.seq > seq] == ["undo", "event"] and records[-2].target == 0  # (to 0)
    active = table.journal.timeline().active
    assert [e["type"] for e in table.journal.events(active)] == ["new_session"]  # one session, not two
    assert step(phones[0], type="seating")[1]["ok"]  # the phones kept their seats
    table.call({"type": "score_hand", "winner": 0, "how": "self_drawn"})  # played now
    assert step(phones[1], **{**body, "tap": "replacetap2"})[1]["code"] == "phone.session_on"
    assert not phone_view(phones[1])["steps"]["new_session"] and table.service.public["base"] == 5


def test_a_roster_tap_is_answered_by_the_form_and_anything_else_refused_short(table: Table) -> None:
    phones = table.join(NAMES)
    status, answer, _ = phones[0].request("POST", "/phone/0/pick", {"names": NAMES, "place": 3, "name": " Ana"})
    assert status == 200 and answer == {"ok": True, "names": ["王小明", "Zoë", "李雷", "Ana"], "place": 0, "seated": []}
    for body, raw, code in (({"names": NAMES, "place": 9, "name": "Bo"}, None, "invalid"), ([1], None, "invalid"),
                            (None, b"\xff{", "invalid"), ({"names": NAMES, "place": 0, "name": "B\x1bo"}, None,
                                                          "invalid.text")):
        status, answer, _ = phones[0].request("POST", "/phone/0/pick", body, raw=raw)
        assert status == 400 and answer["code"] == code and answer["zh"] and answer["en"], (body, answer)
    assert phones[0].request("POST", "/phone/1/pick", {"names": NAMES, "place": 0, "name": "Bo"})[0] == 401
    assert table.service.seq == 0


def test_the_fullest_form_fits_a_phones_body(table: Table) -> None:
    """Every rule changed, four names as wide as a screen takes, the largest base: the body a
    page sends stays within the server's 1 KiB."""
    phones = table.join()
    form = keeping(phones[0])["form"]
    rules = {r["option"]: r["values"][-1]["value"] for r in form["rules"]}
    names = ["欧阳司马诸葛上官", "Maximilianus", "令狐东方皇甫慕容", "😀😀😀😀😀😀😀😀"]
    body = {"type": "new_session", "confirm": True, "players": names, "base": MAX_AMOUNT, "rules": rules,
            "tap": "f" * 24}
    assert len(json.dumps(body, ensure_ascii=False).encode()) < MAX_BODY
    status, answer, _ = phones[0].request("POST", "/phone/0/table", raw=json.dumps(body, ensure_ascii=False).encode())
    assert status == 200 and answer["ok"], answer
    assert table.service.public["rules"] == rules and table.service.public["players"] == names


def test_a_form_left_as_it_came_starts_with_the_phones_names_and_the_last_rules(table: Table) -> None:
    phones = table.join(NAMES)
    assert step(phones[0], type="new_session", confirm=True)[1]["ok"]
    assert table.service.public["players"] == NAMES and table.service.public["base"] == 1
    table.call({"type": "end_session"})
    assert step(phones[0], type="new_session", confirm=True, base=3, rules={"bet_unit": 2})[1]["ok"]
    table.call({"type": "end_session"})
    form = keeping(phones[1])["form"]
    assert form["base"] == 3 and {r["option"]: r["now"] for r in form["rules"]}["bet_unit"] == 2  # None, 1, 2, 5
    assert step(phones[1], type="new_session", confirm=True)[1]["ok"]
    assert table.service.public["rules"] == {"bet_unit": 2} and table.service.public["base"] == 3


def test_each_seat_bets_from_its_phone_and_the_table_gets_the_bets_when_all_four_are_in(table: Table) -> None:
    table.call({"type": "new_session", "players": NAMES, "base": 1})
    table.call(SEATING)
    phones = table.join()
    bets = keeping(phones[3])["bets"]
    assert bets == {"stage": "open", "names": NAMES, "entered": [None] * 4, "held": [0] * 4, "missing": NAMES,
                    "max": MAX_AMOUNT, "step": 1}
    seq = table.service.seq

    status, answer = step(phones[0], type="bet", amount=2)
    assert status == 200 and answer["ok"] and answer["seq"] is None  # kept: three bets still to come
    assert keeping(phones[3])["bets"]["missing"] == NAMES[1:] and keeping(phones[3])["bets"]["entered"][0] == 2
    assert step(phones[1], type="bet", seat=2, amount=1) == (403, step(phones[1], type="bet", seat=2, amount=1)[1])
    assert step(phones[1], type="bet", seat=2, amount=1)[1]["code"] == "phone.not_your_bet"
    assert step(phones[1], page=2, type="bet", amount=1)[0] == 401  # another seat's page: not its binding
    assert step(Phone(table.pages), page=1, type="bet", amount=1)[0] == 401  # no binding at all
    for amount in (-1, 1.5, True, "3元", "-3", None, MAX_AMOUNT + 1, 10**40):
        status, answer = step(phones[1], type="bet", amount=amount)
        assert status == 400 and answer["code"] == "invalid.bet", (amount, answer)
    assert step(phones[1], type="bet")[1]["code"] == "invalid.bet"
    assert step(phones[1], type="bet", amount=1, what=1)[1]["code"] == "invalid"
    assert table.service.seq == seq and keeping(phones[0])["bets"]["entered"] == [2, None, None, None]

    assert step(phones[1], type="bet", amount=0)[1]["ok"]
    assert step(phones[2], type="bet", seat=2, amount="３")[1]["ok"]  # (its own seat named: fine; a zh keyboard's 3)
    status, answer, _ = phones[3].request("POST", "/phone/3/table", {"type": "bet", "amount": 1, "tap": "t" * 24})
    assert status == 200 and answer["ok"] and answer["seq"] == seq + 1  # the fourth: the table takes the bets
    assert phones[3].request("POST", "/phone/3/table", {"type": "bet", "amount": 1, "tap": "t" * 24})[1] == answer
    assert events(table)[seq:] == [({"type": "bets", "bets": [2, 0, 3, 1]}, "phone 3 tap")]  # once
    assert table.service.public["bets"] == [2, 0, 3, 1]
    assert keeping(phones[0])["bets"] == {"stage": "in", "names": NAMES, "entered": [2, 0, 3, 1],
                                          "held": [2, 0, 3, 1], "missing": [], "max": MAX_AMOUNT, "step": 1}

    assert step(phones[2], type="bet", amount=4)[1]["ok"]  # changed before the roll: the table follows
    assert table.service.public["bets"] == [2, 0, 4, 1] and table.service.seq == seq + 2
    assert phones[0].press(type="press", button="DICE")[1]["ok"]  # the dealer rolls
    assert keeping(phones[2])["bets"] is None
    assert step(phones[2], type="bet", amount=5)[1]["code"] == "phone.bets_closed"
    assert table.service.public["bets"] == [2, 0, 4, 1]


def test_a_new_hand_starts_with_no_bets_entered(table: Table) -> None:
    table.call({"type": "new_session", "players": NAMES, "base": 1})
    table.call(SEATING)
    phones = table.join()
    assert step(phones[0], type="bet", amount=2)[1]["ok"]
    table.call({"type": "score_hand", "winner": 1, "how": "self_drawn"})  # (only 只记分: the bets were not in)
    assert keeping(phones[0])["bets"] is None  # hand over
    table.call({"type": "next_hand"})
    assert keeping(phones[0])["bets"]["entered"] == [None] * 4
    for seat in (1, 2, 3):
        assert step(phones[seat], type="bet", amount=1)[1]["seq"] is None  # seat 0's bet was the last hand's


def test_a_new_session_asks_first_and_the_last_session_stays_readable(tmp_path: Path) -> None:
    table = Table(tmp_path / "j.sqlite3")
    try:
        table.call({"type": "new_session", "players": NAMES, "base": 2})
        table.call(SEATING)
        phones = table.join()
        assert keeping(phones[0])["last"] is None  # the first session: no last one
        table.call({"type": "score_hand", "winner": 2, "how": "self_drawn"})
        table.call({"type": "end_session"})
        ended = table.service.public
        assert step(phones[1], type="new_session")[1]["code"] == "phone.confirm"  # one tap: nothing
        assert table.service.public == ended and ended["settle_up"]
        assert step(phones[1], type="new_session", confirm=True)[1]["ok"]
        assert table.service.public["phase"] == "seating" and table.service.public["scores"] == [0] * 4
        assert until(lambda: keeping(phones[3])["last"] is not None)
        last = keeping(phones[3])["last"]
        assert last["final"] == final_view(ended)  # worded as the end of a session is, on every screen
        assert last["final"]["ranking"][0]["line"] == {"zh": "第1名 李雷 +12", "en": "#1 李雷 +12"}
        assert [r["line"]["en"] for r in last["final"]["ranking"][1:]] == ["#2 王小明 -4", "#2 Ana -4", "#2 Zoë -4"]
        assert last["final"]["settle"] == [{"zh": z, "en": e} for z, e in
                                           zip(settle_lines(ended, "zh"), settle_lines(ended, "en"), strict=True)]
        assert last["final"]["ended"] is True and last["yours"] == settle_up_lines(ended, 3)
        assert keeping(phones[2])["last"]["yours"] == settle_up_lines(ended, 2)  # each seat its own payments
    finally:
        table.close()
    again = Table(tmp_path / "j.sqlite3")  # a restart: the last session is read from the journal
    try:
        phones = again.join()
        assert until(lambda: keeping(phones[0])["last"] == last)
        again.call({"type": "undo"})  # the new session taken back: the first is the one in effect again
        assert until(lambda: keeping(phones[0])["last"] is None)
        assert again.service.public["phase"] == "ended"
    finally:
        again.close()
