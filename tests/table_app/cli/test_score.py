"""``xian-table score`` through the real CLI: docs/rules.md §16 examples, options, refusals (exit 2)."""

from __future__ import annotations

import json
from typing import Any

import pytest


def score(cli: Any, *args: str) -> dict[str, Any]:
    proc = cli("score", "--json", *args)
    assert proc.returncode == 0, proc.stderr
    out: dict[str, Any] = json.loads(proc.stdout)
    assert sum(out["deltas"]) == 0
    return out


def rows(result: dict[str, Any]) -> list[tuple[int, int, int, str]]:
    return sorted((t["from"], t["to"], t["amount"], t["reason"]) for t in result["transfers"])


# --- docs/rules.md §16 (b = 1, no bets, dealer 0) -----------------------------------------------


def test_16_self_drawn_plain(cli: Any) -> None:
    r = score(cli, "--winner", "2", "--self-drawn")
    assert r["deltas"] == [-2, -2, 6, -2]
    assert rows(r) == [(0, 2, 2, "win"), (1, 2, 2, "win"), (3, 2, 2, "win")]
    assert (r["how"], r["wait"], r["wait_bonus"]) == ("self_drawn", "plain", False)


def test_16_self_drawn_closed(cli: Any) -> None:
    assert score(cli, "--winner", "2", "--self-drawn", "--wait", "closed")["deltas"] == [-3, -3, 9, -3]


def test_16_discard_single(cli: Any) -> None:
    r = score(cli, "--winner", "1", "--discard", "3", "--wait", "single")
    assert r["deltas"] == [0, 2, 0, -2]
    assert rows(r) == [(3, 1, 2, "win")]


def test_16_kongs_on_a_drawn_hand(cli: Any) -> None:
    assert score(cli, "--draw", "--kong", "1:concealed")["deltas"] == [-2, 6, -2, -2]
    assert score(cli, "--draw", "--kong", "1:exposed:3")["deltas"] == [-1, 3, -1, -1]


def test_16_after_kong(cli: Any) -> None:
    r = score(cli, "--winner", "1", "--after-kong", "--kong", "1:concealed")
    assert r["by_reason"]["win"] == [-4, 12, -4, -4]
    assert r["by_reason"]["kong"] == [-2, 6, -2, -2]
    assert r["deltas"] == [-6, 18, -6, -6]


def test_16_heavenly(cli: Any) -> None:
    r = score(cli, "--winner", "0", "--heavenly")
    assert r["deltas"] == [18, -6, -6, -6]
    assert rows(r) == [(1, 0, 6, "win"), (2, 0, 6, "win"), (3, 0, 6, "win")]


def test_16_bets(cli: Any) -> None:
    r = score(cli, "--winner", "3", "--self-drawn", "--bets", "0", "1", "0", "2")
    assert [t for t in rows(r) if t[3] == "bet"] == [(0, 3, 4, "bet"), (1, 3, 6, "bet"), (2, 3, 4, "bet")]
    assert r["by_reason"]["bet"] == [-4, -6, -4, 14]
    assert r["deltas"] == [-6, -8, -6, 20]


def test_human_table_in_chinese_and_english(cli: Any) -> None:
    proc = cli("score", "--winner", "2", "--self-drawn", "--wait", "closed")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "自摸 self-drawn" in out and "听法 Wait: 夹张 closed" in out
    assert "得失 per-seat result" in out
    lines = [line.split() for line in out.splitlines()]
    assert ["座2", "seat", "2", "+9"] in lines
    assert ["座0", "seat", "0", "庄", "-3"] in lines
    assert sum(1 for line in out.splitlines() if "→ 座2 seat 2" in line and "胡 win" in line) == 3


# --- options and other inputs -------------------------------------------------------


def test_rule_discard_win_payers_all(cli: Any) -> None:
    r = score(cli, "--winner", "1", "--discard", "3", "--wait", "single", "--rule", "discard_win_payers=all")
    assert r["deltas"] == [-2, 6, -2, -2]
    assert r["rules"] == {"discard_win_payers": "all"}


def test_rule_exposed_kong_payers_discarder(cli: Any) -> None:
    args = ("--draw", "--kong", "1:exposed:3", "--kong", "2:added", "--rule", "exposed_kong_payers=discarder")
    r = score(cli, *args)
    # the claimed kong: seat 3 alone pays 3; the added kong: each other seat 1
    assert rows(r) == [(0, 2, 1, "kong"), (1, 2, 1, "kong"), (3, 1, 3, "kong"), (3, 2, 1, "kong")]


