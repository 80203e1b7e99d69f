"""What the simulator hands the bots agrees with the plain definitions: ``view_of`` with a
``View`` built from the state's values, and the engine's legal claims with a plain search
of every claim (the checked win test, the chow shapes written out)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import fields
from typing import Any

from engine.bots import View, table_of, view_of
from engine.corpus import tenpai_hands
from engine.hand import is_winning_hand
from engine.legal import claimants
from engine.rules import Rules
from engine.simulate import SimConfig, journal_line, simulate
from engine.state import Meld, SeatState, TableState
from engine.table import apply, new_table


def _states(hands: int, seed: int) -> list[TableState]:
    """Every state a seeded random-bot run passes through in phases turn and claims."""
    lines: list[str] = []
    simulate(SimConfig(hands=hands, seed=seed, bots=("random",) * 4), journal=lambda ev: lines.append(journal_line(ev)))
    s, out = new_table(), []
    for line in lines:
        s, _ = apply(s, json.loads(line))
        if s.phase in ("turn", "claims"):
            out.append(s)
    return out


def _plain_view(s: TableState, seat: int) -> View:
    me = s.seats[seat]
    assert me.concealed is not None
    c = s.claims if s.phase == "claims" else None
    mine = s.turn == seat
    return View(
        seat,
        s.phase,
        bytearray(me.concealed),
        tuple(m.tiles for m in me.melds if m.tiles is not None),
        tuple(m.tiles[0] for m in me.melds if m.kind == "pong" and m.tiles is not None),
        mine and s.drawn is not None,
        s.last_drawn if mine else None,
        None if c is None else c["kind"],
        None if c is None else c["from"],
        None if c is None else c["tile"],
        s.wall.remaining,
        s.rules,
        lambda: table_of(s),
    )


def _public(v: View) -> dict[str, Any]:
    names = [f.name for f in fields(View) if f.name != "open_table"]
    return {k: getattr(v, k) for k in [*names, "table_melds", "discards", "moves"]}


def test_view_of_gives_the_view_built_from_the_state() -> None:
    states = _states(40, seed=21)
    kinds = {(s.phase, bool(s.claims) and s.claims["kind"]) for s in states}
    assert ("claims", "discard") in kinds and ("turn", False) in kinds
    assert any(st.melds for s in states for st in s.seats)  # melds and pongs are in the views
    for s in states[::7]:
        for seat in range(4):
            fast, plain = view_of(s, seat), _plain_view(s, seat)
            assert _public(fast) == _public(plain), (s.phase, seat)
            fast.hand[0] += 1  # a bot may change its copy of the hand: the table's is its own
            assert s.seats[seat].concealed != fast.hand


def _may_claim_slowly(hand: list[int], melds: int, tile: int, kind: str, next_seat: bool, seven: bool,
                      meld_tiles: list[tuple[int, ...]] | None = None) -> bool:
    """Whether any claim is possible, the long way (the checked win test, the chow shapes
    written out)."""
    with_tile = list(hand)
    with_tile[tile] += 1
    if meld_tiles is None:
        meld_tiles = [(31, 31, 31), (32, 32, 32)][:melds]
    if is_winning_hand(with_tile, meld_tiles, seven_pairs=seven):
        return True
    if kind != "discard":
        return False
    if hand[tile] >= 2:
        return True
    if not next_seat or tile >= 27:
        return False
    r = tile % 9
    return any(
        r + a >= 0 and r + b <= 8 and hand[tile + a] and hand[tile + b] for a, b in ((-2, -1), (-1, 1), (1, 2))
    )


def _claim_cases() -> Iterator[tuple[list[int], int, int, str, bool, bool]]:
    """(hand, melds, tile, kind, next_seat, seven_pairs): random hands, hands one tile short
    of a win and hands one tile short of seven pairs, with every kind of claim."""
    rng = random.Random(5)
    wall = [t for t in range(27) for _ in range(4)]  # suits only: the melds are pongs of 白 and 发
    ready = tenpai_hands(4_000, seed=5)  # 13 tiles one short of a win: wins are well exercised
    for i in range(20_000):
        if i % 10 == 5:  # six pairs and a single: a seven-pairs wait when that rule is on
            kinds = rng.sample(range(34), 7)
            hand, melds = [0] * 34, 0
            for t in kinds:
                hand[t] = 2
            hand[kinds[0]] = 1
            tile = kinds[0] if rng.random() < 0.7 else rng.randrange(34)
        elif i % 2:
            hand, melds = list(ready[i // 2 % len(ready)]), 0
            tile = rng.randrange(34)
        else:
            melds = rng.choice((0, 0, 1, 2))
            tiles = rng.sample(wall, 13 - 3 * melds + 1)
            hand = [0] * 34
            for t in tiles[1:]:
                hand[t] += 1
            tile = tiles[0] if rng.random() < 0.8 else rng.randrange(31)
        if hand[tile] == 4 or (melds and tile in (31, 32)):
            continue  # no fifth copy
        kind, nxt, seven = rng.choice(("discard", "discard", "rob")), rng.random() < 0.5, rng.random() < 0.3
        yield hand, melds, tile, kind, nxt, seven and melds == 0


def test_claimants_match_a_plain_search_on_every_case() -> None:
    """The engine's legal moves (asked through ``claimants``) find every claim the plain
    search finds and no other: one seat at a time at each distance from the discarder, the
    other two seats holding nothing."""
    rules = {seven: Rules.from_overrides({"seven_pairs": seven}) for seven in (False, True)}
    asked = wins = 0
    for n, (hand, melds, tile, kind, nxt, seven) in enumerate(_claim_cases()):
        frm = n % 4
        seat = (frm + 1) % 4 if nxt else (frm + 2 + n % 2) % 4
        s = TableState(phase="claims", rules=rules[seven])
        s.seats = [SeatState(full=True) for _ in range(4)]
        s.seats[seat].concealed = bytearray(hand)
        s.seats[seat].count = sum(hand)
        s.seats[seat].melds = [Meld("pong", (31 + m,) * 3, None, frm) for m in range(melds)]
        s.claims = {"kind": kind, "from": frm, "tile": tile, "answers": [None] * 4, "tiles": [None] * 4}
        want = _may_claim_slowly(hand, melds, tile, kind, nxt, seven)
        assert claimants(s) == ([seat] if want else []), (hand, melds, tile, kind, nxt, seven)
        asked += want
        wins += want and kind == "rob"
    assert 2_000 < asked < 18_000  # both answers are well exercised
    assert wins > 100  # and wins, not only pongs and chows


def test_claimants_are_the_seats_that_may_claim() -> None:
    asked = 0
    for s in _states(60, seed=22):
        if s.phase != "claims" or s.claims is None:
            continue
        c = s.claims
        want = []
        for i in (1, 2, 3):
            seat = (c["from"] + i) % 4
            hand = s.seats[seat].concealed
            assert hand is not None
            melds = len(s.seats[seat].melds)
            if _may_claim_slowly(list(hand), melds, c["tile"], c["kind"], i == 1, s.rules.seven_pairs,
                                 s.seats[seat].meld_tiles()):
                want.append(seat)
        assert claimants(s) == want
        asked += bool(want)
    assert asked > 50
