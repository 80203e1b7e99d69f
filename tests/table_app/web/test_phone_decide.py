"""Each seat decides its own, over real HTTP (issue 27): another seat's confirmation, 诈胡 and
undo are refused or put up for a second seat; the winner's own pass; 诈胡 stands with the
winner's or a second seat's agreement; an undo by the seat that made the last step (confirmed
on its phone) or by two seats, told on every phone; a 碰 tapped three times recorded once; two
hands entered result-only from phones pay what the same ``score_hand`` events pay."""

from __future__ import annotations

import http.client
import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.scored import ScoredKong, score_hand
from table_app.core.service import ManualClock, TableService
from table_app.journal.journal import Journal
from table_app.web.server import SeatPages
from tests.table_app.web.test_phones import START, Phone, table, token_of

__all__ = ["table"]  # (the fixture, shared with test_phones)

DEAL = [{"type": "roll", "dice": [4, 6]}, {"type": "roll", "dice": [2, 3]}]  # seat 0 deals, then plays


def seated(pages: SeatPages) -> list[Phone]:
    phones = [Phone(pages) for _ in range(4)]
    for seat, phone in enumerate(phones):
        assert phone.join(token_of(pages), seat, f"P{seat}")[1]["ok"]
    return phones


def step(phone: Phone, **body: Any) -> tuple[int, Any]:
    status, answer, _ = phone.request("POST", f"/phone/{phone.seat}/table", body)
    return status, answer


def view(phone: Phone) -> dict[str, Any]:
    """The phone's view: the first frame of its event stream."""
    conn = http.client.HTTPConnection(phone.host, phone.port, timeout=10)
    conn.request("GET", f"/phone/{phone.seat}/events", headers={"Cookie": phone.cookie})
    r = conn.getresponse()
    assert r.status == 200
    lines = []
    while not (line := r.fp.readline().decode()).startswith("data: "):
        lines.append(line)
    conn.close()
    return json.loads(line[len("data: "):])  # type: ignore[no-any-return]


def sources(service: TableService, n: int) -> list[str]:
    return [re.sub(r"tap \w+", "tap", r.source) for r in service._journal.records()][-n:]


def deal(service: TableService) -> None:
    for ev in DEAL:
        assert service.call(ev, "touch", timeout=10).ok


def test_another_seats_confirm_is_refused_and_its_false_win_only_proposed(
        table: tuple[TableService, SeatPages]) -> None:
    service, pages = table
    phones = seated(pages)
    deal(service)
    assert phones[0].press(type="press", button="HU")[1]["ok"]  # the dealer's 天胡, declared
    status, answer = step(phones[2], type="confirm_win", wait="single")
    assert (status, answer["code"]) == (403, "decide.winner_only") and answer["zh"] == "只有胡牌的P0能确认"
    status, answer = step(phones[2], type="reject_win")
    assert status == 200 and answer["proposed"] == "reject_win" and service.public["phase"] == "win_pending"
    assert step(phones[2], type="agree", kind="reject_win")[1]["code"] == "decide.second"  # (its own: not enough)
    assert step(phones[3], type="reject_win")[1]["code"] == "decide.open"  # one proposal of a kind at a time
    seen = view(phones[0])["decide"]["proposals"]
    assert 50 < seen[0].pop("left") <= 60  # (it lapses after 60 s)
    assert seen == [{"kind": "reject_win", "by": 2, "what": {"zh": "诈胡：P0的胡", "en": "False win: P0's"},
                     "by_words": {"zh": "P2提议", "en": "P2 proposes"}, "mine": False, "decides": True}]
    assert view(phones[2])["decide"]["proposals"][0]["mine"] is True
    assert step(phones[0], type="confirm_win", wait="plain")[1]["ok"]  # the winner's own: at once
    assert service.public["phase"] == "hand_over" and view(phones[1])["decide"]["proposals"] == []  # (it lapsed)
    assert sources(service, 1) == ["phone 0 tap"]


@pytest.mark.parametrize("second", [0, 3])
def test_a_false_win_called_by_another_stands_with_the_winners_or_a_second_seats_agreement(
        table: tuple[TableService, SeatPages], second: int) -> None:
    service, pages = table
    phones = seated(pages)
    deal(service)
    assert phones[0].press(type="press", button="HU")[1]["ok"]
    assert step(phones[1], type="reject_win")[1]["proposed"] == "reject_win"
    assert step(phones[2], type="refuse", kind="undo")[1]["code"] == "decide.none"
    status, answer = step(phones[second], type="agree", kind="reject_win")
    assert status == 200 and answer["ok"]
    assert service.public["phase"] == "turn" and service.public["turn"] == 0
    assert sources(service, 1) == [f"phone {second} tap agrees phone 1"]  # both seats in the journal


