import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hand import (
    HandError,
    analyse_win,
    hand_counts,
    is_winning_hand,
    parse_meld,
    splits,
    winning_tiles,
)
from engine.rules import Rules
from engine.tiles import format_tiles, parse_tile, parse_tiles
from tests.engine import reference

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "hands.jsonl"


def _golden_rows():
    return [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]


def test_golden_file_is_big_and_varied():
    rows = _golden_rows()
    assert len(rows) >= 200
    kinds = {r["expect"].get("wait") for r in rows}
    assert {"closed", "single", "edge", "plain"} <= kinds
    assert any(r["melds"] for r in rows)
    assert any(len(parse_tiles(m)) == 4 for r in rows for m in r["melds"])  # kongs
    assert any(r["hand"] == "1112345678999m" for r in rows)
    assert any(r["hand"].endswith("z") and all(c in "1234567z" for c in r["hand"]) for r in rows)  # honours only


@pytest.mark.parametrize("row", _golden_rows(), ids=lambda r: f"{r['hand']}|{','.join(r['melds'])}|{r['win_tile']}")
def test_golden_hand(row):
    hand, melds, win, expect = row["hand"], row["melds"], row["win_tile"], row["expect"]
    if "waits" in expect:
        assert format_tiles(winning_tiles(hand, melds)) == expect["waits"]
        return
    assert is_winning_hand(hand, melds) is expect["winning"]
    assert is_winning_hand(hand_counts(hand), melds) is expect["winning"]
    if win is not None and expect["winning"]:
        assert analyse_win(hand, win, melds).wait == expect["wait"]


# --- exhaustive cross-check against the reference over one-suit hands ------------------


def _vectors(width, total):
    def rec(i, left, cur):
        if i == width:
            if left == 0:
                yield tuple(cur)
            return
        for n in range(min(4, left) + 1):
            cur.append(n)
            yield from rec(i + 1, left - n, cur)
            cur.pop()

    yield from rec(0, total, [])


@pytest.mark.parametrize("suit", [0, 27], ids=["suited", "honours"])
def test_every_one_suit_14_tile_hand_agrees_with_the_reference(suit):
    width = 9 if suit == 0 else 7
    checked = wins = 0
    for v in _vectors(width, 14):
        counts = [0] * 34
        counts[suit : suit + width] = v
        tiles = [t for t, n in enumerate(counts) for _ in range(n)]
        expected = reference.is_win(tiles)
        assert is_winning_hand(counts) is expected, format_tiles(tiles)
        assert is_winning_hand(bytes(counts)) is expected, format_tiles(tiles)
        checked += 1
        wins += expected
    if suit == 0:
        assert checked == 118_800 and wins == 13_259
    else:
        # honours: four triplets and a pair of seven winds/dragons, 7 * C(6, 4) ways
        assert wins == 7 * 15


@pytest.mark.parametrize("suit", [9, 27], ids=["suited", "honours"])
def test_every_one_suit_13_tile_hand_waits_agree_with_the_reference(suit):
    width = 9 if suit == 9 else 7
    checked = ready = 0
    for v in _vectors(width, 13):
        counts = [0] * 34
        counts[suit : suit + width] = v
        tiles = [t for t, n in enumerate(counts) for _ in range(n)]
        expected = reference.waits(tiles)
        assert winning_tiles(counts) == expected, format_tiles(tiles)
        checked += 1
        ready += bool(expected)
    if suit == 9:
        assert checked == 93_600 and ready == 40_070


# --- properties ---------------------------------------------------------------------


def thirteen_tiles():
    return st.lists(st.integers(0, 33), min_size=13, max_size=13).filter(
        lambda ts: all(ts.count(t) <= 4 for t in ts)
    )


MELDS = [(t, t, t) for t in range(34)] + [(s, s + 1, s + 2) for s in range(27) if s % 9 <= 6]


def _winning(pair_and_melds):
    pair, melds = pair_and_melds
    tiles = [pair, pair, *(t for m in melds for t in MELDS[m])]
    return sorted(tiles)


def winning_hand():
    """A random complete hand: a pair and four melds (triplets distinct), no fifth copies."""
    return (
        st.tuples(st.integers(0, 33), st.lists(st.integers(0, len(MELDS) - 1), min_size=4, max_size=4, unique=True))
        .map(_winning)
        .filter(lambda ts: all(ts.count(t) <= 4 for t in ts))
    )


