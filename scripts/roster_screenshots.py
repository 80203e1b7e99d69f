#!/usr/bin/env python3
"""The new-session screen with a roster (issue 28) for docs/ui.md: three evenings played
before (long names among them: 欧阳诸葛司马东方, Maximilianus), the last one ended.

    xvfb-run -a .venv/bin/python scripts/roster_screenshots.py OUT.png 800x480 zh [new|rename]

One app per run (Kivy makes one window per process). ``new``: the name dialog of ``＋ 新名字``
open; ``rename``: a roster row's rename.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

EVENINGS = (["王小明", "Ana", "李雷", "Zoë"], ["Bartholomew", "韩梅梅", "Cy", "阿强"],
            ["欧阳诸葛司马东方", "Maximilianus", "张阿姨", "Bo"])


def main(out: str, size: str, lang: str, dialog: str = "") -> None:
    w, h = map(int, size.split("x"))
    os.environ["KIVY_NO_ARGS"] = "1"
    from table_app.ui.launch import configure_kivy

    configure_kivy(w, h, False)
    from kivy.clock import Clock

    from table_app.core.roster import Roster
    from table_app.core.service import ManualClock, TableService
    from table_app.journal.journal import Journal
    from table_app.ui.app import TableApp

    path = Path(tempfile.mkdtemp()) / "journal.sqlite3"
    journal = Journal.open(path)
    roster = Roster.open(path)
    service = TableService(journal, claim_window_s=3.0, clock=ManualClock(), roster=roster).start()
    for names in EVENINGS:
        assert service.call({"type": "new_session", "players": names, "base": 2}, "touch", 10).ok
    assert service.call({"type": "end_session"}, "touch", 10).ok
    app = TableApp(service, journal=journal, lang=lang, sim=True, first_screen="session", screenshot=out,
                   exit_after=3, links={"hardware": "simulated", "mqtt": "offline", "journal": str(path)})

    def open_dialog(*_: Any) -> None:
        screen = app.sm.current_screen
        if dialog == "new":
            screen.choose(1)
            screen.ask_new()
        elif dialog == "rename":
            player = roster.find("Maximilianus")
            assert player is not None
            screen.ask_rename(player.id, player.name)

    if dialog:
        Clock.schedule_once(open_dialog, 1.0)
    app.run()
    service.stop()
    roster.close()
    journal.close()


if __name__ == "__main__":
    main(*sys.argv[1:])
