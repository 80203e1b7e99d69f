"""The table: the four seats in their places, the wall and the table's line in the middle.

Two layouts (``ui.layout`` in the config, ``--facing``): ``upright`` — a screen at one side of
the table, every panel upright, the side seats in tall panels — and ``facing`` — a screen
in the middle of the table, each seat's panel (name, wind, score, its buttons) turned
toward its player, as the central displays of automatic tables are. The middle always
shows what moves the table on when no seat's button does (下一局, 确认胡牌, …) and the menu.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.properties import StringProperty

from engine.authority import bets_stage
from engine.events import KONG_KINDS
from engine.public import PublicState
from table_app.present.buttons import command, forward
from table_app.present.forms import bets
from table_app.present.table import info_lines, status_line
from table_app.present.wall import wall_view
from table_app.present.words import tr
from table_app.ui import drawings  # noqa: F401  (drawings: the kv rules use its widgets)
from table_app.ui.dialogs import ChoiceDialog, DicePad
from table_app.ui.panel import SeatPanel
from table_app.ui.screens import STEP_SCREENS, Base, app
from table_app.ui.widgets import BigButton, Turned, text_width

SIDE_MM = 33.0  # the side seats' panels in the upright layout (at least: a name of 8 characters)
ANGLES = (0, 90, 180, 270)  # each seat's panel turned toward its player (facing layout)


class TableScreen(Base):
    status = StringProperty("")
    info = StringProperty("")

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self.panels: list[SeatPanel] = []
        self.holders: list[Any] = []
        self.sets: dict[str, tuple[list[SeatPanel], list[Any]]] = {}
        self.forward_buttons: list[BigButton] = []  # shown, in order
        self.forward_made: dict[str, BigButton] = {}  # each action's button, made when first shown
        self.names: list[str] = []
        self.arrange()
        self.bind(size=self.place, pos=self.place)
        app().bind(mm=self.place)

    # -- the layout ----------------------------------------------------------------------

    def arrange(self) -> None:
        """Show the four panels of the app's layout (each layout's are built once)."""
        area = self.ids.seats
        for h in self.holders:
            area.remove_widget(h)
        layout = app().layout
        if layout not in self.sets:
            self.sets[layout] = self.build_panels(layout == "facing")
        self.panels, self.holders = self.sets[layout]
        for h in self.holders:
            area.add_widget(h)
        self.place()

    def build_panels(self, facing: bool) -> tuple[list[SeatPanel], list[Any]]:
        panels, holders = [], []
        for seat in range(4):
            side = seat in (1, 3)
            panel = SeatPanel(seat=seat, orient="column" if side and not facing else "row")
            panel.on_action = self.action
            holder = Turned(panel, ANGLES[seat]) if facing else panel
            if not facing:
                panel.size_hint = (None, None)
            panels.append(panel)
            holders.append(holder)
        return panels, holders

    def rects(self) -> tuple[list[tuple[float, float, float, float]], tuple[float, float, float, float], bool]:
        """Where each seat's panel goes and the middle, in the screen's coordinates, and whether
        the row panels have room for the name and the score side by side (``SeatPanel.wide``)."""
        a = app()
        x0, y0, w, h = self.x, self.y, self.width, self.height
        if a.layout == "facing":  # (the side panels are turned: as long as the screen is tall)
            wide = min(h, w - 2 * SeatPanel.depth(a, True)) >= SeatPanel.wide_width(a)
            d = side = min(SeatPanel.depth(a, wide), h / 3)
            right = left = side
        else:  # each side panel as wide as the name at its seat needs (up to 8 characters)
            names = list(a.pub["players"]) or ["", "", "", ""]
            right, left = (min(max(SIDE_MM * a.mm, SeatPanel.name_width(a, names[s])), w / 3) for s in (1, 3))
            wide = w - right - left >= SeatPanel.wide_width(a)
            d = min(SeatPanel.depth(a, wide), h * 0.4)
        mid_w = w - right - left
        seats = [(x0 + left, y0, mid_w, d), (x0 + w - right, y0, right, h), (x0 + left, y0 + h - d, mid_w, d),
                 (x0, y0, left, h)]
        return seats, (x0 + left, y0 + d, mid_w, h - 2 * d), wide

    def place(self, *_: object) -> None:
        if not self.holders:
            return
        seats, (mx, my, mw, mh), wide = self.rects()
        for panel in self.panels:
            panel.wide = wide
        for holder, (x, y, w, h) in zip(self.holders, seats, strict=True):
            holder.size_hint = (None, None)
            holder.pos, holder.size = (x, y), (w, h)
        mid = self.ids.middle
        mid.pos, mid.size = (mx, my), (mw, mh)
        self.compact(mh - app().mm * 4.2)

    def compact(self, room: float) -> None:
        """Where the middle is too low for the table's line above its buttons (the upright layout
        at 7" and 1280×720), the line goes into the row of buttons, at its left."""
        a = app()
        ids = self.ids
        low = room < max(a.line_m, 2 * a.line_s - 4) + a.mm * 0.6 + a.touch + 3 * a.mm * 0.2
        status, inner, row = ids.status, ids.inner, ids.forward
        if low and status.parent is inner:
            inner.remove_widget(status)
            row.add_widget(status, index=len(row.children))
            status.size_hint = (1, 1)
            ids.spacer.size_hint_x = 0  # (the line takes the room the buttons leave)
        elif not low and status.parent is row:
            row.remove_widget(status)
            inner.add_widget(status, index=len(inner.children))
            status.size_hint = (1, None)
            status.height = max(a.line_m, 2 * a.line_s - 4)
            ids.spacer.size_hint_x = 1
        ids.info.opacity = 0 if low else 1

    def panel(self, seat: int) -> SeatPanel:
        return self.panels[seat]

    # -- what it shows ---------------------------------------------------------------------

    def refresh(self) -> None:
        a = app()
        pub, lang = a.pub, a.lang
        if list(pub["players"]) != self.names:  # (the side panels take the room the names need)
            self.names = list(pub["players"])
            self.place()
        for seat, p in enumerate(self.panels):
            p.show(pub, lang, a.pending_bets[seat])
        first, second = info_lines(pub, lang)
        self.info = "\n".join(x for x in (first, second) if x)
        self.ids.wall.view = wall_view(pub)
        self.show_forward(pub, lang)
        self.update_status()

    def show_forward(self, pub: PublicState, lang: str) -> None:
        """The table's own buttons that move it on (下一局, 确认胡牌, …): the forward actions
        that belong to no seat, and 只记分 before a hand is dealt. Each action's button is made
        once and kept (the table refreshes on every event: rebuilt, they were garbage each time)."""
        row = self.ids.forward
        wanted = [act for seat, act in forward(pub, app().score_only) if seat is None and act != "menu"]
        if bets_stage(pub) == "open" and "score_hand" not in wanted:
            wanted.append("score_hand")
        shown = [self.forward_made[act] for act in wanted if act in self.forward_made]
        if shown != self.forward_buttons or len(shown) != len(wanted):
            for b in self.forward_buttons:
                row.remove_widget(b)
            self.forward_buttons = [self.forward_made.get(act) or self._forward_button(act) for act in wanted]
            for b in self.forward_buttons:
                row.add_widget(b, index=1)
        for b in self.forward_buttons:
            b.text = tr(f"go_{b.action}", lang)
            b.size_hint_min_x = text_width(b.text, app().fs_s) + app().mm * 2  # (its words on one line)

    def _forward_button(self, act: str) -> BigButton:
        b = BigButton(action=act, style="go" if act != "score_hand" else "plain")
        b.bind(on_release=lambda _b, act=act: self.go(act))
        self.forward_made[act] = b
        return b

    def update_status(self) -> None:
        a = app()
        left = a.claim_left()
        self.status = status_line(a.pub, a.lang, left)
        part = -1.0 if left is None else left / max(a.claims_window, 0.1)
        self.ids.countdown.left = part
        c = a.pub["claims"]
        for seat, p in enumerate(self.panels):
            p.countdown = part if c is not None and c["from"] == seat else -1.0

    def flash(self, seat: int, word: str, refused: bool = False) -> None:
        self.panels[seat].flash(word, refused)

    # -- touches ---------------------------------------------------------------------------

    def go(self, act: str) -> None:
        a = app()
        if act == "next_hand":
            a.send({"type": "next_hand"})
        else:
            a.goto(STEP_SCREENS[act])

    def action(self, seat: int, action: str) -> None:
        a = app()
        if action in ("bet_up", "bet_down"):
            a.pending_bets[seat] = bets.step(a.pending_bets[seat], up=action == "bet_up")
            self.refresh()
            return
        if action == "roll":
            first = a.pub["dice"]["dealer"] is None
            name = a.pub["players"][seat]
            what = tr("roll_wall" if first else "roll_break", a.lang)
            DicePad(on_done=lambda x, y: self.roll(x, y), title=tr("rolls_next", a.lang, name=name, what=what)).open()
            return
        a.send(command(action, seat))

    def roll(self, x: int, y: int) -> None:
        a = app()
        first = bets.before_roll(a.pending_bets, a.pub)  # (the bets on the panels, when the table's differ)
        if first is not None:
            a.send(first)
        a.send(command("roll", 0, dice=(x, y)))

    def ask_kong(self, seat: int) -> None:
        """The seat may declare more than one kind of kong (the engine cannot tell which the
        player means): ask, and send the kong event of the kind chosen."""
        a = app()

        def declare(kind: str) -> Callable[[], None]:
            return lambda: a.send({"type": "kong", "seat": seat, "kind": kind})

        ChoiceDialog(tr("kong_which", a.lang),
                     [(tr(f"kong_{kind}", a.lang), declare(kind)) for kind in KONG_KINDS]).open()
