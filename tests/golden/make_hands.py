"""Write tests/golden/hands.jsonl: hands with their expected analysis.

The answers come from two independent places and must agree before anything is written:
the hand-worked cases below (expected values typed in by a person from docs/rules.md), and the
simple reference checker in tests/engine/reference.py for every case, hand-worked or
seeded-random. The fast analyser in engine/hand.py is never consulted here.

Run: .venv/bin/python -m tests.golden.make_hands
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from engine.tiles import format_tiles, parse_tiles
from tests.engine.reference import best_kind, is_win, wait_kinds, waits

OUT = Path(__file__).with_name("hands.jsonl")

# (hand, melds, win_tile or None, expected) — worked by hand from docs/rules.md §11 and §13.
# For 13 tiles (counting melds as 3 each) "waits" lists the winning tiles in mpsz text;
# for 14 tiles "winning", and with a win tile the best wait kind ("wait").
WORKED: list[tuple[str, list[str], str | None, dict[str, object]]] = [
    # nine gates: 1112345678999 waits on every tile of its suit
    ("1112345678999m", [], None, {"waits": "123456789m"}),
    ("1112345678999p", [], None, {"waits": "123456789p"}),
    ("1112345678999s", [], None, {"waits": "123456789s"}),
    # honours never make sequences: 123z is not a meld
    ("123z123m456m789m55p", [], None, {"winning": False}),
    ("11122233344455z", [], None, {"winning": True}),
    ("1112223334445z", [], None, {"waits": "5z"}),
    ("111222333444z5p", [], None, {"waits": "5p"}),
    ("1122z", ["111m", "222p", "333s"], None, {"waits": "12z"}),  # shanpon on honours
    ("11z", ["111m", "222p", "333s", "4444z"], None, {"winning": True}),  # a kong counts as three
    ("1z", ["111m", "222p", "333s", "4444z"], None, {"waits": "1z"}),
    # all four of a tile held: never waited on
    ("1111m", ["777z", "888p", "999s"], None, {"waits": ""}),
    ("2m", ["222m", "777z", "888p", "999s"], None, {"waits": ""}),
    ("1113m", ["777z", "888p", "999s"], None, {"waits": "23m"}),
    ("123m456p789s1122z", [], None, {"waits": "12z"}),
    ("123m456p789s2z", ["345s"], None, {"waits": "2z"}),
    # wait kinds, one of each
    ("123m13p456s789s11z2p", [], "2p", {"winning": True, "wait": "closed"}),
    ("123m12p456s789s11z3p", [], "3p", {"winning": True, "wait": "edge"}),
    ("123m89p456s789s11z7p", [], "7p", {"winning": True, "wait": "edge"}),
    ("123m45p456s789s11z3p", [], "3p", {"winning": True, "wait": "plain"}),
    ("123m456p456s789s1z1z", [], "1z", {"winning": True, "wait": "single"}),
    ("123m456p789s11z22z2z", [], "2z", {"winning": True, "wait": "plain"}),  # shanpon
    # most favourable reading: 2345 + 5 can be 234+55 (single) or 345 with 5 (plain)
    ("23455m123p456p789s", [], "5m", {"winning": True, "wait": "single"}),
    # 12333 + 3: 123 + 33 reads the 3 as edge (in 123) or single (in the pair 33): single
    ("12333m456p789s111z", [], "3m", {"winning": True, "wait": "single"}),
    # 34445 + 4: 345 + 44 reads the 4 as closed (middle of 345) or single (pair 44): closed
    ("34445m111z", ["123p", "456p"], "4m", {"winning": True, "wait": "closed"}),
    # with exposed melds and a kong, a closed wait
    ("13m2m11z", ["456p", "7777s", "555z"], "2m", {"winning": True, "wait": "closed"}),
    ("12m3m11z", ["456p", "7777s", "555z"], "3m", {"winning": True, "wait": "edge"}),
    # not winning: four pairs and two melds (only one pair allowed)
    ("1122m3344p123s555z", [], None, {"winning": False}),
    # seven pairs is not a winning hand under the xian preset
    ("1122m3344p5566s77z", [], None, {"winning": False}),
]


def _expected(hand: str, melds: list[str], win_tile: str | None) -> dict[str, object]:
    tiles = parse_tiles(hand)
    meld_tiles = [t for m in melds for t in parse_tiles(m)]
    assert all((tiles + meld_tiles).count(t) <= 4 for t in range(34)), f"fifth copy in {hand} {melds}"
    size = len(tiles) + 3 * len(melds)
    if size == 13:
        return {"waits": format_tiles(waits(tiles, meld_tiles, len(melds)))}
    out: dict[str, object] = {"winning": is_win(tiles, len(melds))}
    if win_tile is not None and out["winning"]:
        out["wait"] = best_kind(wait_kinds(tiles, parse_tiles(win_tile)[0]))
    return out


def _random_cases(rng: random.Random, n: int) -> list[tuple[str, list[str], str | None]]:
    cases: list[tuple[str, list[str], str | None]] = []
    wall = [t for t in range(34) for _ in range(4)]
    while len(cases) < n:
        kind = len(cases) % 4
        if kind == 0:  # a random winning hand, with its wait kind for a random winning tile
            counts = [0] * 34
            counts[rng.randrange(34)] += 2
            for _ in range(4):
                if rng.random() < 0.6:
                    s = rng.randrange(3) * 9 + rng.randrange(7)
                    for t in (s, s + 1, s + 2):
                        counts[t] += 1
                else:
                    counts[rng.randrange(34)] += 3
            if max(counts) > 4:
                continue
            tiles = [t for t, c in enumerate(counts) for _ in range(c)]
            cases.append((format_tiles(tiles), [], format_tiles([rng.choice(tiles)])))
        elif kind == 1:  # a winning hand with one tile taken out: 13 tiles
            rng.shuffle(wall)
            counts = [0] * 34
            counts[rng.randrange(27)] += 2
            for _ in range(4):
                s = rng.randrange(3) * 9 + rng.randrange(7)
                for t in (s, s + 1, s + 2):
                    counts[t] += 1
            if max(counts) > 4:
                continue
            tiles = [t for t, c in enumerate(counts) for _ in range(c)]
            tiles.remove(rng.choice(tiles))
            cases.append((format_tiles(tiles), [], None))
        elif kind == 2:  # a one-suit 13-tile hand: many waits
            suit = rng.randrange(3) * 9
            pool = [suit + r for r in range(9) for _ in range(4)]
            rng.shuffle(pool)
            cases.append((format_tiles(pool[:13]), [], None))
        else:  # 14 random tiles from a shuffled wall: almost never winning
            rng.shuffle(wall)
            cases.append((format_tiles(wall[:14]), [], None))
    return cases


def build() -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for hand, melds, win, expected in WORKED:
        ref = _expected(hand, melds, win)
        if ref != expected:
            raise SystemExit(f"the reference disagrees with the worked answer for {hand} {melds}: {ref} != {expected}")
        rows.append({"hand": hand, "melds": melds, "win_tile": win, "expect": expected, "source": "worked"})
    rng = random.Random(20261201)
    for hand, melds, win in _random_cases(rng, 220):
        rows.append({"hand": hand, "melds": melds, "win_tile": win, "expect": _expected(hand, melds, win),
                     "source": "seeded"})
    return rows


if __name__ == "__main__":
    rows = build()
    with OUT.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} hands to {OUT}")
