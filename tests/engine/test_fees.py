"""``engine.fees``: the setting's checks and the bill of every mode and payer."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.errors import InvalidEventError
from engine.fees import FEE_MODES, FEE_PAYERS, FeeSetting, bill, split, units
from engine.fields import MAX_AMOUNT


def test_setting_json_round_trip_and_defaults() -> None:
    s = FeeSetting.from_json({"mode": "hour", "rate": 30})
    assert s == FeeSetting("hour", 30, 0, None, "aa", 0)
    full = {"mode": "round", "rate": 20, "min": 10, "cap": 90, "payer": "winners", "tea": 5}
    assert FeeSetting.from_json(full).to_json() == full
    assert FeeSetting.from_json({**full, "cap": None, "min": None}).to_json() == {**full, "cap": None, "min": 0}
    assert FeeSetting.from_json(s) is s


@pytest.mark.parametrize(("obj", "words"), [
    ({"mode": "day", "rate": 1}, "'mode' must be one of hour, hand, round, session, got 'day'"),
    ({"mode": "hour", "rate": -1}, "'rate' must be a whole number 0..1,000,000, got -1"),
    ({"mode": "hour", "rate": 1.5}, "got 1.5"),
    ({"mode": "hour", "rate": True}, "got True"),
    ({"mode": "hour", "rate": MAX_AMOUNT + 1}, "got 1000001"),
    ({"mode": "hour", "rate": 10**5000}, "a number of about 5,001 digits"),
    ({"mode": "hour", "rate": 1, "cap": "10"}, "'cap' must be a whole number 0..1,000,000 or null, got '10'"),
    ({"mode": "hour", "rate": 1, "min": 50, "cap": 10}, "'min' (50) must not be above 'cap' (10)"),
    ({"mode": "hour", "rate": 1, "payer": "loser"}, "'payer' must be one of aa, big_winner, winners, got 'loser'"),
    ({"mode": "hour", "rate": 1, "tea": -2}, "'tea' must be a whole number 0..1,000,000, got -2"),
    ({"mode": "hour"}, "a fee setting needs 'rate'"),
    ({"rate": 3}, "a fee setting needs 'mode'"),
    ({"mode": "hour", "rate": 1, "tip": 1}, "unknown key 'tip'"),
    ([1, 2], "a fee setting is an object"),
])
def test_setting_refuses_bad_values_quoting_them(obj: object, words: str) -> None:
    with pytest.raises(InvalidEventError, match=r"^fee: ") as e:
        FeeSetting.from_json(obj)
    assert words in str(e.value)


def test_units_of_each_mode() -> None:
    got = {m: units(FeeSetting(m, 1), hands=9, rounds=3, seconds=7201) for m in FEE_MODES}
    assert got == {"hour": 3, "hand": 9, "round": 3, "session": 1}
    assert units(FeeSetting("hour", 1), hands=9, rounds=3, seconds=None) == 0  # an end without its time


def test_no_settled_hand_owes_nothing() -> None:
    b = bill(FeeSetting("session", 100, min=50, tea=10), hands=0, rounds=0, seconds=9000, scores=[0, 0, 0, 0])
    assert (b.fee, b.table, b.tea, b.total) == (0, (0, 0, 0, 0), (0, 0, 0, 0), 0)


def test_min_and_cap_clamp_the_table_fee() -> None:
    s = FeeSetting("hand", 10, min=25, cap=60)
    fees = [bill(s, hands=h, rounds=1, seconds=None, scores=[1, -1, 0, 0]).fee for h in (1, 2, 3, 6, 7, 40)]
    assert fees == [25, 25, 30, 60, 60, 60]
    assert bill(FeeSetting("hour", 30, min=20), hands=1, rounds=1, seconds=None, scores=[0] * 4).fee == 20


def test_split_sums_exactly_for_every_payer() -> None:
    rng = random.Random(31)
    for _ in range(3000):
        fee = rng.randrange(0, 10_000)
        scores = [rng.randrange(-500, 500) for _ in range(3)]
        scores.append(-sum(scores))
        for payer in FEE_PAYERS:
            shares = split(fee, payer, scores)
            assert sum(shares) == fee and min(shares) >= 0, (fee, payer, scores, shares)


def test_payers_with_no_seat_above_zero_fall_back_to_aa() -> None:
    for payer in FEE_PAYERS:
        assert split(10, payer, [0, 0, 0, 0]) == (3, 3, 2, 2)


def test_big_winner_tie_of_three_splits_among_them() -> None:
    assert split(10, "big_winner", [10, 10, 10, -30]) == (4, 3, 3, 0)


def test_winners_shares_follow_the_scores() -> None:
    # 100 among 1 : 1 : 1 — 33 each and the point left to the lowest seat (equal remainders)
    assert split(100, "winners", [7, 7, 7, -21]) == (34, 33, 33, 0)
    for a, b in itertools.product(range(1, 30), range(1, 30)):
        x, y, _, _ = split(60, "winners", [a, b, -a - b, 0])
        assert abs(x * (a + b) - 60 * a) < a + b  # within one point of the exact proportion
        assert x + y == 60


def test_bill_json() -> None:
    b = bill(FeeSetting("session", 50, payer="winners", tea=3), hands=4, rounds=1, seconds=100,
             scores=[-12, 8, 4, 0])
    assert b.to_json() == {"mode": "session", "units": 1, "fee": 50, "table": [0, 33, 17, 0], "tea": [3, 3, 3, 3],
                           "total": 62}
    assert [b.owed(s) for s in range(4)] == [3, 36, 20, 3]
