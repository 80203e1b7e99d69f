"""``xian-table dice``: where to break the wall for two rolls (docs/rules.md §6), in words and JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.wall import PER_WALL, break_point
from table_app.present.words import tr

HELP = "where to break the wall: the dealer's roll picks the wall, the owner's roll the stack"



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
    """The break point as JSON with a sentence in Chinese and one in English (``table_app.present``)."""
    bp = break_point(dealer, dealer_roll, owner_roll, direction)
    t1, t2, k = sum(dealer_roll), sum(owner_roll), bp.count
    rel = (bp.owner - dealer) % 4
    head_wall, head_stack = bp.stack_at(0)
    tail_wall, tail_stack = bp.stack_at(67)
    fields = {"dealer": dealer, "t1": t1, "t2": t2, "k": k, "owner": bp.owner, "tail_wall": tail_wall,
              "tail_stack": tail_stack, "head_wall": head_wall, "head_stack": head_stack}

    def sentence(lang: str) -> str:
        over = tr("cli_dice_over", lang, per_wall=PER_WALL, owner=bp.owner, wall=bp.wall, stack=bp.stack)
        return tr("cli_dice_break", lang, rel=tr(f"cli_rel_{rel}", lang), over=over if bp.overflow else "", **fields)

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
        "zh": sentence("zh"),
        "en": sentence("en"),
    }


def run(args: argparse.Namespace) -> int:
    direction = "clockwise" if args.clockwise else "counterclockwise"
    out = describe(args.dealer, args.dealer_roll, args.owner_roll, direction)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        sys.stdout.write(out["zh"] + "\n" + out["en"] + "\n")
    return 0
