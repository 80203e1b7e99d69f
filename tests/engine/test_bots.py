"""Bots: legal, sensible, deterministic, and blind to what a player cannot see."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import GreedyBot, RandomBot, View, make_bot, view_of
from engine.events import Claim, Discard, Kong, Win
from engine.hand import is_complete
from engine.rules import Rules
from engine.shanten import shanten
from engine.table import apply, new_table
from engine.tiles import parse_tiles, to_counts


def _view(hand: str, melds: tuple[str, ...] = (), **kw: object) -> View:
    ms = tuple(tuple(parse_tiles(m)) for m in melds)
    table = ((ms, (), (), ()), ((), (), (), ()))
    kw.setdefault("phase", "turn")
    return View(seat=0, hand=to_counts(parse_tiles(hand)), melds=ms, open_table=lambda: table, **kw)  # type: ignore[arg-type]


def _greedy(seed: int = 0) -> GreedyBot:
    return GreedyBot(random.Random(seed))


# --- own turn ------------------------------------------------------------------------------


def test_greedy_takes_a_self_drawn_win() -> None:
    assert _greedy().act(_view("123m456p789s11122z", drawn=True)) == Win(0)


def test_random_takes_a_self_drawn_win_too() -> None:
    assert RandomBot(random.Random(3)).act(_view("123m456p789s11122z", drawn=True)) == Win(0)


def test_no_self_drawn_win_after_a_pong() -> None:
    """After a pong or chow the player discards without drawing: no 'win' event then."""
    ev = _greedy().act(_view("11122z", melds=("123m", "456p", "789s"), drawn=False))
    assert isinstance(ev, Discard)


def test_greedy_discards_the_isolated_tile() -> None:
    assert _greedy().act(_view("123m456p789s1122z7z", drawn=True)) == Discard(0, parse_tiles("7z")[0])


def test_greedy_discard_reaches_the_lowest_shanten() -> None:
    rng = random.Random(5)
    for _ in range(200):
        tiles = rng.sample([t for t in range(34) for _ in range(4)], 14)
        counts = to_counts(tiles)
        ev = _greedy(rng.randrange(99)).act(View(0, "turn", list(counts), (), drawn=True))
        if isinstance(ev, Win):
            assert shanten(counts) == -1
            continue
        if isinstance(ev, Kong):
            assert counts[ev.tile or 0] == 4
            continue
        assert isinstance(ev, Discard) and ev.tile is not None and counts[ev.tile]
        after = {t: shanten([n - (u == t) for u, n in enumerate(counts)]) for t in range(34) if counts[t]}
        assert after[ev.tile] == min(after.values())


def test_greedy_breaks_ties_by_useful_tiles() -> None:
    # 5z or 9s: both leave shanten 1; dropping 5z keeps 79s (waits on 8s) and dropping 9s keeps 5z (pair wait
    # only); 79s + 1z pair... the bot keeps the shape with more tiles that help
    v = _view("123m456p11z79s5z68p", drawn=True)
    ev = _greedy().act(v)
    assert isinstance(ev, Discard) and ev.tile == parse_tiles("5z")[0]


def test_greedy_declares_a_concealed_kong_that_costs_nothing() -> None:
    # 1111m 24m 456p 789s 11z: discarding 4m leaves tenpai, and so does the kong (24m waits on 3m)
    ev = _greedy().act(_view("111124m456p789s11z", drawn=True))
    assert ev == Kong(0, "concealed", 0)


def test_greedy_keeps_four_alike_when_a_kong_would_cost() -> None:
    # 1111 2345m 678p 99s 5z: tenpai after 5z (111 123 45 ...); the kong leaves 1-shanten
    ev = _greedy().act(_view("11112345m678p99s5z", drawn=True))
    assert ev == Discard(0, parse_tiles("5z")[0])


def test_greedy_adds_to_its_pong() -> None:
    ev = _greedy().act(_view("5z456p789s11z23m", melds=("555z",), pongs=(31,), drawn=True))
    assert ev == Kong(0, "added", 31)


def test_no_added_kong_when_the_option_is_off() -> None:
    v = _view("5z456p789s11z23m", melds=("555z",), pongs=(31,), drawn=True, rules=Rules(added_kong=False))
    assert isinstance(_greedy().act(v), Discard)


# --- claims --------------------------------------------------------------------------------


def _claims_view(hand: str, tile: str, frm: int = 3, kind: str = "discard", melds: tuple[str, ...] = ()) -> View:
    return _view(hand, melds, phase="claims", claim_kind=kind, claim_from=frm, claim_tile=parse_tiles(tile)[0])


def test_both_bots_always_claim_a_winning_discard() -> None:
    for bot in (_greedy(), RandomBot(random.Random(1))):
        assert bot.claim(_claims_view("123m456p789s1112z", "2z")) == Claim(0, "win")


def test_only_a_win_may_rob_a_kong() -> None:
    assert _greedy().claim(_claims_view("123m456p789s1112z", "2z", kind="rob")) == Claim(0, "win")
    assert _greedy().claim(_claims_view("123m456p789s1135z", "3z", kind="rob")) is None
    bot = RandomBot(random.Random(1))
    assert all(bot.claim(_claims_view("123m456p789s1135z", "3z", kind="rob")) is None for _ in range(20))


def test_greedy_pongs_when_it_helps() -> None:
    assert _greedy().claim(_claims_view("123m456p78s5577z1z", "5z")) == Claim(0, "pong")  # 1-shanten -> tenpai
    # a pong that leaves the hand as far off as before still counts as "does not increase"
    assert _greedy().claim(_claims_view("123m456p789s11z35s", "1z")) == Claim(0, "pong")  # tenpai stays tenpai
    assert _greedy().claim(_claims_view("123m456p789s11z35s", "9s", frm=2)) is None  # one 9s, no chow from seat 2


def test_only_the_next_seat_chows() -> None:
    v = _claims_view("24m456p9p789s1157z", "3m", frm=3)  # seat 0 is seat 3's 下家
    assert _greedy().claim(v) == Claim(0, "chow", (1, 3))
    assert _greedy().claim(_claims_view("24m456p9p789s1157z", "3m", frm=2)) is None


def test_greedy_kong_on_a_discard() -> None:
    assert _greedy().claim(_claims_view("555z123m456p789s1z", "5z")) == Claim(0, "kong")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=13, max_size=13), st.integers(0, 33), st.integers(0, 2))
def test_greedy_claims_never_raise_shanten(tiles: list[int], tile: int, frm: int) -> None:
    counts = to_counts(tiles)
    if max(counts) > 4 or counts[tile] >= 4:
        return
    frm = (frm + 1) % 4  # one of seats 1..3; seat 0 chows only from seat 3
    ev = _greedy().claim(View(0, "claims", list(counts), (), claim_kind="discard", claim_from=frm, claim_tile=tile))
    before = shanten(counts)
    if ev is None:
        return
    assert isinstance(ev, Claim)
    if ev.call == "win":
        assert is_complete([n + (t == tile) for t, n in enumerate(counts)], 0)
        return
    taken = {"pong": [tile, tile], "kong": [tile] * 3, "chow": list(ev.tiles or ())}[ev.call]
    rest = list(counts)
    for t in taken:
        rest[t] -= 1
    meld = sorted([*taken, tile])
    if ev.call == "kong":
        assert shanten(rest, [meld]) <= before
    else:
        assert min(shanten([n - (u == x) for u, n in enumerate(rest)], [meld]) for x in range(34) if rest[x]) <= before


# --- what a bot sees -----------------------------------------------------------------------


def _dealt(seed: int = 11):
    s = new_table()
    for ev in (
        {"type": "new_session", "players": ["a", "b", "c", "d"], "base": 1, "wall_seed": seed},
        {"type": "seating", "method": "C", "east": 0},
        {"type": "roll", "dice": [3, 4]},
        {"type": "roll", "dice": [2, 5]},
    ):
        s, _ = apply(s, ev)
    return s


def test_a_view_holds_only_what_the_seat_can_see() -> None:
    s = _dealt()
    v = view_of(s, 0)
    assert v.hand == s.seats[0].concealed and sum(v.hand) == 14 and v.drawn
    assert v.table_melds == ((), (), (), ()) and v.discards == ((), (), (), ())
    # shuffle the other seats' tiles among themselves: seat 0's view does not change
    other = s.copy()
    a, b = other.seats[1].concealed, other.seats[2].concealed
    assert a is not None and b is not None
    x = next(t for t in range(34) if a[t] and not b[t])
    y = next(t for t in range(34) if b[t] and not a[t])
    a[x], a[y], b[x], b[y] = a[x] - 1, a[y] + 1, b[x] + 1, b[y] - 1
    w = view_of(other, 0)
    seen = [f.name for f in fields(View) if f.name != "open_table"] + ["moves", "table_melds", "discards"]
    assert {k: getattr(w, k) for k in seen} == {k: getattr(v, k) for k in seen}
    for bot in ("greedy", "random"):
        assert make_bot(bot, random.Random(2)).act(v) == make_bot(bot, random.Random(2)).act(w)


def test_bots_are_deterministic_given_their_rng() -> None:
    s = _dealt(seed=4)
    for strength in ("random", "greedy"):
        runs = []
        for _ in range(2):
            bot, state, events = make_bot(strength, random.Random(9)), s, []
            for _ in range(4):  # the dealer discards; then the others pass by resolve and draw
                ev = bot.act(view_of(state, state.turn))  # the same bot plays every seat here
                events.append(ev)
                state, _ = apply(state, ev)
                if state.phase == "claims":
                    state, _ = apply(state, {"type": "resolve"})
                if state.phase != "turn":
                    break
            runs.append(events)
        assert runs[0] == runs[1]


def test_unknown_strength() -> None:
    with pytest.raises(ValueError, match="unknown bot strength 'clever'"):
        make_bot("clever", random.Random(0))
