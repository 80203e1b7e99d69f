"""Writes the scoring golden scripts (``*.jsonl``) in this folder. Run it from the repo root:

    .venv/bin/python tests/golden/scoring/make_scripts.py

Each script is a plain ``xian-table play`` file (tracked mode, b = 1, dealer seat 0, the
dealer rolls 4+6 and the wall owner 2+3). ``#expect {...}`` lines are checkpoints: the
public state there must contain those keys with those values; a ``transfers`` list is
compared as a multiset (the order of payments is not part of the rules). Every expected
amount is worked out by hand from docs/rules.md §13–§16 in the comments — this script does not
import the engine.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PLAYERS = ["Ann", "Bo", "Cai", "Dee"]
AFTER_DEAL = 136 - 53  # tiles left on the table once the deal is done (docs/rules.md §7)
RESERVE = {0: 13, 1: 7, 2: 8}  # R(k) stacks (docs/rules.md §10), 13 from three kongs on


def tr(frm: int, to: int, amount: int, reason: str) -> dict[str, Any]:
    return {"from": frm, "to": to, "amount": amount, "reason": reason}


class Script:
    def __init__(self, name: str, title: str) -> None:
        self.name = name
        self.lines: list[str] = [f"# {title}"]
        self.turn: int | None = None
        self.remaining = 0
        self.kongs = 0

    def note(self, text: str) -> None:
        self.lines.extend(f"# {line}" for line in text.strip().splitlines())

    def ev(self, **fields: Any) -> None:
        self.lines.append(json.dumps(fields, ensure_ascii=False))

    def expect(self, **subset: Any) -> None:
        self.lines.append("#expect " + json.dumps(subset, ensure_ascii=False))

    def start(self, rules: dict[str, Any] | None = None, bets: list[int] | None = None, dealer: int = 0) -> None:
        ns: dict[str, Any] = {"type": "new_session", "players": PLAYERS, "base": 1}
        if rules:
            ns["rules"] = rules
        self.ev(**ns)
        self.ev(type="seating", method="C", east=dealer)
        self.deal(dealer, bets)

    def deal(self, dealer: int, bets: list[int] | None = None) -> None:
        if bets:
            self.ev(type="bets", bets=bets)
        self.ev(type="roll", dice=[4, 6])
        self.ev(type="roll", dice=[2, 3])
        self.turn, self.remaining, self.kongs = dealer, AFTER_DEAL, 0

    def drawable(self) -> int:
        return max(0, self.remaining - 2 * RESERVE.get(self.kongs, 13))

    def discard_and_draw(self) -> None:
        """The player to move discards, nobody claims, the next seat draws from the head."""
        assert self.turn is not None
        self.ev(type="discard", seat=self.turn)
        self.ev(type="resolve")
        self.turn = (self.turn + 1) % 4
        self.remaining -= 1

    def concealed_kong(self, seat: int) -> None:
        assert seat == self.turn
        self.ev(type="kong", seat=seat, kind="concealed")
        self.kongs += 1
        self.remaining -= 1  # the replacement from the tail

    def play_to_the_draw(self) -> None:
        """Discards with no claims until nobody may draw: the hand is drawn (荒牌, docs/rules.md §10)."""
        while self.drawable() > 0:
            self.discard_and_draw()
        self.expect(phase="turn", wall={"drawable": 0})
        assert self.turn is not None
        self.ev(type="discard", seat=self.turn)
        self.ev(type="resolve")

    def write(self) -> None:
        (HERE / f"{self.name}.jsonl").write_text("\n".join(self.lines) + "\n", encoding="utf-8")


def self_drawn(name: str, wait: str, each: int) -> Script:
    s = Script(name, f"docs/rules.md §16: seat 2 self-draws, {wait} wait.")
    s.note(
        f"Self-drawn: each other seat pays 2b, 3b with the wait bonus (夹张/单调) (§14).\n"
        f"{wait}: each of seats 0, 1, 3 pays {each}; seat 2 gains {3 * each}."
    )
    s.start()
    s.discard_and_draw()  # seat 0 (the dealer) discards, seat 1 draws
    s.discard_and_draw()  # seat 1 discards, seat 2 draws
    s.ev(type="win", seat=2)
    s.expect(phase="win_pending", pending_win={"seat": 2, "kind": "self_drawn", "from": None})
    s.ev(type="confirm_win", wait=wait)
    deltas = [-each, -each, 3 * each, -each]
    s.expect(
        phase="hand_over",
        last_settlement={
            "result": "win", "winner": 2, "kind": "self_drawn", "wait": wait, "deltas": deltas,
            "transfers": [tr(0, 2, each, "win"), tr(1, 2, each, "win"), tr(3, 2, each, "win")],
        },
        scores=deltas,
    )  # fmt: skip
    return s


def discard_single(name: str, rules: dict[str, Any] | None = None) -> Script:
    everyone = bool(rules)
    s = Script(name, ""
        "docs/rules.md §16: seat 1 wins on seat 3's discard, 单调 single wait" + (", all pay" if everyone else ""))
    if everyone:
        s.note(
            "discard_win_payers = all: each of the three others pays the discard win, 2b with the bonus:\n"
            "seats 0, 2, 3 pay 2 each; seat 1 +6."
        )
        transfers = [tr(0, 1, 2, "win"), tr(2, 1, 2, "win"), tr(3, 1, 2, "win")]
        deltas = [-2, 6, -2, -2]
    else:
        s.note("Win on a discard: the discarder pays 1b, 2b with the wait bonus: seat 3 pays 2 (§14).")
        transfers = [tr(3, 1, 2, "win")]
        deltas = [0, 2, 0, -2]
    s.start(rules=rules)
    for _ in range(3):
        s.discard_and_draw()  # seats 0, 1, 2 discard; seat 3 draws
    s.ev(type="discard", seat=3)
    s.ev(type="claim", seat=1, call="win")
    s.ev(type="pass", seat=0)
    s.ev(type="pass", seat=2)
    s.expect(phase="win_pending", pending_win={"seat": 1, "kind": "discard", "from": 3})
    s.ev(type="confirm_win", wait="single")
    s.expect(
        last_settlement={"result": "win", "winner": 1, "kind": "discard", "wait": "single", "from": 3,
                         "deltas": deltas, "transfers": transfers},
        scores=deltas,
    )  # fmt: skip
    return s


def concealed_kong_drawn(name: str, paid_on_draw: bool) -> Script:
    s = Script(name, "docs/rules.md §16: seat 1 declares a concealed kong; the hand is then drawn (荒牌).")
    kong = [tr(0, 1, 2, "kong"), tr(2, 1, 2, "kong"), tr(3, 1, 2, "kong")]
    s.note(
        "Concealed kong: each other seat pays 2b at once (§14): seat 1 +6, others -2.\n"
        "Remaining after the deal 83; seat 1 draws (82) and its replacement (81); one kong: R(1) = 7\n"
        "stacks = 14 tiles, so 67 more head draws, then the next seat due to draw finds none: drawn."
    )
    if paid_on_draw:
        s.note("kong_paid_on_draw = true (default): the kong payment stands; no win or bet payments.")
        s.start()
    else:
        s.note("kong_paid_on_draw = false: the kong payment is paid back when the hand is drawn: all 0.")
        s.start(rules={"kong_paid_on_draw": False})
    s.discard_and_draw()
    s.concealed_kong(1)
    s.expect(scores=[-2, 6, -2, -2], wall={"remaining": 81, "kongs": 1, "reserve_stacks": 7, "drawable": 67})
    s.play_to_the_draw()
    if paid_on_draw:
        s.expect(
            phase="hand_over",
            last_settlement={"result": "draw", "winner": None, "deltas": [-2, 6, -2, -2], "transfers": kong},
            scores=[-2, 6, -2, -2],
        )
    else:
        s.expect(phase="hand_over", last_settlement={"result": "draw", "deltas": [0, 0, 0, 0]}, scores=[0, 0, 0, 0])
    return s


def exposed_kong_drawn(name: str, by_discarder: bool) -> Script:
    s = Script(name, "docs/rules.md §16: seat 1 claims an exposed kong on seat 0's discard; the hand is then drawn.")
    if by_discarder:
        s.note("exposed_kong_payers = discarder: only seat 0, whose discard was claimed, pays 3b: 0 -3, 1 +3.")
        transfers, deltas = [tr(0, 1, 3, "kong")], [-3, 3, 0, 0]
        s.start(rules={"exposed_kong_payers": "discarder"})
    else:
        s.note("Exposed kong: each other seat pays 1b at once (§14): seat 1 +3, others -1.")
        transfers, deltas = [tr(0, 1, 1, "kong"), tr(2, 1, 1, "kong"), tr(3, 1, 1, "kong")], [-1, 3, -1, -1]
        s.start()
    s.note(
        "Remaining after the deal 83; seat 1's replacement 82; R(1) = 7 stacks: 68 head draws, then drawn.\n"
        "A drawn hand pays no win; the kong payment stands (kong_paid_on_draw = true)."
    )
    s.ev(type="discard", seat=0)
    s.ev(type="claim", seat=1, call="kong")
    s.ev(type="pass", seat=2)
    s.ev(type="pass", seat=3)
    s.turn, s.kongs, s.remaining = 1, 1, s.remaining - 1
    s.expect(phase="turn", turn=1, scores=deltas, wall={"remaining": 82, "drawable": 68})
    s.play_to_the_draw()
    s.expect(last_settlement={"result": "draw", "deltas": deltas, "transfers": transfers}, scores=deltas)
    return s


def after_kong() -> Script:
    s = Script("s16_after_kong", "docs/rules.md §16: seat 1 wins 杠后开花 (plain wait) after a concealed kong.")
    s.note(
        "Concealed kong: 0, 2, 3 pay 2 each (+6). 杠后开花 doubles the self-drawn win: 2b x 2 = 4 from each\n"
        "(+12). Hand: seat 1 +18, the others -6."
    )
    s.start()
    s.discard_and_draw()
    s.concealed_kong(1)
    s.ev(type="win", seat=1)
    s.expect(phase="win_pending", pending_win={"seat": 1, "kind": "kong_bloom", "from": None})
    s.ev(type="confirm_win", wait="plain")
    s.expect(
        last_settlement={
            "result": "win", "winner": 1, "kind": "kong_bloom", "wait": "plain", "deltas": [-6, 18, -6, -6],
            "transfers": [tr(0, 1, 2, "kong"), tr(2, 1, 2, "kong"), tr(3, 1, 2, "kong"),
                          tr(0, 1, 4, "win"), tr(2, 1, 4, "win"), tr(3, 1, 4, "win")],
        },
        scores=[-6, 18, -6, -6],
    )  # fmt: skip
    return s


def heavenly() -> Script:
    s = Script("s16_heavenly", "docs/rules.md §16: 天胡 by the dealer, plain wait.")
    s.note("天胡 triples the self-drawn win: 2b x 3 = 6 from each other seat: dealer +18.")
    s.start()
    s.ev(type="win", seat=0)
    s.expect(phase="win_pending", pending_win={"seat": 0, "kind": "heavenly", "from": None})
    s.ev(type="confirm_win", wait="plain")
    s.expect(
        last_settlement={"result": "win", "winner": 0, "kind": "heavenly", "deltas": [18, -6, -6, -6],
                         "transfers": [tr(1, 0, 6, "win"), tr(2, 0, 6, "win"), tr(3, 0, 6, "win")]},
        scores=[18, -6, -6, -6],
    )  # fmt: skip
    return s


def bets(name: str) -> Script:
    s = Script(name, "docs/rules.md §16: bets [0, 1, 0, 2] and seat 3 self-draws (plain).")
    s.note(
        "Win: 2 from each of seats 0, 1, 2 (+6). Bets (§15, u = b = 1, doubled when self-drawn):\n"
        "seats 0, 1, 2 each pay seat 3's 2 bets x 2 = 4, and seat 1 also its own 1 x 2 = 2: one bet\n"
        "transfer of 6 from seat 1. Bets bring seat 3 +14; the hand: [-6, -8, -6, +20]."
    )
    s.start(bets=[0, 1, 0, 2])
    s.expect(bets=[0, 1, 0, 2])
    for _ in range(3):
        s.discard_and_draw()
    s.ev(type="win", seat=3)
    s.ev(type="confirm_win", wait="plain")
    s.expect(
        last_settlement={
            "result": "win", "winner": 3, "kind": "self_drawn", "deltas": [-6, -8, -6, 20],
            "transfers": [tr(0, 3, 2, "win"), tr(1, 3, 2, "win"), tr(2, 3, 2, "win"),
                          tr(0, 3, 4, "bet"), tr(1, 3, 6, "bet"), tr(2, 3, 4, "bet")],
        },
        scores=[-6, -8, -6, 20],
    )  # fmt: skip
    return s


def pong_then_added_kong(s: Script) -> None:
    """Seat 1 pongs seat 0's discard, goes round once, draws and adds the fourth tile (加杠)."""
    s.ev(type="discard", seat=0)
    s.ev(type="claim", seat=1, call="pong")
    s.ev(type="pass", seat=2)
    s.ev(type="pass", seat=3)
    s.turn = 1
    for _ in range(4):
        s.discard_and_draw()  # seats 1, 2, 3, 0 discard; seat 1 draws
    s.ev(type="kong", seat=1, kind="added")
    s.expect(phase="claims", claims={"kind": "rob", "from": 1})


