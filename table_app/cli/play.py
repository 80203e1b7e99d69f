"""``xian-table play``: apply a JSONL event file to a fresh table and show the table.

One event per line (docs/design.md "Events"), or a press (docs/design.md "Presses":
``{"type": "press", "seat": 1, "button": "TURN"}``, a DICE press with its ``dice``), which
becomes the events the engine's one button mapping makes of it (a held TURN undoes the
last event); blank lines and lines starting with ``#`` are skipped. A rejected line stops
the run with exit status 3 and prints ``{"error", "index", "event", "state"}`` — ``index``
counts lines from 0 and ``state`` is the public state before that line. A line that is
not JSON stops it with status 2. ``--events FILE`` writes the events the table took, one
JSON object per line (what the journal of a live table holds).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from engine.public import PublicState, public_state
from table_app.present.words import WIND_ZH, pair

HELP = "apply a JSONL file of table events (- for stdin) and print the table's public state"

def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="a JSONL file of events, or - for stdin")
    p.add_argument("--json", action="store_true", help="print the public state as one JSON object")
    p.add_argument("--events", metavar="FILE", help="write the events the table took (presses as their events), "
                                                    "one JSON object per line (- for stdout)")


def _events(lines: Iterable[str]) -> Iterable[tuple[int, str]]:
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if line and not line.startswith("#"):
            yield n, line


def play(lines: Iterable[str], out: TextIO, err: TextIO, as_json: bool, events: TextIO | None = None) -> int:
    from engine.errors import IllegalEventError, RuleError
    from engine.events import parse_event
    from engine.presses import Undo, apply_press, parse_press
    from engine.table import new_table, push, replay

    state = new_table()
    taken: list[dict[str, Any]] = []  # the events in effect, as a journal would hold them
    for index, (lineno, line) in enumerate(_events(lines)):
        try:
            obj: Any = json.loads(line)
        except json.JSONDecodeError as e:
            msg = f"line {lineno} is not JSON: {e.msg} (column {e.colno}) in {line!r}"
            report = {"error": msg, "index": index, "line": lineno, "event": line, "state": public_state(state)}
            print(json.dumps(report, ensure_ascii=False), file=out)
            print(f"xian-table play: {msg}", file=err)
            return 2
        try:
            if isinstance(obj, dict) and obj.get("type") == "press":
                pressed = apply_press(state, parse_press(obj))  # a DICE press in a file carries its dice
                if isinstance(pressed, Undo):
                    if not taken:
                        raise IllegalEventError(f"{state.phase}: nothing to undo")
                    taken.pop()
                    state = replay(taken)
                else:  # (applied in one step, as the table applies it)
                    state = pressed.state
                    taken.extend(step.event.to_json() for step in pressed.steps)
            else:
                ev = parse_event(obj)
                push(state, ev)  # a refused event leaves the state as it was, for the report
                taken.append(ev.to_json())
        except RuleError as e:
            report = {"error": str(e), "index": index, "line": lineno, "event": obj, "state": public_state(state)}
            print(json.dumps(report, ensure_ascii=False), file=out)
            print(f"xian-table play: event {index} (line {lineno}) rejected 被拒绝: {e}", file=err)
            _write(events, taken)  # what was taken up to the refusal
            return 3
    _write(events, taken)
    public = public_state(state)
    if as_json:
        print(json.dumps(public, ensure_ascii=False), file=out)
    else:
        render(public, out)
    return 0


def _write(events: TextIO | None, taken: list[dict[str, Any]]) -> None:
    if events is not None:
        for ev_json in taken:
            events.write(json.dumps(ev_json, ensure_ascii=False, separators=(",", ":")) + "\n")
        events.flush()


def render(st: PublicState, out: TextIO) -> None:
    """The public state for people, in Chinese and English."""
    zh, en = pair(f"phase_{st['phase']}")
    print(f"阶段 phase: {zh} {en}", file=out)
    if st["phase"] == "idle":
        return
    print(
        f"第 {st['round']} 圈 round {st['round']}, 第 {st['hand']} 局 hand {st['hand']}, "
        f"连庄 dealer streak {st['dealer_streak']}",
        file=out,
    )
    for seat in range(4):
        wind = st["winds"][seat]
        mark = " 庄 dealer" if seat == st["dealer"] else ""
        turn = "  ← 出牌 to play" if seat == st["turn"] else ""
        w = f"{WIND_ZH[wind]}{wind}" if wind else "--"
        bet = f"  注 bet {st['bets'][seat]}" if st["bets"][seat] else ""
        print(
            f"  座位 seat {seat} {w} {st['players'][seat]:<10} 分 score {st['scores'][seat]:>5}{bet}{mark}{turn}",
            file=out,
        )
    if st["break"]:
        b = st["break"]
        print(
            f"起牌点 break: 座位 seat {b['owner']} 掷数 count {b['count']}, 牌尾 tail = 座位 seat {b['wall']} "
            f"第 {b['stack']} 墩 stack {b['stack']}",
            file=out,
        )
        wall = st["wall"]
        print(
            f"牌墙 wall: 剩 {wall['remaining']} remaining, 牌头 head {wall['head_taken']}, "
            f"牌尾 tail {wall['tail_taken']}, 杠 kongs {wall['kongs']}, "
            f"留 {wall['reserve_stacks']} 墩 stacks reserved, 可摸 drawable {wall['drawable']}",
            file=out,
        )
    c = st["claims"]
    if c is not None:
        tile = f" {c['tile']}" if c["tile"] else ""
        print(f"等待 waiting on seats {c['waiting']} for claims on seat {c['from']}'s{tile}", file=out)
    p = st["pending_win"]
    if p is not None:
        kz, ke = pair(f"kind_{p['kind']}")
        frm = f" from seat {p['from']}" if p["from"] is not None else ""
        print(f"待确认 to confirm: 座位 seat {p['seat']} 和牌 declares a win — {kz} {ke}{frm}", file=out)
    if st["next_dealer"] is not None:
        print(f"下局庄家 next dealer: 座位 seat {st['next_dealer']}", file=out)
    last = st["last_settlement"]
    if last:
        if last["result"] == "draw":
            print("上局 last hand: 荒牌 drawn (exhaustive draw)", file=out)
        else:
            kz, ke = pair(f"kind_{last['kind']}")
            wz, we = pair(f"wait_{last['wait']}")
            print(f"上局 last hand: 座位 seat {last['winner']} 和 wins — {kz} {ke}, {wz} {we}", file=out)
        print(f"  得失 deltas: {last['deltas']}", file=out)


def run(args: argparse.Namespace) -> int:
    events: TextIO | None = None
    try:
        if args.events == "-":
            events = sys.stdout
        elif args.events:
            events = open(args.events, "w", encoding="utf-8")  # noqa: SIM115  (closed below)
        if args.file == "-":
            return play(sys.stdin, sys.stdout, sys.stderr, args.json, events)
        with open(args.file, encoding="utf-8") as f:
            return play(f, sys.stdout, sys.stderr, args.json, events)
    except OSError as e:
        print(f"xian-table play: cannot read or write {e.filename!r}: {e.strerror}", file=sys.stderr)
        return 2
    finally:
        if events is not None and events is not sys.stdout:
            events.close()
