#!/usr/bin/env python3
"""The name keyboard's pictures in docs/ui.md: typing 欧阳诸葛司马东方 at 800×480 in Chinese,
and Maximilianus at 1280×720 in English, on the real app's window (one size per process:
Kivy makes one window).

    xvfb-run -a -s "-screen 0 1280x720x24" .venv/bin/python scripts/name_keyboard_shots.py docs/ui 800x480-zh
    xvfb-run -a -s "-screen 0 1280x720x24" .venv/bin/python scripts/name_keyboard_shots.py docs/ui 1280x720-en
"""

from __future__ import annotations

import os
import sys
import tempfile
from functools import partial
from pathlib import Path

SETS = {"800x480-zh": ((800, 480), "zh", "zh"), "1280x720-en": ((1280, 720), "en", "en"),
        "800x480-en": ((800, 480), "en", "en"), "1280x720-zh": ((1280, 720), "zh", "zh")}


def main(out: Path, key: str) -> None:
    (w, h), lang, _ = SETS[key]
    os.environ["KIVY_NO_ARGS"] = "1"
    from table_app.ui.launch import configure_kivy

    configure_kivy(w, h, False)
    from kivy.clock import Clock

    from table_app.core.service import ManualClock, TableService
    from table_app.journal.journal import Journal
    from table_app.ui.app import TableApp
    from table_app.ui.name_keyboard import KeyboardView, NameKeyboard

    journal = Journal.open(Path(tempfile.mkdtemp()) / "journal.sqlite3")
    service = TableService(journal, clock=ManualClock()).start()
    app = TableApp(service, journal=journal, lang=lang, sim=True, first_screen="session",
                   links={"hardware": "simulated", "mqtt": "offline", "journal": str(journal.path)})

    def save(stem: str) -> None:
        from PIL import Image

        path = out / f"{stem}-{key}.png"
        app.save_screenshot(str(path))
        Image.open(path).convert("RGB").quantize(256).save(path, optimize=True)

    def type_in(kb: KeyboardView, letters: str) -> None:
        for k in letters:
            kb.tapped(partial(kb.letter, k))

    def start(*_: object) -> None:
        kb = NameKeyboard(lang, on_done=print).open()
        if lang == "zh":
            type_in(kb, "ouyang")
            kb.pick(0)
            type_in(kb, "zhug")
        else:
            type_in(kb, "maximilianu")
        Clock.schedule_once(lambda *_: shot(kb), 1.0)

    def shot(kb: KeyboardView) -> None:
        save("name-keyboard")
        if lang == "en":  # the same keyboard switched to 中, composing a given name
            kb.tapped(kb.toggle)
            kb.tapped(kb.backspace)
            type_in(kb, "wei")
            kb.finish()  # (refused: 12 letters and one 汉字 do not fit)
        else:  # the longest name there is room for, and a begun syllable's candidates
            for letters in ("e", "sima", "dongfang"):
                type_in(kb, letters)
                kb.pick(0)
            type_in(kb, "x")
        Clock.schedule_once(lambda *_: last(), 0.8)

    def last() -> None:
        save("name-keyboard-more")
        app.stop()

    Clock.schedule_once(start, 1.0)
    app.run()
    service.stop()
    journal.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
