"""Writes the golden event scripts (``*.jsonl``) in this folder. Run it from the repo root:

    .venv/bin/python tests/golden/events/make_scripts.py

The scripts are plain ``xian-table play`` files. Lines starting with ``#`` are comments
(``play`` skips them); ``#expect {...}`` lines are checkpoints: the public state at that
point must contain those keys with those values (tests/engine/test_table_golden.py). The
expected values — in the checkpoints and in each ``*.json`` — were worked out by hand
from docs/rules.md (the reasoning is in the comments), not taken from the engine's output.

This script only writes events; it does not import the engine.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PLAYERS = ["Ann", "Bo", "Cai", "Dee"]


class Script:
    def __init__(self, name: str, title: str) -> None:
        self.name = name
        self.lines: list[str] = [f"# {title}"]
        self.turn: int | None = None

    def note(self, text: str) -> None:
        self.lines.extend(f"# {line}" for line in text.strip().splitlines())

    def ev(self, **fields: Any) -> None:
        self.lines.append(json.dumps(fields, ensure_ascii=False))

    def expect(self, **subset: Any) -> None:
        self.lines.append("#expect " + json.dumps(subset, ensure_ascii=False))

    def start(
        self,
        east: int = 0,
        dealer_roll: tuple[int, int] = (4, 6),
        owner_roll: tuple[int, int] = (2, 3),
        rules: dict[str, Any] | None = None,
        bets: list[int] | None = None,
    ) -> None:
        ns: dict[str, Any] = {"type": "new_session", "players": PLAYERS, "base": 1}
        if rules:
            ns["rules"] = rules
        self.ev(**ns)
        self.ev(type="seating", method="C", east=east)
        self.dealer = east
        self.deal(dealer_roll, owner_roll, bets)

    def deal(
        self, dealer_roll: tuple[int, int] = (4, 6), owner_roll: tuple[int, int] = (2, 3), bets: list[int] | None = None
    ) -> None:
        if bets:
            self.ev(type="bets", bets=bets)
        self.ev(type="roll", dice=list(dealer_roll))
        self.ev(type="roll", dice=list(owner_roll))
        self.turn = self.dealer

    def discard_and_draw(self, tile: str | None = None, how: str = "resolve") -> None:
        """The player to move discards, nobody claims, the next seat draws."""
        assert self.turn is not None
        d: dict[str, Any] = {"type": "discard", "seat": self.turn}
        if tile:
            d["tile"] = tile
        self.ev(**d)
        if how == "resolve":
            self.ev(type="resolve")
        else:
            for i in (1, 2, 3):
                self.ev(type="pass", seat=(self.turn + i) % 4)
        self.turn = (self.turn + 1) % 4

    def write(self, final: dict[str, Any]) -> None:
        (HERE / f"{self.name}.jsonl").write_text("\n".join(self.lines) + "\n", encoding="utf-8")
        (HERE / f"{self.name}.json").write_text(
            json.dumps(final, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )


def seed_example() -> None:
    s = Script("seed_example", "The source's own example (docs/rules.md §6): t1 = 10, t2 = 5.")
    s.note("""
Dealer seat 0 rolls 4+6 = 10: counting 10 seats from the dealer (the dealer is 1) reaches
seat (0 + 10 - 1) mod 4 = 1, the dealer's 下家. Seat 1 rolls 2+3 = 5: k = 15 <= 17, so the
tail is seat 1's 15th stack and drawing starts with its 16th.
The deal (§7) takes 53 tiles: 26 whole stacks and the upper tile of the 27th. Counting the
head stacks: seat 1's 16, 17 (2), seat 2's 1..17 (17 more, 19), seat 3's 1..8 (27th = seat 3
stack 8), whose lower tile is the next head draw. 136 - 53 = 83 remain; no kongs: R(0) = 13
stacks = 26 tiles, so 83 - 26 = 57 tiles can still be drawn from the head.""")
    s.ev(type="new_session", players=PLAYERS, base=1)
    s.expect(phase="seating", hand=1, round=1)
    s.ev(type="seating", method="C", east=0)
    s.expect(phase="betting", dealer=0, winds=["E", "S", "W", "N"])
    s.ev(type="roll", dice=[4, 6], seat=0)
    s.expect(phase="rolling", dice={"dealer": [4, 6], "owner": None})
    s.ev(type="roll", dice=[2, 3], seat=1)
    s.write(
        {
            "_comment": "hand-reasoned: see the comments in seed_example.jsonl",
            "public": {
                "phase": "turn",
                "turn": 0,
                "dealer": 0,
                "break": {"owner": 1, "count": 15, "wall": 1, "stack": 15},
                "wall": {
                    "remaining": 83,
                    "head_taken": 53,
                    "tail_taken": 0,
                    "kongs": 0,
                    "reserve_stacks": 13,
                    "drawable": 57,
                    "head": {"wall": 3, "stack": 8},
                    "tail": {"wall": 1, "stack": 15},
                },
            },
        }
    )


def exhaustive(kongs: int) -> None:
    names = {0: "no kongs", 1: "one kong", 2: "two kongs", 3: "three kongs"}
    s = Script(f"draw_{kongs}_kongs", f"A hand played to the exhaustive draw (荒牌) with {names[kongs]} "
        "(docs/rules.md §10).")
    if kongs == 0:
        s.note("""
