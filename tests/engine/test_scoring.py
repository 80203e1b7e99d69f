"""engine.scoring against docs/rules.md §13–§16: worked examples, each option flipped, properties.

Every expected amount below is worked by hand from docs/rules.md, not taken from the code.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.hand import analyse_win
from engine.rules import XIAN, Rules
from engine.scoring import ScoringError, Transfer, deltas, kong_transfers, win_transfers


def amounts(transfers: list[Transfer]) -> list[tuple[int, int, int, str]]:
    return sorted((t.frm, t.to, t.amount, t.reason) for t in transfers)


# --- docs/rules.md §16, b = 1, no bets, dealer 0 ------------------------------------------------


def test_16_self_drawn_plain() -> None:
    t = win_transfers(2, "self_drawn", base=1, rules=XIAN, wait_bonus=False)
    assert amounts(t) == [(0, 2, 2, "win"), (1, 2, 2, "win"), (3, 2, 2, "win")]
    assert deltas(t) == [-2, -2, 6, -2]


def test_16_self_drawn_closed_wait() -> None:
    t = win_transfers(2, "self_drawn", base=1, rules=XIAN, wait_bonus=True)
    assert deltas(t) == [-3, -3, 9, -3]
    assert {x.amount for x in t} == {3}


def test_16_discard_single_wait() -> None:
    t = win_transfers(1, "discard", discarder=3, base=1, rules=XIAN, wait_bonus=True)
    assert amounts(t) == [(3, 1, 2, "win")]
    assert deltas(t) == [0, 2, 0, -2]


def test_16_concealed_kong() -> None:
    t = kong_transfers(1, "concealed", base=1, rules=XIAN)
    assert amounts(t) == [(0, 1, 2, "kong"), (2, 1, 2, "kong"), (3, 1, 2, "kong")]
    assert deltas(t) == [-2, 6, -2, -2]


def test_16_exposed_kong() -> None:
    t = kong_transfers(1, "exposed", base=1, rules=XIAN, discarder=3)
    assert amounts(t) == [(0, 1, 1, "kong"), (2, 1, 1, "kong"), (3, 1, 1, "kong")]
    assert deltas(t) == [-1, 3, -1, -1]
    # the discarder is optional under exposed_kong_payers=all: the payments are the same
    assert amounts(kong_transfers(1, "exposed", base=1, rules=XIAN)) == amounts(t)


def test_16_after_kong_plain() -> None:
    kong = kong_transfers(1, "concealed", base=1, rules=XIAN)
    win = win_transfers(1, "self_drawn", base=1, rules=XIAN, wait_bonus=False, after_kong=True)
    assert deltas(win) == [-4, 12, -4, -4]
    assert deltas(kong + win) == [-6, 18, -6, -6]
    assert {x.reason for x in win} == {"win"}


def test_16_heavenly_plain() -> None:
    t = win_transfers(0, "self_drawn", base=1, rules=XIAN, wait_bonus=False, heavenly=True)
    assert amounts(t) == [(1, 0, 6, "win"), (2, 0, 6, "win"), (3, 0, 6, "win")]
    assert deltas(t) == [18, -6, -6, -6]


def test_16_bets() -> None:
    t = win_transfers(3, "self_drawn", base=1, rules=XIAN, wait_bonus=False, bets=[0, 1, 0, 2])
    bets = [x for x in t if x.reason == "bet"]
    # seats 0, 1, 2 pay 4 each (seat 3's 2 bets doubled); seat 1 pays 2 more (its own 1 doubled)
    assert amounts(bets) == [(0, 3, 4, "bet"), (1, 3, 6, "bet"), (2, 3, 4, "bet")]
    assert deltas(bets) == [-4, -6, -4, 14]
    assert deltas(t) == [-6, -8, -6, 20]  # plus the plain self-drawn win, 2 from each


# --- other ways to win ----------------------------------------------------------------


def test_robbed_kong_is_paid_by_the_kong_declarer_like_a_discard() -> None:
    t = win_transfers(2, "robbed_kong", discarder=0, base=1, rules=XIAN, wait_bonus=False)
    assert amounts(t) == [(0, 2, 1, "win")]
    t = win_transfers(2, "robbed_kong", discarder=0, base=1, rules=XIAN, wait_bonus=True)
    assert deltas(t) == [-2, 0, 2, 0]


def test_bets_on_a_discard_win_are_not_doubled_and_paid_by_all() -> None:
    # seat 1 (no bet) wins on seat 3's discard; seat 0 bet 2, seat 3 bet 1
    t = win_transfers(1, "discard", discarder=3, base=1, rules=XIAN, wait_bonus=False, bets=[2, 0, 0, 1])
    assert amounts(t) == [(0, 1, 2, "bet"), (3, 1, 1, "bet"), (3, 1, 1, "win")]
    assert deltas(t) == [-2, 4, 0, -2]


def test_winner_bet_is_paid_by_every_other_seat() -> None:
    # seat 0 bets 3 and wins on seat 2's discard: everyone else pays 3 (not doubled)
    t = win_transfers(0, "discard", discarder=2, base=1, rules=XIAN, wait_bonus=False, bets=[3, 0, 0, 0])
    assert amounts([x for x in t if x.reason == "bet"]) == [(1, 0, 3, "bet"), (2, 0, 3, "bet"), (3, 0, 3, "bet")]


def test_base_scales_everything() -> None:
    t = win_transfers(2, "self_drawn", base=5, rules=XIAN, wait_bonus=True, bets=[1, 0, 0, 0])
    # win 3b = 15 each; seat 0's bet: 1 x b(5) x 2 = 10
    assert amounts(t) == [(0, 2, 10, "bet"), (0, 2, 15, "win"), (1, 2, 15, "win"), (3, 2, 15, "win")]
    assert deltas(kong_transfers(3, "concealed", base=5, rules=XIAN)) == [-10, -10, -10, 30]


def test_added_kong_is_paid_like_an_exposed_kong() -> None:
    assert deltas(kong_transfers(2, "added", base=1, rules=XIAN)) == [-1, -1, 3, -1]


# --- each option flipped --------------------------------------------------------------


def test_option_discard_win_payers_all() -> None:
    rules = Rules(discard_win_payers="all")
    t = win_transfers(1, "discard", discarder=3, base=1, rules=rules, wait_bonus=True)
    assert amounts(t) == [(0, 1, 2, "win"), (2, 1, 2, "win"), (3, 1, 2, "win")]
    assert deltas(t) == [-2, 6, -2, -2]
    t = win_transfers(2, "robbed_kong", discarder=0, base=1, rules=rules, wait_bonus=False)
    assert deltas(t) == [-1, -1, 3, -1]
    # a self-drawn win does not change
    assert deltas(win_transfers(2, "self_drawn", base=1, rules=rules, wait_bonus=False)) == [-2, -2, 6, -2]


def test_option_exposed_kong_payers_discarder() -> None:
    rules = Rules(exposed_kong_payers="discarder")
    t = kong_transfers(1, "exposed", base=1, rules=rules, discarder=3)
    assert amounts(t) == [(3, 1, 3, "kong")]
    assert deltas(t) == [0, 3, 0, -3]
    # concealed kongs and added kongs (no discard claimed) are unchanged
    assert deltas(kong_transfers(1, "concealed", base=1, rules=rules)) == [-2, 6, -2, -2]
    assert deltas(kong_transfers(1, "added", base=1, rules=rules)) == [-1, 3, -1, -1]
    with pytest.raises(ScoringError, match="discarder"):
        kong_transfers(1, "exposed", base=1, rules=rules)


def test_option_bet_unit() -> None:
    rules = Rules(bet_unit=3)
    t = win_transfers(3, "self_drawn", base=1, rules=rules, wait_bonus=False, bets=[0, 1, 0, 2])
    bets = [x for x in t if x.reason == "bet"]
    # u = 3: seats 0, 2 pay 2*3*2 = 12; seat 1 pays (2+1)*3*2 = 18
    assert amounts(bets) == [(0, 3, 12, "bet"), (1, 3, 18, "bet"), (2, 3, 12, "bet")]
    # the win payment still uses the base
    assert {x.amount for x in t if x.reason == "win"} == {2}


def test_bet_unit_defaults_to_the_base() -> None:
    t = win_transfers(3, "self_drawn", base=2, rules=XIAN, wait_bonus=False, bets=[0, 1, 0, 2])
    assert deltas(x for x in t if x.reason == "bet") == [-8, -12, -8, 28]


def test_option_multipliers_on_bets() -> None:
    bets = [0, 1, 0, 2]
    off = win_transfers(1, "self_drawn", base=1, rules=XIAN, wait_bonus=False, after_kong=True, bets=bets)
    on = win_transfers(
        1, "self_drawn", base=1, rules=Rules(multipliers_on_bets=True), wait_bonus=False, after_kong=True, bets=bets
    )
    # off: seats 0, 2 pay 1*2 = 2, seat 3 pays (1+2)*2 = 6; on: all x2 (杠后开花)
    assert amounts([x for x in off if x.reason == "bet"]) == [(0, 1, 2, "bet"), (2, 1, 2, "bet"), (3, 1, 6, "bet")]
    assert amounts([x for x in on if x.reason == "bet"]) == [(0, 1, 4, "bet"), (2, 1, 4, "bet"), (3, 1, 12, "bet")]
    assert [x for x in off if x.reason == "win"] == [x for x in on if x.reason == "win"]
    on_r = Rules(multipliers_on_bets=True)
    heavenly = win_transfers(0, "self_drawn", base=1, rules=on_r, wait_bonus=False, heavenly=True, bets=[1, 0, 0, 0])
    # 1 x 2 (self-drawn) x 3 (天胡) = 6 from each; plus the win, 2 x 3 = 6 from each
    assert deltas(heavenly) == [36, -12, -12, -12]
    heavenly = win_transfers(0, "self_drawn", base=1, rules=XIAN, wait_bonus=False, heavenly=True, bets=[1, 0, 0, 0])
    # the option off: the bet is only doubled, 2 from each
    assert deltas(heavenly) == [24, -8, -8, -8]


def test_option_edge_wait_bonus() -> None:
    hand = "123m456p456s789s11z"  # 12m waiting on 3m: 边张
    off = analyse_win(hand, "3m", rules=XIAN)
    on_rules = Rules(edge_wait_bonus=True)
    on = analyse_win(hand, "3m", rules=on_rules)
    assert (off.wait, off.bonus, on.wait, on.bonus) == ("edge", False, "edge", True)
    assert deltas(win_transfers(0, "self_drawn", base=1, rules=XIAN, wait_bonus=off.bonus)) == [6, -2, -2, -2]
    assert deltas(win_transfers(0, "self_drawn", base=1, rules=on_rules, wait_bonus=on.bonus)) == [9, -3, -3, -3]


def test_option_wait_bonus_only_wait() -> None:
    hand, tile = "23455m123p456p789s", "5m"  # waits on 2m and 5m; 5m reads as 单调
    anyw = analyse_win(hand, tile, rules=XIAN)
    only_rules = Rules(wait_bonus="only_wait")
    only = analyse_win(hand, tile, rules=only_rules)
    assert (anyw.wait, anyw.bonus, only.wait, only.bonus) == ("single", True, "plain", False)
    t_any = win_transfers(2, "discard", discarder=1, base=1, rules=XIAN, wait_bonus=anyw.bonus)
    t_only = win_transfers(2, "discard", discarder=1, base=1, rules=only_rules, wait_bonus=only.bonus)
    assert (deltas(t_any), deltas(t_only)) == ([0, -2, 2, 0], [0, -1, 1, 0])


def test_option_kong_paid_on_draw_is_not_this_module() -> None:
    # kong_paid_on_draw decides whether the table keeps kong payments on a drawn hand; the kong's
    # own payments do not depend on it (the calculator test flips it end to end).
    assert kong_transfers(1, "concealed", base=1, rules=Rules(kong_paid_on_draw=False)) == kong_transfers(
        1, "concealed", base=1, rules=XIAN
    )


# --- refusals -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"winner": 4, "how": "self_drawn"}, "the winner must be a seat 0..3; got 4"),
        ({"winner": -1, "how": "self_drawn"}, "the winner must be a seat"),
        ({"winner": 1, "how": "discard", "discarder": 1}, "seat 1 cannot win on its own discard"),
        ({"winner": 1, "how": "robbed_kong", "discarder": 1}, "seat 1 cannot win on its own kong"),
        ({"winner": 1, "how": "discard"}, "needs the discarder"),
        ({"winner": 1, "how": "discard", "discarder": 7}, "the discarder must be a seat 0..3; got 7"),
        ({"winner": 1, "how": "self_drawn", "discarder": 2}, "a self-drawn win has no discarder"),
        ({"winner": 1, "how": "tsumo"}, "unknown way to win 'tsumo'"),
        ({"winner": 1, "how": "self_drawn", "base": 0}, "the base must be a whole number >= 1; got 0"),
        ({"winner": 1, "how": "self_drawn", "base": True}, "the base must be a whole number"),
        ({"winner": 1, "how": "self_drawn", "bets": [0, -1, 0, 0]}, "seat 1 has -1"),
        ({"winner": 1, "how": "self_drawn", "bets": [0, 0, 0]}, "bets must be 4 whole numbers"),
        ({"winner": 1, "how": "discard", "discarder": 2, "after_kong": True}, "杠后开花"),
        ({"winner": 0, "how": "discard", "discarder": 2, "heavenly": True}, "天胡"),
        ({"winner": 0, "how": "self_drawn", "heavenly": True, "after_kong": True}, "cannot both apply"),
    ],
)
def test_win_refusals(kwargs: dict[str, object], message: str) -> None:
    args = {"base": 1, "rules": XIAN, "wait_bonus": False, **kwargs}
    winner, how = args.pop("winner"), args.pop("how")
    with pytest.raises(ScoringError, match=message) as info:
        win_transfers(winner, how, **args)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((4, "concealed"), {}, "the kong's declarer must be a seat 0..3; got 4"),
        ((1, "hidden"), {}, "unknown kong kind 'hidden'"),
        ((1, "concealed"), {"discarder": 2}, "a concealed kong claims no discard"),
        ((1, "added"), {"discarder": 2}, "a added kong claims no discard"),
        ((1, "exposed"), {"discarder": 1}, "seat 1 cannot claim a kong on its own discard"),
        ((1, "exposed"), {"base": 0}, "the base must be"),
    ],
)
def test_kong_refusals(args: tuple[int, str], kwargs: dict[str, object], message: str) -> None:
    full = {"base": 1, "rules": XIAN, **kwargs}
    with pytest.raises(ScoringError, match=message):
        kong_transfers(*args, **full)  # type: ignore[arg-type]


def test_transfer_json_and_checks() -> None:
    t = Transfer(3, 1, 2, "bet")
    assert t.to_json() == {"from": 3, "to": 1, "amount": 2, "reason": "bet"}
    assert Transfer.from_json(t.to_json()) == t
    for bad in ({"from": 3, "to": 1, "amount": 2}, {"from": 3, "to": 1, "amount": 2, "reason": "win", "x": 1}):
        with pytest.raises(ScoringError, match="exactly from, to, amount, reason"):
            Transfer.from_json(bad)
    with pytest.raises(ScoringError, match="amount must be a whole number >= 1; got 0"):
        Transfer(0, 1, 0, "win")
    with pytest.raises(ScoringError, match="reason must be one of win, kong, bet; got 'tip'"):
        Transfer(0, 1, 1, "tip")
    with pytest.raises(ScoringError, match="two different seats"):
        Transfer(2, 2, 1, "win")


# --- properties -----------------------------------------------------------------------

rules_st = st.builds(
    Rules,
    discard_win_payers=st.sampled_from(["discarder", "all"]),
    exposed_kong_payers=st.sampled_from(["all", "discarder"]),
    bet_unit=st.one_of(st.none(), st.integers(1, 5)),
    multipliers_on_bets=st.booleans(),
)
seat_st = st.integers(0, 3)
bets_st = st.lists(st.integers(0, 5), min_size=4, max_size=4)


@st.composite
def won_hands(draw: st.DrawFn) -> dict[str, object]:
    winner = draw(seat_st)
    how = draw(st.sampled_from(["self_drawn", "discard", "robbed_kong"]))
    spec: dict[str, object] = {
        "winner": winner,
        "how": how,
        "base": draw(st.integers(1, 10)),
        "rules": draw(rules_st),
        "wait_bonus": draw(st.booleans()),
        "bets": draw(bets_st),
    }
    if how == "self_drawn":
        special = draw(st.sampled_from(["", "after_kong", "heavenly"]))
        if special:
            spec[special] = True
    else:
        spec["discarder"] = draw(seat_st.filter(lambda s: s != winner))
    return spec


def _win(spec: dict[str, object]) -> list[Transfer]:
    s = dict(spec)
    return win_transfers(s.pop("winner"), s.pop("how"), **s)  # type: ignore[arg-type]


@st.composite
def kongs(draw: st.DrawFn, rules: Rules) -> list[Transfer]:
    out: list[Transfer] = []
    for _ in range(draw(st.integers(0, 4))):
        declarer = draw(seat_st)
        kind = draw(st.sampled_from(["concealed", "exposed", "added"]))
        discarder = (declarer + draw(st.integers(1, 3))) % 4 if kind == "exposed" else None
        out += kong_transfers(declarer, kind, base=draw(st.integers(1, 10)), rules=rules, discarder=discarder)
    return out


@given(won_hands(), st.data())
def test_every_settlement_sums_to_zero_with_positive_amounts(spec: dict[str, object], data: st.DataObject) -> None:
    rules = spec["rules"]
    assert isinstance(rules, Rules)
    transfers = data.draw(kongs(rules)) + _win(spec)
    d = deltas(transfers)
    assert sum(d) == 0
    assert all(type(t.amount) is int and t.amount > 0 for t in transfers)
    assert all(t.frm != t.to for t in transfers)
    win = _win(spec)
    assert all(t.to == spec["winner"] for t in win)
    # one transfer per payer per reason
    assert max(Counter((t.frm, t.reason) for t in win).values(), default=1) == 1
    assert deltas(win)[spec["winner"]] == sum(t.amount for t in win)  # type: ignore[index]


@given(won_hands())
def test_multipliers_touch_only_the_win_unless_multipliers_on_bets(spec: dict[str, object]) -> None:
    special = "after_kong" if spec.get("after_kong") else "heavenly" if spec.get("heavenly") else None
    if special is None:
        return
    factor = 2 if special == "after_kong" else 3
    plain = dict(spec)
    del plain[special]
    with_m, without = _win(spec), _win(plain)
    rules = spec["rules"]
    assert isinstance(rules, Rules)

    def by(ts: list[Transfer], reason: str) -> list[tuple[int, int]]:
        return sorted((t.frm, t.amount) for t in ts if t.reason == reason)

    assert by(with_m, "win") == [(f, a * factor) for f, a in by(without, "win")]
    bet_factor = factor if rules.multipliers_on_bets else 1
    assert by(with_m, "bet") == [(f, a * bet_factor) for f, a in by(without, "bet")]


@given(won_hands())
def test_self_drawn_doubles_bets_against_a_discard_win(spec: dict[str, object]) -> None:
    if spec["how"] != "discard":
        return
    drawn = {k: v for k, v in spec.items() if k != "discarder"} | {"how": "self_drawn"}
    bets_discard = sorted((t.frm, t.amount) for t in _win(spec) if t.reason == "bet")
    bets_drawn = sorted((t.frm, t.amount) for t in _win(drawn) if t.reason == "bet")
    assert bets_drawn == [(f, 2 * a) for f, a in bets_discard]
