"""Confirm a declared win: the wait by one tap, or the hand tapped in on tile pictures and
read by the engine as you type (``analyse_win``); 诈胡 takes the win back after a yes."""

from __future__ import annotations

from typing import Any

from engine.records import WAIT_KINDS
from table_app.present.forms import decide
from table_app.present.words import tile_face, tr
from table_app.ui.dialogs import ConfirmDialog
from table_app.ui.screens import Base, app
from table_app.ui.widgets import TileButton, TileFace

TILE_ROWS = [list(range(0, 9)), list(range(9, 18)), list(range(18, 27)), list(range(27, 34))]
WAITS = WAIT_KINDS  # (the engine's, most favourable first)


def face_text(t: int) -> str:
    number, suit = tile_face(t)
    return number + suit


class WinScreen(Base):
    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self.concealed: list[int] = []
        self.melds: list[list[int]] = []
        self.in_meld = False
        self.verdict = ""
        kb = self.ids.keyboard
        for row in TILE_ROWS:
            for t in row:
                b = TileButton(text=face_text(t), tile=t, action=f"tile_{t}")
                b.bind(on_release=lambda btn: self.tap(btn.tile))
                kb.add_widget(b)

    def refresh(self) -> None:
        a = app()
        p, names = a.pub["pending_win"], a.pub["players"]
        self.ids.top.title = tr("which_wait", a.lang, head=tr("win_by", a.lang, name=names[p["seat"]],
                                                                 kind=tr(f"kind_{p['kind']}", a.lang))) \
            if p is not None else tr("win_entry", a.lang)
        for w in self.ids.waits.children:
            if w.action in WAITS:
                w.text = tr(f"wait_{w.action}", a.lang)
        self.show()

    def wait(self, kind: str) -> None:
        app().send(decide.confirmed(kind))

    def reject(self) -> None:
        a = app()
        p = a.pub["pending_win"]
        name = a.pub["players"][p["seat"] if p is not None else 0]
        ConfirmDialog(tr("confirm_false_win", a.lang, name=name), lambda: a.send(decide.rejected()),
                      yes=tr("false_win", a.lang)).open()

    def tap(self, tile: int) -> None:
        if self.in_meld:
            self.melds[-1].append(tile)
            if len(self.melds[-1]) >= 4 or (len(self.melds[-1]) == 3 and len(set(self.melds[-1])) > 1):
                self.in_meld = False
        else:
            self.concealed.append(tile)
        self.show()

    def start_meld(self) -> None:
        if self.in_meld and len(self.melds[-1]) == 3:
            self.in_meld = False  # a pong of three: the next tap goes to the hand
        else:
            self.melds.append([])
            self.in_meld = True
        self.show()

    def backspace(self) -> None:
        if self.in_meld and self.melds and self.melds[-1]:
            self.melds[-1].pop()
        elif self.in_meld and self.melds:
            self.melds.pop()
            self.in_meld = False
        elif self.concealed:
            self.concealed.pop()
        self.show()

    def clear(self) -> None:
        self.concealed, self.melds, self.in_meld = [], [], False
        self.show()

    def entered(self) -> tuple[str, int, list[str]] | None:
        from engine.tiles import format_tiles

        if not self.concealed:
            return None
        return format_tiles(self.concealed), self.concealed[-1], [format_tiles(m) for m in self.melds if m]

    def show(self) -> None:
        """The hand as tile pictures (melds apart, the winning tile last) and how the engine
        reads it."""
        a = app()
        strip = self.ids.strip
        strip.clear_widgets()
        for group in [*self.melds, self.concealed]:
            for t in group:
                strip.add_widget(TileFace(text=face_text(t), tile=t))
            if group is not self.concealed:
                strip.add_widget(TileFace(text="", tile=0, opacity=0, width=a.mm * 2))
        self.verdict = self.reading(a)
        self.ids.verdict.text = self.verdict

    def reading(self, a: Any) -> str:
        got = self.entered()
        if got is None:
            return ""
        n = len(self.concealed) + 3 * len(got[2])
        seats, p = a.pub["seats"], a.pub["pending_win"]
        need = len(seats[p["seat"]]["melds"]) if seats is not None and p is not None else 0
        if n != 14:
            text = tr("count_of", a.lang, n=n)
            if need and len(got[2]) != need:
                text += " · " + tr("need_melds", a.lang, n=need)
            return text
        from engine.hand import HandError, analyse_win
        from engine.rules import Rules
        from engine.tiles import TileError

        try:
            r = analyse_win(got[0], got[1], got[2], Rules.from_overrides(a.pub["rules"]))
        except (HandError, TileError, ValueError):
            return tr("hand_unreadable", a.lang)
        if not r.winning or r.wait is None:
            return tr("not_winning", a.lang)
        bonus = tr("bonus_yes", a.lang) if r.bonus else ""
        return tr("reads_as", a.lang, wait=tr(f"wait_{r.wait}", a.lang), bonus=bonus)

    def confirm_hand(self) -> None:
        from engine.tiles import tile_text

        got = self.entered()
        if got is None:
            return
        hand, win, melds = got
        cmd: dict[str, Any] = {"type": "confirm_win", "hand": hand, "win_tile": tile_text(win)}
        if melds:
            cmd["melds"] = melds
        app().send(cmd)

    def on_leave(self, *args: object) -> None:
        self.clear()
