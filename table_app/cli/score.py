"""``xian-table score``: pay one hand without a journal — wins, kongs and bets (docs/rules.md §13–§16).

The examples are the verb's help (``EXAMPLES``: their notes name the rules' Chinese terms from
the one word table), e.g. ``xian-table score --winner 2 --self-drawn --wait closed``.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from typing import Any, Final, TextIO

from engine.errors import IllegalEventError
from engine.fields import check_seat
from engine.hand import analyse_win, parse_meld
from engine.records import WAIT_KINDS, WaitKind
from engine.rules import Rules, RulesError
from engine.scored import Extra, ScoredKong, check_scored, pay_scored, score_hand
from engine.scoring import AFTER_KONG_MULTIPLIER, HEAVENLY_MULTIPLIER, KONG_KINDS, REASONS, WinHow, deltas
from engine.tiles import TileError
from table_app.present.words import en_zh, pair, tr, zh_en

HELP = "pay one hand: winner, how, wait, kongs, bets and base → the transfers and each seat's gain (no journal)"

# the words of the one word table (table_app.present), in both languages
KONG_NAMES: Final = {k: pair(f"kong_{k}") for k in KONG_KINDS}
KONG_ALIASES: Final = {alias: k for k, (zh, _en) in KONG_NAMES.items() for alias in (k, k[0], zh, zh[0])}
"""A kong's kind as typed: concealed, c, 暗杠 or 暗 (and the same for exposed and added)."""


def _zh(key: str) -> str:
    """A rule's Chinese term, as the help names it beside the English."""
    return tr(key, "zh")


def examples() -> str:
    """The help's examples, each with what it pays (the Chinese terms: ``table_app.present``)."""

    rows = (
        ("--winner 2 --self-drawn --wait closed", f"{_zh('kind_self_drawn')}{_zh('wait_closed')}: +9 / -3 each"),
        ("--winner 1 --discard 3 --wait single", f"{_zh('reason_win')} seat 3's discard: +2 / -2"),
        ("--winner 1 --after-kong --kong 1:concealed", f"{_zh('kind_kong_bloom')} after a concealed kong"),
        ("--winner 0 --heavenly", f"{_zh('kind_heavenly')} by the dealer: +18"),
        ("--winner 3 --self-drawn --bets 0 1 0 2", ""),
        ("--draw --kong 2:exposed:0 --rule kong_paid_on_draw=false", ""),
    )
    lines = (f"{'xian-table score ' + cmd:<64}# {note}" if note else f"xian-table score {cmd}" for cmd, note in rows)
    return "\n\n" + "".join(f"    {line}\n" for line in lines)


class ScoreInputError(ValueError):
    """Arguments that do not say one hand (the rules' refusals are the engine's)."""


def register(p: argparse.ArgumentParser) -> None:
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = examples()
    p.add_argument("--winner", "-w", type=int, metavar="SEAT", help="the winning seat 0..3")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--self-drawn", "-s", action="store_true",
                     help=f"{_zh('kind_self_drawn')}: the winner drew the winning tile")
    how.add_argument("--discard", "-d", type=int, metavar="SEAT", help=f"{_zh('reason_win')} on the discard of SEAT")
    how.add_argument(
        "--robbed", type=int, metavar="SEAT",
        help=f"{_zh('kind_robbed_kong')}: the winner robbed the added kong of SEAT (paid like a discard; "
        "that kong is not paid: omit it)",
    )  # fmt: skip
    how.add_argument("--draw", action="store_true",
                     help=f"{_zh('drawn_hand')}: the hand was drawn (no winner; only kongs are paid)")
    special = p.add_mutually_exclusive_group()
    special.add_argument(
        "--after-kong", action="store_true",
        help=f"{_zh('kind_kong_bloom')}: self-drawn on a kong replacement tile (x{AFTER_KONG_MULTIPLIER})")
    special.add_argument("--heavenly", action="store_true",
                         help=f"{_zh('kind_heavenly')}: the dealer's dealt 14 tiles win (x{HEAVENLY_MULTIPLIER})")
    p.add_argument("--dealer", type=int, default=0, metavar="SEAT",
                   help=f"the dealer {_zh('cli_dealer_seat')} (default 0; {_zh('kind_heavenly')} is theirs)")
    p.add_argument("--wait", choices=WAIT_KINDS, help="the wait kind (default plain); the bonus follows the rules")
    p.add_argument("--hand", metavar="TILES", help="instead of --wait: the concealed hand with the winning tile")
    p.add_argument("--win-tile", metavar="T", help="with --hand: the winning tile")
    p.add_argument("--melds", nargs="+", default=[], metavar="M", help="with --hand: the winner's exposed melds")
    p.add_argument(
        "--kong", "-k", action="append", default=[], metavar="SEAT:KIND[:FROM]",
        help="a kong declared this hand: KIND concealed|exposed|added (c|e|a); FROM = whose discard an exposed "
        "kong claimed (needed with exposed_kong_payers=discarder), e.g. 1:concealed 2:exposed:0 3:added; "
        "repeat for more",
    )  # fmt: skip
    p.add_argument("--bets", nargs=4, type=int, metavar="N", help="each seat's bets n_0..n_3 (>= 0)")
    p.add_argument("--base", "-b", type=int, default=1, help=f"the base {_zh('base')} b (default 1)")
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


