#!/usr/bin/env python3
"""What the touchscreen's look back costs in the real app at 800×480, on a long journal (the
archive bench's: simulated hands in sessions of 20, ``table_app.bench.history.build``): RSS on
the table screen, after the past sessions' first page, a session's hands, a hand replayed step
by step to its end, the records and a player's record — and again after the table is shown
(the past screens let go, the archive closed, a second for the collector) — with the time each
screen took to show (the archive's summary made once before).

    xvfb-run -a -s "-screen 0 1280x720x24" .venv/bin/python scripts/past_memory.py [--hands 10000]
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import tempfile
import time
from itertools import pairwise
from pathlib import Path


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        return next(int(line.split()[1]) / 1024 for line in f if line.startswith("VmRSS"))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=10_000)
    p.add_argument("--journal", type=Path, help="a journal built before (else one is built, in another process)")
    p.add_argument("--control", action="store_true", help="stay on the table screen: the same times, no look back")
    p.add_argument("--rounds", type=int, default=2, help="look back this many times")
    p.add_argument("--stale", action="store_true",
                   help="the archive's summary not made before: time the first look back (read in a thread) and the "
                        "longest gap between the screen's frames meanwhile")
    args = p.parse_args()
    path = args.journal
    if path is None:  # (built in a process of its own: its heap is not the app's)
        path = Path(tempfile.mkdtemp()) / "journal.sqlite3"
        subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; "
                        "from table_app.bench.history import build; "
                        f"print(build(Path(sys.argv[1]), {args.hands}), 'records')", str(path)], check=True)
    os.environ["KIVY_NO_ARGS"] = "1"
    from table_app.ui.launch import configure_kivy

    configure_kivy(800, 480, False)
    from kivy.clock import Clock

    from table_app.archive import Archive
    from table_app.core.roster import Roster
    from table_app.core.service import ManualClock, TableService
    from table_app.journal.journal import Journal
    from table_app.ui import past
    from table_app.ui.app import TableApp

    journal = Journal.open(path)
    roster = Roster.open(path)
    if not args.stale:
        with Archive(journal, roster) as ar:  # (the summary made once, as the service's first look back would)
            began = time.perf_counter()
            ar.sessions(0, 1)
            print(f"summary made in {time.perf_counter() - began:.1f} s")
    service = TableService(journal, clock=ManualClock(), roster=roster).start()
    app = TableApp(service, journal=journal, lang="zh", sim=True, first_screen="table",
                   links={"hardware": "simulated", "mqtt": "offline", "journal": str(journal.path)})
    out: list[tuple[str, float, float]] = []

    def show(what: str, fn: object) -> None:
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        ms = (time.perf_counter() - t) * 1000
        gc.collect()
        out.append((what, rss_mb(), ms))

    def first_look(*_: object) -> None:
        """The first look back on a journal whose summary is not made: the screen keeps drawing."""
        part = past.of(app)
        began = time.perf_counter()
        frames: list[float] = [began]

        def tick(*_: object) -> None:
            frames.append(time.perf_counter())
            if part.warm and app.sm.current_screen.ids.rows.children:
                gaps = [b - a for a, b in pairwise(frames)]
                print(f"first look back: rows shown after {frames[-1] - began:.1f} s; {len(frames)} frames "
                      f"meanwhile, the longest gap {max(gaps) * 1000:.0f} ms")
                app.stop()
                return
            Clock.schedule_once(tick, 0)

        app.goto("past")
        Clock.schedule_once(tick, 0)

    def walk(*_: object, rounds: int = args.rounds) -> None:
        part = past.of(app)
        part.archive().sessions(0, 1)  # (up to the journal already: the screens' own costs are measured)
        part.warm = True
        gc.collect()
        out.append(("table screen", rss_mb(), 0.0))
        if args.control:  # (the same screens kept at the end: the scores and the table)
            show("the scores, then the table", lambda: (app.goto("scores"), app.goto("table")))
            Clock.schedule_once(lambda *_: after(rounds=0), 2.0)
            return
        show("past sessions, first page", lambda: app.goto("past"))
        newest = part.archive().sessions(0, 1).items[0].number
        show("a session's hands", lambda: part.open_session(newest - 1))
        show("hand 1 replayed: its first step", lambda: part.open_hand(1))
        screen = app.sm.current_screen
        steps = len(part.replay().steps)

        def every_step() -> None:
            for i in range(steps):
                part.step = i
                screen.refresh()

        show(f"every step of it ({steps})", every_step)
        show("records: the leaderboard", lambda: app.goto("records"))
        leader = part.archive().leaderboard(None)[0].player_id
        show("a player's record", lambda: part.open_player(leader))
        show("the scores, then the table", lambda: (app.goto("scores"), app.goto("table")))
        Clock.schedule_once(lambda *_: after(rounds=rounds - 1), 2.0)

    def after(*_: object, n: int = 1, rounds: int = 0) -> None:
        gc.collect()
        out.append((f"{2 * n} s later", rss_mb(), 0.0))
        if rounds > 0:
            Clock.schedule_once(lambda *_: walk(rounds=rounds), 0.1)
            return
        if n < 3:
            Clock.schedule_once(lambda *_: after(n=n + 1), 2.0)
            return
        print(f"{'':40} {'RSS MB':>8} {'ms':>8}")
        for what, mb, ms in out:
            print(f"{what:40} {mb:8.1f} {ms:8.1f}")
        print("past screens still held:", [n for n in past.PAST_SCREENS if app.made(n) is not None],
              "archive open:", past.of(app)._archive is not None)
        app.stop()

    Clock.schedule_once(first_look if args.stale else walk, 2.0)
    app.run()
    service.stop()
    roster.close()
    journal.close()


if __name__ == "__main__":
    main()
