"""``xian-table score``: pay one hand without a journal — wins, kongs and bets (RULES §13–§16).

Examples::

    xian-table score --winner 2 --self-drawn --wait closed          # 自摸夹张: +9 / -3 each
    xian-table score --winner 1 --discard 3 --wait single           # 胡 seat 3's discard: +2 / -2
    xian-table score --winner 1 --after-kong --kong 1:concealed     # 杠后开花 after a concealed kong
    xian-table score --winner 0 --heavenly                          # 天胡 by the dealer: +18
    xian-table score --winner 3 --self-drawn --bets 0 1 0 2
    xian-table score --draw --kong 2:exposed:0 --rule kong_paid_on_draw=false
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from typing import Any, TextIO

from engine.hand import analyse_win, parse_meld
from engine.records import WAIT_KINDS, WaitKind
from engine.rules import Rules, RulesError
from engine.scoring import Transfer, deltas, kong_transfers, win_transfers
from engine.tiles import TileError

HELP = "pay one hand: winner, how, wait, kongs, bets and base → the transfers and each seat's gain (no journal)"

WAIT_NAMES = {
    "closed": ("夹张", "closed wait"),
    "single": ("单调", "single wait"),
    "edge": ("边张", "edge wait"),
    "plain": ("平胡", "plain wait"),
}
HOW_NAMES = {
    "self_drawn": ("自摸", "self-drawn"),
    "discard": ("点炮", "on a discard"),
    "robbed_kong": ("抢杠", "robbing a kong"),
}
KONG_NAMES = {
    "concealed": ("暗杠", "concealed kong"),
    "exposed": ("明杠", "exposed kong"),
    "added": ("加杠", "added kong"),
}
REASON_NAMES = {"win": ("胡", "win"), "kong": ("杠", "kong"), "bet": ("注", "bet")}
KONG_ALIASES = {
    "concealed": "concealed", "c": "concealed", "暗": "concealed", "暗杠": "concealed",
    "exposed": "exposed", "e": "exposed", "明": "exposed", "明杠": "exposed",
    "added": "added", "a": "added", "加": "added", "加杠": "added",
}  # fmt: skip


class ScoreInputError(ValueError):
    """A combination of arguments that no real hand can have."""


def register(p: argparse.ArgumentParser) -> None:
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = __doc__.split("Examples::", 1)[1] if __doc__ else None
    p.add_argument("--winner", "-w", type=int, metavar="SEAT", help="the winning seat 0..3")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--self-drawn", "-s", action="store_true", help="自摸: the winner drew the winning tile")
    how.add_argument("--discard", "-d", type=int, metavar="SEAT", help="胡 on the discard of SEAT")
    how.add_argument(
        "--robbed", type=int, metavar="SEAT",
        help="抢杠: the winner robbed the added kong of SEAT (paid like a discard; that kong is not paid: omit it)",
    )  # fmt: skip
    how.add_argument("--draw", action="store_true", help="荒牌: the hand was drawn (no winner; only kongs are paid)")
    p.add_argument("--after-kong", action="store_true", help="杠后开花: self-drawn on a kong replacement tile (x2)")
    p.add_argument("--heavenly", action="store_true", help="天胡: the dealer's dealt 14 tiles win (x3)")
    p.add_argument("--dealer", type=int, default=0, metavar="SEAT", help="the dealer 庄家 (default 0; 天胡 is theirs)")
    p.add_argument("--wait", choices=WAIT_KINDS, help="the wait kind (default plain); the bonus follows the rules")
    p.add_argument("--hand", metavar="TILES", help="instead of --wait: the concealed hand with the winning tile")
    p.add_argument("--win-tile", metavar="T", help="with --hand: the winning tile")
    p.add_argument("--melds", nargs="+", default=[], metavar="M", help="with --hand: the winner's exposed melds")
    p.add_argument(
        "--kong", "-k", action="append", default=[], metavar="SEAT:KIND[:FROM]",
        help="a kong declared this hand: KIND concealed|exposed|added (c|e|a); FROM = whose discard an exposed "
        "kong claimed, e.g. 1:concealed 2:exposed:0 3:added; repeat for more",
    )  # fmt: skip
    p.add_argument("--bets", nargs=4, type=int, metavar="N", help="each seat's bets n_0..n_3 (>= 0)")
    p.add_argument("--base", "-b", type=int, default=1, help="the base 基数 b (default 1)")
    p.add_argument(
        "--rule", "-r", action="append", default=[], metavar="NAME=VALUE",
        help="a rule option override, e.g. discard_win_payers=all, bet_unit=2 (repeatable)",
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help="print one JSON object")


def parse_rule_overrides(items: list[str]) -> Rules:
    """``NAME=VALUE`` items as a :class:`Rules`; values are JSON (true, 2, [13,7,8,13], null) or plain words."""
    overrides: dict[str, Any] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        if not sep or not name.strip():
            raise ScoreInputError(f"--rule wants NAME=VALUE, e.g. discard_win_payers=all; got {item!r}")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        overrides[name.strip()] = value
    return Rules.from_overrides(overrides)


def parse_kong(spec: str) -> tuple[int, str, int | None]:
    """``SEAT:KIND[:FROM]`` → (seat, kind, discarder)."""
    parts = spec.split(":")
    if len(parts) not in (2, 3):
        raise ScoreInputError(f"--kong wants SEAT:KIND[:FROM], e.g. 1:concealed or 2:exposed:0; got {spec!r}")
    kind = KONG_ALIASES.get(parts[1].strip().lower())
    if kind is None:
        raise ScoreInputError(f"--kong {spec!r}: unknown kind {parts[1]!r} (concealed, exposed or added)")
    try:
        seat = int(parts[0])
        frm = int(parts[2]) if len(parts) == 3 else None
    except ValueError:
        raise ScoreInputError(f"--kong {spec!r}: seats are numbers 0..3") from None
    if frm is not None and kind != "exposed":
        raise ScoreInputError(f"--kong {spec!r}: only an exposed (claimed) kong comes from another seat's discard")
    if kind == "exposed" and frm is None:
        raise ScoreInputError(f"--kong {spec!r}: say whose discard the exposed kong claimed, e.g. {seat}:exposed:N")
    return seat, kind, frm


def _seat(value: int | None, what: str) -> int:
    if value is None or not 0 <= value <= 3:
        raise ScoreInputError(f"{what} must be a seat 0..3; got {value!r}")
    return value


def settle(args: argparse.Namespace) -> dict[str, Any]:
    """Everything the verb reports, as JSON-ready data; raises ValueError subclasses on bad input."""
    rules = parse_rule_overrides(args.rule)
    dealer = _seat(args.dealer, "--dealer")
    bets = list(args.bets) if args.bets is not None else [0, 0, 0, 0]
    for s, n in enumerate(bets):
        if n < 0:
            raise ScoreInputError(f"bets cannot be negative: seat {s} bets {n} (0 means no bet)")
    if args.base < 1:
        raise ScoreInputError(f"the base must be a whole number >= 1; got {args.base}")
    kongs = [parse_kong(k) for k in args.kong]
    for seat, _kind, frm in kongs:
        _seat(seat, "a kong's seat")
        if frm is not None and _seat(frm, "a kong's FROM") == seat:
            raise ScoreInputError(f"seat {seat} cannot claim a kong on its own discard")
    for seat in range(4):
        if sum(1 for k in kongs if k[0] == seat) > 4:
            raise ScoreInputError(f"seat {seat} has more than 4 kongs: a hand holds at most four melds")

    out: dict[str, Any] = {
        "result": "draw" if args.draw else "win",
        "base": args.base,
        "dealer": dealer,
        "bets": bets,
        "rules": rules.overrides(),
        "kongs": [{"seat": s, "kind": k, "from": f} for s, k, f in kongs],
    }
    transfers: list[Transfer] = []
    if args.draw:
        extra = [
            name for name, given in (
                ("--winner", args.winner is not None), ("--after-kong", args.after_kong),
                ("--heavenly", args.heavenly), ("--wait", args.wait is not None), ("--hand", args.hand is not None),
            ) if given
        ]  # fmt: skip
        if extra:
            raise ScoreInputError(f"a drawn hand (--draw) has no winner: drop {', '.join(extra)}")
        if rules.kong_paid_on_draw:
            for seat, kind, frm in kongs:
                transfers += kong_transfers(seat, kind, base=args.base, rules=rules, discarder=frm)
        out.update(winner=None, how=None, discarder=None, wait=None, wait_bonus=False, after_kong=False, heavenly=False)
        out["kongs_paid"] = bool(kongs) and rules.kong_paid_on_draw
    else:
        winner = _seat(args.winner, "--winner (or --draw for a drawn hand)")
        how, discarder = _how(args, winner)
        _check_special(args, how, winner, dealer, [k[0] for k in kongs])
        wait, bonus, analysis = _wait(args, rules)
        for seat, kind, frm in kongs:
            transfers += kong_transfers(seat, kind, base=args.base, rules=rules, discarder=frm)
        transfers += win_transfers(
            winner, how, base=args.base, rules=rules, wait_bonus=bonus, discarder=discarder,
            after_kong=args.after_kong, heavenly=args.heavenly, bets=bets,
        )  # fmt: skip
        out.update(
            winner=winner, how=how, discarder=discarder, wait=wait, wait_bonus=bonus,
            after_kong=args.after_kong, heavenly=args.heavenly,
        )  # fmt: skip
        if analysis is not None:
            out["analysis"] = analysis
    out["transfers"] = [t.to_json() for t in transfers]
    out["deltas"] = deltas(transfers)
    out["by_reason"] = {r: deltas(t for t in transfers if t.reason == r) for r in ("win", "kong", "bet")}
    return out


def _check_special(args: argparse.Namespace, how: str, winner: int, dealer: int, kong_seats: list[int]) -> None:
    """Refuse 杠后开花 and 天胡 where no real hand can have them."""
    if args.after_kong:
        if how != "self_drawn":
            raise ScoreInputError(
                "杠后开花 (--after-kong) is a self-drawn win on a kong replacement tile: "
                "not on a discard or robbed kong"
            )
        if winner not in kong_seats:
            raise ScoreInputError(
                f"杠后开花 (--after-kong) needs a kong declared by the winner, seat {winner}: "
                f"add --kong {winner}:KIND"
            )
    if args.heavenly:
        if how != "self_drawn":
            raise ScoreInputError("天胡 (--heavenly) is the dealer's self-drawn win on the dealt tiles, not a discard")
        if winner != dealer:
            raise ScoreInputError(f"天胡 (--heavenly) is only the dealer's: seat {winner} is not the dealer ({dealer})")
        if args.after_kong:
            raise ScoreInputError("杠后开花 and 天胡 cannot both apply: 天胡 is won on the dealt tiles")
        if kong_seats:
            raise ScoreInputError("天胡 (--heavenly) is won on the dealt 14 tiles before any play: no kong yet")


def _how(args: argparse.Namespace, winner: int) -> tuple[str, int | None]:
    if args.discard is not None:
        discarder = _seat(args.discard, "--discard")
        if discarder == winner:
            raise ScoreInputError(f"seat {winner} cannot win on its own discard (--discard {discarder})")
        return "discard", discarder
    if args.robbed is not None:
        declarer = _seat(args.robbed, "--robbed")
        if declarer == winner:
            raise ScoreInputError(f"seat {winner} cannot rob its own kong (--robbed {declarer})")
        return "robbed_kong", declarer
    if args.self_drawn or args.after_kong or args.heavenly:
        return "self_drawn", None
    raise ScoreInputError("say how the hand was won: --self-drawn, --discard SEAT, --robbed SEAT (or --draw)")


def _wait(args: argparse.Namespace, rules: Rules) -> tuple[str, bool, dict[str, Any] | None]:
    if args.hand is None:
        if args.win_tile is not None or args.melds:
            raise ScoreInputError("--win-tile and --melds go with --hand")
        wait: WaitKind = args.wait or "plain"
        return wait, rules.earns_bonus(wait), None
    if args.wait is not None:
        raise ScoreInputError("give either --wait or --hand (which finds the wait), not both")
    if args.win_tile is None:
        raise ScoreInputError("--hand needs --win-tile (the winning tile, e.g. 2p)")
    a = analyse_win(args.hand, args.win_tile, [parse_meld(m) for m in args.melds], rules)
    if not a.winning or a.wait is None:
        raise ScoreInputError(f"not a winning hand: {args.hand!r} with {args.win_tile!r}")
    return a.wait, a.bonus, a.to_json()


def _pad(text: str, width: int) -> str:
    """Left-justify for a terminal, where a Chinese character takes two columns."""
    cols = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return text + " " * max(0, width - cols)


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def render(r: dict[str, Any], out: TextIO) -> None:
    """The human form: a short header, the transfers, then each seat's gain."""

    def seat(s: int) -> str:
        return f"座{s} seat {s}" + (" 庄" if s == r["dealer"] else "")

    print(f"一手结算 settlement of one hand — 基数 base {r['base']}, 庄家 dealer seat {r['dealer']}", file=out)
    if r["result"] == "draw":
        paid = "杠分照付 kongs stay paid" if r.get("kongs_paid") else "无杠分 no kong payments"
        print(f"荒牌 drawn hand: 无胡分无注 no win or bet payments; {paid}", file=out)
    else:
        zh, en = HOW_NAMES[r["how"]]
        line = f"赢家 winner: {seat(r['winner'])}, {zh} {en}"
        if r["discarder"] is not None:
            line += f" (from seat {r['discarder']} 由座{r['discarder']}付)"
        wzh, wen = WAIT_NAMES[r["wait"]]
        line += f"; {wzh} {wen}" + (" +加分 bonus" if r["wait_bonus"] else "")
        if r["after_kong"]:
            line += "; 杠后开花 after a kong x2"
        if r["heavenly"]:
            line += "; 天胡 heavenly x3"
        print(line, file=out)
    if any(r["bets"]):
        print(f"下注 bets: {' '.join(str(n) for n in r['bets'])}", file=out)
    for k in r["kongs"]:
        kzh, ken = KONG_NAMES[k["kind"]]
        src = f" (claimed from seat {k['from']} 座{k['from']}点杠)" if k["from"] is not None else ""
        print(f"杠 kong: {seat(k['seat'])} {kzh} {ken}{src}", file=out)
    if r["rules"]:
        print("规则 rules: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in r["rules"].items()), file=out)
    print("", file=out)
    if r["transfers"]:
        print(f"  {_pad('付 from', 16)}  {_pad('收 to', 16)}{_pad('分 amount', 10)} 因 reason", file=out)
        for t in r["transfers"]:
            zh, en = REASON_NAMES[t["reason"]]
            print(f"  {_pad(seat(t['from']), 16)}→ {_pad(seat(t['to']), 16)}{t['amount']:>8}   {zh} {en}", file=out)
    else:
        print("  没有付款 no payments", file=out)
    print("", file=out)
    print("得失 per-seat result:", file=out)
    for s, d in enumerate(r["deltas"]):
        print(f"  {_pad(seat(s), 16)}{_signed(d):>6}", file=out)


def run(args: argparse.Namespace) -> int:
    try:
        result = settle(args)
    except (ScoreInputError, RulesError, TileError, ValueError) as e:
        if args.json:
            print(json.dumps({"error": str(e)}, ensure_ascii=False))
        print(f"xian-table score: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        render(result, sys.stdout)
    return 0
