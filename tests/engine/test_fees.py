"""``engine.fees``: the setting's checks and the bill of every mode and payer."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.errors import IllegalEventError, InvalidEventError
from engine.fees import FEE_MODES, FEE_PAYERS, FeeSetting, bill, bill_so_far, split, units
from engine.fields import MAX_AMOUNT
from engine.public import public_state
from engine.records import PHASES
from engine.state import TableState
from engine.table import accepts, apply, replay


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


# --- docs/rules.md §20: the worked examples, their numbers -------------------------------------


def _example(setting: FeeSetting, scores: list[int], *, hands: int = 4, rounds: int = 1,
             seconds: int | None = None) -> tuple[int, list[int], list[int]]:
    b = bill(setting, hands=hands, rounds=rounds, seconds=seconds, scores=scores)
    assert sum(b.table) == b.fee and b.total == b.fee + sum(b.tea)
    return b.fee, list(b.table), list(b.tea)


def test_20_aa_with_a_remainder() -> None:
    assert _example(FeeSetting("hand", 5), [12, -20, 12, -4], hands=7) == (35, [9, 8, 9, 9], [0] * 4)


def test_20_big_winner_with_a_tie_at_the_top() -> None:
    s = FeeSetting("round", 20, cap=45, payer="big_winner")
    assert _example(s, [15, 15, -10, -20], hands=9, rounds=3) == (45, [23, 22, 0, 0], [0] * 4)


def test_20_winners_in_proportion() -> None:
    s = FeeSetting("session", 100, payer="winners")
    assert _example(s, [20, 10, -18, -12]) == (100, [67, 33, 0, 0], [0] * 4)


@pytest.mark.parametrize(("seconds", "fee", "shares"), [
    (25 * 60, 40, [10, 10, 10, 10]),  # 1 hour begun: 30, raised to the minimum
    (2 * 3600 + 10 * 60, 90, [23, 23, 22, 22]),  # 3 hours
    (4 * 3600 + 5 * 60, 100, [25, 25, 25, 25]),  # 5 hours: 150, lowered to the cap
])
def test_20_by_the_hour_with_a_minimum_and_a_cap(seconds: int, fee: int, shares: list[int]) -> None:
    s = FeeSetting("hour", 30, min=40, cap=100)
    assert _example(s, [6, -2, -2, -2], seconds=seconds) == (fee, shares, [0] * 4)


def test_20_tea() -> None:
    b = bill(FeeSetting("hand", 3, tea=5), hands=6, rounds=2, seconds=None, scores=[-8, 4, 10, -6])
    assert (b.fee, b.table, b.tea) == (18, (4, 5, 5, 4), (5, 5, 5, 5))
    assert [b.owed(s) for s in range(4)] == [9, 10, 10, 9] and b.total == 38


# --- through the engine: the events, the state, the public state --------------------------------

NEW = {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}
SEATED = {"type": "seating", "method": "C", "east": 0}


def _next_seat_wins(dealer: int) -> dict[str, object]:
    """A hand won by the dealer's 下家 (self-drawn): the deal passes (docs/rules.md §4)."""
    return {"type": "score_hand", "winner": (dealer + 1) % 4, "how": "self_drawn"}


def test_rounds_count_the_round_of_the_last_settled_hand() -> None:
    events: list[dict[str, object]] = [NEW, SEATED]
    rounds = []
    for h in range(5):
        if h:
            events.append({"type": "next_hand"})
        events.append(_next_seat_wins(h % 4))
        p = public_state(replay(events))
        rounds.append((p["session_hands"], p["session_rounds"]))
    assert rounds == [(1, 1), (2, 1), (3, 1), (4, 1), (5, 2)]  # four passes of the deal make a round
    after = public_state(replay([*events[:-1], {"type": "end_session"}]))  # ended before the 5th hand's result
    assert (after["session_hands"], after["session_rounds"], after["round"]) == (4, 1, 2)
    assert public_state(replay([NEW, SEATED]))["session_rounds"] == 0


def test_the_house_bill_appears_when_the_session_ends_by_the_setting_then_in_force() -> None:
    fee = {"mode": "hand", "rate": 5, "payer": "winners", "tea": 1}
    events = [NEW, SEATED, {"type": "fee", "fee": fee}, _next_seat_wins(0), {"type": "next_hand"},
              {"type": "fee", "fee": {**fee, "rate": 10}}, _next_seat_wins(1)]
    playing = public_state(replay(events))
    assert playing["fee"] == FeeSetting.from_json({**fee, "rate": 10}).to_json() and playing["house"] is None
    so_far = bill_so_far(playing, None)
    assert so_far is not None and so_far.fee == 20
    ended = public_state(replay([*events, {"type": "end_session", "seconds": 4000}]))
    # two hands at 10 (the setting in force at the end); seats 1 and 2 each won 6 and paid 2: +4 +4
    assert ended["scores"] == [-4, 4, 4, -4]
    assert ended["house"] == {"mode": "hand", "units": 2, "fee": 20, "table": [0, 10, 10, 0], "tea": [1, 1, 1, 1],
                              "total": 24}
    assert bill_so_far(ended, None) == bill(FeeSetting.from_json(ended["fee"]), hands=2, rounds=1, seconds=None,
                                            scores=ended["scores"])
    no_fee = public_state(replay([*events, {"type": "fee", "fee": None}, {"type": "end_session"}]))
    assert no_fee["fee"] is None and no_fee["house"] is None


def test_the_fee_event_is_taken_in_every_phase_of_a_session_but_ended() -> None:
    takes = {phase for phase in PHASES if "fee" in accepts(phase)}
    assert takes == set(PHASES) - {"idle", "ended"}
    ended = replay([NEW, SEATED, {"type": "end_session"}])
    with pytest.raises(IllegalEventError, match="ended: cannot fee now"):
        apply(ended, {"type": "fee", "fee": None})
    s = replay([NEW, SEATED, {"type": "bets", "bets": [0, 0, 0, 0]}, {"type": "roll", "dice": [3, 4]},
                {"type": "roll", "dice": [2, 5]}])
    assert s.phase == "turn"
    after, effects = apply(s, {"type": "fee", "fee": {"mode": "session", "rate": 50}})
    assert after.phase == "turn" and after.turn == s.turn and s.fee is None  # (apply never changes its input)
    assert [e.to_json() for e in effects] == [{"what": "fee", "data": after.fee.to_json()}]  # type: ignore[union-attr]


def test_the_state_keeps_the_fee_through_its_json_and_older_snapshots_read_as_no_fee() -> None:
    s = replay([{**NEW, "fee": {"mode": "round", "rate": 20}}, SEATED, _next_seat_wins(0),
                {"type": "end_session", "seconds": 99}])
    again = TableState.from_json(s.to_json())
    assert again == s and again.fee == FeeSetting("round", 20) and (again.settled_round, again.seconds) == (1, 99)
    old = {k: v for k, v in s.to_json().items() if k not in ("fee", "settled_round", "seconds")}
    before = TableState.from_json(old)
    assert (before.fee, before.settled_round, before.seconds) == (None, 1, None)