def test_the_winner_takes_back_its_own_false_win_and_a_refused_proposal_is_gone(
        table: tuple[TableService, SeatPages]) -> None:
    service, pages = table
    phones = seated(pages)
    deal(service)
    assert phones[0].press(type="press", button="HU")[1]["ok"]
    assert step(phones[3], type="reject_win")[1]["ok"]
    assert step(phones[2], type="refuse", kind="reject_win")[1] == {"ok": True, "dropped": "reject_win"}
    assert step(phones[1], type="agree", kind="reject_win")[1]["code"] == "decide.none"
    assert step(phones[0], type="reject_win")[1]["ok"] and service.public["phase"] == "turn"


def test_undo_by_the_seat_that_made_the_last_step_is_confirmed_on_its_phone_and_told_everywhere(
        table: tuple[TableService, SeatPages]) -> None:
    service, pages = table
    phones = seated(pages)
    deal(service)
    assert phones[0].press(type="press", button="TURN")[1]["ok"]  # P0 discards
    assert service.public["phase"] == "claims"
    status, answer = phones[0].press(type="press", button="TURN", held=True)  # a held TURN: undo, asked first
    assert status == 200 and answer["proposed"] == "undo" and service.public["phase"] == "claims"
    mine = view(phones[0])["decide"]["proposals"][0]
    assert mine["what"] == {"zh": "撤销：P0 出牌", "en": "Undo: P0 discards"} and mine["mine"] and mine["decides"]
    assert step(phones[0], type="agree", kind="undo")[1]["ok"]  # its own confirmation
    assert service.public["phase"] == "turn" and service.public["turn"] == 0
    for phone in phones:
        assert view(phone)["decide"]["undone"] == {"zh": "撤销了：P0 出牌（P0确认）",
                                                   "en": "Undone: P0 discards (confirmed by P0)"}
    assert phones[1].request("GET", "/table.json?lang=en")[1]["undone"] == "Undone: P0 discards (confirmed by P0)"
    assert phones[0].press(type="press", button="TURN")[1]["ok"]  # the next step: the notice is gone
    assert view(phones[1])["decide"]["undone"] is None and phones[1].request("GET", "/table.json")[1]["undone"] is None
    assert sources(service, 2)[0] == "phone 0 tap press 0:TURN:held"  # (the undo record: its own confirmation)


def test_undo_of_another_seats_step_needs_a_second_seat(table: tuple[TableService, SeatPages]) -> None:
    service, pages = table
    phones = seated(pages)
    deal(service)
    assert phones[0].press(type="press", button="TURN")[1]["ok"]
    assert step(phones[2], type="undo")[1]["proposed"] == "undo"
    assert view(phones[2])["decide"]["proposals"][0]["decides"] is False  # (its own agreement is not enough)
    assert step(phones[2], type="agree", kind="undo")[1]["code"] == "decide.second"
    assert service.public["phase"] == "claims"
    assert step(phones[3], type="agree", kind="undo")[1]["ok"]
    assert service.public["phase"] == "turn"
    assert sources(service, 1) == ["phone 3 tap press 3:TURN:held agrees phone 2 tap press 2:TURN:held"]


def test_a_proposal_lapses_when_the_table_moves_on_and_an_undo_never_takes_a_newer_step(
        table: tuple[TableService, SeatPages]) -> None:
    service, pages = table
    phones = seated(pages)
    deal(service)
    assert phones[0].press(type="press", button="TURN")[1]["ok"]
    assert step(phones[2], type="undo")[1]["ok"]
    assert phones[2].press(type="pass")[1]["ok"]  # the table moves on
    assert step(phones[3], type="agree", kind="undo")[1]["code"] == "decide.none"
    last = service._timeline.active[-1]
    assert not service.call({"type": "undo", "last": last - 1}, "test", timeout=10).ok  # (the service's guard)
    assert service.call({"type": "undo", "last": last - 1}, "test", timeout=10).code == "undo.moved"


