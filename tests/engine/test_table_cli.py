"""``xian-table play`` and ``xian-table dice`` through the real command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

START = [
    {"type": "new_session", "players": ["Ann", "Bo", "Cai", "Dee"], "base": 1},
    {"type": "seating", "method": "C", "east": 0},
    {"type": "roll", "dice": [4, 6]},
    {"type": "roll", "dice": [2, 3]},
]


def jsonl(events: list[Any]) -> str:
    return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)


def test_dice_says_where_to_break_the_wall(cli: Any) -> None:
    # docs/rules.md §6, the source's example: t1 = 10 -> the dealer's 下家; t2 = 5 -> after its 15th stack
    proc = cli("dice", "--dealer-roll", "4,6", "--owner-roll", "2,3", "--json", check=True)
    out = json.loads(proc.stdout)
    assert out["break"] == {"owner": 1, "count": 15, "wall": 1, "stack": 15}
    assert out["owner_relative"] == "xiajia"
    assert out["tail"] == {"wall": 1, "stack": 15} and out["head"] == {"wall": 1, "stack": 16}
    assert "下家" in out["zh"] and "第 15 墩" in out["zh"] and "stack 16" in out["en"]
    human = cli("dice", "--dealer-roll", "4,6", "--owner-roll", "2,3", check=True).stdout
    assert "牌尾" in human and "The dealer (seat 0) rolls 10" in human


def test_dice_overflow_and_bad_rolls(cli: Any) -> None:
    out = json.loads(
        cli("dice", "--dealer-roll", "6,6", "--owner-roll", "6,6", "--dealer", "2", "--json", check=True).stdout
    )
    # 12 from seat 2 -> seat 1 (its 上家); k = 24 -> 7 stacks into the next wall, seat 2's
    assert out["break"] == {"owner": 1, "count": 24, "wall": 2, "stack": 7} and out["overflow"] is True
    bad = cli("dice", "--dealer-roll", "7,1", "--owner-roll", "1,1")
    assert bad.returncode == 2 and "dice show 1..6" in bad.stderr


def test_play_prints_the_public_state(cli: Any, tmp_path: Path) -> None:
    f = tmp_path / "hand.jsonl"
    f.write_text("# a comment\n\n" + jsonl(START), encoding="utf-8")
    out = json.loads(cli("play", str(f), "--json", check=True).stdout)
    assert out["schema"] == 1 and out["phase"] == "turn" and out["wall"]["head_taken"] == 53
    human = cli("play", str(f), check=True).stdout
    assert "出牌" in human and "seat 0" in human and "remaining" in human


def test_play_stops_at_a_refused_event_with_the_state_before_it(cli: Any) -> None:
    events = [*START, {"type": "discard", "seat": 0}, {"type": "discard", "seat": 1}]
    proc = cli("play", "-", "--json", input=jsonl(events))
    assert proc.returncode == 3
    out = json.loads(proc.stdout)
    assert out["index"] == 5 and out["event"] == {"type": "discard", "seat": 1}
    assert "claims: seat 1 cannot discard now" in out["error"]
    assert out["state"]["phase"] == "claims" and out["state"]["claims"]["from"] == 0
    assert "rejected" in proc.stderr


def test_play_rejects_lines_that_are_not_json(cli: Any, tmp_path: Path) -> None:
    proc = cli("play", "-", input=jsonl(START[:1]) + "{oops\n")
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["index"] == 1
    missing = cli("play", str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_a_kong_right_after_a_pong_or_chow_is_refused(cli: Any) -> None:
    """docs/rules.md §17: a seat that has just ponged or chowed has drawn nothing: it may only discard.
    The script stops with exit 3 and the state before the kong is the one reported."""
    pong = [*START, {"type": "discard", "seat": 0}, {"type": "claim", "seat": 2, "call": "pong"}, {"type": "resolve"}]
    chow = [*START, {"type": "discard", "seat": 0}, {"type": "claim", "seat": 1, "call": "chow"}, {"type": "resolve"}]
    for script, seat in ((pong, 2), (chow, 1)):
        before = json.loads(cli("play", "-", "--json", input=jsonl(script), check=True).stdout)
        assert before["turn"] == seat and before["actions"][seat] == ["discard"]
        for kind in ("concealed", "added"):
            proc = cli("play", "-", "--json", input=jsonl([*script, {"type": "kong", "seat": seat, "kind": kind}]))
            assert proc.returncode == 3, proc.stdout
            out = json.loads(proc.stdout)
            assert "drew nothing" in out["error"] and out["state"] == before
        win = cli("play", "-", "--json", input=jsonl([*script, {"type": "win", "seat": seat}]))
        assert win.returncode == 3 and "drew nothing" in json.loads(win.stdout)["error"]


def test_a_confirmed_hand_must_show_the_melds_the_seat_exposed(cli: Any) -> None:
    """docs/rules.md §17: melds entered with the hand must be the kind the table saw (a pong is not a
    sequence), and the same tiles where the table knows them."""
    script = [*START, {"type": "discard", "seat": 0, "tile": "5p"}, {"type": "claim", "seat": 2, "call": "pong"},
              {"type": "resolve"}, {"type": "discard", "seat": 2}, {"type": "claim", "seat": 3, "call": "win"},
              {"type": "resolve"}]
    base = cli("play", "-", "--json", input=jsonl(script), check=True)
    assert json.loads(base.stdout)["phase"] == "win_pending"

    def confirm(hand: str, win: str, melds: list[str]) -> Any:
        ev = {"type": "confirm_win", "hand": hand, "win_tile": win, "melds": melds}
        return cli("play", "-", "--json", input=jsonl([*script, ev]))

    # seat 3 exposed nothing: a hand with a meld is refused, the same tiles concealed win
    proc = confirm("123m456p11z2233s", "1s", ["789s"])
    assert proc.returncode == 3 and "with 1 melds: seat 3 has 0 on the table" in json.loads(proc.stdout)["error"]
    assert confirm("123m456p789s11z234s", "3s", []).returncode == 0

    # seat 2 ponged 5p: its melds must be that pong
    seat2 = [*START, {"type": "discard", "seat": 0, "tile": "5p"}, {"type": "claim", "seat": 2, "call": "pong"},
             {"type": "resolve"}, {"type": "win", "seat": 2}]
    proc = cli("play", "-", "--json", input=jsonl(seat2))
    assert proc.returncode == 3  # and not even a self-drawn win after the pong

    seat2 = [*START, {"type": "discard", "seat": 0, "tile": "5p"}, {"type": "claim", "seat": 2, "call": "pong"},
             {"type": "resolve"}, {"type": "discard", "seat": 2}, {"type": "resolve"}, {"type": "discard", "seat": 3},
             {"type": "claim", "seat": 2, "call": "win"}, {"type": "resolve"}]
    assert json.loads(cli("play", "-", "--json", input=jsonl(seat2), check=True).stdout)["phase"] == "win_pending"

    def confirm2(melds: list[str]) -> Any:
        ev = {"type": "confirm_win", "hand": "123m789s11z234s", "win_tile": "3s", "melds": melds}
        return cli("play", "-", "--json", input=jsonl([*seat2, ev]))

    as_chow = confirm2(["345p"])
    assert as_chow.returncode == 3 and "exposed pong" in json.loads(as_chow.stdout)["error"]
    other_pong = confirm2(["666p"])
    assert other_pong.returncode == 3 and "the table shows 555p (pong)" in json.loads(other_pong.stdout)["error"]
    assert confirm2(["555p"]).returncode == 0

    # the tiles of the pong unknown (no tile named): its kind still is
    unknown = [{**ev, "tile": None} if ev.get("tile") else ev for ev in seat2]
    unknown = [{k: v for k, v in ev.items() if v is not None} for ev in unknown]
    ev = {"type": "confirm_win", "hand": "123m789s11z234s", "win_tile": "3s", "melds": ["345p"]}
    proc = cli("play", "-", "--json", input=jsonl([*unknown, ev]))
    assert proc.returncode == 3 and "seat 2 exposed pong" in json.loads(proc.stdout)["error"]
    ev["melds"] = ["777z"]
    assert cli("play", "-", "--json", input=jsonl([*unknown, ev])).returncode == 0
