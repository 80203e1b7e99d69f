"""``xian-table hand``: read a hand — does it win, how (splits, wait kind), or what it waits on."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from engine.hand import HandError, analyse_win, hand_counts, held_counts, parse_meld, splits, winning_tiles
from engine.rules import Rules, RulesError
from engine.tiles import TileError, format_tiles, names, parse_tile, parse_tiles, tile_name, tile_text
from table_app.present.words import en_zh, pair, tr, zh_en

HELP = "analyse a hand: for 14 tiles whether it wins and how, for 13 tiles the winning tiles"



def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("tiles", nargs="?", help="the concealed hand in mpsz text, e.g. 123m456p789s11122z")
    p.add_argument("--win-tile", "-w", metavar="T", help="the winning tile (for the wait kind), e.g. 2p")
    p.add_argument("--melds", "-m", nargs="+", default=[], metavar="M", help="exposed melds, e.g. 123m 5555z")
    p.add_argument("--seven-pairs", action="store_true", help="count seven pairs as a winning hand")
    p.add_argument("--only-wait", action="store_true", help="wait bonus only when the hand waited on one tile")
    p.add_argument("--edge-bonus", action="store_true",
                   help=f"count an edge wait ({tr('wait_edge', 'zh')}) like a closed wait")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--batch", metavar="FILE", help="one hand per line from FILE (- for stdin), one JSON line each")


def _rules(args: argparse.Namespace) -> Rules:
    return Rules(
        seven_pairs=args.seven_pairs,
        wait_bonus="only_wait" if args.only_wait else "any_split",
        edge_wait_bonus=args.edge_bonus,
    )


def analyse(text: str, win_tile: str | None, melds: Sequence[str], rules: Rules) -> dict[str, Any]:
    """Everything the verb reports about one hand, as JSON-ready data."""
    meld_tiles = [parse_meld(m) for m in melds]
    counts = hand_counts(text)
    size = sum(counts) + 3 * len(meld_tiles)
    out: dict[str, Any] = {
        "hand": format_tiles(t for t, n in enumerate(counts) for _ in range(n)),
        "melds": [format_tiles(m) for m in meld_tiles],
        "tiles": size,
    }
    held = held_counts(counts, meld_tiles)
    if size == 13:
        waits = winning_tiles(counts, meld_tiles, seven_pairs=rules.seven_pairs)
        out["waits"] = [_wait_entry(counts, meld_tiles, t, held, rules) for t in waits]
        out["tenpai"] = bool(waits)
        return out
    if size != 14:
        raise HandError(
            f"hand {text!r} has {size} tiles counting melds (a kong as three): "
            "give 14 to judge a win or 13 for the waits"
        )
    if win_tile is not None:
        analysis = analyse_win(counts, parse_tile(win_tile), meld_tiles, rules)
        out.update(analysis.to_json())
        return out
    found = splits(counts, seven_pairs=rules.seven_pairs and not meld_tiles)
    out["winning"] = bool(found)
    out["splits"] = [s.text() for s in found]
    if found:
        out["by_win_tile"] = {
            tile_text(t): {"wait": a.wait, "bonus": a.bonus}
            for t in range(34)
            if counts[t]
            for a in [analyse_win(counts, t, meld_tiles, rules)]
        }
    return out


def _wait_entry(
    counts: list[int], melds: Sequence[Sequence[int]], tile: int, held: list[int], rules: Rules
) -> dict[str, Any]:
    full = list(counts)
    full[tile] += 1
    a = analyse_win(full, tile, melds, rules)
    return {"tile": tile_text(tile), "wait": a.wait, "bonus": a.bonus, "left": 4 - held[tile]}


def render(result: dict[str, Any], out: TextIO) -> None:
    """The human form: mpsz with Chinese names, then the verdict (the words: ``table_app.present``)."""
    melds = "  ".join(result["melds"])
    print(f"{zh_en('cli_tiles')}:  {result['hand']}   {names(parse_tiles(result['hand']))}", file=out)
    if melds:
        print(f"{zh_en('cli_melds')}: {melds}", file=out)
    if "waits" in result:
        if not result["waits"]:
            print(" — ".join(pair("cli_not_ready")), file=out)
            return
        print(f"{zh_en('cli_ready', n=len(result['waits']))}:", file=out)
        for w in result["waits"]:
            bonus = f"  +{en_zh('cli_bonus')}" if w["bonus"] else ""
            name = tile_name(parse_tile(w["tile"]))
            print(f"  {w['tile']:>3} {name}  {zh_en('wait_' + w['wait'])}{bonus}  ({en_zh('cli_left', n=w['left'])})",
                  file=out)
        return
    if not result["winning"]:
        print(" — ".join(pair("cli_not_winning")), file=out)
        return
    print(f"{zh_en('cli_winning')} ✓", file=out)
    splits_word = en_zh("cli_splits")
    if "wait" in result:
        bonus = en_zh("cli_yes") if result["bonus"] else en_zh("cli_no")
        print(f"{en_zh('cli_win_tile')}: {result['win_tile']} {tile_name(parse_tile(result['win_tile']))}", file=out)
        print(f"{en_zh('cli_wait')}: {zh_en('wait_' + result['wait'])}   {en_zh('cli_wait_bonus')}: {bonus}", file=out)
        print(f"{splits_word}:", file=out)
        for s in result["splits"]:
            kinds = ", ".join(tr("wait_" + k, "zh") + f" {k}" for k in s["kinds"])
            print(f"  {s['split']}    ({kinds})", file=out)
        return
    print(f"{splits_word}:", file=out)
    for s in result["splits"]:
        print(f"  {s}", file=out)
    print("wait kind by winning tile (give --win-tile to pick one):", file=out)
    for t, info in result["by_win_tile"].items():
        print(f"  {t:>3} {tile_name(parse_tile(t))}  {zh_en('wait_' + info['wait'])}", file=out)


def _batch_lines(lines: Iterable[str], rules: Rules, out: TextIO) -> int:
    status = 0
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            if line.startswith("{"):
                spec = json.loads(line)
                unknown = set(spec) - {"hand", "win_tile", "melds"}
                if unknown or not isinstance(spec.get("hand"), str):
                    raise HandError(f"a JSON line needs 'hand' (text) and may have 'win_tile', 'melds'; got {line!r}")
                result = analyse(spec["hand"], spec.get("win_tile"), spec.get("melds", []), rules)
            else:
                result = analyse(line, None, [], rules)
            result["line"] = n
        except (TileError, RulesError, ValueError) as e:
            result = {"line": n, "input": line, "error": str(e)}
            status = 2
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
    return status


def run(args: argparse.Namespace) -> int:
    try:
        rules = _rules(args)
        if args.batch:
            if args.batch == "-":
                return _batch_lines(sys.stdin, rules, sys.stdout)
            with open(args.batch, encoding="utf-8") as f:
                return _batch_lines(f, rules, sys.stdout)
        if not args.tiles:
            print("xian-table hand: give the tiles (e.g. 123m456p789s11122z) or --batch FILE", file=sys.stderr)
            return 2
        result = analyse(args.tiles, args.win_tile, args.melds, rules)
    except OSError as e:
        print(f"xian-table hand: cannot read {args.batch!r}: {e.strerror}", file=sys.stderr)
        return 2
    except (TileError, RulesError, ValueError) as e:
        if args.json:
            print(json.dumps({"error": str(e)}, ensure_ascii=False))
        else:
            print(f"xian-table hand: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        render(result, sys.stdout)
    return 0

