"""The archive on a long journal (issue 29): 10,000 simulated hands in sessions of 20, written
as the service writes them (the hash chain, a snapshot every 2,000 events, the roster's ids),
then the history page's first screen (``Archive.sessions(page=0)``), a hand's first replay
step (``Archive.replay(n, h).state_at(0)``), a player's record and the leaderboard.

Each run opens a fresh ``Archive`` (its own connection, nothing cached in memory), so a run
pays the check that the summary matches the journal. The journal is built once, in a
temporary folder, and the summary made once before the runs (its time is reported too).
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from engine import new_table, push
from engine.simulate import SimConfig, simulate
from table_app.bench import Result, result

NAME = "history"
DESCRIPTION = "the archive on a 10,000-hand journal: history's first page, a hand's first replay step, records"

HANDS = 10_000
SESSION_HANDS = 20
TARGET_MS = 200.0
BOTS = ("greedy", "random", "greedy", "random")  # wins and draws both (four random bots hardly ever win)
SNAPSHOT_EVERY = 2000  # as the service (table_app/core/service.py)
NAMES = ("阿明", "阿华", "阿强", "阿芳", "小李", "老王", "小张", "老陈")


class _Writer:
    """Writes a simulation's events to a journal as the service would (a hand's events per
    transaction here, not one each: the build takes seconds, not hours)."""

    def __init__(self, path: Path) -> None:
        from table_app.core.roster import Roster
        from table_app.journal.journal import Journal

        self.journal = Journal.open(path)
        self.roster = Roster.open(path)
        self.state = new_table()
        self.session: int | None = None
        self.buffer: list[dict[str, object]] = []
        self.sessions = 0
        self.since_snapshot = 0

    def __call__(self, event: dict[str, object]) -> None:
        if event["type"] == "new_session":
            self.flush()
            names = [NAMES[(self.sessions * 3 + i) % len(NAMES)] for i in range(4)]
            event = {**event, "players": names, "player_ids": self.roster.ids(names)}
            self.sessions += 1
            push(self.state, event)
            _, self.session = self.journal.append_event(event, None, new_session=True, source="bench")
            return
        push(self.state, event)
        self.buffer.append(event)
        if event["type"] == "next_hand" or len(self.buffer) >= 500:
            self.flush()

    def flush(self) -> None:
        if not self.buffer:
            return
        seqs, _ = self.journal.append_events(self.buffer, self.session, source="bench")
        self.since_snapshot += len(self.buffer)
        self.buffer = []
        if self.since_snapshot >= SNAPSHOT_EVERY:
            self.journal.save_snapshot(seqs[-1], self.state.to_json())
            self.since_snapshot = 0

    def close(self) -> None:
        self.flush()
        self.roster.close()
        self.journal.close()


def build(path: Path, hands: int = HANDS, seed: int = 29) -> int:
    """A journal of ``hands`` simulated hands (``BOTS``, sessions of ``SESSION_HANDS``); its records."""
    w = _Writer(path)
    try:
        simulate(SimConfig(hands=hands, seed=seed, bots=BOTS, session_hands=SESSION_HANDS), journal=w)
    finally:
        w.close()
    from table_app.journal.journal import Journal

    with Journal.open(path, readonly=True) as j:
        return j.last_seq()


def _ms(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def measure(path: Path, runs: int, seed: int = 1) -> dict[str, list[float]]:
    """Each figure's milliseconds over ``runs`` runs (a fresh Archive each)."""
    from table_app.archive import Archive
    from table_app.core.roster import Roster
    from table_app.journal.journal import Journal

    rng = random.Random(seed)
    out: dict[str, list[float]] = {"first": [], "sessions": [], "replay": [], "record": [], "leaderboard": [],
                                   "month": []}
    with Journal.open(path) as j:
        roster = Roster.open(path, readonly=True)
        with Archive(j, roster) as a:
            out["first"].append(_ms(lambda: a.sessions(page=0)))  # the summary made from the records
            numbers = [s.number for s in a.sessions(page=0, per_page=100).items]
        for _ in range(runs):
            with Archive(j, roster) as a:
                out["sessions"].append(_ms(lambda: a.sessions(page=0)))
                n = rng.choice(numbers)
                h = rng.randint(1, SESSION_HANDS)
                out["replay"].append(_ms(lambda: a.replay(n, h).state_at(0)))  # noqa: B023 (called at once)
                pid = rng.randint(1, len(NAMES))
                out["record"].append(_ms(lambda: a.record(pid, "month")))  # noqa: B023
                out["leaderboard"].append(_ms(lambda: a.leaderboard()))
                out["month"].append(_ms(lambda: a.leaderboard("month")))
        roster.close()
    return out


def run(runs: int, progress: Callable[[str], None]) -> list[Result]:
    with tempfile.TemporaryDirectory(prefix="xian-history-") as d:
        path = Path(d) / "journal.sqlite3"
        progress(f"building a journal of {HANDS:,} simulated hands (sessions of {SESSION_HANDS})")
        start = time.perf_counter()
        records = build(path)
        built = time.perf_counter() - start
        size = path.stat().st_size / 2**20
        progress(f"{records:,} records, {size:,.0f} MB, in {built:.0f} s; the archive's summary, then {runs} runs")
        ms = measure(path, runs)

    def worst(name: str) -> str:
        return f"worst {max(ms[name]):,.1f} ms of {len(ms[name])}"

    journal = f"{HANDS:,} hands, {records:,} records, {size:,.0f} MB"
    return [
        result(NAME, "archive summary made from the records", ms["first"], "ms",
               note=f"once per journal ({journal}); kept beside the records, then brought up to date as they land"),
        result(NAME, "history: first page (20 sessions)", ms["sessions"], "ms", target_max=TARGET_MS,
               note=worst("sessions") + "; a fresh Archive each run"),
        result(NAME, "replay: a hand's first step", ms["replay"], "ms", target_max=TARGET_MS, note=worst("replay")),
        result(NAME, "record: a player by month", ms["record"], "ms", note=worst("record")),
        result(NAME, "leaderboard: all time", ms["leaderboard"], "ms", note=worst("leaderboard")),
        result(NAME, "leaderboard: this month", ms["month"], "ms", note=worst("month")),
    ]


def main() -> int:  # python -m table_app.bench.history: the figures once, quickly
    for r in run(5, lambda m: print(f"  … {m}", flush=True)):
        print(f"{r.name:<40} median {r.value:9.1f} {r.unit}  {r.note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
