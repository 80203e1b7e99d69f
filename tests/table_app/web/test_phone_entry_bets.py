"""Bets and result-only entry (只记分) from phones agree (issue 27), over real HTTP with real
SeatPages and a TableService: the form's bets row starts from the bets the phones entered for
the hand, the proposal shows them and the second seat confirms them with the result, and the
``score_hand`` in the journal carries them — paying what the same event submitted directly
pays; a bad bet in the form is refused; once all four bets are in (phase ``rolling``, no roll)
a result is refused and the form offers to take the bets back (an undo of the ``bets`` event,
the undo's own rules: the seat that bet last alone, else two seats), then the result is entered
with them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.fields import MAX_AMOUNT
from engine.scored import score_hand
from table_app.core.service import ManualClock, TableService
from table_app.journal.journal import Journal
from table_app.web.server import SeatPages
from tests.table_app.web.test_phone_decide import seated, step, view
from tests.table_app.web.test_phones import START, table

__all__ = ["table"]  # (the fixture, shared with test_phones)

RESULT = {"winner": 2, "how": "discard", "discarder": 0, "wait": "closed"}  # P2 wins on P0's discard, 夹张


def scored(service: TableService) -> list[dict[str, Any]]:
    return [r.event for r in service._journal.records() if r.event and r.event["type"] == "score_hand"]


def direct_scores(tmp_path: Path, event: dict[str, object]) -> tuple[list[int], Any]:
    """The scores and results of the same ``score_hand`` submitted directly (no phones)."""
    journal = Journal.open(tmp_path / "direct.sqlite3")
    direct = TableService(journal, clock=ManualClock()).start()
    try:
        for ev in [*START, event]:
            assert direct.call(ev, "touch", timeout=10).ok
        return direct.public["scores"], direct.public["results"]
    finally:
        direct.stop()
        journal.close()


def test_a_result_entered_after_three_bets_carries_them_and_pays_as_the_same_score_hand(
        table: tuple[TableService, SeatPages], tmp_path: Path) -> None:
    service, pages = table
    phones = seated(pages)
    assert view(phones[3])["decide"]["entry"]["bets"] == [0, 0, 0, 0]  # (none entered yet)
    for phone, amount in zip(phones[:3], (5, 0, 3), strict=True):
        assert step(phone, type="bet", amount=amount)[1]["ok"]
    assert service.public["phase"] == "betting" and service.public["bets"] == [0, 0, 0, 0]  # (one still to come)
    entry = view(phones[1])["decide"]["entry"]
    assert (entry["bets"], entry["bets_max"]) == ([5, 0, 3, 0], MAX_AMOUNT)  # the form starts from them
    status, answer = step(phones[1], type="score_hand", **RESULT, bets=entry["bets"])
    assert status == 200 and answer["proposed"] == "score_hand"
    card = view(phones[3])["decide"]["proposals"][0]
    assert card["what"] == {"zh": "只记分：P2 点炮（P0） · 夹张；下注：P0 5、P2 3",
                            "en": "Result only: P2 on a discard (P0) · closed; bets: P0 5, P2 3"}
    assert step(phones[3], type="agree", kind="score_hand")[1]["ok"]  # the second seat confirms result and bets
    assert service.public["phase"] == "hand_over"
    event = score_hand(2, "discard", 0, "closed", bets=[5, 0, 3, 0]).to_json()
    assert scored(service) == [event]
    scores, results = direct_scores(tmp_path, event)
    assert service.public["scores"] == scores and service.public["results"] == results
    assert scores != list(direct_scores(tmp_path / "nobets", score_hand(2, "discard", 0, "closed").to_json())[0])


@pytest.mark.parametrize("bets", [[5, -1, 0, 0], [MAX_AMOUNT + 1, 0, 0, 0], ["5", 0, 0, 0], [1.5, 0, 0, 0],
                                  [1, 2, 3], [True, 0, 0, 0], "5"])
def test_a_bad_bet_in_the_form_is_refused(table: tuple[TableService, SeatPages], bets: object) -> None:
    service, pages = table
    phones = seated(pages)
    seq = service.seq
    status, answer = step(phones[0], type="score_hand", **RESULT, bets=bets)
    assert (status, answer["code"]) == (400, "decide.bad_bets")
    assert answer["zh"] == "下注是四家各一个0到1,000,000的整数"
    assert view(phones[1])["decide"]["proposals"] == [] and service.seq == seq


def four_bets(service: TableService, phones: list[Any], amounts: tuple[int, ...] = (2, 0, 4, 1)) -> None:
    for phone, amount in zip(phones, amounts, strict=True):
        assert step(phone, type="bet", amount=amount)[1]["ok"]
    assert service.public["phase"] == "rolling" and service.public["bets"] == list(amounts)


@pytest.mark.parametrize("taker", ["last bettor", "two seats"])
def test_once_all_four_bets_are_in_the_form_takes_them_back_and_the_result_carries_them(
        table: tuple[TableService, SeatPages], tmp_path: Path, taker: str) -> None:
    service, pages = table
    phones = seated(pages)
    four_bets(service, phones)  # phone 3's bet made the bets event: its step
    status, answer = step(phones[1], type="score_hand", **RESULT, bets=[2, 0, 4, 1])
    assert (status, answer["code"]) == (409, "decide.bets_in")
    assert answer["zh"] == "下注已经交了：要只记分，先撤回下注"
    seen = view(phones[1])["decide"]
    assert seen["entry"] is None and seen["bets_in"]["bets"] == [2, 0, 4, 1]
    assert seen["bets_in"]["words"]["zh"].startswith("下注已交（P0 2、P1 0、P2 4、P3 1），这局还没开始。")
    assert seen["last_step"] == {"zh": "下注：P0 2、P2 4、P3 1", "en": "bets: P0 2, P2 4, P3 1"}
    if taker == "last bettor":  # its own confirmation takes them back
        assert step(phones[3], type="undo")[1]["proposed"] == "undo"
        assert view(phones[3])["decide"]["proposals"][0]["decides"] is True
        assert step(phones[3], type="agree", kind="undo")[1]["ok"]
    else:  # another seat proposes, a second agrees
        assert step(phones[1], type="undo")[1]["proposed"] == "undo"
        assert step(phones[1], type="agree", kind="undo")[1]["code"] == "decide.second"
        assert step(phones[0], type="agree", kind="undo")[1]["ok"]
    assert service.public["phase"] == "betting" and service.public["bets"] == [0, 0, 0, 0]
    seen = view(phones[1])["decide"]
    assert seen["bets_in"] is None and seen["entry"]["bets"] == [2, 0, 4, 1]  # the bets taken back, to confirm
    by = {"zh": "P3确认", "en": "confirmed by P3"} if taker == "last bettor" else {
        "zh": "P1提议，P0同意", "en": "proposed by P1, agreed by P0"}  # (who took them back: issue 28)
    assert seen["undone"] == {"zh": f"撤销了：下注：P0 2、P2 4、P3 1（{by['zh']}）",
                              "en": f"Undone: bets: P0 2, P2 4, P3 1 ({by['en']})"}
    assert step(phones[2], type="bet", amount=6)[1]["ok"]  # a bet entered again: the form follows it
    assert view(phones[1])["decide"]["entry"]["bets"] == [2, 0, 6, 1]
    assert step(phones[1], type="score_hand", **RESULT, bets=[2, 0, 6, 1])[1]["proposed"] == "score_hand"
    assert step(phones[2], type="agree", kind="score_hand")[1]["ok"]
    event = score_hand(2, "discard", 0, "closed", bets=[2, 0, 6, 1]).to_json()
    assert service.public["phase"] == "hand_over" and scored(service) == [event]
    assert [r.event["type"] for r in service._journal.records() if r.event][-2:] == ["bets", "score_hand"]
    scores, _ = direct_scores(tmp_path, event)
    assert service.public["scores"] == scores


def test_the_bets_taken_back_are_forgotten_at_the_next_step(table: tuple[TableService, SeatPages]) -> None:
    service, pages = table
    phones = seated(pages)
    four_bets(service, phones, (1, 1, 1, 1))
    assert step(phones[3], type="undo")[1]["ok"] and step(phones[3], type="agree", kind="undo")[1]["ok"]
    assert view(phones[0])["decide"]["entry"]["bets"] == [1, 1, 1, 1]
    assert step(phones[0], type="score_hand", winner=None, bets=[1, 1, 1, 1])[1]["ok"]
    assert step(phones[1], type="agree", kind="score_hand")[1]["ok"]  # a drawn hand: the next step
    assert step(phones[1], type="next_hand")[1]["ok"]
    assert view(phones[0])["decide"]["entry"]["bets"] == [0, 0, 0, 0]  # (a new hand starts from nothing)
