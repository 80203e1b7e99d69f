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
from collections.abc import Iterator
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
    """One JSON answer per command line, each written and flushed after its durable commit.

    Lines are read with a bound (``bounded.MAX_COMMAND_BYTES``): a longer line is skipped
    to its end without being held in memory and answered with a short error, as is a line
    that is not UTF-8, not JSON, nested too deep or carrying a number too long.
    """
    from table_app.bounded import MAX_COMMAND_BYTES, BoundedInputError, clip, parse_command

    for n, line in _bounded_lines(lines, MAX_COMMAND_BYTES):
        if line is None:
            answer: dict[str, Any] = {"ok": False, "error": f"line {n}: longer than {MAX_COMMAND_BYTES:,} bytes; "
                                                            f"skipped"}
        elif not line.strip() or line.lstrip().startswith(b"#"):
            continue
        else:
            try:
                command = parse_command(line.strip())
            except BoundedInputError as e:
                answer = {"ok": False, "error": f"line {n}: {e}"}
            else:
                answer = service.call(command, source="stdin").to_json()
                if not answer["ok"]:
                    answer["error"] = clip(str(answer["error"]))
        out.write(json.dumps(answer, ensure_ascii=False, separators=(",", ":")) + "\n")
        out.flush()
    return 0


def _bounded_lines(lines: Any, limit: int) -> Iterator[tuple[int, bytes | None]]:
    """``(number, bytes)`` per line, or ``(number, None)`` for a line over ``limit`` bytes.

    Reads the binary stream under a text one (stdin) so that a line that is not UTF-8 is
    answered rather than raising in the decoder; a text-only stream (tests) is encoded.
    """
    binary = getattr(lines, "buffer", None)
    n = 0
    while True:
        chunk = binary.readline(limit + 1) if binary is not None else lines.readline(limit + 1)
        if not chunk:
            return
        n += 1
        data = chunk if isinstance(chunk, bytes) else chunk.encode("utf-8", "surrogateescape")
        ended = data.endswith(b"\n")
        if len(data.rstrip(b"\r\n")) <= limit:
            yield n, data
            continue
        while not ended:  # drop the rest of the long line, a bounded piece at a time
            rest = binary.readline(limit) if binary is not None else lines.readline(limit)
            if not rest:
                break
            ended = rest.endswith(b"\n" if isinstance(rest, bytes) else "\n")
        yield n, None


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