def test_a_peng_tapped_three_times_is_recorded_once(table: tuple[TableService, SeatPages]) -> None:
    service, pages = table
    phones = seated(pages)
    deal(service)
    assert phones[0].press(type="press", button="TURN")[1]["ok"]
    answers = [phones[2].press(type="press", button="PENG")[1] for _ in range(3)]  # three taps, three ids
    assert answers[0]["ok"] and [a["code"] for a in answers[1:]] == ["press.again", "press.again"]
    assert answers[1]["zh"] == "P2已经碰了，按一次就够"
    assert answers[1]["en"] == "P2 has already called pong: once is enough"
    claims = [r for r in service._journal.records() if r.event and r.event["type"] == "claim"]
    assert len(claims) == 1


HANDS = [
    ({"winner": 2, "how": "self_drawn", "wait": "closed"}, score_hand(2, "self_drawn", wait="closed")),
    ({"winner": 1, "how": "self_drawn", "extra": "kong_bloom", "kongs": [{"seat": 1, "kind": "concealed"}],
      "wait": "plain"}, score_hand(1, "self_drawn", extra="kong_bloom", kongs=[ScoredKong(1, "concealed")])),
]


def test_two_hands_entered_result_only_from_phones_pay_as_score_hand_does(
        table: tuple[TableService, SeatPages], tmp_path: Path) -> None:
    service, pages = table
    phones = seated(pages)
    offer = view(phones[1])["decide"]["entry"]
    assert offer["extras"]["0:self_drawn:none"] == ["heavenly"]
    assert offer["extras"]["1:self_drawn:own"] == ["kong_bloom"]
    for n, (form, _) in enumerate(HANDS):
        proposer, second = phones[n], phones[(n + 2) % 4]
        assert step(proposer, type="score_hand", winner=3, how="discard", discarder=3)[1]["code"] == "decide.bad_entry"
        status, answer = step(proposer, type="score_hand", **form)
        assert status == 200 and answer["proposed"] == "score_hand" and service.public["phase"] == "betting"
        assert view(second)["decide"]["proposals"][0]["what"]["zh"].startswith("只记分：")
        assert step(proposer, type="agree", kind="score_hand")[1]["code"] == "decide.second"
        assert step(second, type="agree", kind="score_hand")[1]["ok"]
        assert service.public["phase"] == "hand_over"
        assert step(proposer, type="score_hand", **form)[1]["code"] == "decide.not_now"
        assert step(phones[3], type="next_hand")[1]["ok"]
    journal = Journal.open(tmp_path / "direct.sqlite3")
    direct = TableService(journal, clock=ManualClock()).start()
    try:
        for ev in [*START, HANDS[0][1].to_json(), {"type": "next_hand"}, HANDS[1][1].to_json(), {"type": "next_hand"}]:
            assert direct.call(ev, "touch", timeout=10).ok
        assert direct.public["scores"] == service.public["scores"] != [0, 0, 0, 0]
        assert direct.public["results"] == service.public["results"]
    finally:
        direct.stop()
        journal.close()


def test_a_stranger_decides_nothing(table: tuple[TableService, SeatPages]) -> None:
    _, pages = table
    seated(pages)
    stranger = Phone(pages)
    stranger.seat = 1
    for body in ({"type": "undo"}, {"type": "agree", "kind": "undo"}, {"type": "reject_win"}):
        assert step(stranger, **body)[0] == 401


def test_a_buttons_held_turn_is_put_up_on_the_phones_and_a_phone_agrees_to_it(
        table: tuple[TableService, SeatPages]) -> None:
    """Issue 28: one set of proposals for every input — a wired button's held TURN is on every
    phone, and a phone's 同意 is the second seat."""
    service, pages = table
    phones = seated(pages)
    deal(service)
    assert phones[0].press(type="press", button="TURN")[1]["ok"]  # P0 discards
    answer = service.call({"type": "press", "seat": 1, "button": "TURN", "held": True}, "gpio", timeout=10)
    assert answer.ok and answer.proposal is not None and service.public["phase"] == "claims"
    seen = view(phones[2])["decide"]["proposals"]
    assert [(p["kind"], p["by"], p["what"]["en"], p["decides"]) for p in seen] == [
        ("undo", 1, "Undo: P0 discards", True)]
    assert step(phones[2], type="agree", kind="undo")[1]["ok"]
    assert service.public["phase"] == "turn" and service.public["turn"] == 0
    assert sources(service, 1) == ["phone 2 tap press 2:TURN:held agrees gpio press 1:TURN:held"]
    assert view(phones[0])["decide"]["undone"]["en"] == "Undone: P0 discards (proposed by P1, agreed by P2)"
