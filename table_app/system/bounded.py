"""Bounded reading of the JSON commands that come from outside the table (stdin, MQTT ``cmd``).

What arrives over a pipe or from a broker is limited *before* it is parsed, so that no
message can take the memory, the recursion or the CPU the table needs:

- its size (:data:`MAX_COMMAND_BYTES`; a command is a few hundred bytes);
- its nesting depth (:data:`MAX_DEPTH`): json's C decoder recurses once per ``[``/``{`` and
  raises ``RecursionError`` a few thousand levels down, which killed paho's thread and
  ``serve --stdin``; the depth is counted by a scan over the text before json sees it;
- the digits of its numbers (:data:`MAX_NUMBER_CHARS`), checked as json hands each number
  over (``parse_int``/``parse_float``), so the answer does not depend on
  ``sys.set_int_max_str_digits`` and no 5,000-digit integer ever reaches the engine;
- ``NaN`` and ``Infinity``, which are not JSON, are refused;
- no string, key or value at any depth, may hold a control character (C0 with NUL, ESC and
  line breaks, DEL, C1) or a lone surrogate (``"\\ud800"`` is valid JSON, but cannot be written
  as UTF-8: not to the journal, not in an answer): :func:`engine.fields.unsafe_char`, refused
  as :class:`UnsafeTextError`. What reaches a screen (a name) is held to the engine's stricter
  rule as well (every character printable: :func:`engine.fields.check_text`).

Errors are :class:`BoundedInputError` (a ``ValueError``) with a short message that quotes
at most :data:`EXCERPT` characters of the input, never the whole of it.

>>> parse_command(b'{"type": "pass", "seat": 2}')
{'type': 'pass', 'seat': 2}
>>> parse_command("[" * 100 + "]" * 100)
Traceback (most recent call last):
...
table_app.system.bounded.BoundedInputError: nested more than 32 levels deep
>>> parse_command('{"base": ' + "9" * 5000 + "}")
Traceback (most recent call last):
...
table_app.system.bounded.BoundedInputError: a number of 5,000 digits (at most 20): '99999999999999999999…'
>>> parse_command(r'{"type": "name", "seat": 0, "name": "\\u001b[2J"}')
Traceback (most recent call last):
...
table_app.system.bounded.UnsafeTextError: a control character (U+001B) in name: refused
>>> clip("x" * 500, 10)
'xxxxxxxxxx… (500 characters)'
"""

from __future__ import annotations

import json
import re
from typing import Any

from engine.fields import unsafe_char

MAX_COMMAND_BYTES = 16_384  # one command; the largest real one (new_session with rules) is under 1 KiB
MAX_DEPTH = 32  # the deepest real command is 3 levels (new_session → rules → kong_reserve)
MAX_NUMBER_CHARS = 20  # a 64-bit wall_seed has 20 digits; base, bets and seats far fewer
EXCERPT = 80  # how much of a bad input an error quotes
MAX_ERROR_CHARS = 400  # answers quote the refused event; never more than this of it

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # a JSON string, escapes and all
_BRACKET = re.compile(r"[\[\]{}]")
_RAW = re.compile("[\x7f-\x9f\ud800-\udfff]")  # what json.dumps(ensure_ascii=False) leaves raw


class BoundedInputError(ValueError):
    """The input was too big, too deep, not UTF-8 or not JSON; the message is short."""


class UnsafeTextError(BoundedInputError):
    """A string of the input holds a control character or a lone surrogate."""


def check_strings(value: object, where: str = "") -> None:
    """Raise :class:`UnsafeTextError` if any string in ``value`` (keys too, at any depth) holds
    a control character or a lone surrogate; the message names the character and where it is."""
    if isinstance(value, str):
        c = unsafe_char(value)
        if c is not None:
            what = "a lone surrogate" if "\ud800" <= c <= "\udfff" else "a control character"
            raise UnsafeTextError(f"{what} (U+{ord(c):04X}) in {where or 'the command'}: refused")
    elif isinstance(value, dict):
        for k, v in value.items():
            check_strings(k, f"{where}.{excerpt(k, 20)} (a key)".lstrip("."))
            check_strings(v, f"{where}.{k}".lstrip("."))  # (k is safe: checked just above)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            check_strings(v, f"{where}[{i}]")


