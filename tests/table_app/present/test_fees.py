"""The table fee in words (issue 31): every mode and payer in zh and en, the house's lines
beside the settle-up (equal and unequal shares, tea, the minimum and the cap), a seat's own
share and the fee so far — from the engine's own bills (the fee form's checks: forms/test_fee.py)."""

from __future__ import annotations

import pytest

from engine.fees import FEE_MODES, FEE_PAYERS, FeeSetting, bill
from table_app.present.fees import (
    house_lines,
    next_change,
    setting_line,
    so_far_line,
    your_house,
)
from table_app.present.money import Money

NAMES = ["阿明", "Maximilianus", "阿强", "阿芳"]
RATE = {"zh": {"hour": "每小时 30", "hand": "每局 30", "round": "每圈 30", "session": "每场 30"},
        "en": {"hour": "30 an hour", "hand": "30 a hand", "round": "30 a round", "session": "30 a session"}}
PAYER = {"zh": {"aa": "AA", "big_winner": "大赢家付", "winners": "赢家按比例付"},
         "en": {"aa": "split evenly", "big_winner": "the big winner pays", "winners": "winners pay in proportion"}}


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("mode", FEE_MODES)
@pytest.mark.parametrize("payer", FEE_PAYERS)
def test_every_mode_and_payer_is_worded(lang: str, mode: str, payer: str) -> None:
    setting = FeeSetting.from_json({"mode": mode, "rate": 30, "payer": payer, "tea": 5}).to_json()
    line = setting_line(setting, lang)
    tea = "茶水 5/人" if lang == "zh" else "tea 5 each"
    assert line == f"{'台费' if lang == 'zh' else 'Table fee'} {RATE[lang][mode]} · {PAYER[lang][payer]} · {tea}"
    b = bill(FeeSetting.from_json(setting), hands=5, rounds=2, seconds=3 * 3600 - 10, scores=[30, -10, -5, -15])
    lines = house_lines(setting, b.to_json(), NAMES, lang)
    units = {"hour": 3, "hand": 5, "round": 2, "session": 1}[mode]
    assert lines[0].startswith(("台费 " if lang == "zh" else "Table fee ") + str(30 * units))
    assert lines[-1] == (f"共付店家 {30 * units + 20}（台费 {30 * units} + 茶水 20）" if lang == "zh"
                         else f"to the house in all {30 * units + 20} (table {30 * units} + tea 20)")
    assert ("每人付茶水 5" if lang == "zh" else "each pays 5 for tea") in lines


def test_equal_shares_are_one_line_and_unequal_ones_a_line_a_seat() -> None:
    setting = {"mode": "hand", "rate": 10, "min": 0, "cap": None, "payer": "aa", "tea": 0}
    even = {"mode": "hand", "units": 4, "fee": 40, "table": [10, 10, 10, 10], "tea": [0, 0, 0, 0], "total": 40}
    assert house_lines(setting, even, NAMES, "en") == ["Table fee 40 (4 hands × 10)", "each pays the house 10"]
    assert house_lines(setting, even, NAMES, "zh") == ["台费 40（4 局 × 10）", "每人付台费 10"]
    split = {**even, "units": 3, "fee": 30, "table": [0, 20, 0, 10], "total": 30}
    assert house_lines({**setting, "payer": "winners"}, split, NAMES, "en") == [
        "Table fee 30 (3 hands × 10)", "Maximilianus pays the house 20", "阿芳 pays the house 10"]
    assert house_lines({**setting, "payer": "winners"}, split, NAMES, "zh")[1:] == [
        "Maximilianus 付台费 20", "阿芳 付台费 10"]
    one = {**even, "units": 1, "fee": 12, "table": [3, 3, 3, 3], "total": 12}  # (one hand, one round: no "s")
    assert house_lines({**setting, "rate": 12}, one, NAMES, "en")[0] == "Table fee 12 (1 hand × 12)"
    assert house_lines({**setting, "mode": "round", "rate": 12}, {**one, "mode": "round"}, NAMES, "en")[0] == \
        "Table fee 12 (1 round × 12)"


