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
from table_app.present.words import WIND_ZH, en_zh, tr, zh_en

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
            print(f"xian-table play: event {index} (line {lineno}) {en_zh('cli_rejected')}: {e}", file=err)
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
    """The public state for people, in Chinese and English (the words: ``table_app.present``)."""
    print(f"{zh_en('cli_phase')}: {zh_en('phase_' + st['phase'])}", file=out)
    if st["phase"] == "idle":
        return
    print(f"{zh_en('cli_round', n=st['round'])}, {zh_en('cli_hand', n=st['hand'])}, "
          f"{zh_en('cli_streak')} {st['dealer_streak']}", file=out)
    seat_word = zh_en("cli_seat")
    for seat in range(4):
        wind = st["winds"][seat]
        mark = f" {zh_en('cli_dealer')}" if seat == st["dealer"] else ""
        turn = f"  ← {zh_en('cli_to_play')}" if seat == st["turn"] else ""
        w = f"{WIND_ZH[wind]}{wind}" if wind else "--"
        bet = f"  {zh_en('bet')} {st['bets'][seat]}" if st["bets"][seat] else ""
        print(f"  {seat_word} {seat} {w} {st['players'][seat]:<10} {zh_en('score')} {st['scores'][seat]:>5}"
              f"{bet}{mark}{turn}", file=out)
    if st["break"]:
        b = st["break"]
        print(f"{zh_en('cli_break')}: {seat_word} {b['owner']} {zh_en('cli_count')} {b['count']}, "
              f"{zh_en('cli_tail')} = {seat_word} {b['wall']} {zh_en('cli_stack_n', n=b['stack'])}", file=out)
        wall = st["wall"]
        print(f"{zh_en('cli_wall')}: {zh_en('cli_remaining', n=wall['remaining'])}, "
              f"{zh_en('cli_head')} {wall['head_taken']}, {zh_en('cli_tail')} {wall['tail_taken']}, "
              f"{zh_en('cli_kongs')} {wall['kongs']}, {zh_en('cli_reserved', n=wall['reserve_stacks'])}, "
              f"{zh_en('cli_drawable')} {wall['drawable']}", file=out)
    c = st["claims"]
    if c is not None:
        tile = f" {c['tile']}" if c["tile"] else ""
        print(zh_en("cli_waiting", seats=c["waiting"], frm=c["from"], tile=tile), file=out)
    p = st["pending_win"]
    if p is not None:
        frm = f" {tr('cli_from_seat', 'en', seat=p['from'])}" if p["from"] is not None else ""
        print(f"{zh_en('cli_to_confirm')}: {seat_word} {p['seat']} {zh_en('cli_declares')} — "
              f"{zh_en('kind_' + p['kind'])}{frm}", file=out)
    if st["next_dealer"] is not None:
        print(f"{zh_en('cli_next_dealer')}: {seat_word} {st['next_dealer']}", file=out)
    last = st["last_settlement"]
    if last:
        if last["result"] == "draw":
            print(f"{zh_en('cli_last_hand')}: {zh_en('cli_drawn')}", file=out)
        else:
            print(f"{zh_en('cli_last_hand')}: {seat_word} {last['winner']} {zh_en('cli_wins')} — "
                  f"{zh_en('kind_' + str(last['kind']))}, {zh_en('wait_' + str(last['wait']))}", file=out)
        print(f"  {zh_en('cli_deltas')}: {last['deltas']}", file=out)


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
