"""``xian-table bench``: run the shipped benchmarks and print the medians."""

from __future__ import annotations

import argparse
import json
import platform
import sys

from table_app import bench

HELP = "run the shipped benchmarks (median of several runs) and compare with the targets"


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--runs", type=int, default=5, help="runs per benchmark; the median is reported (default 5)")
    p.add_argument("--only", nargs="+", choices=(*bench.SUITES, *bench.EXPLICIT), metavar="SUITE",
                   help=f"run only these suites ({', '.join(bench.SUITES)}; and, only when named, "
                        f"{', '.join(bench.EXPLICIT)})")


def run(args: argparse.Namespace) -> int:
    if args.runs < 1:
        print("xian-table bench: --runs must be at least 1", file=sys.stderr)
        return 2
    chosen = args.only or list(bench.SUITES)
    results = []

    def progress(msg: str) -> None:
        if not args.json:
            print(f"  … {msg}", file=sys.stderr, flush=True)

    for name in chosen:
        suite = bench.load(name)
        if not args.json:
            print(f"[{name}] {suite.DESCRIPTION}", file=sys.stderr)  # type: ignore[attr-defined]
        results.extend(suite.run(args.runs, progress))  # type: ignore[attr-defined]
    if args.json:
        print(json.dumps({
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "machine": platform.machine(),
            "runs": args.runs,
            "results": [r.to_json() for r in results],
        }, ensure_ascii=False))
        return 0
    print(f"Python {platform.python_version()} on {platform.machine()}, median of {args.runs} runs")
    for r in results:
        target = ""
        if r.target is not None:
            target = f"target ≥ {r.target:,.0f}"
        elif r.target_max is not None:
            target = f"target ≤ {r.target_max:,.3g}"
        verdict = {True: "ok", False: "BELOW TARGET" if r.target is not None else "ABOVE TARGET", None: ""}[
            r.meets_target]
        value = f"{r.value:>14,.2f}" if abs(r.value) < 100 else f"{r.value:>14,.0f}"
        print(f"  {r.suite:<6} {r.name:<36} {value} {r.unit:<9} {target:<20} {verdict}")
        if r.note:
            print(f"         ({r.note})")
    return 0
