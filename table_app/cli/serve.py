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
import logging
import signal
import sys
import threading
from typing import Any, TextIO

HELP = "run the table headless: the service and its journal (--stdin: JSON commands in, one JSON answer per line)"

EXIT_JOURNAL = 4  # the journal cannot be used (damaged, foreign, locked): nothing was changed


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="the TOML config file (default: the user's, then /etc/xian-table/)")
    p.add_argument("--db", metavar="FILE", help="the SQLite journal (default: journal.path, or the user data dir)")
    p.add_argument("--stdin", action="store_true", help="read JSON commands from standard input, answer on stdout")
    p.add_argument("--mqtt", metavar="URL", help="the MQTT broker: mqtt://USER:PASS@HOST:PORT (default: mqtt.url)")
    p.add_argument("--table", metavar="ID", help="the table's id in MQTT topics (default: table.id)")
    p.add_argument("--web", metavar="[HOST]:PORT", help="serve the seat pages for phones here (default: web.listen)")
    p.add_argument("--panel", metavar="DEVICE", help="a serial button panel, e.g. /dev/serial/by-id/… (docs/panel.md)")
    p.add_argument("--gpio", action="store_true", help="buttons, dice button and seat LEDs on GPIO (docs/gpio.md)")


def open_service(args: argparse.Namespace, verb: str) -> Any:
    """Config, journal and service for a verb; prints the reason and returns an exit status on failure."""
    from table_app.config import ConfigError, load_config
    from table_app.journal import Journal, JournalError
    from table_app.service import TableService

    try:
        cfg = load_config(args.config)
    except ConfigError as e:
        print(f"xian-table {verb}: {e}", file=sys.stderr)
        return 2
    logging.basicConfig(level=cfg.log_level.upper(), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    path = args.db or cfg.journal_file()
    try:
        journal = Journal.open(path)
    except JournalError as e:
        print(f"xian-table {verb}: {e}", file=sys.stderr)
        return EXIT_JOURNAL
    try:
        service = TableService(journal, claim_window_s=cfg.claim_window_s)
    except Exception as e:
        journal.close()
        print(f"xian-table {verb}: cannot restore the table from {str(path)!r}: {e}", file=sys.stderr)
        return EXIT_JOURNAL
    return cfg, journal, service


def run(args: argparse.Namespace) -> int:
    opened = open_service(args, "serve")
    if isinstance(opened, int):
        return opened
    cfg, journal, service = opened
    service.start()
    import io

    from table_app.mqtt.outputs import attach

    notes = io.StringIO()  # what the outputs say, shown after the banner
    try:
        stop_outputs = attach(service, cfg, mqtt_url=args.mqtt, table=args.table, web_listen=args.web, out=notes)
    except (ValueError, OSError) as e:
        service.stop()
        journal.close()
        print(f"xian-table serve: {e}", file=sys.stderr)
        return 2
    stop_inputs = _no_inputs
    try:
        panel = args.panel or cfg.panel_device or None
        gpio = args.gpio or cfg.gpio_enabled
        if panel or gpio:  # imported only when asked for: start-up stays quick
            from hardware.attach import attach_inputs
            from table_app.config import gpio_pin_map

            stop_inputs = attach_inputs(service, panel=panel, gpio=gpio, pins=gpio_pin_map(cfg), out=notes)
    except ValueError as e:  # a bad pin map, no GPIO on this machine
        stop_outputs()
        service.stop()
        journal.close()
        print(f"xian-table serve: {e}", file=sys.stderr)
        return 2
    try:
        if args.stdin:
            print(notes.getvalue(), end="", file=sys.stderr, flush=True)
            return serve_lines(service, sys.stdin, sys.stdout)
        return _serve_forever(service, args.table or cfg.table_id, str(journal.path), notes.getvalue())
    finally:
        stop_inputs()
        stop_outputs()
        service.stop()
        journal.close()


def _no_inputs() -> None:
    """Nothing to detach: no buttons and no panel were asked for."""


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


def _serve_forever(service: Any, table_id: str, path: str, notes: str = "") -> int:
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    print(f"xian-table serve: table {table_id!r}, journal {path!r}, seq {service.seq}, "
          f"phase {service.public.get('phase')}; Ctrl-C to stop", file=sys.stderr, flush=True)
    print(notes, end="", file=sys.stderr, flush=True)
    try:
        while not stop.wait(3600):
            pass
    except KeyboardInterrupt:
        pass
    return 0
