#!/usr/bin/env python3
"""What the name keyboard costs in the real app at 800×480: RSS before it, after the pinyin
index, after the first open with 欧阳诸葛司马东方 typed, and after each of twelve more opens
(a name typed and closed each time), with the time from opening to the first candidates.

    xvfb-run -a -s "-screen 0 1280x720x24" .venv/bin/python scripts/name_keyboard_memory.py
"""

from __future__ import annotations

import gc
import os
import tempfile
import time
from functools import partial
from pathlib import Path


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        return next(int(line.split()[1]) / 1024 for line in f if line.startswith("VmRSS"))


def main() -> None:
    os.environ["KIVY_NO_ARGS"] = "1"
    from table_app.ui.launch import configure_kivy

    configure_kivy(800, 480, False)
    from kivy.clock import Clock

    from table_app.core.service import ManualClock, TableService
    from table_app.journal.journal import Journal
    from table_app.present import pinyin
    from table_app.ui.app import TableApp
    from table_app.ui.name_keyboard import NameKeyboard

    journal = Journal.open(Path(tempfile.mkdtemp()) / "journal.sqlite3")
    service = TableService(journal, clock=ManualClock()).start()
    app = TableApp(service, journal=journal, lang="zh", sim=True, first_screen="session",
                   links={"hardware": "simulated", "mqtt": "offline", "journal": str(journal.path)})
    out: dict[str, float] = {}

    def first(*_: object) -> None:
        gc.collect()
        out["before MB"] = rss_mb()
        began = time.perf_counter()
        kb = NameKeyboard("zh", on_done=lambda name: None).open()
        kb.tapped(partial(kb.letter, "o"))  # (waits for the index the opening started)
        out["open to first candidates s"] = time.perf_counter() - began
        gc.collect()
        out["opened, first candidates MB"] = rss_mb() if pinyin.ready() else 0
        kb.tapped(kb.backspace)
        for word in ("ouyang", "zhuge", "sima", "dongfang"):
            for k in word:
                kb.tapped(partial(kb.letter, k))
            kb.pick(0)
        Clock.schedule_once(lambda *_: opened(kb), 0.5)

    def opened(kb: object) -> None:
        gc.collect()
        out["opened, name typed MB"] = rss_mb()
        kb.finish()  # type: ignore[attr-defined]
        Clock.schedule_once(lambda *_: again(0), 0.3)

    def again(i: int) -> None:
        if i == 12:
            print("\n".join(f"{k}: {v:.2f}" for k, v in out.items()))
            app.stop()
            return
        kb = NameKeyboard("zh", on_done=lambda name: None).open()
        for k in "wangwei":
            kb.tapped(partial(kb.letter, k))

        def close(*_: object) -> None:
            kb.dismiss()
            gc.collect()
            out[f"after open {i + 2} MB"] = rss_mb()
            Clock.schedule_once(lambda *_: again(i + 1), 0.3)

        Clock.schedule_once(close, 0.3)

    Clock.schedule_once(first, 1.5)
    app.run()
    service.stop()
    journal.close()


if __name__ == "__main__":
    main()