Dealer 0 rolls 3+4 = 7: owner seat (0 + 7 - 1) mod 4 = 2; it rolls 5+6 = 11: k = 18 > 17, so the
count runs into the next wall counter-clockwise (seat 3's) to its stack 1: the tail.
After the deal 83 tiles remain. With no kong the reserve is R(0) = 13 stacks = 26 tiles, and a
head draw is allowed only while remaining > 26: exactly 83 - 26 = 57 draws, to seats
1, 2, 3, 0, 1, ... (draw i goes to seat i mod 4: the 57th to seat 1). When seat 1 then
discards and nobody claims, seat 2 is due to draw with 26 remaining: the hand is drawn.""")
        s.start(dealer_roll=(3, 4), owner_roll=(5, 6))
        s.expect(phase="turn", turn=0, **{"break": {"owner": 2, "count": 18, "wall": 3, "stack": 1}})
        for i in range(57):
            s.discard_and_draw(how="pass" if i % 5 == 0 else "resolve")
            if i == 55:
                s.expect(wall={"remaining": 27, "drawable": 1}, turn=0)
        s.expect(phase="turn", turn=1, wall={"remaining": 26, "head_taken": 110, "tail_taken": 0, "drawable": 0})
        s.ev(type="discard", seat=1)
        s.expect(phase="claims")
        s.ev(type="resolve")
        final_wall = {
            "remaining": 26,
            "head_taken": 110,
            "tail_taken": 0,
            "kongs": 0,
            "reserve_stacks": 13,
            "drawable": 0,
        }
        deltas = [0, 0, 0, 0]
        transfers: list[dict[str, Any]] = []
    elif kongs == 1:
        s.note("""
Dealer 0 (t1 = 10, t2 = 5: the tail is seat 1's stack 15) declares a concealed kong on its
first turn: its replacement is the LOWER tile of the tail stack (§9: 暗杠下面); that stack's
upper tile stays, so the tail-most tile is still in seat 1's stack 15.
Kong paid at once (§14, b = 1): each other seat pays 2 -> dealer +6, others -2.
Remaining 83 - 1 = 82; with one kong R(1) = 7 stacks = 14 tiles: 82 - 14 = 68 head draws.
The dealer discards; draws go to seats 1, 2, 3, 0, ...: the 68th to seat 0. Seat 0 discards,
nobody claims, seat 1 is due to draw with 14 remaining: drawn. Kong payments stand
(kong_paid_on_draw = true).""")
        s.start()
        s.ev(type="kong", seat=0, kind="concealed")
        s.expect(
            phase="turn",
            turn=0,
            scores=[6, -2, -2, -2],
            wall={
                "remaining": 82,
                "tail_taken": 1,
                "kongs": 1,
                "reserve_stacks": 7,
                "drawable": 68,
                "tail": {"wall": 1, "stack": 15},
            },
        )
        for _ in range(68):
            s.discard_and_draw()
        s.expect(phase="turn", turn=0, wall={"remaining": 14, "head_taken": 121, "drawable": 0})
        s.ev(type="discard", seat=0)
        s.ev(type="resolve")
        final_wall = {
            "remaining": 14,
            "head_taken": 121,
            "tail_taken": 1,
            "kongs": 1,
            "reserve_stacks": 7,
            "drawable": 0,
        }
        deltas = [6, -2, -2, -2]
        transfers = [{"from": x, "to": 0, "amount": 2, "reason": "kong"} for x in (1, 2, 3)]
    elif kongs == 2:
        s.note("""
Tail: seat 1's stack 15. Dealer 0 declares a concealed kong (replacement: the lower tile of the
tail stack), discards; seat 1 claims an exposed kong (明杠) on that discard: its replacement is
the UPPER tile of the tail-most stack that still has one -- the same tail stack, which is now
gone, so the tail-most stack is seat 1's stack 14.
Payments (b = 1): concealed, each other pays 2 (0: +6, others -2); exposed, each other pays 1
(exposed_kong_payers = all: 1: +3, others -1). Scores 0: 6-1 = 5; 1: -2+3 = 1; 2: -3; 3: -3.
Remaining 83 - 2 = 81; R(2) = 8 stacks = 16 tiles: 81 - 16 = 65 head draws, the first to seat 2
(after seat 1's discard), so draw i goes to seat (i + 1) mod 4: the 65th to seat 2. Seat 2
discards, seat 3 is due to draw with 16 remaining: drawn.""")
        s.start()
        s.ev(type="kong", seat=0, kind="concealed")
        s.ev(type="discard", seat=0)
        s.ev(type="claim", seat=1, call="kong")
        s.expect(phase="claims", scores=[6, -2, -2, -2])
        s.ev(type="pass", seat=2)
        s.ev(type="pass", seat=3)
        s.expect(
            phase="turn",
            turn=1,
            scores=[5, 1, -3, -3],
            wall={
                "remaining": 81,
                "tail_taken": 2,
                "kongs": 2,
                "reserve_stacks": 8,
                "drawable": 65,
                "tail": {"wall": 1, "stack": 14},
            },
        )
        s.turn = 1
        for _ in range(65):
            s.discard_and_draw()
        s.expect(phase="turn", turn=2, wall={"remaining": 16, "head_taken": 118, "drawable": 0})
        s.ev(type="discard", seat=2)
        s.ev(type="resolve")
        final_wall = {
            "remaining": 16,
            "head_taken": 118,
            "tail_taken": 2,
            "kongs": 2,
            "reserve_stacks": 8,
            "drawable": 0,
        }
        deltas = [5, 1, -3, -3]
        transfers = [{"from": x, "to": 0, "amount": 2, "reason": "kong"} for x in (1, 2, 3)]
        transfers += [{"from": x, "to": 1, "amount": 1, "reason": "kong"} for x in (0, 2, 3)]
    else:
        s.note("""
Tail: seat 1's stack 15. Kong 1: dealer 0 concealed (lower tile of the tail stack); 0 discards,
seat 2 pongs it (no draw), discards; seats 3, 0, 1, 2 draw (head draws 1-4) and the first
three discard. Kong 2: seat 2 adds its drawn tile to its pong (加杠); nobody robs it (three
passes), so it stands: replacement = upper tile of the tail-most stack with one = the tail
stack's upper. Seat 2 discards, seat 3 draws (head draw 5). Kong 3: seat 3 concealed: the lower
tile of the tail-most stack with a lower tile -- the tail stack is gone, so seat 1's stack 14.
Payments (b = 1): 0 concealed (+6/-2), 2 added = exposed (+3/-1), 3 concealed (+6/-2):
0: 6-1-2 = 3; 1: -2-1-2 = -5; 2: -2+3-2 = -1; 3: -2-1+6 = 3 (sum 0).
With three kongs the reserve is back to R(3) = 13 stacks = 26 tiles (三杠还原). Remaining
83 - 3 = 80, so 80 - 26 = 54 head draws in all: 49 more after seat 3's kong. Seat 3 discards
and draws go 0, 1, 2, 3, ...: the 49th more to seat 0. Seat 0 discards, seat 1 is due: drawn.""")
        s.start()
        s.ev(type="kong", seat=0, kind="concealed")
        s.ev(type="discard", seat=0)
        s.ev(type="claim", seat=2, call="pong")
        s.ev(type="pass", seat=1)
        s.ev(type="pass", seat=3)
        s.expect(phase="turn", turn=2, wall={"head_taken": 53, "tail_taken": 1})
        s.turn = 2
        for _ in range(4):
            s.discard_and_draw()
        s.expect(phase="turn", turn=2, wall={"head_taken": 57, "tail_taken": 1, "kongs": 1})
        s.ev(type="kong", seat=2, kind="added")
        s.expect(phase="claims", claims={"kind": "rob", "from": 2, "tile": None, "waiting": [0, 1, 3]})
        s.ev(type="pass", seat=3)
        s.ev(type="pass", seat=0)
        s.ev(type="pass", seat=1)
        s.expect(
            phase="turn",
            turn=2,
            scores=[5, -3, 1, -3],
            wall={"tail_taken": 2, "kongs": 2, "tail": {"wall": 1, "stack": 14}},
        )
        s.discard_and_draw()
        s.ev(type="kong", seat=3, kind="concealed")
        s.expect(
            phase="turn",
            turn=3,
            scores=[3, -5, -1, 3],
            wall={"remaining": 75, "head_taken": 58, "tail_taken": 3, "kongs": 3, "reserve_stacks": 13, "drawable": 49},
        )
        s.turn = 3
        for _ in range(49):
            s.discard_and_draw()
        s.expect(phase="turn", turn=0, wall={"remaining": 26, "head_taken": 107, "drawable": 0})
        s.ev(type="discard", seat=0)
        s.ev(type="resolve")
        final_wall = {
            "remaining": 26,
            "head_taken": 107,
            "tail_taken": 3,
            "kongs": 3,
            "reserve_stacks": 13,
            "drawable": 0,
        }
        deltas = [3, -5, -1, 3]
        transfers = [{"from": x, "to": 0, "amount": 2, "reason": "kong"} for x in (1, 2, 3)]
        transfers += [{"from": x, "to": 2, "amount": 1, "reason": "kong"} for x in (0, 1, 3)]
        transfers += [{"from": x, "to": 3, "amount": 2, "reason": "kong"} for x in (0, 1, 2)]
    s.expect(phase="hand_over", wall=final_wall)
    s.ev(type="next_hand")
    s.write(
        {
            "_comment": "hand-reasoned from docs/rules.md §7, §9, §10, §14: see the comments in the .jsonl",
            "public": {
                "phase": "betting",
                "dealer": 0,
                "dealer_streak": 1,
                "hand": 2,
                "round": 1,
                "scores": deltas,
                "last_settlement": {
                    "result": "draw",
                    "winner": None,
                    "kind": None,
                    "wait": None,
                    "transfers": transfers,
                    "deltas": deltas,
                },
            },
        }
    )


def claims() -> None:
    s = Script("claim_win_beats_pong", "Claim conflicts (docs/rules.md §8): win > pong > chow.")
    s.note("""
Dealer 0 discards 5p. Seat 1 (the 下家) claims chow, seat 2 pong, seat 3 win: when all three have
answered the claims resolve; the win beats the pong and the chow.
Seat 3 confirms with its hand 123m 456p 789s 22z 333z winning on 5p: 5p is the middle of 456p,
a closed wait (夹张), so the wait bonus applies: the discarder pays 2b = 2 (§14).
The dealer did not win: next hand its 下家, seat 1, deals (§4).""")
    s.start()
    s.ev(type="discard", seat=0, tile="5p")
    s.ev(type="claim", seat=1, call="chow")
    s.ev(type="claim", seat=2, call="pong")
    s.expect(phase="claims", claims={"kind": "discard", "from": 0, "tile": "5p", "waiting": [3]})
    s.ev(type="claim", seat=3, call="win")
    s.expect(phase="win_pending", pending_win={"seat": 3, "kind": "discard", "from": 0})
    s.ev(type="confirm_win", hand="123m456p789s22333z", win_tile="5p")
    s.expect(phase="hand_over", scores=[-2, 0, 0, 2])
    s.ev(type="next_hand")
    s.write(
        {
            "_comment": "hand-reasoned: win beats pong and chow; closed wait pays 2b; dealer's 下家 deals next",
            "public": {
                "phase": "betting",
                "dealer": 1,
                "dealer_streak": 0,
                "hand": 2,
                "round": 1,
                "scores": [-2, 0, 0, 2],
                "last_settlement": {
                    "result": "win",
                    "winner": 3,
                    "kind": "discard",
                    "wait": "closed",
                    "transfers": [{"from": 0, "to": 3, "amount": 2, "reason": "win"}],
                    "deltas": [-2, 0, 0, 2],
                },
            },
        }
    )

    s = Script("claim_nearest_winner", "Several wins on one discard: the seat nearest the discarder wins "
        "(docs/rules.md §8).")
    s.note("""
Dealer 0 discards, nobody claims, seat 1 draws and discards. Seats 3 and 0 claim win, seat 2
passes. Counter-clockwise from the discarder 1 the order is 2, 3, 0: seat 3 is nearest and wins.
Confirmed as a plain wait: seat 1 pays 1b = 1. Winner 3 is not the dealer: seat 1 deals next.""")
    s.start()
    s.discard_and_draw()
    s.ev(type="discard", seat=1)
    s.ev(type="claim", seat=0, call="win")
    s.ev(type="claim", seat=3, call="win")
    s.ev(type="pass", seat=2)
    s.expect(phase="win_pending", pending_win={"seat": 3, "kind": "discard", "from": 1})
    s.ev(type="confirm_win", wait="plain")
    s.write(
        {
            "_comment": "hand-reasoned: nearest counter-clockwise from seat 1 is 2, then 3, then 0",
            "public": {
                "phase": "hand_over",
                "scores": [0, -1, 0, 1],
                "last_settlement": {
                    "result": "win",
                    "winner": 3,
                    "kind": "discard",
                    "wait": "plain",
                    "deltas": [0, -1, 0, 1],
                },
            },
        }
    )

    s = Script(
        "claim_pong_beats_chow", "Pong beats chow; after a pong the claimer discards without drawing "
            "(docs/rules.md §8)."
    )
    s.note("""
Dealer 0 discards; seat 1 (下家) claims chow, seat 3 pong, seat 2 passes: the pong wins. Seat 3
plays next without a draw (head_taken stays 53) and discards; then seat 0 (3's 下家) draws.
Seat 1 then changes its mind: a later claim replaces its earlier one (docs/design.md).""")
    s.start()
    s.ev(type="discard", seat=0)
    s.ev(type="claim", seat=1, call="chow")
    s.ev(type="claim", seat=1, call="pong")
    s.ev(type="claim", seat=1, call="chow")
    s.ev(type="claim", seat=3, call="pong")
    s.ev(type="pass", seat=2)
    s.expect(phase="turn", turn=3, wall={"head_taken": 53})
    s.ev(type="discard", seat=3)
    s.ev(type="resolve")
    s.write(
        {
            "_comment": "hand-reasoned: pong > chow; no draw after a pong; then seat 3's 下家 (0) draws",
            "public": {"phase": "turn", "turn": 0, "wall": {"head_taken": 54, "remaining": 82}},
        }
    )

    s = Script("claim_chow_only_xiajia", "Only the discarder's 下家 may chow "
        "(docs/rules.md §8): this script ends refused.")
    s.note("""
Dealer 0 discards; seat 2 (0's 对家) claims chow: refused, the run stops with exit 3 at that
event (index 5: new_session, seating, roll, roll, discard, claim).""")
    s.start()
    s.ev(type="discard", seat=0)
    s.ev(type="claim", seat=2, call="chow")
    s.ev(type="resolve")
    s.write(
        {
            "_comment": "hand-reasoned: seat 1 = (0 + 1) mod 4 is the only seat that may chow",
            "error": {"index": 5, "contains": "seat 2 cannot chow: only seat 1, the discarder's 下家, may chow"},
            "public": {"phase": "claims", "claims": {"kind": "discard", "from": 0, "tile": None, "waiting": [1, 2, 3]}},
        }
    )


def special_wins() -> None:
    s = Script("kong_bloom", "杠后开花: a self-drawn win on a kong replacement tile (docs/rules.md §12, §16).")
    s.note("""
Dealer 0 declares a concealed kong (+6, others -2) and wins on the replacement: 杠后开花, plain
wait: each other seat pays 2b x 2 = 4 (§16: +12/-4 plus the kong). Hand: 0 +18, others -6.
The dealer won: it deals again, streak 1.""")
    s.start()
    s.ev(type="kong", seat=0, kind="concealed")
    s.ev(type="win", seat=0)
    s.expect(phase="win_pending", pending_win={"seat": 0, "kind": "kong_bloom", "from": None})
    s.ev(type="confirm_win", wait="plain")
    s.expect(
        last_settlement={
            "result": "win",
            "winner": 0,
            "kind": "kong_bloom",
            "wait": "plain",
            "deltas": [18, -6, -6, -6],
        }
    )
    s.ev(type="next_hand")
    s.write(
        {
            "_comment": "hand-reasoned from docs/rules.md §16",
            "public": {"dealer": 0, "dealer_streak": 1, "hand": 2, "scores": [18, -6, -6, -6]},
        }
    )

    s = Script("robbed_kong", "抢杠: winning on the tile of an added kong (docs/rules.md §8).")
    s.note("""
Dealer 0 discards; seat 1 pongs it and discards; seats 2, 3, 0 draw and discard; seat 1 draws
and adds the fourth tile to its pong. Seat 3 robs it (win); seats 0 and 2 pass. The kong never
stands: no kong is counted or paid, no replacement is drawn. Paid like a discard win by the
kong's declarer: plain wait, seat 1 pays 1b = 1. Seat 3 is not the dealer: seat 1 deals next.
Head draws: 53 dealt + 4 = 57.""")
    s.start()
    s.ev(type="discard", seat=0)
    s.ev(type="claim", seat=1, call="pong")
    s.ev(type="resolve")
    s.turn = 1
    for _ in range(4):
        s.discard_and_draw()
    s.ev(type="kong", seat=1, kind="added")
    s.ev(type="claim", seat=3, call="win")
    s.ev(type="pass", seat=0)
    s.ev(type="pass", seat=2)
    s.expect(phase="win_pending", pending_win={"seat": 3, "kind": "robbed_kong", "from": 1})
    s.ev(type="confirm_win", wait="plain")
    s.write(
        {
            "_comment": "hand-reasoned: 抢杠 paid like a discard win by the declarer",
            "public": {
                "phase": "hand_over",
                "scores": [0, -1, 0, 1],
                "wall": {"head_taken": 57, "tail_taken": 0, "kongs": 0},
                "last_settlement": {
                    "result": "win",
                    "winner": 3,
                    "kind": "robbed_kong",
                    "wait": "plain",
                    "transfers": [{"from": 1, "to": 3, "amount": 1, "reason": "win"}],
                    "deltas": [0, -1, 0, 1],
                },
            },
        }
    )

    s = Script("reject_win", "False wins taken back (reject_win): play resumes as before them.")
    s.note("""
Dealer 0 discards, seat 1 draws and declares a self-drawn win: rejected, it is seat 1's turn
again and it discards. Seat 3 claims a win on it; 0 and 2 pass: win pending; rejected: seat 3's
claim becomes a pass, all three have answered, so the claims resolve with no claim and seat 2
draws. Head draws: 53 + 2 = 55.""")
    s.start()
    s.discard_and_draw()
    s.ev(type="win", seat=1)
    s.expect(phase="win_pending", pending_win={"seat": 1, "kind": "self_drawn", "from": None})
    s.ev(type="reject_win")
    s.expect(phase="turn", turn=1, wall={"head_taken": 54})
    s.ev(type="discard", seat=1)
    s.ev(type="claim", seat=3, call="win")
    s.ev(type="pass", seat=0)
    s.ev(type="pass", seat=2)
    s.expect(phase="win_pending")
    s.ev(type="reject_win")
    s.write(
        {
            "_comment": "hand-reasoned",
            "public": {
                "phase": "turn",
                "turn": 2,
                "wall": {"head_taken": 55},
                "scores": [0, 0, 0, 0],
                "last_settlement": None,
            },
        }
    )


def rotation() -> None:
    s = Script("rotation_round", "Dealer rotation across a full round (docs/rules.md §4), with bets (§15).")
    s.note("""
b = 1. Scores after each hand (worked by hand from §14-§16):
H1 dealer 0: 0 wins 天胡 (plain): +18, others -6            -> [18, -6, -6, -6]; dealer 0, streak 1
H2 dealer 0: 2 wins on 0's first discard (plain): 0 pays 1  -> [17, -6, -5, -6]; not the dealer: 1 deals
H3 dealer 1: drawn (荒牌), no payments                        -> same;             dealer 1, streak 1
H4 dealer 1: 1 wins on 2's discard (plain): 2 pays 1        -> [17, -5, -6, -6]; dealer won: streak 2
H5 dealer 1, bets [0, 1, 0, 2]: 3 self-draws (plain): each other pays 2b = 2; bets (doubled on a
   self-drawn win): each other pays 2 x 2 = 4 for seat 3's bet, seat 1 pays 2 x 1 = 2 more for
   its own: 0: -6, 1: -8, 2: -6, 3: +20 (§16: bets bring seat 3 +14) -> [11, -13, -12, 14]; 2 deals
H6 dealer 2: 0 wins on 2's discard (single): 2 pays 2b = 2  -> [13, -13, -14, 14]; 3 deals
H7 dealer 3: 3 wins 天胡 (plain): +18, others -6             -> [7, -19, -20, 32]; streak 1
H8 dealer 3: 1 wins on 3's discard (plain): 3 pays 1        -> [7, -18, -20, 31]; 0 deals
The deal has passed 1 -> 2 -> 3 -> 0: all four seats once, so hand 9 starts round 2.""")
    s.start()
    # H1
    s.ev(type="win", seat=0)
    s.expect(pending_win={"seat": 0, "kind": "heavenly", "from": None})
    s.ev(type="confirm_win", wait="plain")
    s.expect(scores=[18, -6, -6, -6])
    s.ev(type="next_hand")
    s.expect(dealer=0, dealer_streak=1, hand=2, round=1)
    # H2
    s.deal()
    s.ev(type="discard", seat=0)
    s.ev(type="claim", seat=2, call="win")
    s.ev(type="resolve")
    s.ev(type="confirm_win", wait="plain")
    s.expect(scores=[17, -6, -5, -6])
    s.ev(type="next_hand")
    s.dealer = 1
    s.expect(dealer=1, dealer_streak=0, hand=3, round=1)
    # H3: dealt by 1; 57 head draws then drawn (as in draw_0_kongs)
    s.deal()
    for _ in range(57):
        s.discard_and_draw()
    assert s.turn is not None
    s.ev(type="discard", seat=s.turn)
    s.ev(type="resolve")
    s.expect(
        phase="hand_over",
        last_settlement={
            "result": "draw",
            "winner": None,
            "kind": None,
            "wait": None,
            "transfers": [],
            "deltas": [0, 0, 0, 0],
        },
    )
    s.ev(type="next_hand")
    s.expect(dealer=1, dealer_streak=1, hand=4, round=1, scores=[17, -6, -5, -6])
    # H4
    s.deal()
    s.discard_and_draw()  # 1 discards, 2 draws
    s.ev(type="discard", seat=2)
    s.ev(type="claim", seat=1, call="win")
    s.ev(type="pass", seat=3)
    s.ev(type="pass", seat=0)
    s.ev(type="confirm_win", wait="plain")
    s.ev(type="next_hand")
    s.expect(dealer=1, dealer_streak=2, hand=5, round=1, scores=[17, -5, -6, -6])
    # H5 with bets
    s.deal(bets=[0, 1, 0, 2])
    s.expect(bets=[0, 1, 0, 2])
    s.discard_and_draw()  # 1 -> 2
    s.discard_and_draw()  # 2 -> 3
    s.ev(type="win", seat=3)
    s.expect(pending_win={"seat": 3, "kind": "self_drawn", "from": None})
    s.ev(type="confirm_win", wait="plain")
    s.expect(last_settlement={"deltas": [-6, -8, -6, 20]}, scores=[11, -13, -12, 14])
    s.ev(type="next_hand")
    s.dealer = 2
    s.expect(dealer=2, dealer_streak=0, hand=6, round=1, bets=[0, 0, 0, 0])
    # H6
    s.deal()
    s.ev(type="discard", seat=2)
    s.ev(type="claim", seat=0, call="win")
    s.ev(type="resolve")
    s.ev(type="confirm_win", wait="single")
    s.ev(type="next_hand")
    s.dealer = 3
    s.expect(dealer=3, dealer_streak=0, hand=7, round=1, scores=[13, -13, -14, 14])
    # H7
    s.deal()
    s.ev(type="win", seat=3)
    s.ev(type="confirm_win", wait="plain")
    s.ev(type="next_hand")
    s.expect(dealer=3, dealer_streak=1, hand=8, round=1, scores=[7, -19, -20, 32])
    # H8
    s.deal()
    s.ev(type="discard", seat=3)
    s.ev(type="claim", seat=1, call="win")
    s.ev(type="resolve")
    s.ev(type="confirm_win", wait="plain")
    s.ev(type="next_hand")
    s.write(
        {
            "_comment": "hand-reasoned: see the table in rotation_round.jsonl",
            "public": {
                "phase": "betting",
                "dealer": 0,
                "dealer_streak": 0,
                "hand": 9,
                "round": 2,
                "scores": [7, -18, -20, 31],
                "winds": ["E", "S", "W", "N"],
            },
        }
    )


def seating() -> None:
    s = Script("seating_methods", "Choosing seats (定位, docs/rules.md §3): methods B, A and C.")
    s.note("""
Method B: sums by seat 0..3 are 5, 12, 3, 9. Bo (seat 1, 12) is East and keeps the place; by
descending sum Dee (9) is South, Ann (5) West, Cai (3) North, sitting counter-clockwise from
East: seat 2 Dee, seat 3 Ann, seat 0 Cai. East deals first.
Method A (a new session): seat 2 rolls 1+1 = 2: East is (2 + 2 - 1) mod 4 = seat 3.
Method C, the wind each drew: Ann South, Bo North, Cai West, Dee East. Dee keeps seat 3 as
East; South sits on East's 下家 seat 0 (Ann stays), West on seat 1 (Cai moves there), North on
seat 2 (Bo).
Method C as journals before 'drew' wrote it: East given as seat 2, nobody moves.""")
    s.ev(type="new_session", players=PLAYERS, base=1)
    s.ev(type="seating", method="B", rolls=[[2, 3], [6, 6], [1, 2], [4, 5]])
    s.expect(phase="betting", players=["Cai", "Bo", "Dee", "Ann"], winds=["N", "E", "S", "W"], dealer=1)
    s.ev(type="new_session", players=PLAYERS, base=1)
    s.ev(type="seating", method="A", roller=2, dice=[1, 1])
    s.expect(players=PLAYERS, winds=["S", "W", "N", "E"], dealer=3)
    s.ev(type="new_session", players=PLAYERS, base=1)
    s.ev(type="seating", method="C", drew=["S", "N", "W", "E"])
    s.expect(players=["Ann", "Cai", "Bo", "Dee"], winds=["S", "W", "N", "E"], dealer=3)
    s.ev(type="new_session", players=PLAYERS, base=1)
    s.ev(type="seating", method="C", east=2)
    s.write({"_comment": "hand-reasoned from "
        "docs/rules.md §2, §3", "public": {"winds": ["W", "N", "E", "S"], "dealer": 2}})

    s = Script("seating_b_tie", "Method B with a tie is refused, naming the tied seats (docs/rules.md §3).")
    s.note("Sums 6, 6, 12, 2: seats 0 and 1 tie; event 1 (after new_session) is refused.")
    s.ev(type="new_session", players=PLAYERS, base=1)
    s.ev(type="seating", method="B", rolls=[[3, 3], [2, 4], [6, 6], [1, 1]])
    s.write(
        {
            "_comment": "hand-reasoned",
            "error": {"index": 1, "contains": "seats 0, 1 all rolled 6"},
            "public": {"phase": "seating", "dealer": None},
        }
    )


def clockwise() -> None:
    s = Script("wall_clockwise", "wall_direction = clockwise "
        "(docs/rules.md §5): the count runs on into the 上家's wall.")
    s.note("""
Dealer 0 rolls 10: owner seat 1. It rolls 10: k = 20 > 17, 3 stacks into the next wall -- with
clockwise counting that is seat 1's 上家, seat 0: the tail is seat 0's stack 3 (counter-clockwise
it would be seat 2's). The head is seat 0's stack 4; the 27th head stack (the next head draw
after the deal) is 26 stacks on: seat 0's stacks 4..17 (14), seat 3's 1..12 (26), so seat 3's 13.""")
    s.start(dealer_roll=(4, 6), owner_roll=(5, 5), rules={"wall_direction": "clockwise"})
    s.write(
        {
            "_comment": "hand-reasoned",
            "public": {
                "break": {"owner": 1, "count": 20, "wall": 0, "stack": 3},
                "wall": {"head": {"wall": 3, "stack": 13}, "tail": {"wall": 0, "stack": 3}, "remaining": 83},
                "rules": {"wall_direction": "clockwise"},
            },
        }
    )


def custom_reserve() -> None:
    s = Script("draw_custom_reserve", "kong_reserve = [5, 2, 0, 1]: the reserve follows the option "
        "(docs/rules.md §10).")
    s.note("""
Before any kong R(0) = 5 stacks = 10 tiles: 73 head draws would be allowed. The dealer declares a
concealed kong at once: remaining 82, R(1) = 2 stacks = 4 tiles: 82 - 4 = 78 head draws, draw i
to seat i mod 4: the 78th to seat 2. Seat 2 discards; seat 3 is due with 4 left: drawn.
Kong: dealer +6, others -2; payments stand.""")
    s.start(rules={"kong_reserve": [5, 2, 0, 1]})
    s.expect(wall={"reserve_stacks": 5, "drawable": 73})
    s.ev(type="kong", seat=0, kind="concealed")
    s.expect(wall={"reserve_stacks": 2, "drawable": 78, "remaining": 82})
    for _ in range(78):
        s.discard_and_draw()
    s.expect(turn=2, wall={"drawable": 0, "remaining": 4})
    s.ev(type="discard", seat=2)
    s.ev(type="resolve")
    s.write(
        {
            "_comment": "hand-reasoned",
            "public": {
                "phase": "hand_over",
                "next_dealer": 0,
                "wall": {"remaining": 4, "head_taken": 131, "tail_taken": 1, "kongs": 1, "reserve_stacks": 2},
                "scores": [6, -2, -2, -2],
                "last_settlement": {"result": "draw", "deltas": [6, -2, -2, -2]},
            },
        }
    )


if __name__ == "__main__":
    seed_example()
    for k in range(4):
        exhaustive(k)
    claims()
    special_wins()
    rotation()
    seating()
    clockwise()
    custom_reserve()