def excerpt(text: str | bytes, limit: int = EXCERPT) -> str:
    """The start of ``text`` for an error message: at most ``limit`` characters, then '…'."""
    if isinstance(text, bytes):
        text = text[: limit * 4].decode("utf-8", "replace")
    return repr(text[:limit] + "…" if len(text) > limit else text)


def clip(text: str, limit: int = MAX_ERROR_CHARS) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def depth(text: str) -> int:
    """How deep ``[`` and ``{`` nest outside JSON strings (a bracket inside a string does not count).

    >>> depth('{"a": [1, {"b": "[[[["}]}')
    3
    """
    deepest = level = 0
    for m in _BRACKET.finditer(_STRING.sub('""', text)):
        if m.group() in "[{":
            level += 1
            deepest = max(deepest, level)
        else:
            level -= 1
    return deepest


def _number(kind: type) -> Any:
    def parse(text: str) -> Any:
        digits = len(text.lstrip("-"))
        if digits > MAX_NUMBER_CHARS:
            raise BoundedInputError(f"a number of {digits:,} {'digits' if kind is int else 'characters'} "
                                    f"(at most {MAX_NUMBER_CHARS}): {excerpt(text, MAX_NUMBER_CHARS)}")
        return kind(text)

    return parse


def _constant(name: str) -> Any:
    raise BoundedInputError(f"{name} is not a JSON number")


_PARSE_INT = _number(int)
_PARSE_FLOAT = _number(float)


def parse_command(data: str | bytes, *, max_bytes: int = MAX_COMMAND_BYTES, max_depth: int = MAX_DEPTH,
                  strings: bool = True) -> Any:
    """The JSON value in ``data`` (bytes must be UTF-8), or :class:`BoundedInputError`.

    ``strings``: also :func:`check_strings` (else the caller does, once it took out what its
    refusal must echo, such as MQTT's ``transaction``)."""
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise BoundedInputError(f"a command is at most {max_bytes:,} bytes; this one has {size:,}")
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BoundedInputError(f"not UTF-8 text (byte {e.start + 1}): {excerpt(data)}") from None
    else:
        text = data
    if depth(text) > max_depth:
        raise BoundedInputError(f"nested more than {max_depth} levels deep")
    try:
        value = json.loads(text, parse_int=_PARSE_INT, parse_float=_PARSE_FLOAT, parse_constant=_constant)
    except json.JSONDecodeError as e:
        start = max(0, e.pos - EXCERPT // 2)
        raise BoundedInputError(f"not JSON ({e.msg} at column {e.colno}): "
                                f"{'…' if start else ''}{excerpt(text[start:])}") from None
    except RecursionError:  # cannot happen below MAX_DEPTH; a last guard for a deeper caller's stack
        raise BoundedInputError(f"nested more than {max_depth} levels deep") from None
    if strings:
        check_strings(value)
    return value


def json_line(answer: object, separators: tuple[str, str] = (",", ":")) -> str:
    """``answer`` as JSON text on one line, readable (UTF-8, not ``\\u`` escapes) where it can
    be: it never fails on anything JSON can carry, and never holds a character that acts on a
    terminal. json leaves DEL, the C1 controls and lone surrogates raw (only C0 must be
    escaped); here they are written as their ``\\uXXXX`` escapes, the same JSON value.

    >>> json_line({"ok": False, "error": "got '\\ud800' for 阿强 \\x9b"})
    '{"ok":false,"error":"got \\'\\\\ud800\\' for 阿强 \\\\u009b"}'
    """
    text = json.dumps(answer, ensure_ascii=False, separators=separators)
    # (such a character is only ever inside a JSON string, where its escape is the same value)
    return _RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
