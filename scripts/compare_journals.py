#!/usr/bin/env python3
"""Seeded self-play in two source trees, journals compared byte for byte.

An engine change that should not change what the table does (issue 19: the engine made
readable again) must leave the journal of every seeded run identical. This runs
``xian-table simulate`` with the same seeds, bots and rule options in a BEFORE and an AFTER
tree, each with its own interpreter, and compares the journals' SHA-256 and the summaries
(the seconds and hands/s left out).

    scripts/compare_journals.py --before /tmp/main-snap --before-python /work/main/.venv/bin/python \\
        --after . --after-python .venv/bin/python

Exit status 0 when every run matches, 1 otherwise (the first differing journal line shown).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

SEEDS = (0, 1, 7, 42, 2026)
BOTS = ("random", "greedy", "greedy,random,random,greedy")
RULE_SETS: tuple[tuple[str, ...], ...] = (
    (),  # the xian preset
    ("seven_pairs=true", "wait_bonus=only_wait", "edge_wait_bonus=true"),
    ("wall_direction=clockwise", "added_kong=false", "kong_paid_on_draw=false", "kong_reserve=[0,1,2,3]"),
    ("discard_win_payers=all", "exposed_kong_payers=discarder", "multipliers_on_bets=true", "bet_unit=2"),
)
HANDS = {"random": 400, "greedy": 150}
SOAK = tuple(  # tests/engine/test_simulate.py::test_soak_100_000_hands, run for run
    ["--hands", str(100_000 // 3 + (1 if i < 100_000 % 3 else 0)), "--seed", str(1000 + i), "--bots", bots,
     "--session-hands", "100", *(["--bets"] if i == 2 else [])]
    for i, bots in enumerate(("random", "greedy", "greedy,random,greedy,random"))
)
_VOLATILE = ("seconds", "hands_per_second")


def runs() -> list[list[str]]:
    out = []
    for seed in SEEDS:
        for bots in BOTS:
            for i, rules in enumerate(RULE_SETS):
                hands = HANDS["random"] if bots == "random" else HANDS["greedy"]
                args = ["--hands", str(hands), "--seed", str(seed), "--bots", bots]
                if rules:
                    args += ["--rules", *rules]
                if i >= 2:  # bets and sessions with the last two rule sets
                    args += ["--bets", "--session-hands", "37"]
                out.append(args)
    return out


def run(tree: Path, python: str, args: list[str], journal: Path) -> tuple[str, dict[str, object]]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [python, "-c", "import sys; from table_app.cli import main; sys.exit(main(sys.argv[1:]))",
           "simulate", *args, "--json", "--journal", str(journal)]
    p = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if p.returncode != 0:
        raise SystemExit(f"{tree}: {' '.join(args)} failed ({p.returncode}): {p.stderr.strip()[-2000:]}")
    summary = json.loads(p.stdout)
    for key in _VOLATILE:
        summary.pop(key, None)
    return hashlib.sha256(journal.read_bytes()).hexdigest(), summary


def first_difference(a: Path, b: Path) -> str:
    with a.open() as fa, b.open() as fb:
        for n, (la, lb) in enumerate(zip(fa, fb, strict=False), 1):
            if la != lb:
                return f"line {n}:\n  before {la.strip()}\n  after  {lb.strip()}"
    return "one journal is a prefix of the other"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, required=True)
    ap.add_argument("--before-python", required=True)
    ap.add_argument("--after", type=Path, required=True)
    ap.add_argument("--after-python", required=True)
    ap.add_argument("--quick", action="store_true", help="the first seed only")
    ap.add_argument("--soak", action="store_true", help="the soak test's 100,000 hands instead (a few minutes a tree)")
    a = ap.parse_args()
    pythons = (a.before_python, a.after_python)
    a.before_python, a.after_python = (os.path.abspath(p) if os.sep in p else p for p in pythons)  # (run in the trees)
    todo = list(SOAK) if a.soak else runs()
    if a.quick:
        todo = [r for r in todo if r[3] == str(SEEDS[0])]
    same = 0
    events = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, args in enumerate(todo):
            jb, ja = Path(tmp, f"{i}.before.jsonl"), Path(tmp, f"{i}.after.jsonl")
            hb, sb = run(a.before.resolve(), a.before_python, args, jb)
            ha, sa = run(a.after.resolve(), a.after_python, args, ja)
            line = " ".join(args)
            if hb == ha and sb == sa:
                same += 1
                with ja.open("rb") as f:
                    events += sum(1 for _ in f)
                print(f"same  {ha[:16]}  {line}", flush=True)
            else:
                print(f"DIFF  {hb[:16]} / {ha[:16]}  {line}", flush=True)
                if hb != ha:
                    print(first_difference(jb, ja))
                if sb != sa:
                    print(f"  summaries: before {sb}\n             after  {sa}")
            jb.unlink()
            ja.unlink()
    print(f"{same} of {len(todo)} runs identical ({events:,} journal lines compared)")
    return 0 if same == len(todo) else 1


if __name__ == "__main__":
    sys.exit(main())
