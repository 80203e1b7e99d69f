"""``score_hand``: a hand scored without play pays what the same hand played pays."""

from __future__ import annotations

from typing import Any

import pytest

from engine import apply, replay
from engine.errors import CODES, IllegalEventError, InvalidEventError
from engine.events import parse_event

START = [{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
         {"type": "seating", "method": "C", "east": 0}]


def scored(**fields: Any) -> dict[str, Any]:
    s = replay([*START, {"type": "score_hand", **fields}])
    assert s.phase == "hand_over"
    return dict(s.last_settlement or {})


@pytest.mark.parametrize(("fields", "deltas"), [
    # RULES §16, b = 1, no bets, dealer 0
    ({"winner": 2, "how": "self_drawn"}, [-2, -2, 6, -2]),
    ({"winner": 2, "how": "self_drawn", "wait": "closed"}, [-3, -3, 9, -3]),
    ({"winner": 1, "how": "discard", "discarder": 3, "wait": "single"}, [0, 2, 0, -2]),
    ({"kongs": [{"seat": 1, "kind": "concealed"}]}, [-2, 6, -2, -2]),  # a drawn hand: the kong stands
    ({"kongs": [{"seat": 1, "kind": "exposed"}]}, [-1, 3, -1, -1]),
    ({"winner": 1, "how": "self_drawn", "kong_bloom": True, "kongs": [{"seat": 1, "kind": "concealed"}]},
     [-6, 18, -6, -6]),
    ({"winner": 0, "how": "self_drawn", "heavenly": True}, [18, -6, -6, -6]),
    ({"winner": 3, "how": "self_drawn", "bets": [0, 1, 0, 2]}, [-6, -8, -6, 20]),
    # the README's worked example: 杠后开花 after a concealed kong, bets [0, 1, 0, 2]
    ({"winner": 1, "how": "self_drawn", "kong_bloom": True, "kongs": [{"seat": 1, "kind": "concealed"}],
      "bets": [0, 1, 0, 2]}, [-8, 28, -8, -12]),
    ({"winner": 2, "how": "robbed_kong", "discarder": 0}, [-1, 0, 1, 0]),
])
def test_the_rules_worked_examples(fields: dict[str, Any], deltas: list[int]) -> None:
    assert scored(**fields)["deltas"] == deltas


def test_the_same_hand_played_and_scored_pays_the_same() -> None:
    """The hand of the touch test: bets [0, 1, 0, 2], seat 3 a concealed kong, seat 0 self-draws
    with a closed wait."""
    played = replay([*START, {"type": "bets", "bets": [0, 1, 0, 2]}, {"type": "roll", "dice": [4, 6]},
                     {"type": "roll", "dice": [2, 3]}, {"type": "discard", "seat": 0}, {"type": "resolve"},
                     {"type": "discard", "seat": 1}, {"type": "resolve"}, {"type": "discard", "seat": 2},
                     {"type": "resolve"}, {"type": "kong", "seat": 3, "kind": "concealed"},
                     {"type": "discard", "seat": 3}, {"type": "resolve"}, {"type": "win", "seat": 0},
                     {"type": "confirm_win", "wait": "closed"}])
    by_score = replay([*START, {"type": "score_hand", "winner": 0, "how": "self_drawn", "wait": "closed",
                                "kongs": [{"seat": 3, "kind": "concealed"}], "bets": [0, 1, 0, 2]}])
    a, b = played.last_settlement, by_score.last_settlement
    assert a is not None and b is not None
    assert sorted(map(str, a["transfers"])) == sorted(map(str, b["transfers"]))
    for key in ("result", "winner", "kind", "wait", "bonus", "deltas", "dealer", "hand"):
        assert a[key] == b[key], key
    assert played.scores == by_score.scores and played.bets == by_score.bets


def test_a_drawn_hand_keeps_the_dealer_and_a_win_by_another_passes_the_deal() -> None:
    s = replay([*START, {"type": "score_hand"}, {"type": "next_hand"}])
    assert s.dealer == 0 and s.dealer_streak == 1 and s.hand == 2 and s.phase == "betting"
    s = replay([{"type": "score_hand", "winner": 2, "how": "discard", "discarder": 0}, {"type": "next_hand"}], s)
    assert s.dealer == 1 and s.dealer_streak == 0 and s.scores == [-1, 0, 1, 0]


def test_kong_payments_on_a_drawn_hand_follow_the_rule_option() -> None:
    s = replay([{**START[0], "rules": {"kong_paid_on_draw": False}}, START[1],
                {"type": "score_hand", "kongs": [{"seat": 1, "kind": "concealed"}]}])
    assert s.last_settlement is not None and s.last_settlement["result"] == "draw"
    assert s.last_settlement["deltas"] == [0, 0, 0, 0] and s.scores == [0, 0, 0, 0]


@pytest.mark.parametrize("fields", [
    {"how": "self_drawn"},  # no winner: a drawn hand has no way to win
    {"winner": 1},  # how?
    {"winner": 1, "how": "discard"},  # who paid?
    {"winner": 1, "how": "discard", "discarder": 1},
    {"winner": 1, "how": "self_drawn", "discarder": 2},
    {"winner": 1, "how": "self_drawn", "wait": "double"},
    {"winner": 4, "how": "self_drawn"},
    {"winner": 1, "how": "discard", "discarder": 2, "heavenly": True},
    {"winner": 1, "how": "self_drawn", "kong_bloom": True},  # no kong of the winner's
    {"winner": 0, "how": "self_drawn", "kong_bloom": True, "heavenly": True, "kongs": [{"seat": 0, "kind": "added"}]},
    {"kongs": [{"seat": 1, "kind": "claimed"}]},
    {"kongs": [{"seat": 1, "kind": "concealed", "discarder": 2}]},
    {"kongs": [{"seat": 1, "kind": "exposed", "discarder": 1}]},
    {"kongs": "1:concealed"},
    {"bets": [0, 1, 2]},
    {"bets": [0, 10**6 + 1, 0, 0]},  # bounded as the bets event's are (issue 16)
    {"bets": [0, -1, 0, 0]},
    {"winner": 1, "how": "self_drawn", "kong_bloom": "yes", "kongs": [{"seat": 1, "kind": "concealed"}]},
    {"loser": 2},
])
def test_malformed_entries_are_refused_quoting_them(fields: dict[str, Any]) -> None:
    with pytest.raises(InvalidEventError, match="score_hand"):
        parse_event({"type": "score_hand", **fields})


def test_what_the_rules_forbid_is_refused_with_a_code_and_leaves_the_table() -> None:
    s = replay(START)
    before = s.to_json()
    with pytest.raises(IllegalEventError) as e:
        apply(s, {"type": "score_hand", "winner": 1, "how": "self_drawn", "heavenly": True})
    assert e.value.code == "score.heavenly_dealer" and e.value.params["dealer"] == 0
    strict = replay([{**START[0], "rules": {"exposed_kong_payers": "discarder"}}, START[1]])
    with pytest.raises(IllegalEventError) as e:
        apply(strict, {"type": "score_hand", "kongs": [{"seat": 2, "kind": "exposed"}]})
    assert e.value.code == "score.kong_discarder"
    paid = apply(strict, {"type": "score_hand", "kongs": [{"seat": 2, "kind": "exposed", "discarder": 3}]})[0]
    assert paid.scores == [0, 0, 3, -3]
    dealt = replay([{"type": "roll", "dice": [1, 1]}, {"type": "roll", "dice": [1, 1]}], s)
    with pytest.raises(IllegalEventError) as e:
        apply(dealt, {"type": "score_hand"})
    assert e.value.code == "phase"
    assert s.to_json() == before
    assert {"score.heavenly_dealer", "score.kong_discarder"} <= set(CODES)


def test_json_round_trip() -> None:
    obj = {"type": "score_hand", "winner": 1, "how": "self_drawn", "wait": "closed",
           "kongs": [{"seat": 1, "kind": "concealed"}, {"seat": 2, "kind": "exposed", "discarder": 0}],
           "bets": [0, 1, 0, 2], "kong_bloom": True}
    ev = parse_event(obj)
    assert ev.to_json() == obj and parse_event(ev.to_json()) == ev
    assert parse_event({"type": "score_hand"}).to_json() == {"type": "score_hand"}
