"""``xian-table serve``: the headless table — the service and its journal, no screen.

With ``--stdin`` every line of standard input is one JSON command (an event of the docs/design.md
vocabulary, or ``{"type": "undo"}``, ``{"type": "undo", "to": n}``, ``{"type": "redo"}``,
``{"type": "state"}``) and gets exactly one JSON line on standard output:
``{"ok": true, "seq": n, "state": {...}}`` once the event is durable on disk, or
``{"ok": false, "error": "..."}``. A blank line or one starting with ``#`` changes nothing
and is answered ``{"ok": true, "skipped": "blank"}`` (or ``"comment"``): every line gets its
answer line, so a client that sends ahead and counts answers stays in step.
Without ``--stdin`` the service runs until SIGTERM or Ctrl-C; the other inputs (buttons,
panel, MQTT) attach to it. Kivy is never imported here.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from table_app.core.service import TableService

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
    p.add_argument("--new-code", action="store_true",
                   help="a new join code and display key for the phones (an old QR code or table link stops "
                        "working; the phones keep their seats)")


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
            table.attach_outputs(mqtt_url=args.mqtt, table_id=args.table, web_listen=args.web,
                                 new_code=args.new_code)
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
    ("phones", "join"): "phones join the table at {detail} (scan the table's QR code)",
    ("display", "link"): "the table page with the join code, on any screen at the table: {detail}",
    ("journal", "open"): "",
}


def _say_link(name: str, state: str, detail: str, verb: str = "serve") -> None:
    """What a part says about itself, on stderr (systemd's journal under the unit); the join
    link also as a QR code a phone can scan off the terminal."""
    text = _SAY.get((name, state), "{name}: {state}: {detail}").format(name=name, state=state, detail=detail)
    if text:
        print(f"xian-table {verb}: {text}", file=sys.stderr, flush=True)
    if (name, state) == ("phones", "join") and sys.stderr.isatty():
        from table_app.present.qr import qr_text

        print(qr_text(detail), end="", file=sys.stderr, flush=True)


def serve_lines(service: TableService, lines: TextIO, out: TextIO) -> int:
    """Exactly one JSON answer line per input line, each written and flushed after its
    durable commit (a blank or ``#`` line: ``{"ok": true, "skipped": ...}``, nothing changed).

    Lines are read with a bound (``bounded.MAX_COMMAND_BYTES``): a longer line is skipped
    to its end without being held in memory and answered with a short error, as is a line
    that is not UTF-8, not JSON, nested too deep, carrying a number too long, or a string
    with a control character or a lone surrogate. The answer is written by
    :func:`table_app.system.bounded.json_line`, which cannot fail on anything JSON can carry.
    """
    from table_app.system.bounded import MAX_COMMAND_BYTES, BoundedInputError, clip, json_line, parse_command

    for n, line in _bounded_lines(lines, MAX_COMMAND_BYTES):
        if line is None:
            answer: dict[str, object] = {"ok": False, "error": f"line {n}: longer than {MAX_COMMAND_BYTES:,} bytes; "
                                                            f"skipped"}
        elif not line.strip():
            answer = {"ok": True, "skipped": "blank"}
        elif line.lstrip().startswith(b"#"):
            answer = {"ok": True, "skipped": "comment"}
        else:
            try:
                command = parse_command(line.strip())
            except BoundedInputError as e:
                answer = {"ok": False, "error": f"line {n}: {e}"}
            else:
                answer = service.call(command, source="stdin").to_json()
                if not answer["ok"]:
                    answer["error"] = clip(str(answer["error"]))
        out.write(json_line(answer) + "\n")
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


def _banner(service: TableService, table_id: str, path: str) -> None:
    print(f"xian-table serve: table {table_id!r}, journal {path!r}, seq {service.seq}, "
          f"phase {service.public.get('phase')}; Ctrl-C to stop", file=sys.stderr, flush=True)


def _serve_forever(stop: threading.Event) -> int:
    try:
        while not stop.wait(3600):
            pass
    except KeyboardInterrupt:
        pass
    return 0