def parse_kong(spec: str) -> ScoredKong:
    """``SEAT:KIND[:FROM]`` → the engine's kong (which checks the seats and the kind)."""
    parts = spec.split(":")
    if len(parts) not in (2, 3):
        raise ScoreInputError(f"--kong wants SEAT:KIND[:FROM], e.g. 1:concealed or 2:exposed:0; got {spec!r}")
    try:
        seat = int(parts[0])
        frm = int(parts[2]) if len(parts) == 3 else None
    except ValueError:
        raise ScoreInputError(f"--kong {spec!r}: seats are numbers 0..3") from None
    word = parts[1].strip().lower()
    return ScoredKong.from_json({"seat": seat, "kind": KONG_ALIASES.get(word, word), "discarder": frm})


def _how(args: argparse.Namespace) -> tuple[WinHow | None, int | None]:
    """The way won and who paid, as the options say (none: the special win says, or the engine asks)."""
    if args.discard is not None:
        return "discard", args.discard
    if args.robbed is not None:
        return "robbed_kong", args.robbed
    return ("self_drawn" if args.self_drawn else None), None


def _extra(args: argparse.Namespace) -> Extra | None:
    return "kong_bloom" if args.after_kong else "heavenly" if args.heavenly else None


def _wait(args: argparse.Namespace, rules: Rules) -> tuple[WaitKind | None, bool | None, dict[str, Any] | None]:
    """The wait, and the bonus and the analysis when the hand was given (``engine.hand``)."""
    if args.hand is None:
        if args.win_tile is not None or args.melds:
            raise ScoreInputError("--win-tile and --melds go with --hand")
        return args.wait, None, None
    if args.wait is not None:
        raise ScoreInputError("give either --wait or --hand (which finds the wait), not both")
    if args.win_tile is None:
        raise ScoreInputError("--hand needs --win-tile (the winning tile, e.g. 2p)")
    a = analyse_win(args.hand, args.win_tile, [parse_meld(m) for m in args.melds], rules)
    if not a.winning or a.wait is None:
        raise ScoreInputError(f"not a winning hand: {args.hand!r} with {args.win_tile!r}")
    return a.wait, a.bonus, a.to_json()


def settle(args: argparse.Namespace) -> dict[str, Any]:
    """Everything the verb reports, as JSON-ready data: the hand as the engine's ``ScoreHand``,
    checked (``check_scored``) and paid (``pay_scored``) by the engine; raises ValueError
    subclasses on bad input (the engine's refusals among them)."""
    rules = parse_rule_overrides(args.rule)
    dealer = check_seat(args.dealer, "--dealer", "score")
    if args.draw == (args.winner is not None):
        raise ScoreInputError("give --winner SEAT, or --draw for a drawn hand (no winner), not both")
    wait, bonus, analysis = _wait(args, rules)
    how, discarder = _how(args)
    ev = score_hand(args.winner, how, discarder, wait, _extra(args), [parse_kong(k) for k in args.kong],
                    None if args.bets is None else list(args.bets))
    check_scored(ev, dealer, rules)
    bets = list(ev.bets) if ev.bets is not None else [0, 0, 0, 0]
    pay = pay_scored(ev, base=args.base, rules=rules, bets=bets, bonus=bonus)
    out: dict[str, Any] = {
        "result": "draw" if ev.winner is None else "win",
        "base": args.base,
        "dealer": dealer,
        "bets": bets,
        "rules": rules.overrides(),
        "kongs": [{"seat": k.seat, "kind": k.kind, "from": k.discarder} for k in ev.kongs],
        "winner": ev.winner, "how": ev.how, "discarder": ev.discarder, "wait": pay.wait, "wait_bonus": pay.bonus,
        "after_kong": ev.kong_bloom, "heavenly": ev.heavenly,
    }  # fmt: skip
    if ev.winner is None:
        out["kongs_paid"] = bool(ev.kongs) and pay.kongs_stand
    elif analysis is not None:
        out["analysis"] = analysis
    transfers = pay.transfers
    out["transfers"] = [t.to_json() for t in transfers]
    out["deltas"] = deltas(transfers)
    out["by_reason"] = {r: deltas(t for t in transfers if t.reason == r) for r in REASONS}
    return out