def test_rule_kong_paid_on_draw(cli: Any) -> None:
    assert score(cli, "--draw", "--kong", "1:concealed")["deltas"] == [-2, 6, -2, -2]
    r = score(cli, "--draw", "--kong", "1:concealed", "--rule", "kong_paid_on_draw=false")
    assert r["deltas"] == [0, 0, 0, 0] and r["transfers"] == []
    # a won hand still pays its kongs
    r = score(cli, "--winner", "2", "--self-drawn", "--kong", "1:concealed", "--rule", "kong_paid_on_draw=false")
    assert r["deltas"] == [-4, 4, 4, -4]


def test_rule_bet_unit_and_base(cli: Any) -> None:
    r = score(cli, "-w", "3", "-s", "--bets", "0", "1", "0", "2", "--rule", "bet_unit=3")
    assert r["by_reason"]["bet"] == [-12, -18, -12, 42]
    r = score(cli, "-w", "3", "-s", "--bets", "0", "1", "0", "2", "--base", "2")
    assert r["by_reason"]["bet"] == [-8, -12, -8, 28]
    assert r["by_reason"]["win"] == [-4, -4, -4, 12]


def test_rule_multipliers_on_bets(cli: Any) -> None:
    base = ("-w", "1", "--after-kong", "-k", "1:c", "--bets", "0", "1", "0", "2")
    assert score(cli, *base)["by_reason"]["bet"] == [-2, 10, -2, -6]
    assert score(cli, *base, "--rule", "multipliers_on_bets=true")["by_reason"]["bet"] == [-4, 20, -4, -12]


def test_rule_edge_wait_bonus(cli: Any) -> None:
    assert score(cli, "-w", "0", "-s", "--wait", "edge")["deltas"] == [6, -2, -2, -2]
    assert score(cli, "-w", "0", "-s", "--wait", "edge", "--rule", "edge_wait_bonus=true")["deltas"] == [9, -3, -3, -3]


def test_hand_finds_the_wait_and_wait_bonus_option(cli: Any) -> None:
    args = ("-w", "2", "-d", "1", "--hand", "23455m123p456p789s", "--win-tile", "5m")
    r = score(cli, *args)
    assert (r["wait"], r["wait_bonus"], r["deltas"]) == ("single", True, [0, -2, 2, 0])
    r = score(cli, *args, "--rule", "wait_bonus=only_wait")
    assert (r["wait"], r["wait_bonus"], r["deltas"]) == ("plain", False, [0, -1, 1, 0])


def test_robbed_kong(cli: Any) -> None:
    r = score(cli, "--winner", "2", "--robbed", "0", "--wait", "closed")
    assert (r["how"], r["discarder"], rows(r)) == ("robbed_kong", 0, [(0, 2, 2, "win")])


def test_dealer_flag_allows_heavenly_for_that_seat(cli: Any) -> None:
    assert score(cli, "--winner", "2", "--heavenly", "--dealer", "2")["deltas"] == [-6, -6, 18, -6]


