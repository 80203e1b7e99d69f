"""Tracebacks once per kind, then a count: what a flood of bad input may write to the SD card.

A fault that one bad message causes, thousands of messages cause again. :func:`log_fault`
logs the first of each *kind* with its traceback, and afterwards only counts; the count is
logged as one line ("N more like this since …") at most once every :data:`SUMMARY_EVERY_S`
seconds, when the next one of that kind comes, or by :func:`flush` (at shutdown). A kind is
the caller's ``kind`` (what was being done: "mqtt message") with the exception's type and
the place it was raised (the innermost frame's file and line), so two different bugs behind
one guard are each shown once.

    try:
        handle(message)
    except Exception as e:
        log_fault(log, "mqtt message", e)
        answer("internal error")

>>> import logging, io
>>> out = io.StringIO(); h = logging.StreamHandler(out); lg = logging.getLogger("doc"); lg.addHandler(h)
>>> faults = FaultLog()
>>> for n in range(3):
...     try:
...         int("x")
...     except ValueError as e:
...         faults.log(lg, "parse", e)
>>> out.getvalue().count("Traceback"), faults.count("parse", ValueError)
(1, 3)
>>> faults.flush(); "2 more like this" in out.getvalue()
True
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

SUMMARY_EVERY_S = 60.0  # a kind's count is logged at most this often
MAX_KINDS = 1000  # kinds remembered; beyond, a fault is logged on one line, without its traceback


@dataclass
class _Kind:
    logger: logging.Logger
    label: str  # "parse: ValueError at bounded.py:120"
    total: int = 0
    unlogged: int = 0  # seen since the last line logged
    since: float = 0.0  # (wall clock) when the first unlogged one came
    logged_at: float = 0.0  # (monotonic) when a line for this kind was last logged


def _where(exc: BaseException) -> str:
    tb = exc.__traceback__
    if tb is None:
        return "?"
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    return f"{code.co_filename.rsplit('/', 1)[-1]}:{tb.tb_lineno}"


class FaultLog:
    """The kinds seen and their counts (thread-safe). Most callers use the module's
    :func:`log_fault` and :func:`flush`; a test or a part that wants its own counts makes one."""

    def __init__(self, every_s: float = SUMMARY_EVERY_S) -> None:
        self.every_s = every_s
        self._lock = threading.Lock()
        self._kinds: dict[tuple[str, str, str], _Kind] = {}

    def log(self, logger: logging.Logger, kind: str, exc: BaseException) -> None:
        """Log ``exc`` under ``kind``: with its traceback the first time, then counted."""
        where = _where(exc)
        key = (kind, type(exc).__qualname__, where)
        now = time.monotonic()
        with self._lock:
            k = self._kinds.get(key)
            if k is None and len(self._kinds) >= MAX_KINDS:
                first, summary = False, None
            elif k is None:
                k = self._kinds[key] = _Kind(logger, f"{kind}: {type(exc).__qualname__} at {where}", total=1,
                                             logged_at=now)
                first, summary = True, None
            else:
                first = False
                k.total += 1
                k.unlogged += 1
                if k.unlogged == 1:
                    k.since = time.time()
                summary = self._take_summary(k, now) if now - k.logged_at >= self.every_s else None
        if first:
            logger.error("%s: %s (the first of its kind; more are counted)", kind, exc, exc_info=exc)
        elif k is None:
            logger.error("%s: %s: %s", kind, type(exc).__qualname__, exc)
        elif summary is not None:
            logger.warning("%s", summary)

    @staticmethod
    def _take_summary(k: _Kind, now: float) -> str | None:
        if not k.unlogged:
            return None
        line = (f"{k.label}: {k.unlogged:,} more like this since "
                f"{time.strftime('%H:%M:%S', time.localtime(k.since))} ({k.total:,} in all)")
        k.unlogged, k.logged_at = 0, now
        return line

    def flush(self) -> None:
        """Log every kind's count not yet logged (at shutdown)."""
        now = time.monotonic()
        with self._lock:
            lines = [(k.logger, s) for k in self._kinds.values() if (s := self._take_summary(k, now)) is not None]
        for logger, line in lines:
            logger.warning("%s", line)

    def count(self, kind: str, exc_type: type[BaseException]) -> int:
        """How many of ``kind`` with this exception type were seen (wherever raised)."""
        with self._lock:
            return sum(k.total for (kd, t, _), k in self._kinds.items() if kd == kind and t == exc_type.__qualname__)


FAULTS = FaultLog()
"""The process's one fault log."""


def log_fault(logger: logging.Logger, kind: str, exc: BaseException) -> None:
    """Log ``exc`` (caught while doing ``kind``) in the process's fault log: its traceback
    the first time this kind is seen, afterwards a count (:class:`FaultLog`)."""
    FAULTS.log(logger, kind, exc)


def flush() -> None:
    """Log the counts not yet logged (call at shutdown)."""
    FAULTS.flush()
