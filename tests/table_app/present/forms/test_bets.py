"""The bets form (``table_app.present.forms.bets``), the one the phones' bets and the touchscreen's
− and + follow: what it offers at each stage (open, in, closed), one amount checked (full-width
digits taken), − and + within the bounds, the phones' ``bets`` command once all four are in and
the touchscreen's before the roll, and its refusals named in both languages."""

from __future__ import annotations

from typing import Any

import pytest

from engine.authority import bets_stage
from engine.fields import MAX_AMOUNT
from engine.public import PublicState, public_state
from engine.table import replay
from table_app.present.forms import bets
from table_app.present.forms.refused import Refused

START = [{"type": "new_session", "players": ["Ann", "Bo", "Cy", "Di"], "base": 1},
         {"type": "seating", "method": "C", "east": 0}]
IN = {"type": "bets", "bets": [2, 0, 3, 1]}
ROLLED = {"type": "roll", "dice": [4, 6]}


def public(*more: dict[str, Any]) -> PublicState:
    return public_state(replay([*START, *more]))


def test_the_form_offers_each_seats_bet_whose_are_missing_and_its_bounds_while_bets_are_open() -> None:
    pub = public()
    assert bets_stage(pub) == "open" and bets.open_now(pub)
    assert bets.offer(pub, {1: 5, 3: 0}) == {
        "stage": "open", "names": ["Ann", "Bo", "Cy", "Di"], "entered": [None, 5, None, 0], "held": [0, 0, 0, 0],
        "missing": ["Ann", "Cy"], "max": MAX_AMOUNT, "step": bets.STEP}
    offered = bets.offer(public(IN), dict(enumerate([2, 0, 3, 1])))
    assert offered is not None and (offered["stage"], offered["held"], offered["missing"]) == ("in", [2, 0, 3, 1], [])
    assert bets.offer(public(IN, ROLLED), {}) is None and not bets.open_now(public(IN, ROLLED))  # rolled: closed
    assert bets.offer(public_state(replay(START[:1])), {}) is None  # seating: no hand to bet on


@pytest.mark.parametrize(("typed", "bet"), [(0, 0), (7, 7), ("12", 12), ("１２", 12), (" 1,000 ", 1000),
                                            (MAX_AMOUNT, MAX_AMOUNT)])
def test_one_amount_is_whole_points_and_a_chinese_keyboards_digits_are_taken(typed: object, bet: int) -> None:
    assert bets.amount(typed) == bet


@pytest.mark.parametrize("typed", [-1, 1.5, True, None, "", "2.5", "-3", "3注", MAX_AMOUNT + 1, 10**40, [3]])
def test_a_bad_amount_is_refused_in_both_languages(typed: object) -> None:
    refused = bets.amount(typed)
    assert isinstance(refused, Refused) and (refused.code, refused.reason) == ("invalid.bet", "malformed")
    assert refused.both() == {"zh": "注是 0 到 1,000,000 的整数", "en": "A bet is a whole number, 0 to 1,000,000"}


def test_minus_and_plus_step_within_zero_and_the_bound() -> None:
    assert [bets.step(n, up) for n, up in ((0, False), (0, True), (3, False), (MAX_AMOUNT, True))] == \
        [0, bets.STEP, 3 - bets.STEP, MAX_AMOUNT]


def test_a_phones_bet_is_its_own_seats_while_bets_are_open() -> None:
    pub = public()
    assert bets.entry(2, {"type": "bet", "amount": 4}, pub) == 4
    assert bets.entry(2, {"type": "bet", "amount": 4, "seat": 2}, pub) == 4
    cases: list[tuple[dict[str, object], PublicState, str, str, str | None, str | None]] = [
        ({"type": "bet", "amount": 4, "seat": 1}, pub, "phone.not_your_bet", "not_yours",
         "每个手机只下自己的注", "A phone bets for its own seat only"),
        ({"type": "bet", "amount": 4, "seat": True}, pub, "phone.not_your_bet", "not_yours",
         "每个手机只下自己的注", "A phone bets for its own seat only"),
        ({"type": "bet", "amount": 4}, public(IN, ROLLED), "phone.bets_closed", "not_now",
         "现在不下注（下注在一局开始、庄家掷骰之前）", "No bets now (bets come before the dealer's first roll)"),
        ({"type": "bet", "amount": 4, "colour": 1}, pub, "invalid", "malformed", None, None),
        ({"type": "bet", "amount": "x"}, pub, "invalid.bet", "malformed",
         "注是 0 到 1,000,000 的整数", "A bet is a whole number, 0 to 1,000,000"),
    ]
    for data, state, code, reason, zh, en in cases:
        refused = bets.entry(2, data, state)
        assert isinstance(refused, Refused) and (refused.code, refused.reason) == (code, reason), data
        if zh is not None:
            assert (refused.words("zh"), refused.words("en")) == (zh, en)


def test_the_phones_command_comes_once_all_four_are_in_and_again_only_if_one_changes() -> None:
    pub = public()
    assert bets.command({0: 2, 1: 0, 2: 3}, pub) is None  # one still to come
    assert bets.command({0: 0, 1: 0, 2: 0, 3: 0}, pub) == {"type": "bets", "bets": [0, 0, 0, 0]}  # (the event: in)
    held = public(IN)
    assert bets.command({0: 2, 1: 0, 2: 3, 3: 1}, held) is None  # the table holds them already
    assert bets.command({0: 2, 1: 0, 2: 4, 3: 1}, held) == {"type": "bets", "bets": [2, 0, 4, 1]}
    assert bets.command({0: 2, 1: 0, 2: 4, 3: 1}, public(IN, ROLLED)) is None  # rolled: closed


def test_the_touchscreens_bets_go_before_the_roll_when_they_differ_from_the_tables() -> None:
    pub = public()
    assert bets.before_roll([0, 0, 0, 0], pub) is None  # (the roll makes them count)
    assert bets.before_roll([1, 0, 0, 2], pub) == {"type": "bets", "bets": [1, 0, 0, 2]}
    assert bets.before_roll([2, 0, 3, 1], public(IN)) is None
    assert bets.before_roll([2, 0, 3, 2], public(IN)) == {"type": "bets", "bets": [2, 0, 3, 2]}
    assert bets.before_roll([5, 5, 5, 5], public(IN, ROLLED)) is None
