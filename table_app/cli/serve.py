"""``xian-table serve``: the headless table — the service and its journal, no screen.

With ``--stdin`` every line of standard input is one JSON command (an event of the DESIGN
vocabulary, or ``{"type": "undo"}``, ``{"type": "undo", "to": n}``, ``{"type": "redo"}``,
``{"type": "state"}``) and gets exactly one JSON line on standard output:
``{"ok": true, "seq": n, "state": {...}}`` once the event is durable on disk, or
``{"ok": false, "error": "..."}``. Blank lines and lines starting with ``#`` are skipped.
Without ``--stdin`` the service runs until SIGTERM or Ctrl-C; the other inputs (buttons,
panel, MQTT) attach to it. Kivy is never imported here.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from typing import Any, TextIO

HELP = "run the table headless: the service and its journal (--stdin: JSON commands in, one JSON answer per line)"

EXIT_USAGE = 2
EXIT_JOURNAL = 4  # the journal cannot be used (damaged, foreign, locked): nothing was changed (compose.py)


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="the TOML config file (default: the user's, then /etc/xian-table/)")
    p.add_argument("--db", metavar="FILE", help="the SQLite journal (default: journal.path, or the user data dir)")
    p.add_argument("--stdin", action="store_true", help="read JSON commands from standard input, answer on stdout")
    p.add_argument("--mqtt", metavar="URL", help="the MQTT broker: mqtt://USER:PASS@HOST:PORT (default: mqtt.url)")
    p.add_argument("--table", metavar="ID", help="the table's id in MQTT topics (default: table.id)")
    p.add_argument("--web", metavar="[HOST]:PORT", help="serve the seat pages for phones here (default: web.listen)")
    p.add_argument("--panel", metavar="DEVICE", help="a serial button panel, e.g. /dev/serial/by-id/… (docs/panel.md)")
    p.add_argument("--gpio", action="store_true", help="buttons, dice button and seat LEDs on GPIO (docs/gpio.md)")


def run(args: argparse.Namespace) -> int:
    from table_app.compose import StartError, Table

    try:
        table = Table.open(config=args.config, db=args.db, verb="serve")
    except StartError as e:
        print(e, file=sys.stderr)
        return e.status
    stop = threading.Event()
    if not args.stdin:  # (before the banner: whoever reads it may stop us at once)
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with table:
        table.start()
        if not args.stdin:
            _banner(table.service, args.table or table.cfg.table_id, str(table.journal.path))
        table.add_link_listener(_say_link)
        try:
            table.attach_outputs(mqtt_url=args.mqtt, table_id=args.table, web_listen=args.web)
            table.attach_inputs(panel=args.panel, gpio=args.gpio)
        except (ValueError, OSError) as e:  # a bad URL or pin map, a busy port, no GPIO on this machine
            print(f"xian-table serve: {e}", file=sys.stderr)
            return EXIT_USAGE
        if args.stdin:
            return serve_lines(table.service, sys.stdin, sys.stdout)
        return _serve_forever(stop)


_SAY: dict[tuple[str, str], str] = {
    ("mqtt", "off"): "{detail}",
    ("mqtt", "online"): "MQTT to {detail}",
    ("web", "listening"): "seat pages for phones at {detail}",
    ("web", "off"): "",
    ("journal", "open"): "",
}


def _say_link(name: str, state: str, detail: str) -> None:
    """What a part says about itself, on stderr (systemd's journal under the unit)."""
    text = _SAY.get((name, state), "{name}: {state}: {detail}").format(name=name, state=state, detail=detail)
    if text:
        print(f"xian-table serve: {text}", file=sys.stderr, flush=True)


def serve_lines(service: Any, lines: TextIO, out: TextIO) -> int:
    """One JSON answer per command line, each written and flushed after its durable commit."""
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            command = json.loads(line)
        except json.JSONDecodeError as e:
            error = f"line {n}: not JSON ({e.msg} at column {e.colno}): {line!r}"
            answer: dict[str, Any] = {"ok": False, "error": error}
        else:
            answer = service.call(command, source="stdin").to_json()
        out.write(json.dumps(answer, ensure_ascii=False, separators=(",", ":")) + "\n")
        out.flush()
    return 0


def _banner(service: Any, table_id: str, path: str) -> None:
    print(f"xian-table serve: table {table_id!r}, journal {path!r}, seq {service.seq}, "
          f"phase {service.public.get('phase')}; Ctrl-C to stop", file=sys.stderr, flush=True)


def _serve_forever(stop: threading.Event) -> int:
    try:
        while not stop.wait(3600):
            pass
    except KeyboardInterrupt:
        pass
    return 0