@settings(max_examples=300, deadline=None)
@given(thirteen_tiles())
def test_adding_a_winning_tile_always_wins(tiles):
    waits = winning_tiles(tiles)
    for t in waits:
        assert is_winning_hand([*tiles, t])
    for t in set(range(34)) - set(waits):
        if tiles.count(t) < 4:
            assert not is_winning_hand([*tiles, t])


@settings(max_examples=300, deadline=None)
@given(winning_hand(), st.randoms(use_true_random=False))
def test_permuting_input_never_changes_the_answer(tiles, rnd):
    shuffled = list(tiles)
    rnd.shuffle(shuffled)
    assert is_winning_hand(shuffled) and is_winning_hand(tiles)
    win = rnd.choice(tiles)
    a, b = analyse_win(tiles, win), analyse_win(shuffled, win)
    assert a == b
    assert a.win_tile == win and a.waits and win in a.waits
    removed = list(tiles)
    removed.remove(win)
    rnd.shuffle(removed)
    assert winning_tiles(removed) == winning_tiles(sorted(removed))


@settings(max_examples=200, deadline=None)
@given(winning_hand(), st.randoms(use_true_random=False))
def test_analysis_agrees_with_the_reference(tiles, rnd):
    win = rnd.choice(tiles)
    a = analyse_win(tiles, win)
    assert {tuple(sorted(((s.pair, s.pair), *s.melds))) for s in a.splits} == set(
        reference.all_splits(tuple(sorted(tiles)))
    )
    assert a.wait == reference.best_kind(reference.wait_kinds(tiles, win))


# --- exactness rules ----------------------------------------------------------------


def test_honours_never_form_sequences():
    assert not is_winning_hand("123z123m456m789m55p")
    assert not is_winning_hand("567z123m456m789m55p")
    assert winning_tiles("12z123m456m789m55p") == []


def test_a_kong_counts_as_a_meld_of_three():
    assert is_winning_hand("55z", ["1111m", "2222p", "3333s", "4444z"])
    assert winning_tiles("5z", ["1111m", "2222p", "3333s", "4444z"]) == [parse_tile("5z")]
    with pytest.raises(HandError, match="should have 2"):
        is_winning_hand("5z", ["1111m", "2222p", "3333s", "4444z"])


def test_a_tile_whose_four_copies_are_held_is_never_a_wait():
    # 1111234m + 4m = 111 123 44; + 1m would be a fifth copy
    assert winning_tiles("1111234m567p789s") == parse_tiles("4m")
    assert winning_tiles("1111m234567p789s") == parse_tiles("")
    # a pong of 5p beside a lone 5p: the fourth copy is already held, so no single wait on it
    assert winning_tiles("5p123m456m789m", ["555p"]) == []
    assert winning_tiles("6p123m456m789m", ["555p"]) == [parse_tile("6p")]


def test_fifth_copies_are_refused():
    with pytest.raises(HandError, match="5 copies of 5p"):
        winning_tiles("55p123m456m789m", ["555p"])
    with pytest.raises(HandError, match="count vector"):
        is_winning_hand([5] + [0] * 33)
    with pytest.raises(HandError, match="count vector"):
        is_winning_hand(bytes([5, 3, 3, 3] + [0] * 30))
    with pytest.raises(HandError, match="count vector"):
        winning_tiles([-1] + [0] * 33)


def test_wrong_sizes_are_refused_not_answered():
    with pytest.raises(HandError, match="13 tiles; with 0 exposed meld\\(s\\) it should have 14"):
        is_winning_hand("123m456p789s1112z")
    with pytest.raises(HandError, match="should have 14"):
        is_winning_hand(hand_counts("123m456p789s1112z"))
    with pytest.raises(HandError, match="should have 13"):
        winning_tiles("123m456p789s11122z")
    with pytest.raises(HandError, match="should have 13"):
        winning_tiles(bytes(hand_counts("123m456p789s11122z")))
    with pytest.raises(HandError, match="at most 4"):
        is_winning_hand("", ["111m"] * 5)


def test_melds_are_checked():
    assert parse_meld("231m") == (0, 1, 2)
    assert parse_meld([33, 33, 33, 33]) == (33, 33, 33, 33)
    for bad in ("135m", "123z", "89m1p", "11m", "11112m"):
        with pytest.raises(HandError, match="not a meld"):
            parse_meld(bad)
    with pytest.raises(HandError, match="list of melds"):
        is_winning_hand("11m", "123m")  # type: ignore[arg-type]