# --- refusals: exit 2 and one clear line (the rules' refusals are the engine's words) -------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("-w", "1", "-d", "1"), "seat 1 cannot win on its own discard"),
        (("-w", "1", "--robbed", "1"), "seat 1 cannot win on its own kong"),
        (("-w", "1", "--heavenly"), "seat 1 cannot win 天胡 (heavenly): it is the dealer's, and the dealer is seat 0"),
        (("-w", "0", "--heavenly", "--dealer", "3"), "seat 0 cannot win 天胡 (heavenly)"),
        (("-w", "0", "--heavenly", "--dealer", "7"), "'--dealer' must be a seat 0..3, got 7"),
        (("-w", "1", "-s", "--bets", "0", "-1", "0", "0"), "'bets' must be 4 whole numbers >= 0"),
        (("-w", "1", "-s", "--bets", "0", "1000001", "0", "0"), "(each at most 1,000,000)"),
        (("-w", "1", "--after-kong"), "杠后开花 (kong_bloom) needs a kong declared by the winner, seat 1"),
        (("-w", "1", "--after-kong", "-k", "2:concealed"), "needs a kong declared by the winner"),
        (("-w", "1", "-d", "2", "--after-kong", "-k", "1:concealed"), "杠后开花 (kong_bloom) is a self-drawn win"),
        (("-w", "0", "-d", "2", "--heavenly"), "天胡 (heavenly) is a self-drawn win: not won on a discard"),
        (("-w", "0", "--heavenly", "-k", "0:concealed"), "天胡 (heavenly) is won on the dealt tiles, before anyone"),
        (("-w", "1", "-r", "discard_win_payer=all", "-s"), "unknown rule option 'discard_win_payer'"),
        (("-w", "1", "-r", "discard_win_payers=some", "-s"), "must be one of discarder, all"),
        (("-w", "1", "-r", "nonsense", "-s"), "--rule wants NAME=VALUE"),
        (("-w", "1"), "say how the hand was won"),
        (("-s",), "give --winner SEAT, or --draw"),
        (("-w", "5", "-s"), "'winner' must be a seat 0..3, got 5"),
        (("-w", "1", "-s", "--base", "0"), "the base must be a whole number >= 1"),
        (("-w", "1", "-s", "-k", "2:exposed", "-r", "exposed_kong_payers=discarder"),
         "seat 2 declared an exposed kong: say whose discard it claimed"),
        (("-w", "1", "-s", "-k", "2:exposed:2"), "only an exposed kong has a discarder, another seat"),
        (("-w", "1", "-s", "-k", "2:concealed:3"), "only an exposed kong has a discarder"),
        (("-w", "1", "-s", "-k", "2:big"), "a kong's 'kind' is one of concealed, exposed, added, got 'big'"),
        (("-w", "1", "-s", "-k", "2"), "--kong wants SEAT:KIND[:FROM]"),
        (("-w", "1", "-s", "-k", "two:c"), "seats are numbers 0..3"),
        (("-w", "1", "-s", *("-k", "1:c") * 3, "-k", "1:e", "-k", "1:a"), "seat 1 has more than 4 kongs"),
        (("--draw", "-w", "1"), "give --winner SEAT, or --draw for a drawn hand (no winner), not both"),
        (("--draw", "--wait", "closed"), "a drawn hand (no 'winner') has no 'how', 'discarder', 'wait'"),
        (("--draw", "--heavenly"), "a drawn hand has no winner: it cannot be 天胡 (heavenly)"),
        (("-w", "1", "-s", "--hand", "123m456p789s12345z", "--win-tile", "1z"), "not a winning hand"),
        (("-w", "1", "-s", "--hand", "23455m123p456p789s"), "--hand needs --win-tile"),
        (("-w", "1", "-s", "--win-tile", "5m"), "--win-tile and --melds go with --hand"),
        (("-w", "1", "-s", "--wait", "single", "--hand", "23455m123p456p789s", "--win-tile", "5m"),
         "give either --wait or --hand"),
    ],
)
def test_refusals(cli: Any, args: tuple[str, ...], message: str) -> None:
    proc = cli("score", *args)
    assert proc.returncode == 2, proc.stdout
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and proc.stderr.startswith("xian-table score: ")


def test_refusal_in_json(cli: Any) -> None:
    proc = cli("score", "--json", "-w", "1", "-d", "1")
    assert proc.returncode == 2
    assert json.loads(proc.stdout) == {"error": "score_hand: seat 1 cannot win on its own discard: the winner never "
                                                "pays its own win in {'winner': 1, 'how': 'discard', 'discarder': 1}"}
    proc = cli("score", "--json", "-w", "1", "--heavenly")
    assert proc.returncode == 2
    assert json.loads(proc.stdout) == {"error": "seat 1 cannot win 天胡 (heavenly): it is the dealer's, and the "
                                                "dealer is seat 0"}


def test_an_exposed_kong_names_its_discarder_only_when_the_rules_need_it(cli: Any) -> None:
    """As the engine takes a scored hand: every other seat pays an exposed kong unless
    ``exposed_kong_payers`` is discarder (then FROM is needed: refused above)."""
    assert score(cli, "--draw", "--kong", "1:exposed")["deltas"] == [-1, 3, -1, -1]
    r = score(cli, "--draw", "--kong", "1:明", "--kong", "2:加杠", "--kong", "3:c")
    assert [(k["seat"], k["kind"], k["from"]) for k in r["kongs"]] == [
        (1, "exposed", None), (2, "added", None), (3, "concealed", None)]


def test_two_ways_to_win_are_a_usage_error(cli: Any) -> None:
    proc = cli("score", "-w", "1", "-s", "-d", "2")
    assert proc.returncode == 2
    assert "not allowed with argument" in proc.stderr
    proc = cli("score", "-w", "0", "--after-kong", "--heavenly", "-k", "0:c")  # one special win
    assert proc.returncode == 2
    assert "argument --heavenly: not allowed with argument --after-kong" in proc.stderr
