"""``xian-table import``: an export read back, every line checked, as the events to journal.

:func:`events` reads an export (``xian-table export --format mjai``) line by line and yields
each event with its time, once the engine has taken it — ``parse_event``, then the checks a
new event passes and the handlers (``check_new_event``, ``push``), as the service applies a
command — and once the mjai records the file gives after it are exactly the ones the event
makes (:class:`~table_app.exchange.mjai.MjaiSession`). The first problem raises
:class:`BadExport` naming the line; nothing is read past it.

Bounded: a line is at most :data:`MAX_LINE_BYTES` bytes (parsed by
:func:`table_app.system.bounded.parse_command`: depth, numbers, no control character in any
string), a file at most :data:`MAX_LINES` lines; the file must begin with the header and end
with the footer, whose counts must match (a file cut short is refused, not taken for a
shorter evening).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from datetime import datetime
from typing import BinaryIO, Final

from engine.errors import RuleError
from table_app.exchange.mjai import FORMAT, VERSION, MjaiSession, Record
from table_app.system.bounded import BoundedInputError, clip, json_line, parse_command

__all__ = ["MAX_LINES", "MAX_LINE_BYTES", "BadExport", "events"]

MAX_LINE_BYTES: Final = 65_536
"""A record is a few hundred bytes; the largest (``start_kyoku``, a ``new_session`` with rules) under 2 KiB."""
MAX_LINES: Final = 5_000_000
"""About 15,000 hands: more than a table plays in years; a bigger journal is exported session by session."""
MAX_AT_CHARS: Final = 40


class BadExport(ValueError):
    """The file is not an export this version reads; the message names the line."""

    def __init__(self, line: int, what: str) -> None:
        super().__init__(f"line {line}: {what}")
        self.line = line


def _lines(f: BinaryIO) -> Iterator[tuple[int, Record]]:
    n = 0
    while True:
        raw = f.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        n += 1
        if n > MAX_LINES:
            raise BadExport(n, f"more than {MAX_LINES:,} lines: export fewer sessions (--session N)")
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            raise BadExport(n, f"longer than {MAX_LINE_BYTES:,} bytes")
        try:
            value = parse_command(raw, max_bytes=MAX_LINE_BYTES + 2)
        except BoundedInputError as e:
            raise BadExport(n, str(e)) from None
        if not isinstance(value, dict) or not isinstance(value.get("type"), str):
            raise BadExport(n, f"a record is a JSON object with a 'type', got {clip(json_line(value), 80)}")
        yield n, value


def _at(n: int, record: Record) -> str | None:
    at = record.get("xian_at")
    if at is None:
        return None
    if not isinstance(at, str) or len(at) > MAX_AT_CHARS:
        raise BadExport(n, f"'xian_at' must be a time like '2026-12-03T20:15:00.000+00:00', got {clip(repr(at), 80)}")
    try:
        datetime.fromisoformat(at)
    except ValueError:
        raise BadExport(n, f"'xian_at' must be a time like '2026-12-03T20:15:00.000+00:00', got {at!r}") from None
    return at


def _header(n: int, record: Record) -> None:
    if n != 1 or record.get("type") != "xian_header" or record.get("format") != FORMAT:
        raise BadExport(n, f"not a xian-table export: its first line must be the header "
                           f"{{'type': 'xian_header', 'format': {FORMAT!r}, …}}")
    if record.get("version") != VERSION:
        raise BadExport(n, f"an export of version {clip(repr(record.get('version')), 40)}: this xian-table reads "
                           f"version {VERSION}")


def _differs(n: int, want: Record, got: Record) -> BadExport:
    return BadExport(n, f"the events give {clip(json_line(want), 160)} here, the file has {clip(json_line(got), 160)}")


def events(f: BinaryIO) -> Iterator[tuple[str | None, dict[str, object]]]:
    """Each ``(at, event)`` of the export in ``f`` once it is checked (``at`` None: the file gave no
    time); :class:`BadExport` at the first problem."""
    expected: deque[Record] = deque()
    session: MjaiSession | None = None
    counts = {"records": 1, "events": 0}
    n = 0
    for n, record in _lines(f):
        if n == 1:
            _header(n, record)
            continue
        if record["type"] == "xian_footer":
            if expected:
                raise _differs(n, expected[0], record)
            _footer(n, record, counts, f)
            return
        counts["records"] += 1
        if "xian" not in record:
            if not expected:
                raise BadExport(n, f"a record no event made: {clip(json_line(record), 160)} (an event's record "
                                   f"carries it in 'xian')")
            want = expected.popleft()
            if want != record:
                raise _differs(n, want, record)
            continue
        if expected:
            raise _differs(n, expected[0], record)
        data = record["xian"]
        if not isinstance(data, dict):
            raise BadExport(n, f"'xian' must be a xian-table event (a JSON object), got {clip(json_line(data), 80)}")
        at = _at(n, record)
        if data.get("type") == "new_session":
            number = record.get("xian_session")
            session = MjaiSession(number if type(number) is int else None)
        elif session is None:
            raise BadExport(n, "the first event must be a new_session (start_game)")
        try:
            made = session.feed(data, at)
        except RuleError as e:
            raise BadExport(n, f"the table refuses this event: {e}") from None
        if made[0] != record:
            raise _differs(n, made[0], record)
        expected.extend(made[1:])
        counts["events"] += 1
        yield at, data
    if n == 0:
        raise BadExport(1, "the file is empty")
    raise BadExport(n, "the file ends before its footer (xian_footer): cut short?")


def _footer(n: int, record: Record, counts: dict[str, int], f: BinaryIO) -> None:
    for key in ("records", "events"):
        if record.get(key) != counts[key] + (key == "records"):
            raise BadExport(n, f"the footer counts {clip(repr(record.get(key)), 20)} {key}, the file holds "
                               f"{counts[key] + (key == 'records')}")
    if counts["events"] == 0:
        raise BadExport(n, "the export holds no session")
    if f.readline(1):
        raise BadExport(n + 1, "a line after the footer")
