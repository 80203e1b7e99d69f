"""A journal record as a table publishes it (``xian/T/journal``, and inside replay answers).

The seven columns of :data:`table_app.journal.chain.COLUMNS` exactly as the table stores them, its
journal id and its hash (both 32 hex characters)::

    {"journal": "…", "seq": 12, "at": "2026-12-01T20:00:00.000+00:00", "kind": "event",
     "session": 1, "source": "mqtt", "event": "{\\"type\\":\\"pass\\",\\"seat\\":2}",
     "target": null, "hash": "…"}

:func:`parse` checks the shape and the bounds (anything else is refused with a reason, never
stored); :meth:`Record.follows` checks the hash chain against the record before it.

>>> r = parse({"journal": "0" * 32, "seq": 1, "at": "t", "kind": "event", "session": None,
...            "source": "s", "event": None, "target": None, "hash": "0" * 32})
>>> r.seq, r.follows(None)
(1, False)
>>> parse([1])
Traceback (most recent call last):
...
parlour.records.RecordError: a record is a JSON object
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import astuple, dataclass

from table_app.journal import chain

KEYS = frozenset(("journal", *chain.COLUMNS, "hash"))
KINDS = ("event", "undo", "redo")
MAX_SEQ = 2**62  # a journal never gets near it; a bigger number is not a journal's
MAX_TEXT = 64 * 1024  # an event's text is a few hundred bytes; a record beyond this is refused
MAX_SHORT = 200  # at, source
_HEX = re.compile(r"[0-9a-f]{32}")


class RecordError(ValueError):
    """A record that is not one (its shape, a bound): refused and logged, never stored."""


@dataclass(frozen=True)
class Record:
    journal: str
    seq: int
    at: str
    kind: str
    session: int | None
    source: str
    event: str | None
    target: int | None
    hash: str

    def columns(self) -> tuple[int, str, str, int | None, str, str | None, int | None]:
        return self.seq, self.at, self.kind, self.session, self.source, self.event, self.target

    def row(self) -> tuple[object, ...]:
        """journal, seq, at, kind, session, source, event, target, hash (the database's order)."""
        return astuple(self)

    def follows(self, prev_hash: str | None) -> bool:
        """Whether this record's hash is the chain's link from ``prev_hash`` (the record
        ``seq - 1``'s; None for record 1, which links from ``chain.ZERO`` and whose hash is
        the journal's id)."""
        if self.seq == 1:
            if prev_hash is not None or self.hash != self.journal:
                return False
            prev = chain.ZERO
        else:
            if prev_hash is None:
                return False
            prev = bytes.fromhex(prev_hash)
        return chain.link(prev, chain.canonical(*self.columns())).hex() == self.hash


def _int(value: object, name: str, *, optional: bool = False, low: int = 0) -> int | None:
    if value is None and optional:
        return None
    if type(value) is not int or not low <= value <= MAX_SEQ:
        raise RecordError(f"{name} must be an integer from {low}" + (" or null" if optional else ""))
    return value


def _text(value: object, name: str, limit: int, *, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or len(value) > limit:
        raise RecordError(f"{name} must be text of at most {limit:,} characters" + (" or null" if optional else ""))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise RecordError(f"{name} holds a lone surrogate (not UTF-8)") from None
    return value


def _hex(value: object, name: str) -> str:
    if not isinstance(value, str) or not _HEX.fullmatch(value):
        raise RecordError(f"{name} must be 32 lowercase hex characters")
    return value


def parse(obj: object, journal: str | None = None) -> Record:
    """The record in ``obj`` (a decoded JSON object), or :class:`RecordError`. ``journal``:
    the id it must carry (a replay answer's), which a record inside an answer may also leave out."""
    if not isinstance(obj, Mapping):
        raise RecordError("a record is a JSON object")
    keys = set(obj)
    if journal is not None and "journal" not in keys:
        keys.add("journal")
    if keys != KEYS:
        raise RecordError(f"a record has exactly the keys {', '.join(sorted(KEYS))}")
    jid = _hex(obj.get("journal", journal), "journal")
    if journal is not None and jid != journal:
        raise RecordError("a record of another journal than the answer's")
    kind = obj["kind"]
    if kind not in KINDS:
        raise RecordError(f"kind must be one of {', '.join(KINDS)}")
    target = _int(obj["target"], "target", optional=True)
    if (kind == "event") != (target is None):
        raise RecordError("an event has no target; an undo or redo has one")
    seq = _int(obj["seq"], "seq", low=1)
    assert seq is not None
    at = _text(obj["at"], "at", MAX_SHORT)
    source = _text(obj["source"], "source", MAX_SHORT)
    assert at is not None and source is not None
    return Record(jid, seq, at, kind, _int(obj["session"], "session", optional=True), source,
                  _text(obj["event"], "event", MAX_TEXT, optional=True), target, _hex(obj["hash"], "hash"))