def test_count_vectors_tuples_lists_bytes_and_text_agree():
    text = "123m456p789s11122z"
    counts = hand_counts(text)
    assert is_winning_hand(text) and is_winning_hand(counts) and is_winning_hand(tuple(counts))
    assert is_winning_hand(bytes(counts)) and is_winning_hand(parse_tiles(text))


def test_four_pairs_is_not_one_pair():
    assert not is_winning_hand("1122m3344p123s555z")
    assert not is_winning_hand(bytes(hand_counts("1122m3344p123s555z")))


# --- seven pairs (option) -----------------------------------------------------------


def test_seven_pairs_only_with_the_option():
    hand = "1122m3344p5566s77z"
    assert not is_winning_hand(hand)
    assert is_winning_hand(hand, seven_pairs=True)
    assert winning_tiles("1122m3344p5566s7z") == []
    assert winning_tiles("1122m3344p5566s7z", seven_pairs=True) == [parse_tile("7z")]
    a = analyse_win(hand, "7z", rules=Rules(seven_pairs=True))
    assert a.winning and a.wait == "single" and any(s.seven_pairs for s in a.splits)
    assert not analyse_win(hand, "7z").winning


def test_seven_pairs_may_hold_four_alike_as_two_pairs():
    assert is_winning_hand("1111m3344p5566s77z", seven_pairs=True)
    assert not is_winning_hand("1111m3344p5566s77z")


# --- wait kinds and options ---------------------------------------------------------


def test_each_wait_kind():
    assert analyse_win("123m13p456s789s11z2p", "2p").wait == "closed"
    assert analyse_win("123m12p456s789s11z3p", "3p").wait == "edge"
    assert analyse_win("123m89p456s789s11z7p", "7p").wait == "edge"
    assert analyse_win("123m45p456s789s11z3p", "3p").wait == "plain"
    assert analyse_win("123m456p456s789s11z", "1z").wait == "single"
    assert analyse_win("123m456p789s11z222z", "2z").wait == "plain"


def test_bonus_follows_the_options():
    assert analyse_win("123m13p456s789s11z2p", "2p").bonus
    assert analyse_win("123m456p456s789s11z", "1z").bonus
    edge = "123m12p456s789s11z3p"
    assert not analyse_win(edge, "3p").bonus
    assert analyse_win(edge, "3p", rules=Rules(edge_wait_bonus=True)).bonus
    assert not analyse_win("123m45p456s789s11z3p", "3p", rules=Rules(edge_wait_bonus=True)).bonus


def test_most_favourable_split_vs_only_wait():
    hand = "23455m123p456p789s"  # waited on 2m and 5m; 5m reads as single (234 + 55)
    a = analyse_win(hand, "5m")
    assert a.wait == "single" and a.bonus and format_tiles(a.waits) == "25m"
    b = analyse_win(hand, "5m", rules=Rules(wait_bonus="only_wait"))
    assert b.wait == "plain" and not b.bonus
    # a true one-tile wait keeps its bonus under only_wait
    c = analyse_win("123m13p456s789s11z2p", "2p", rules=Rules(wait_bonus="only_wait"))
    assert c.wait == "closed" and c.bonus and format_tiles(c.waits) == "2p"


def test_every_split_is_listed():
    # 111222333m: three triplets or three sequences
    found = splits(hand_counts("111222333m456p99s"))
    texts = sorted(s.text() for s in found)
    assert texts == ["99s 111m 222m 333m 456p", "99s 123m 123m 123m 456p"]
    a = analyse_win("111222333m456p99s", "2m")
    assert len(a.splits) == 2 and a.wait == "closed"
    assert {k for _, k in a.readings} == {"closed", "plain"}


def test_analyse_win_refuses_nonsense():
    with pytest.raises(HandError, match="not in the hand"):
        analyse_win("123m13p456s789s11z2p", "5z")
    not_winning = analyse_win("123m13p456s789s11z5p", "5p")
    assert not not_winning.winning and not_winning.wait is None and not not_winning.bonus


def test_analysis_json_names_splits_and_kinds():
    data = analyse_win("111222333m456p99s", "2m").to_json()
    assert data["wait"] == "closed" and data["win_tile"] == "2m"
    assert {s["split"]: s["kinds"] for s in data["splits"]} == {
        "99s 111m 222m 333m 456p": ["plain"],
        "99s 123m 123m 123m 456p": ["closed"],
    }