def robbed_kong() -> Script:
    s = Script("robbed_kong", "抢杠: seat 2 robs seat 1's added kong, 夹张 closed wait (docs/rules.md §8, §14).")
    s.note(
        "Robbing is paid like a win on a discard by the kong's declarer: seat 1 pays 2b (closed wait).\n"
        "The robbed kong never completes, so no kong is paid for it."
    )
    s.start()
    pong_then_added_kong(s)
    s.ev(type="claim", seat=2, call="win")
    s.ev(type="pass", seat=0)
    s.ev(type="pass", seat=3)
    s.expect(phase="win_pending", pending_win={"seat": 2, "kind": "robbed_kong", "from": 1})
    s.ev(type="confirm_win", wait="closed")
    s.expect(
        last_settlement={"result": "win", "winner": 2, "kind": "robbed_kong", "from": 1, "deltas": [0, -2, 2, 0],
                         "transfers": [tr(1, 2, 2, "win")]},
        scores=[0, -2, 2, 0],
    )  # fmt: skip
    return s


def added_kong_bloom(name: str, by_discarder: bool) -> Script:
    s = Script(name, "加杠 then 杠后开花: seat 1 adds to its pong, nobody robs, it wins on the replacement.")
    s.note(
        "An added kong is scored as an exposed kong: each other seat pays 1b (+3). No discard is claimed\n"
        "for it, so exposed_kong_payers = discarder does not change it (engine/scoring.py decides so).\n"
        "杠后开花 on its replacement, plain: 2b x 2 = 4 from each (+12). Hand: [-5, +15, -5, -5]."
    )
    s.start(rules={"exposed_kong_payers": "discarder"} if by_discarder else None)
    pong_then_added_kong(s)
    for seat in (0, 2, 3):
        s.ev(type="pass", seat=seat)
    s.expect(phase="turn", turn=1, scores=[-1, 3, -1, -1])
    s.ev(type="win", seat=1)
    s.ev(type="confirm_win", wait="plain")
    s.expect(
        last_settlement={
            "result": "win", "winner": 1, "kind": "kong_bloom", "deltas": [-5, 15, -5, -5],
            "transfers": [tr(0, 1, 1, "kong"), tr(2, 1, 1, "kong"), tr(3, 1, 1, "kong"),
                          tr(0, 1, 4, "win"), tr(2, 1, 4, "win"), tr(3, 1, 4, "win")],
        },
        scores=[-5, 15, -5, -5],
    )  # fmt: skip
    return s