def refusal(e: ValueError) -> str:
    """The line a refusal prints: the engine's message (a table's refusal named after its seat,
    as the table words it)."""
    seat = e.params.get("seat") if isinstance(e, IllegalEventError) else None
    return f"seat {seat} {e}" if seat is not None else str(e)


def _pad(text: str, width: int) -> str:
    """Left-justify for a terminal, where a Chinese character takes two columns."""
    cols = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return text + " " * max(0, width - cols)


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def render(r: dict[str, Any], out: TextIO) -> None:
    """The human form: a short header, the transfers, then each seat's gain (the words:
    ``table_app.present``)."""

    def seat(s: int) -> str:
        return zh_en("cli_seat_n", n=s) + (f" {_zh('cli_dealer')}" if s == r["dealer"] else "")

    print(f"{zh_en('cli_one_hand')} — {zh_en('base')} {r['base']}, {zh_en('cli_dealer_seat', n=r['dealer'])}",
          file=out)
    if r["result"] == "draw":
        paid = zh_en("cli_kongs_paid") if r.get("kongs_paid") else zh_en("cli_no_kong_pay")
        print(f"{zh_en('drawn_hand')}: {zh_en('cli_no_win_pay')}; {paid}", file=out)
    else:
        line = f"{zh_en('cli_winner')}: {seat(r['winner'])}, {zh_en('kind_' + r['how'])}"
        if r["discarder"] is not None:
            line += f" ({en_zh('cli_from_seat', seat=r['discarder'])})"
        line += f"; {zh_en('wait')}: {zh_en('wait_' + r['wait'])}"
        line += f" +{zh_en('cli_bonus')}" if r["wait_bonus"] else ""
        if r["after_kong"]:
            line += f"; {zh_en('kind_kong_bloom')} x{AFTER_KONG_MULTIPLIER}"
        if r["heavenly"]:
            line += f"; {zh_en('kind_heavenly')} x{HEAVENLY_MULTIPLIER}"
        print(line, file=out)
    if any(r["bets"]):
        print(f"{zh_en('cli_bets')}: {' '.join(str(n) for n in r['bets'])}", file=out)
    for k in r["kongs"]:
        src = f" ({en_zh('cli_claimed_from', seat=k['from'])})" if k["from"] is not None else ""
        print(f"{zh_en('reason_kong')}: {seat(k['seat'])} {zh_en('kong_' + k['kind'])}{src}", file=out)
    if r["rules"]:
        print(f"{zh_en('cli_rules')}: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in r["rules"].items()), file=out)
    print("", file=out)
    if r["transfers"]:
        print(f"  {_pad(zh_en('cli_from'), 16)}  {_pad(zh_en('cli_to'), 16)}{_pad(zh_en('cli_amount'), 10)} "
              f"{zh_en('cli_reason')}", file=out)
        for t in r["transfers"]:
            print(f"  {_pad(seat(t['from']), 16)}→ {_pad(seat(t['to']), 16)}{t['amount']:>8}   "
                  f"{zh_en('reason_' + t['reason'])}", file=out)
    else:
        print(f"  {zh_en('cli_no_payments')}", file=out)
    print("", file=out)
    print(f"{zh_en('cli_per_seat')}:", file=out)
    for s, d in enumerate(r["deltas"]):
        print(f"  {_pad(seat(s), 16)}{_signed(d):>6}", file=out)


def run(args: argparse.Namespace) -> int:
    try:
        result = settle(args)
    except (ScoreInputError, RulesError, TileError, ValueError) as e:
        if args.json:
            print(json.dumps({"error": refusal(e)}, ensure_ascii=False))
        print(f"xian-table score: {refusal(e)}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        render(result, sys.stdout)
    return 0
