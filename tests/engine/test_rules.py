import pytest

from engine.rules import XIAN, Rules, RulesError, preset


def test_xian_preset_is_the_defaults_of_rules_md():
    assert Rules() == XIAN
    assert preset("xian") is XIAN
    assert XIAN.wall_direction == "counterclockwise"
    assert XIAN.added_kong is True
    assert XIAN.kong_reserve == (13, 7, 8, 13)
    assert XIAN.kong_paid_on_draw is True
    assert XIAN.seven_pairs is False
    assert XIAN.wait_bonus == "any_split"
    assert XIAN.edge_wait_bonus is False
    assert XIAN.discard_win_payers == "discarder"
    assert XIAN.exposed_kong_payers == "all"
    assert XIAN.bet_unit is None
    assert XIAN.multipliers_on_bets is False


def test_reserve_by_kong_count():
    assert [XIAN.reserve_stacks(k) for k in range(6)] == [13, 7, 8, 13, 13, 13]


def test_overrides_change_only_what_they_name():
    r = Rules.from_overrides({"seven_pairs": True, "kong_reserve": [10, 6, 7, 10]})
    assert r.seven_pairs is True and r.kong_reserve == (10, 6, 7, 10)
    assert r.overrides() == {"seven_pairs": True, "kong_reserve": [10, 6, 7, 10]}
    assert Rules.from_overrides(r.to_json()) == r


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"sevenpairs": True}, "unknown rule option 'sevenpairs' \\(did you mean 'seven_pairs'\\?\\)"),
        ({"wait_bonus": "sometimes"}, "'wait_bonus' must be one of any_split, only_wait; got 'sometimes'"),
        ({"seven_pairs": 1}, "'seven_pairs' must be true or false; got 1"),
        ({"kong_reserve": [13, 7]}, "'kong_reserve' must be 4 whole numbers"),
        ({"bet_unit": 0}, "'bet_unit' must be a whole number >= 1"),
        ({"wall_direction": "up"}, "'wall_direction' must be one of counterclockwise, clockwise"),
    ],
)
def test_bad_options_are_refused_by_name(overrides, message):
    with pytest.raises(RulesError, match=message):
        Rules.from_overrides(overrides)


def test_unknown_preset():
    with pytest.raises(RulesError, match="unknown rule preset 'tokyo'"):
        preset("tokyo")


def test_rules_are_frozen():
    with pytest.raises(AttributeError):
        XIAN.seven_pairs = True  # type: ignore[misc]
