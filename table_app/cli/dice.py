"""``xian-table dice``: where to break the wall for two rolls (docs/rules.md §6), in words and JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.wall import PER_WALL, break_point

HELP = "where to break the wall: the dealer's roll picks the wall, the owner's roll the stack"

RELATIVE_ZH = ("庄家自己", "下家", "对家", "上家")
RELATIVE_EN = (
    "the dealer's own wall",
    "the wall of the dealer's 下家 (the next player, on the right)",
    "the wall of the dealer's 对家 (opposite)",
    "the wall of the dealer's 上家 (the previous player, on the left)",
)


def _pair(text: str) -> tuple[int, int]:
    try:
        a, b = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a roll is two dice like 4,6; got {text!r}") from None
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise argparse.ArgumentTypeError(f"dice show 1..6; got {text!r}")
    return a, b


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dealer-roll", required=True, type=_pair, metavar="A,B", help="the dealer's two dice, e.g. 4,6")
    p.add_argument("--owner-roll", required=True, type=_pair, metavar="C,D", help="the wall owner's two dice, e.g. 2,3")
    p.add_argument(
        "--dealer", type=int, default=0, choices=range(4), metavar="SEAT", help="the dealer's seat 0-3 (default 0)"
    )
    p.add_argument("--clockwise", action="store_true", help="stacks counted clockwise (option wall_direction)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def describe(dealer: int, dealer_roll: tuple[int, int], owner_roll: tuple[int, int], direction: str) -> dict[str, Any]:
    """The break point as JSON with a sentence in Chinese and one in English."""
    bp = break_point(dealer, dealer_roll, owner_roll, direction)
    t1, t2, k = sum(dealer_roll), sum(owner_roll), bp.count
    rel = (bp.owner - dealer) % 4
    head_wall, head_stack = bp.stack_at(0)
    tail_wall, tail_stack = bp.stack_at(67)
    if bp.overflow:
        zh_over = f"本墙只有 {PER_WALL} 墩，数过去进入下一道墙（座位 {bp.wall}）的第 {bp.stack} 墩。"
        en_over = (
            f" Seat {bp.owner}'s wall has only {PER_WALL} stacks, so the count runs on into the next wall"
            f" (seat {bp.wall}'s) to its stack {bp.stack}."
        )
    else:
        zh_over = en_over = ""
    zh = (
        f"庄家（座位 {dealer}）掷出 {t1} 点，从庄家数起第 {t1} 家是{RELATIVE_ZH[rel]}（座位 {bp.owner}），"
        "在他的牌墙起牌。"
        f"座位 {bp.owner} 再掷出 {t2} 点，共 {t1}+{t2}={k} 墩。{zh_over}"
        f"座位 {tail_wall} 牌墙的第 {tail_stack} 墩是牌尾（补牌从这里往回取），"
        f"从其后的座位 {head_wall} 牌墙第 {head_stack} 墩开始抓牌。"
    )
    en = (
        f"The dealer (seat {dealer}) rolls {t1}: counting {t1} from the dealer reaches {RELATIVE_EN[rel]},"
        f" seat {bp.owner}'s. Seat {bp.owner} rolls {t2}: count {t1}+{t2}={k} stacks along it.{en_over}"
        f" Stack {tail_stack} of seat {tail_wall}'s wall is the tail (replacement tiles come from there backward);"
        f" the deal starts after it, at stack {head_stack} of seat {head_wall}'s wall."
    )
    return {
        "dealer": dealer,
        "dealer_roll": list(dealer_roll),
        "owner_roll": list(owner_roll),
        "t1": t1,
        "t2": t2,
        "direction": direction,
        "break": bp.to_json(),
        "owner_relative": ["dealer", "xiajia", "duijia", "shangjia"][rel],
        "overflow": bp.overflow,
        "tail": {"wall": tail_wall, "stack": tail_stack},
        "head": {"wall": head_wall, "stack": head_stack},
        "zh": zh,
        "en": en,
    }


def run(args: argparse.Namespace) -> int:
    direction = "clockwise" if args.clockwise else "counterclockwise"
    out = describe(args.dealer, args.dealer_roll, args.owner_roll, direction)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        sys.stdout.write(out["zh"] + "\n" + out["en"] + "\n")
    return 0
