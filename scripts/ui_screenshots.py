#!/usr/bin/env python3
"""The screenshots of docs/ui.md: every screen at 800×480 in Chinese and in English, 1024×600
in Chinese and 1280×720 in English and in Chinese, with the longest names a session takes (8 Chinese
characters, 12 letters), and the facing layout, made by driving the real app through a session (events into the
service, as any input sends them) and saving what the window shows.

    xvfb-run -a -s "-screen 0 1280x720x24" .venv/bin/python scripts/ui_screenshots.py docs/ui

One app per size and language (Kivy makes one window per process): run it once per pair
with ``--only 800x480-zh`` etc., or without ``--only`` to make them all one after the other.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

# the session's fee: by the hour with a minimum, paid by the winners, and tea (the longest house lines)
FEE = {"mode": "hour", "rate": 30, "min": 60, "payer": "winners", "tea": 5}
LONG = ["欧阳诸葛司马东方", "Maximilianus", "Christabella", "欧阳司马诸葛上官"]  # the longest names a session takes
SETS = {"800x480-zh": ((800, 480), "zh", LONG),
        "800x480-en": ((800, 480), "en", LONG),
        "1024x600-zh": ((1024, 600), "zh", LONG),
        "1280x720-en": ((1280, 720), "en", LONG),
        "1280x720-zh": ((1280, 720), "zh", LONG)}


def shots(names: list[str]) -> list[tuple[str, list[dict[str, Any]], str, dict[str, Any]]]:
    """(file stem, events to add, screen, what else) in the order of an evening."""
    return [
        ("session", [], "session", {}),
        ("join", [], "session", {"join": True}),
        ("rules", [], "rules", {}),
        ("fee", [], "fee", {"fee": True}),  # (issue 31: the table fee, set for the next session)
        ("seating", [{"type": "new_session", "players": names, "base": 1, "fee": FEE}], "seating", {"dice": True}),
        ("sithere", [{"type": "seating", "method": "A", "roller": 0, "dice": [2, 3]}], "sithere", {}),
        ("table-betting", [], "table", {"bets": [0, 1, 0, 2]}),
        ("menu", [], "table", {"menu": True}),
        ("entry", [], "entry", {"score_only": True, "pick": True}),
        ("table-turn", [{"type": "bets", "bets": [0, 1, 0, 2]}, {"type": "roll", "dice": [4, 6]},
                        {"type": "roll", "dice": [2, 3]}], "table", {}),
        ("table-claims", [{"type": "discard", "seat": 0}, {"type": "claim", "seat": 2, "call": "pong"}], "table",
         {"refuse": True}),
        ("wall", [{"type": "pass", "seat": 1}, {"type": "pass", "seat": 3}, {"type": "discard", "seat": 2},
                  {"type": "resolve"}, {"type": "kong", "seat": 3, "kind": "concealed"}], "wall", {}),
        ("win", [{"type": "discard", "seat": 3}, {"type": "resolve"}, {"type": "win", "seat": 0}], "win",
         {"tiles": "1m2m3m1p3p4s5s6s7s8s9s1z1z2p"}),
        ("settlement", [{"type": "confirm_win", "wait": "closed"}], "settlement", {}),
        ("table-hand-over", [], "table", {}),
        ("history", [], "history", {}),
        ("scores", [{"type": "next_hand"}, {"type": "score_hand", "winner": 2, "how": "discard", "discarder": 1},
                    {"type": "next_hand"}, {"type": "score_hand"},  # (荒牌: a drawn hand)
                    {"type": "next_hand"}, {"type": "score_hand", "winner": 1, "how": "self_drawn"}], "scores", {}),
        ("settings", [], "settings", {}),
        ("final", [{"type": "end_session", "seconds": 7800}], "final", {}),  # (2 h 10 min played: 3 hours begun)
        # the look back (issue 29): the evening ended, the next session begun
        ("past", [{"type": "new_session", "players": names[::-1], "base": 1}], "past", {}),
        ("past-session", [], "past_session", {"session": 1}),
        ("replay", [], "replay", {"session": 1, "hand": 1, "step": "claim"}),
        ("replay-end", [], "replay", {"session": 1, "hand": 1, "step": "confirm_win"}),
        ("records", [], "records", {}),
        ("record", [], "records", {"player": 0}),
    ]


def make(out: Path, key: str) -> None:
    (w, h), lang, names = SETS[key]
    os.environ["KIVY_NO_ARGS"] = "1"
    from table_app.ui.launch import configure_kivy

    configure_kivy(w, h, False)
    from kivy.clock import Clock

    from table_app.core.roster import Roster
    from table_app.core.service import ManualClock, TableService
    from table_app.journal.journal import Journal
    from table_app.ui.app import TableApp

    journal = Journal.open(Path(tempfile.mkdtemp()) / "journal.sqlite3")
    service = TableService(journal, claim_window_s=3.0, clock=ManualClock(), dice=lambda: (3, 4),
                           roster=Roster.open(journal.path)).start()
    app = TableApp(service, journal=journal, lang=lang, sim=True, first_screen="session",
                   links={"hardware": "simulated", "mqtt": "offline", "journal": str(journal.path),
                          "table_id": "den"})
    app.join_url = "http://192.168.1.20:8080/join/kq0Yc3Vb9TzLwR2mXa7NfQ"  # (the phones' pages on: web.listen)
    todo = shots(names)
    facing_done: set[str] = set()

    def step(*_: Any) -> None:
        if not todo:
            app.stop()
            return
        stem, events, screen, extra = todo[0]
        for ev in events:
            answer = service.call(ev, source="touch")
            assert answer.ok, (ev, answer.error)
        app.score_only = bool(extra.get("score_only"))
        Clock.schedule_once(lambda *_: show(stem, screen, extra), 0.4)

    def show(stem: str, screen: str, extra: dict[str, Any]) -> None:
        from table_app.ui.dialogs import JoinDialog, Menu

        look_back(extra)
        app.goto(screen)
        s = app.sm.current_screen
        if extra.get("dice"):
            s.pick("dice", 0, 2)
            s.pick("dice", 1, 3)
            s._show_choice()
        if extra.get("bets"):
            app.pending_bets = list(extra["bets"])
            app.refresh()
        if extra.get("pick"):
            s.pick("winner", 2)
            s.pick("fed", 0)
        if extra.get("tiles"):
            from engine.tiles import parse_tiles

            for t in parse_tiles(extra["tiles"]):
                s.tap(t)
        if extra.get("fee"):  # the form filled in as the session below is charged
            for key, value in (("mode", FEE["mode"]), ("payer", FEE["payer"])):
                s.ids[f"{key}_{value}"].state = "down"
            s.mode, s.payer = FEE["mode"], FEE["payer"]
            s.ids.rate.text, s.ids.min.text, s.ids.tea.text = str(FEE["rate"]), str(FEE["min"]), str(FEE["tea"])
            s.refresh()
        if extra.get("refuse"):
            service.submit({"type": "press", "seat": 1, "button": "TURN"}, "sim-keys")
        menu = Menu() if extra.get("menu") else JoinDialog() if extra.get("join") else None
        if menu is not None:
            menu.open()
        Clock.schedule_once(lambda *_: snap(stem, menu), 0.8)

    def look_back(extra: dict[str, Any]) -> None:
        """Where the past screens are: the session, the hand and its step (the first of a kind
        of event), the records' player (the leaderboard's first)."""
        from table_app.ui import past

        part = past.of(app)
        if "session" in extra:
            part.session = extra["session"]
        if "hand" in extra:
            part.hand = extra["hand"]
            steps = part.replay().steps
            part.step = next(i for i, st in enumerate(steps) if st.event.get("type") == extra["step"])
        if "player" in extra:
            part.player = part.archive().leaderboard(None)[extra["player"]].player_id

    def save(stem: str) -> None:
        from PIL import Image

        path = out / f"{stem}-{key}.png"
        app.save_screenshot(str(path))
        Image.open(path).convert("RGB").quantize(256).save(path, optimize=True)  # a third of the bytes

    def snap(stem: str, menu: Any) -> None:
        save(stem)
        if menu is not None:
            menu.dismiss()
        if stem in ("table-claims", "sithere") and stem not in facing_done:
            facing_done.add(stem)
            app.set_layout("facing")
            app.refresh()
            Clock.schedule_once(lambda *_: facing(stem), 0.6)
            return
        todo.pop(0)
        Clock.schedule_once(step, 0.1)

    def facing(stem: str) -> None:
        save(f"{stem}-facing")
        app.set_layout("upright")
        todo.pop(0)
        Clock.schedule_once(step, 0.3)

    Clock.schedule_once(step, 1.0)
    app.run()
    service.stop()
    journal.close()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", type=Path)
    p.add_argument("--only", choices=sorted(SETS))
    args = p.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.only:
        make(args.out, args.only)
        return 0
    for key in SETS:  # one process each: Kivy has one window per process
        subprocess.run([sys.executable, __file__, str(args.out), "--only", key], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
