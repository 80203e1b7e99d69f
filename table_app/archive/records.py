"""Players' records (战绩) from the sessions' summaries: by day, ISO week or month (the table's
local clock), and the leaderboard.

A seat's player is its roster id (``new_session.player_ids``); a session of an older journal,
without ids, is matched by name (the roster's names, letters' case aside). A name the roster
does not know has no record (docs/archive.md).

>>> t = "2026-12-03T12:00:00.000+00:00"
>>> period_of(t, "day", local=False), period_of(t, "week", local=False), period_of(t, "month", local=False)
('2026-12-03', '2026-W49', '2026-12')
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Final

from table_app.archive.model import RecordRow

PERIODS: Final = ("day", "week", "month")


def local_date(iso: str, local: bool = True) -> date:
    t = datetime.fromisoformat(iso)
    return (t.astimezone() if local else t).date()


def period_of(iso: str, period: str | None, local: bool = True) -> str | None:
    """The period a session started at ``iso`` belongs to: ``2026-12-03``, ``2026-W49``, ``2026-12``."""
    if period is None:
        return None
    d = local_date(iso, local)
    return period_key(d, period)


def period_key(d: date, period: str) -> str:
    if period == "day":
        return d.isoformat()
    if period == "week":
        year, week, _ = d.isocalendar()
        return f"{year}-W{week:02d}"
    if period == "month":
        return f"{d.year}-{d.month:02d}"
    raise ValueError(f"period must be one of {', '.join(PERIODS)} or None, got {period!r}")


@dataclass
class Names:
    """The roster as the records need it: each id's name now, each name's id."""

    by_id: dict[int, str] = field(default_factory=dict)
    by_name: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, players: Iterable[tuple[int, str]]) -> Names:
        n = cls()
        for pid, name in players:
            n.by_id[pid] = name
            n.by_name[name.casefold()] = pid
        return n

    def who(self, pid: int | None, name: str) -> int | None:
        return pid if pid is not None else self.by_name.get(name.casefold())


@dataclass
class Tally:
    name: str
    sessions: set[int] = field(default_factory=set)
    counts: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])  # hands, wins, self-draws, kongs, net

    def row(self, pid: int, period: str | None) -> RecordRow:
        hands, wins, self_draws, kongs, net = self.counts
        return RecordRow(pid, self.name, period, len(self.sessions), hands, wins, self_draws, kongs, net)


def tally(sessions: Iterable[Mapping[str, object]], names: Names, period: str | None,
          only: int | None = None) -> dict[tuple[int, str | None], Tally]:
    """Each (player id, period)'s tally over these session summaries (``only``: one player's)."""
    out: dict[tuple[int, str | None], Tally] = {}
    for s in sessions:
        number, started, stats = s["number"], s["started"], s["stats"]
        assert isinstance(number, int) and isinstance(started, str) and isinstance(stats, dict)
        key_period = period_of(started, period)
        for key, counts in stats.items():
            _, played_id, played_name = json.loads(key)
            pid = names.who(played_id, played_name)
            if pid is None or (only is not None and pid != only):
                continue
            t = out.setdefault((pid, key_period), Tally(names.by_id.get(pid, played_name)))
            t.sessions.add(number)
            t.counts = [a + b for a, b in zip(t.counts, counts, strict=True)]
    return out
