"""``score_hand``: a hand scored without play pays what the same hand played pays."""

from __future__ import annotations

from typing import Any

import pytest

from engine import apply, replay
from engine.errors import CODES, IllegalEventError, InvalidEventError
from engine.events import parse_event
from engine.fields import MAX_AMOUNT
from engine.rules import Rules
from engine.scored import (
    EXTRAS,
    ScoredKong,
    check_scored,
    extras,
    kong_discarder_needed,
    pay_scored,
    score_hand,
    why_not_extra,
)

START = [{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
         {"type": "seating", "method": "C", "east": 0}]


def scored(**fields: Any) -> dict[str, Any]:
    s = replay([*START, {"type": "score_hand", **fields}])
    assert s.phase == "hand_over"
    return dict(s.last_settlement or {})


@pytest.mark.parametrize(("fields", "deltas"), [
    # docs/rules.md §16, b = 1, no bets, dealer 0
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


# --- the special wins, asked of the engine (the touchscreen's form, ``xian-table score``) ----


KONG_SETS: list[tuple[int, ...]] = [(), (0,), (1,), (2, 3), (0, 0, 1)]


@pytest.mark.parametrize("dealer", [0, 2])
@pytest.mark.parametrize("kong_seats", KONG_SETS)
def test_what_extras_offers_is_exactly_what_the_table_takes(dealer: int, kong_seats: tuple[int, ...]) -> None:
    """For every winner, way and special win: offered by ``extras`` iff the event is built and the
    table takes it (``why_not_extra`` the one place of these rules)."""
    kongs = [ScoredKong(s, "concealed") for s in kong_seats]
    offered_somewhere = set()
    for winner in range(4):
        for how in ("self_drawn", "discard"):
            fed = None if how == "self_drawn" else (winner + 1) % 4
            offered = extras(winner, how, kong_seats, dealer)
            offered_somewhere |= set(offered)
            for x in EXTRAS:
                why = why_not_extra(x, winner, how, kong_seats, dealer)
                assert (why is None) == (x in offered)
                try:
                    ev = score_hand(winner, how, fed, extra=x, kongs=kongs)
                    check_scored(ev, dealer, Rules())
                except (InvalidEventError, IllegalEventError):
                    assert x not in offered, (winner, how, x)
                else:
                    assert x in offered, (winner, how, x)
                    paid = replay([{**START[1], "east": dealer}, ev.to_json()], replay(START[:1]))
                    assert paid.phase == "hand_over"
    assert "robbed_kong" in offered_somewhere
    assert ("heavenly" in offered_somewhere) == (not kong_seats)
    assert ("kong_bloom" in offered_somewhere) == bool(kong_seats)
    assert extras(None, None, kong_seats, dealer) == extras(1, None, kong_seats, dealer) == ()


def test_heavenly_is_offered_to_the_dealer_alone_and_kong_bloom_with_the_winners_kong() -> None:
    """Issue 28, item 10: the form offered both to anyone."""
    assert extras(1, "self_drawn", [], dealer=0) == ()
    assert why_not_extra("heavenly", 1, "self_drawn", [], dealer=0) == \
        "天胡 (heavenly) is the dealer's: seat 1 is not the dealer (0)"
    assert extras(0, "self_drawn", [], dealer=0) == ("heavenly",)
    assert extras(0, "self_drawn", [1], dealer=0) == ()
    assert extras(1, "self_drawn", [1], dealer=0) == ("kong_bloom",)
    assert extras(1, "discard", [1], dealer=1) == ("robbed_kong",)


def test_score_hand_builds_the_event_of_the_choices() -> None:
    kongs = [ScoredKong(1, "concealed"), ScoredKong(2, "exposed", 0)]
    assert score_hand(1, extra="kong_bloom", wait="closed", kongs=kongs, bets=[0, 1, 0, 2]).to_json() == {
        "type": "score_hand", "winner": 1, "how": "self_drawn", "wait": "closed", "kong_bloom": True,
        "kongs": [{"seat": 1, "kind": "concealed"}, {"seat": 2, "kind": "exposed", "discarder": 0}],
        "bets": [0, 1, 0, 2]}
    assert score_hand(2, "self_drawn", wait="plain").to_json() == {"type": "score_hand", "winner": 2,
                                                                  "how": "self_drawn"}
    assert score_hand(2, "robbed_kong", 3).to_json() == score_hand(2, "discard", 3, extra="robbed_kong").to_json()
    assert score_hand(None).to_json() == {"type": "score_hand"}
    for refused, why in [
        (lambda: score_hand(None, wait="plain"), "a drawn hand (no 'winner') has no"),
        (lambda: score_hand(None, "self_drawn"), "a drawn hand (no 'winner') has no"),
        (lambda: score_hand(None, extra="robbed_kong"), "a drawn hand has no winner: it cannot be 抢杠"),
        (lambda: score_hand(1, extra="robbed_kong"), "say how the hand was won ('how') before 抢杠"),
        (lambda: score_hand(1, "self_drawn", extra="robbed_kong"), "抢杠 (robbed_kong) is won on another seat's"),
        (lambda: score_hand(1, "self_drawn", extra="kong_bloom", kongs=[ScoredKong(2, "added")]),
         "needs a kong declared by the winner, seat 1"),
        (lambda: score_hand(0, extra="heavenly", kongs=[ScoredKong(2, "added")]), "is won on the dealt tiles"),
        (lambda: score_hand(1, "discard", 1), "seat 1 cannot win on its own discard"),
        (lambda: score_hand(1, "robbed_kong", 1), "seat 1 cannot win on its own kong"),
        (lambda: score_hand(0, "self_drawn", kongs=[ScoredKong(0, "concealed")] * 5), "more than 4 kongs"),
        (lambda: score_hand(0, "self_drawn", bets=[0, -1, 0, 0]), "'bets' must be 4 whole numbers"),
    ]:
        with pytest.raises(InvalidEventError, match=r"^score_hand: ") as e:
            refused()
        assert why in str(e.value)
    with pytest.raises(InvalidEventError) as e:
        score_hand(0, "self_drawn", bets=[0, -1, 0, 0])
    assert str(e.value).endswith("in {'winner': 0, 'how': 'self_drawn', 'bets': [0, -1, 0, 0]}")  # seat 0 quoted


@pytest.mark.parametrize(("seat", "kind", "discarder", "why"), [
    (4, "concealed", None, "'kongs: seat' must be a seat 0..3"),
    (1, "big", None, "a kong's 'kind' is one of concealed, exposed, added"),
    (1, "exposed", 1, "only an exposed kong has a discarder, another seat"),
    (1, "added", 2, "only an exposed kong has a discarder"),
    (1, "exposed", 7, "'kongs: discarder' must be a seat 0..3"),
])
def test_a_kong_is_checked_however_it_is_made(seat: int, kind: Any, discarder: int | None, why: str) -> None:
    with pytest.raises(InvalidEventError, match="score_hand") as e:
        ScoredKong(seat, kind, discarder)
    assert why in str(e.value)
    with pytest.raises(InvalidEventError) as e:
        ScoredKong.from_json({"seat": seat, "kind": kind, "discarder": discarder})
    assert why in str(e.value)


def test_the_tables_refusals_are_worded_after_the_seat() -> None:
    with pytest.raises(IllegalEventError) as e:
        check_scored(score_hand(1, extra="heavenly"), 0, Rules())
    assert str(e.value) == "cannot win 天胡 (heavenly): it is the dealer's, and the dealer is seat 0"
    assert (e.value.code, e.value.params) == ("score.heavenly_dealer", {"seat": 1, "dealer": 0})
    exposed = score_hand(None, kongs=[ScoredKong(2, "exposed")])
    check_scored(exposed, 0, Rules())  # every other seat pays it: nobody need say whose discard
    assert not kong_discarder_needed(Rules()) and kong_discarder_needed(Rules(exposed_kong_payers="discarder"))
    with pytest.raises(IllegalEventError) as e:
        check_scored(exposed, 0, Rules(exposed_kong_payers="discarder"))
    assert str(e.value).startswith("declared an exposed kong: say whose discard it claimed")
    assert e.value.params == {"seat": 2}


def test_pay_scored_checks_the_base_and_says_which_kongs_stand() -> None:
    ev = score_hand(None, kongs=[ScoredKong(1, "concealed")])
    for base in (0, -1, MAX_AMOUNT + 1, True):
        with pytest.raises(InvalidEventError, match="the base must be a whole number >= 1"):
            pay_scored(ev, base=base, rules=Rules(), bets=[0, 0, 0, 0])
    stands = pay_scored(ev, base=2, rules=Rules(), bets=[0, 0, 0, 0])
    assert stands.kongs_stand and [t.amount for t in stands.transfers] == [4, 4, 4]
    back = pay_scored(ev, base=2, rules=Rules(kong_paid_on_draw=False), bets=[0, 0, 0, 0])
    assert len(back.kongs) == 3 and not back.kongs_stand and back.transfers == []
    won = pay_scored(score_hand(2, "self_drawn", kongs=[ScoredKong(1, "concealed")]), base=1,
                     rules=Rules(kong_paid_on_draw=False), bets=[0, 0, 0, 0])
    assert won.kongs_stand and [(t.to, t.reason) for t in won.transfers] == [(1, "kong")] * 3 + [(2, "win")] * 3
