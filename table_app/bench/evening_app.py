"""A whole evening on the touchscreen app, scripted (the ``evening`` benchmark's child): the
real ``TableApp`` with its service and a journal, in a Kivy window, driven the way people
drive it — taps on the seats' buttons and the screens' own buttons, the menu and its
dialogs, presses from the wired buttons — and its memory read after each session.

Each session: the new-session, rules and settings screens (the language switched), a new
session sent as the session screen sends it, seating by the wind tiles, please-sit-here, then
hands played by presses — half by touch on the seats' buttons (the dice by the dice pad),
half from the wired buttons — with pongs, wins (self-drawn and on a discard) and drawn hands,
the wall, scores and history looked at during the hands, an undo after a yes, the phones' QR
code, then score-only hands on the entry screen, the end of the session after a yes, the
final screen and its new session. The service's clock is a manual one: the claim window
closes when every seat has answered (or when the script moves the clock on), so the evening
never waits for a timer.

``python -m table_app.bench.evening_app --sessions 4 --hands 6 --score-only 3`` prints one
JSON line per checkpoint (``start``, ``session N``, ``end``): VmRSS and VmHWM before and after
``gc.collect()``, with ``--count`` also the widgets alive and Kivy's caches.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile


def status_mb() -> dict[str, float]:
    """VmRSS and VmHWM of this process, in MiB (Linux's /proc/self/status)."""
    out = {}
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            key = line.split(":")[0]
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(line.split()[1]) / 1024
    return out


def counts() -> dict[str, int]:
    """What the app keeps: widgets alive by kind, textures, Kivy's caches, the Clock's events."""
    from kivy.app import App
    from kivy.cache import Cache
    from kivy.clock import Clock
    from kivy.graphics.texture import Texture
    from kivy.uix.label import Label
    from kivy.uix.widget import Widget

    objs = gc.get_objects()
    kinds = [type(o) for o in objs]  # (not isinstance: Kivy's weak proxies among them may be dead)
    seen = {"widgets": sum(issubclass(k, Widget) for k in kinds), "labels": sum(issubclass(k, Label) for k in kinds),
            "textures": sum(issubclass(k, Texture) for k in kinds),
            "texture_kib": sum(o.width * o.height * 4 for o, k in zip(objs, kinds, strict=True)
                               if issubclass(k, Texture)) // 1024,
            "clock_events": len(Clock.get_events())}
    app = App.get_running_app()
    if app is not None and app.sm is not None:
        seen.update({f"screen {s.name}": sum(1 for _ in s.walk()) for s in app.sm.screens})
    for category in ("kv.texture", "kv.image", "kv.loader", "kv.shader", "kv.atlas", "kv.lang"):
        seen[f"cache {category}"] = len(Cache._objects.get(category, {}))
    return seen


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--sessions", type=int, default=4)
    p.add_argument("--hands", type=int, default=6, help="hands played by presses, each session")
    p.add_argument("--score-only", type=int, default=3, help="hands scored only, each session")
    p.add_argument("--size", default="800x480")
    p.add_argument("--count", action="store_true", help="also count widgets, textures and Kivy's caches")
    p.add_argument("--trace", type=int, default=0, help="tracemalloc: the N lines that grew most, start → end")
    args = p.parse_args(argv)
    width, height = (int(x) for x in args.size.split("x"))
    from table_app.ui.launch import configure_kivy

    configure_kivy(width, height, False)
    from table_app.bench.evening_script import evening

    if args.trace:
        import tracemalloc

        tracemalloc.start(5)

    def report(at: str) -> None:
        before = status_mb()
        gc.collect()
        after = status_mb()
        line: dict[str, object] = {"at": at, "rss_mb": before["VmRSS"], "hwm_mb": before["VmHWM"],
                                   "rss_gc_mb": after["VmRSS"]}
        if args.count:
            line.update(counts())
        if args.trace:
            import tracemalloc

            line["python_mb"] = tracemalloc.get_traced_memory()[0] / 2**20
        print(json.dumps(line, ensure_ascii=False), flush=True)

    with tempfile.TemporaryDirectory(prefix="xian-evening-") as home:
        snapshots = evening(os.path.join(home, "journal.sqlite3"), sessions=args.sessions, hands=args.hands,
                            score_only=args.score_only, report=report, trace=bool(args.trace))
    if args.trace and len(snapshots) >= 2:
        for stat in snapshots[-1].compare_to(snapshots[0], "traceback")[:args.trace]:
            print(f"# {stat.size_diff / 1024:+.0f} KiB {stat.count_diff:+d} blocks", file=sys.stderr)
            for frame in stat.traceback.format()[-6:]:
                print(f"#   {frame}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
