"""The day's takings (营业额): per table and in all, by day, ISO week or month — sessions, hours
played, hands, the table fee and the tea — from the sessions (:mod:`parlour.sessions`).

A session counts once it has ended (结束牌局: its bill is made), in the period of the local
day it started (the parlour machine's clock, as the archive's records do). Hours are the
sessions' lengths (``end_session.seconds``, else from their first record to their last),
to the hundredth. Amounts are whole points, the unit of the scores.

CSV (:func:`write_csv`): UTF-8 with a byte-order mark by default (Excel), one row a period and
table and one ``all`` row a period, the columns :data:`COLUMNS`; a cell a spreadsheet would
take for a formula is quoted (:func:`table_app.exchange.sheet.cell`).

>>> window("day", date(2026, 12, 3))
(datetime.date(2026, 12, 3), datetime.date(2026, 12, 3))
>>> window("week", date(2026, 12, 3))
(datetime.date(2026, 11, 30), datetime.date(2026, 12, 6))
>>> window("month", date(2026, 12, 3))
(datetime.date(2026, 12, 1), datetime.date(2026, 12, 31))
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Final, TextIO

from parlour.sessions import SessionRow, Sessions
from table_app.archive.records import PERIODS, local_date, period_key
from table_app.exchange.sheet import BOM, cell

ALL: Final = "all"  # the table column of a period's sum
COLUMNS: Final = ("period", "table", "sessions", "hours", "hands", "table_fee", "tea", "total")


@dataclass
class Takings:
    period: str
    table: str
    sessions: int = 0
    seconds: float = 0.0
    hands: int = 0
    table_fee: int = 0
    tea: int = 0

    @property
    def hours(self) -> float:
        return round(self.seconds / 3600, 2)

    @property
    def total(self) -> int:
        return self.table_fee + self.tea

    def add(self, s: SessionRow) -> None:
        self.sessions += 1
        self.seconds += s.length
        self.hands += s.hands
        self.table_fee += s.table_fee
        self.tea += s.tea

    def cells(self) -> tuple[object, ...]:
        return (self.period, self.table, self.sessions, f"{self.hours:.2f}", self.hands, self.table_fee, self.tea,
                self.total)

    def to_json(self) -> dict[str, object]:
        return dict(zip(COLUMNS, (self.period, self.table, self.sessions, self.hours, self.hands, self.table_fee,
                                  self.tea, self.total), strict=True))


def window(period: str, today: date) -> tuple[date, date]:
    """The first and last day of the day, ISO week or month ``today`` is in."""
    if period == "day":
        return today, today
    if period == "week":
        first = today - timedelta(days=today.weekday())
        return first, first + timedelta(days=6)
    if period == "month":
        first = today.replace(day=1)
        following = (first + timedelta(days=32)).replace(day=1)
        return first, following - timedelta(days=1)
    raise ValueError(f"period must be one of {', '.join(PERIODS)}, got {period!r}")


def utc_bounds(first: date | None, last: date | None) -> tuple[str | None, str | None]:
    """ISO times in UTC around the local days ``first`` … ``last`` (a day wider each side:
    the local day is checked on each row)."""
    lo = None if first is None or first <= date.min + timedelta(days=1) else \
        datetime.combine(first - timedelta(days=1), time()).isoformat()
    hi = None if last is None or last >= date.max - timedelta(days=2) else \
        datetime.combine(last + timedelta(days=2), time()).isoformat()
    return lo, hi  # (a day at the calendar's ends: no bound, not an OverflowError)


def ended_between(sessions: Sessions, first: date | None, last: date | None, *,
                  ended: bool = True) -> list[SessionRow]:
    """The sessions started on the local days ``first`` … ``last`` (None: no bound), ended ones
    only unless ``ended`` is False."""
    lo, hi = utc_bounds(first, last)
    out = []
    for s in sessions.rows(since=lo, until=hi):
        d = local_date(s.started)
        if (first is None or d >= first) and (last is None or d <= last) and (s.ended is not None or not ended):
            out.append(s)
    return out


def takings(rows: Iterable[SessionRow], period: str) -> list[Takings]:
    """Per period (newest first) each table's takings (in table order), then the period's ``all``."""
    if period not in PERIODS:
        raise ValueError(f"period must be one of {', '.join(PERIODS)}, got {period!r}")
    by: dict[tuple[str, str], Takings] = {}
    for s in rows:
        if s.ended is None:
            continue
        p = period_key(local_date(s.started), period)
        for table in (s.table, ALL):
            by.setdefault((p, table), Takings(p, table)).add(s)
    return sorted(by.values(), key=lambda t: (_neg(t.period), t.table == ALL, t.table))


def _neg(text: str) -> tuple[int, ...]:
    return tuple(-ord(c) for c in text)


def write_csv(rows: Iterable[Takings], out: TextIO, *, bom: bool = True) -> None:
    if bom:
        out.write(BOM)
    w = csv.writer(out, lineterminator="\n")
    w.writerow(COLUMNS)
    for t in rows:
        w.writerow([cell(v) for v in t.cells()])
