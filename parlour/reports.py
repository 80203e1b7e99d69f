"""The owner's reports from the sessions: the takings and the leaderboard, as the command line
(``xian-table parlour takings|leaderboard``) and the floor's routes
(:mod:`parlour.report_routes`) both give them.

``period``: ``day``, ``week`` or ``month``; ``first`` / ``last``: local days (inclusive, None:
no bound). The takings list every period in the range, newest first; the leaderboard sums the
range (by default the current ``period``; no period and no range: all time).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from parlour.db import Database
from parlour.players import BoardRow, Links, leaderboard
from parlour.sessions import Sessions
from parlour.takings import Takings, ended_between, takings, window


@dataclass(frozen=True)
class Range:
    first: date | None
    last: date | None

    def to_json(self) -> dict[str, str | None]:
        return {"from": None if self.first is None else self.first.isoformat(),
                "to": None if self.last is None else self.last.isoformat()}


def parse_day(text: str | None) -> date | None:
    """A local day ``YYYY-MM-DD`` (ValueError if it is not one)."""
    if text is None or text == "":
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        shown = text if len(text) <= 40 else text[:40] + "…"  # (a refusal quotes a short piece, not 10 KB)
        raise ValueError(f"a day is YYYY-MM-DD, got {shown!r}") from None


def board_range(period: str | None, first: date | None, last: date | None, today: date | None = None) -> Range:
    """The days a leaderboard sums: the given range, else the current period, else all time."""
    if first is not None or last is not None or period is None:
        return Range(first, last)
    return Range(*window(period, today or datetime.now().astimezone().date()))


def takings_report(db: Database, period: str, first: date | None = None, last: date | None = None) -> list[Takings]:
    return takings(ended_between(Sessions(db), first, last), period)


def leaderboard_report(db: Database, rng: Range) -> list[BoardRow]:
    """Every listed player's tally over the sessions started in the range (ended or not)."""
    return leaderboard(ended_between(Sessions(db), rng.first, rng.last, ended=False), Links.load(db))


def takings_json(rows: list[Takings], period: str, rng: Range) -> dict[str, object]:
    return {"period": period, **rng.to_json(), "rows": [t.to_json() for t in rows]}


def leaderboard_json(rows: list[BoardRow], period: str | None, rng: Range) -> dict[str, object]:
    return {"period": period, **rng.to_json(), "rows": [r.to_json() for r in rows]}