def session() -> Script:
    s = Script("session_totals", "Two hands: the running totals are the sums of the hands' deltas.")
    s.note(
        "Hand 1: seat 2 self-draws, 夹张: [-3, -3, +9, -3]. Seat 2 is not the dealer: the dealer's\n"
        "下家, seat 1, deals hand 2 (§4). Hand 2: seat 2 declares a concealed kong [-2, -2, +6, -2],\n"
        "then seat 0 wins on seat 3's discard, 单调: seat 3 pays 2: [0, -2, +6, -4].\n"
        "Totals: [-3, -5, +15, -7]."
    )
    s.start()
    s.discard_and_draw()
    s.discard_and_draw()
    s.ev(type="win", seat=2)
    s.ev(type="confirm_win", wait="closed")
    s.expect(scores=[-3, -3, 9, -3], last_settlement={"deltas": [-3, -3, 9, -3]})
    s.ev(type="next_hand")
    s.expect(dealer=1, hand=2, scores=[-3, -3, 9, -3])
    s.deal(1)
    s.discard_and_draw()  # dealer 1 discards, seat 2 draws
    s.concealed_kong(2)
    s.expect(scores=[-5, -5, 15, -5])
    s.discard_and_draw()  # seat 2 discards, seat 3 draws
    s.ev(type="discard", seat=3)
    s.ev(type="claim", seat=0, call="win")
    s.ev(type="pass", seat=1)
    s.ev(type="pass", seat=2)
    s.ev(type="confirm_win", wait="single")
    s.expect(
        last_settlement={
            "result": "win", "winner": 0, "kind": "discard", "from": 3, "deltas": [0, -2, 6, -4],
            "transfers": [tr(0, 2, 2, "kong"), tr(1, 2, 2, "kong"), tr(3, 2, 2, "kong"), tr(3, 0, 2, "win")],
        },
        scores=[-3, -5, 15, -7],
    )  # fmt: skip
    return s


def all_scripts() -> list[Script]:
    return [
        self_drawn("s16_self_drawn_plain", "plain", 2),
        self_drawn("s16_self_drawn_closed", "closed", 3),
        discard_single("s16_discard_single"),
        discard_single("opt_discard_win_payers_all", {"discard_win_payers": "all"}),
        concealed_kong_drawn("s16_concealed_kong", paid_on_draw=True),
        concealed_kong_drawn("opt_kong_not_paid_on_draw", paid_on_draw=False),
        exposed_kong_drawn("s16_exposed_kong", by_discarder=False),
        exposed_kong_drawn("opt_exposed_kong_payers_discarder", by_discarder=True),
        after_kong(),
        heavenly(),
        bets("s16_bets"),
        robbed_kong(),
        added_kong_bloom("added_kong_bloom", by_discarder=False),
        added_kong_bloom("opt_added_kong_under_discarder_payers", by_discarder=True),
        session(),
    ]


if __name__ == "__main__":
    for script in all_scripts():
        script.write()
        print(f"wrote {script.name}.jsonl")
