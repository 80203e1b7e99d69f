"""``xian-table simulate``: bots play whole hands in full-tile mode; invariants after every hand.

Prints a summary (wins by seat and by kind, draws, kongs by kind, wait-bonus share, mean hand
length, final totals, hands per second); ``--json`` prints it as one object. A progress bar
with hands/s goes to stderr when stderr is a terminal. ``--journal FILE`` writes every
applied event as JSONL, which ``xian-table play FILE`` replays to the same final table.

Exit status: 0 when every invariant held, 1 on the first violation (the message names the
seed and the hand), 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import IO

from table_app.present.words import en_zh, tr

HELP = "let bots play N hands in full-tile mode, check the invariants after every hand, summarise"

DEFAULT_SESSION_HANDS = 0


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hands", "-n", type=int, default=1000, help="hands to play (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="the seed of the dice, the walls and the bots (default 0)")
    p.add_argument(
        "--bots", default="greedy",
        help="one strength for every seat or four, comma-separated: random, greedy (default greedy)",
    )  # fmt: skip
    p.add_argument(
        "--rules", nargs="+", action="extend", default=[], metavar="NAME=VALUE",
        help="rule option overrides, e.g. seven_pairs=true kong_reserve=[13,7,8,13] (values are JSON or words)",
    )  # fmt: skip
    p.add_argument("--base", type=int, default=1, help=f"the base {tr('base', 'zh')} b (default 1)")
    p.add_argument("--bets", action="store_true", help="each seat bets 0, 1 or 2 before every hand (seeded)")
    p.add_argument(
        "--session-hands", type=int, default=DEFAULT_SESSION_HANDS, metavar="N",
        help="start a fresh session (new_session, a new wall seed, scores from 0) every N hands; "
        "0 = one session for the whole run (the default)",
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--journal", metavar="FILE", help="write every applied event to FILE as JSONL (- for stdout)")


def parse_rules(items: list[str]) -> dict[str, object]:
    """``NAME=VALUE`` items as overrides; a value is JSON (true, 2, [13,7,8,13]) or a plain word."""
    out: dict[str, object] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--rules wants NAME=VALUE, e.g. seven_pairs=true; got {item!r}")
        try:
            out[name.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            out[name.strip()] = raw
    return out


class _Bar:
    """A one-line progress bar on a terminal."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def __call__(self, done: int, total: int, seconds: float) -> None:
        width = 30
        filled = width * done // total
        rate = done / seconds if seconds > 0 else 0.0
        bar = "█" * filled + "·" * (width - filled)
        self.stream.write(f"\r  {bar} {done:,}/{total:,} hands  {rate:,.0f} hands/s ")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def run(args: argparse.Namespace) -> int:
    from engine.rules import Rules, RulesError
    from engine.simulate import InvariantViolation, SimConfig, journal_line, parse_bots, simulate

    try:
        if args.hands < 1:
            raise ValueError(f"--hands must be at least 1, got {args.hands}")
        if args.session_hands < 0:
            raise ValueError(f"--session-hands must be 0 or more, got {args.session_hands}")
        bots = parse_bots(args.bots)
        overrides = parse_rules(args.rules)
        Rules.from_overrides(overrides)
        config = SimConfig(
            hands=args.hands, seed=args.seed, bots=bots, rules=overrides or None, base=args.base,
            bets=args.bets, session_hands=args.session_hands,
        )  # fmt: skip
    except (ValueError, RulesError) as e:
        print(f"xian-table simulate: {e}", file=sys.stderr)
        return 2

    out: IO[str] | None = None
    close = False
    if args.journal == "-":
        out = sys.stdout
    elif args.journal:
        try:
            out = open(args.journal, "w", encoding="utf-8", newline="\n")  # noqa: SIM115 (closed below)
        except OSError as e:
            print(f"xian-table simulate: cannot write the journal {args.journal!r}: {e.strerror}", file=sys.stderr)
            return 2
        close = True

    journal = None
    if out is not None:
        write = out.write

        def journal(event: dict[str, object]) -> None:
            write(journal_line(event) + "\n")

    progress = _Bar(sys.stderr) if sys.stderr.isatty() else None
    every = max(1, min(100, args.hands // 200 or 1))
    try:
        summary = simulate(config, journal=journal, progress=progress, every=every, clock=time.perf_counter)
    except InvariantViolation as e:
        if progress is not None:
            sys.stderr.write("\n")
        print(f"xian-table simulate: {en_zh('cli_invariant')}: {e}", file=sys.stderr)
        print(f"  reproduce: xian-table simulate --hands {e.hand} --seed {e.seed} --bots {','.join(bots)}"
              + (f" --rules {' '.join(args.rules)}" if args.rules else "")
              + (" --bets" if args.bets else "")
              + f" --session-hands {args.session_hands}", file=sys.stderr)  # fmt: skip
        if args.json:
            print(json.dumps({"error": str(e), "seed": e.seed, "hand": e.hand}, ensure_ascii=False))
        return 1
    finally:
        if close and out is not None:
            out.close()

    report = sys.stderr if args.journal == "-" else sys.stdout
    if args.json:
        data = summary.to_json()
        data["rules"] = Rules.from_overrides(overrides).overrides()
        data["session_hands"] = args.session_hands
        print(json.dumps(data, ensure_ascii=False), file=report)
    else:
        print(summary.text(), file=report)
    return 0