def test_the_minimum_and_the_cap_are_said() -> None:
    setting = FeeSetting("hour", 30, min=60, cap=100, payer="big_winner")
    short = bill(setting, hands=2, rounds=1, seconds=600, scores=[5, -5, 0, 0]).to_json()
    assert house_lines(setting.to_json(), short, NAMES, "zh")[:2] == ["台费 60（1 小时 × 30 · 最低）", "阿明 付台费 60"]
    long = bill(setting, hands=9, rounds=3, seconds=5 * 3600, scores=[5, -5, 0, 0]).to_json()
    assert house_lines(setting.to_json(), long, NAMES, "en")[0] == "Table fee 100 (5 h × 30 · the cap)"
    assert setting_line(setting.to_json(), "en") == \
        "Table fee 30 an hour · at least 60 · at most 100 · the big winner pays"


def test_no_fee_and_nothing_owed() -> None:
    assert house_lines(None, None, NAMES, "en") == []
    setting = FeeSetting("session", 50)
    none = bill(setting, hands=0, rounds=0, seconds=60, scores=[0, 0, 0, 0]).to_json()
    assert house_lines(setting.to_json(), none, NAMES, "zh") == ["没有打完的局，不收台费"]
    assert setting_line(None, "zh") == "不收台费"


def test_money_beside_the_points() -> None:
    setting = FeeSetting("hand", 10, tea=4)
    b = bill(setting, hands=2, rounds=1, seconds=None, scores=[1, 0, 0, -1]).to_json()
    lines = [x.replace("\xa0", " ") for x in house_lines(setting.to_json(), b, NAMES, "zh", Money.of("0.5"))]
    assert lines[1] == "每人付台费 5 分（2.50 元）"
    assert lines[2] == "每人付茶水 4 分（2 元）"


def test_a_seats_own_share() -> None:
    pub = {"phase": "ended", "house": {"mode": "hand", "units": 3, "fee": 30, "table": [0, 20, 0, 10],
                                       "tea": [5, 5, 5, 5], "total": 50}}
    assert your_house(pub, 1) == [{"zh": "你付台费 20", "en": "You pay the house 20"},  # type: ignore[arg-type]
                                  {"zh": "你付茶水 5", "en": "You pay 5 for tea"}]
    assert your_house(pub, 0) == [{"zh": "你付茶水 5", "en": "You pay 5 for tea"}]  # type: ignore[arg-type]


def test_the_fee_so_far() -> None:
    pub = {"phase": "turn", "fee": {"mode": "hour", "rate": 30, "min": 0, "cap": None, "payer": "aa", "tea": 5},
           "session_hands": 1, "session_rounds": 1, "scores": [2, -2, 0, 0], "house": None}
    assert so_far_line(pub, 5400, "zh") == "台费至今 60（2 小时 × 30）+ 茶水 20"  # type: ignore[arg-type]
    assert so_far_line(pub, 5400, "en") == "Fee so far 60 (2 h × 30) + tea 20"  # type: ignore[arg-type]
    assert so_far_line(pub, None, "en") == ""  # type: ignore[arg-type]  (by the hour: the time is needed)
    assert next_change(pub, 5400) == 1801  # type: ignore[arg-type]
    assert so_far_line({**pub, "session_hands": 0}, 5400, "en") == "Fee so far 0"  # type: ignore[arg-type]
    assert so_far_line({**pub, "phase": "ended"}, 5400, "en") == ""  # type: ignore[arg-type]
    rounds = {**pub, "fee": {"mode": "round", "rate": 20, "payer": "aa"}, "session_rounds": 2}
    assert so_far_line(rounds, None, "zh") == "台费至今 40（2 圈 × 20）"  # type: ignore[arg-type]
