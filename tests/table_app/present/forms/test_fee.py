"""The table fee's form (``table_app.present.forms.fee``), the one the touchscreen's fee screen
draws: what it offers, how each field is checked (in both languages), what − and + do — an empty
field and a decimal included (they did nothing before) — and the ``fee`` command it builds."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from engine.fees import FEE_MODES, FEE_PAYERS, FeeSetting
from engine.public import PublicState, public_state
from engine.table import replay
from table_app.present.forms.fee import AMOUNTS, MODES, PAYERS, STEPS, FeeForm, check, command, enabled, fields, step
from table_app.present.forms.refused import Refused


def form(mode: str = "hand", payer: str = "aa", **texts: str) -> FeeForm:
    return {"mode": mode, "payer": payer, "texts": {k: texts.get(k, "") for k in AMOUNTS}}


def test_the_form_offers_every_mode_and_payer_the_engine_has_and_a_step_for_each_amount() -> None:
    assert ("none", *FEE_MODES) == MODES and PAYERS == FEE_PAYERS
    assert set(STEPS) == set(AMOUNTS) == {"rate", "min", "cap", "tea"} and all(v > 0 for v in STEPS.values())
    assert not enabled(fields(None)) and enabled(form())


def test_the_form_is_filled_from_the_setting_in_force_and_gives_it_back() -> None:
    setting = FeeSetting("hour", 30, min=60, cap=100, payer="big_winner", tea=5).to_json()
    assert fields(setting) == {"mode": "hour", "payer": "big_winner",
                               "texts": {"rate": "30", "min": "60", "cap": "100", "tea": "5"}}
    assert check(fields(setting)) == setting
    assert fields(None) == {"mode": "none", "payer": "aa", "texts": {"rate": "30", "min": "", "cap": "", "tea": ""}}
    assert check(fields(None)) is None


@pytest.mark.parametrize(("texts", "zh", "en"), [
    ({"rate": "", "min": "", "cap": "", "tea": ""}, "单价还没填", "Rate is not filled in"),  # (said, not a bare colon)
    ({"rate": "-5", "min": "", "cap": "", "tea": ""}, "单价要是 0 到 1,000,000 的整数：-5",
     "Rate is a whole number 0 to 1,000,000: -5"),
    ({"rate": "30", "min": "", "cap": "", "tea": "2元"}, "茶水/人要是 0 到 1,000,000 的整数：2元",
     "Tea each is a whole number 0 to 1,000,000: 2元"),
    ({"rate": "30", "min": "", "cap": "1.5", "tea": ""}, "封顶要是 0 到 1,000,000 的整数：1.5",
     "Cap is a whole number 0 to 1,000,000: 1.5"),
    ({"rate": "30", "min": "2000000", "cap": "", "tea": ""}, "最低要是 0 到 1,000,000 的整数：2000000",
     "Minimum is a whole number 0 to 1,000,000: 2000000"),
    ({"rate": "30", "min": "90", "cap": "60", "tea": ""}, "最低不能高于封顶", "The minimum cannot be above the cap"),
])
def test_the_form_refuses_bad_amounts_in_both_languages(texts: dict[str, str], zh: str, en: str) -> None:
    refused = check({"mode": "hour", "payer": "aa", "texts": texts})
    assert isinstance(refused, Refused) and refused.reason == "malformed"
    assert (refused.words("zh"), refused.words("en")) == (zh, en)


def test_the_form_takes_the_full_width_digits_of_a_chinese_keyboard() -> None:
    setting = check(form("hour", rate="３０", min="１，０００", tea="５"))
    assert isinstance(setting, Mapping)
    assert (setting["rate"], setting["min"], setting["tea"]) == (30, 1000, 5)


def test_the_form_makes_the_engines_setting() -> None:
    setting = check({"mode": "round", "payer": "winners",
                     "texts": {"rate": " 20 ", "min": "40", "cap": "1,000", "tea": ""}})
    assert setting == FeeSetting("round", 20, min=40, cap=1000, payer="winners").to_json()



@pytest.mark.parametrize(("key", "up", "text", "after"), [
    ("rate", True, "", "5"), ("rate", False, "", "0"),  # (an empty field counts as 0: + and − did nothing)
    ("tea", True, "", "1"), ("min", True, "", "10"),
    ("tea", True, "1.5", "2"), ("tea", False, "1.5", "1"),  # (a decimal goes to the whole number: did nothing)
    ("rate", True, "2.5", "7"), ("rate", False, "2.5", "0"), ("rate", True, "１．５", "6"),
    ("rate", True, "30", "35"), ("rate", False, "3", "0"), ("min", False, "1,000", "990"),
    ("cap", True, "", "40"), ("cap", False, "", ""), ("cap", False, "5", ""), ("cap", True, "60", "70"),
    ("rate", True, "2元", "2元"), ("rate", False, "-5", "-5"),  # (not a number: kept, the check says why)
    ("rate", True, "1000000", "1000000"),  # (the bound)
])
def test_minus_and_plus(key: str, up: bool, text: str, after: str) -> None:
    f = form(min="40")
    f["texts"][key] = text
    assert step(f, key, up) == after


def playing(fee: dict[str, object] | None = None) -> PublicState:
    first: dict[str, object] = {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}
    if fee is not None:
        first["fee"] = fee
    return public_state(replay([first, {"type": "seating", "method": "C", "east": 0}]))


def test_the_command_is_the_fee_event_or_a_named_refusal() -> None:
    pub = playing()
    assert command(form("hour", "aa", rate="30", tea="5"), pub) == {
        "type": "fee", "fee": {"mode": "hour", "rate": 30, "min": 0, "cap": None, "payer": "aa", "tea": 5}}
    assert command(fields(None), playing({"mode": "hand", "rate": 5})) == {"type": "fee", "fee": None}
    same = command(form("hand", rate="5"), playing({"mode": "hand", "rate": 5}))
    assert isinstance(same, Refused) and same.code == "fee.already"
    bad = command(form(rate="x"), pub)
    assert isinstance(bad, Refused) and bad.code == "fee.bad_number"
    ended = public_state(replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
                                 {"type": "end_session"}]))
    late = command(form(rate="5"), ended)
    assert isinstance(late, Refused) and (late.key, late.code) == ("fe_ended", "fee.ended")
