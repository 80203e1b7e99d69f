"""A phone's taps, each submitted once and answered as often as the phone asks (issue 26).

A phone's request waits for the durable commit of its command; on a slow disk (an SD card's
fsync can take seconds) that can take longer than a phone, a browser or a player waits. So
every tap has an id (the phone page makes one per tap, or the server makes one when a request
carries none), and :class:`Taps` remembers, per seat, the last :data:`KEPT` taps: their command
and the service's future. A request with a known tap id is never submitted again: it waits for
the first request's future. The request waits at most ``wait_s``; past that it is answered
"still saving" with the tap's id and the phone asks again with the same id.

Bounded: at most :data:`KEPT` taps a seat (the oldest forgotten first). The service takes at
most ``REMOTE_LIMIT`` remote commands waiting, so a tap still waiting is never among the
forgotten ones unless a seat sent more than :data:`KEPT` taps since.

Also across a restart (issue 27): the journal's source of a phone's command names its tap
(``phone 2 tap <id>``), so at start :func:`applied_taps` reads the journal's recent records and
:meth:`Taps.restore` knows those taps as applied — a tap the phone sends again after the
restart (its answer was lost with the table) gets its first answer, ``ok`` and its ``seq``,
never a second command.

>>> taps = Taps()
>>> taps.valid("3f9a0c12b7e4d5a6"), taps.valid("x"), taps.valid("a b c d e f g h")
(True, False, False)
"""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from table_app.core.notices import Answer
from table_app.core.sources import source_seat, source_tap

if TYPE_CHECKING:
    from table_app.journal.journal import Journal

KEPT = 64  # taps remembered per seat
RECENT_RECORDS = 4 * KEPT * 2  # the journal's records read at start for the taps applied (a press makes one or two)
PHONE_WAIT_S = 5.0  # a request waits this long for the durable answer, then is told "still saving"
_TAP = re.compile(r"[A-Za-z0-9_-]{8,64}")


@dataclass
class _Tap:
    command: Mapping[str, object] | None  # what the phone asked (its request, without the tap id;
    # None: a tap applied before a restart, known from the journal only)
    future: Future[Answer]


@dataclass
class Taps:
    """Per seat, the recent taps: id → (request, the service's future)."""

    kept: int = KEPT
    _seats: dict[int, OrderedDict[str, _Tap]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @staticmethod
    def valid(tap: object) -> bool:
        """A tap id: 8-64 letters, digits, ``-`` or ``_`` (the page's are 24 hex digits)."""
        return isinstance(tap, str) and _TAP.fullmatch(tap) is not None

    @staticmethod
    def new_id() -> str:
        return secrets.token_hex(12)

    def find(self, seat: int, tap: str) -> tuple[Mapping[str, object] | None, Future[Answer]] | None:
        """The request and future of a tap this seat sent before (None: a new tap; the request
        is None for a tap applied before a restart)."""
        with self._lock:
            known = self._seats.get(seat, OrderedDict()).get(tap)
        return None if known is None else (known.command, known.future)

    def submit(self, seat: int, tap: str, request: Mapping[str, object],
               send: Callable[[], Future[Answer]]) -> tuple[Mapping[str, object] | None, Future[Answer]]:
        """The tap's request and future: the one already sent, or ``send()``'s (called once a tap)."""
        with self._lock:  # (send() only queues: the service answers on its own thread)
            taps = self._seats.setdefault(seat, OrderedDict())
            known = taps.get(tap)
            if known is None:
                known = taps[tap] = _Tap(dict(request), send())
                while len(taps) > self.kept:
                    taps.popitem(last=False)
            return known.command, known.future

    def restore(self, applied: Iterable[tuple[int, str, int]]) -> None:
        """Know these taps as applied: ``(seat, tap, seq)``, oldest first (:func:`applied_taps`)."""
        with self._lock:
            for seat, tap, seq in applied:
                done: Future[Answer] = Future()
                done.set_result(Answer(True, seq))
                taps = self._seats.setdefault(seat, OrderedDict())
                taps.pop(tap, None)
                taps[tap] = _Tap(None, done)
                while len(taps) > self.kept:
                    taps.popitem(last=False)

    def __len__(self) -> int:
        with self._lock:
            return sum(len(t) for t in self._seats.values())


def applied_taps(journal: Journal, records: int = RECENT_RECORDS) -> list[tuple[int, str, int]]:
    """The phones' taps among the journal's last ``records`` records: ``(seat, tap, seq)`` with
    each tap's last record's seq (its answer's), oldest first. Read on a connection of its own
    (the service may be writing)."""
    reader = journal.reader()
    try:
        last = reader.last_seq()
        sources = reader.sources(range(max(1, last - records + 1), last + 1))
    finally:
        reader.close()
    found: dict[tuple[int, str], int] = {}
    for seq, source in sorted(sources.items()):
        seat, tap = source_seat(source), source_tap(source)
        if seat is not None and tap is not None:
            found.pop((seat, tap), None)
            found[(seat, tap)] = seq
    return [(seat, tap, seq) for (seat, tap), seq in found.items()]
