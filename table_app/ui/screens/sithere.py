"""Please sit here (请入座): after seating, each side of the screen shows who sits there, the
wind and an arrow toward that side — in the facing layout turned toward that side; after a
seating by rolls or drawn winds, who moves from which place to which."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from table_app.present.seating import move_lines
from table_app.present.words import tr, wind_mark
from table_app.ui.screens import Base, app
from table_app.ui.widgets import Badge, NameLabel, Small, Turned

ARROWS = ("↓", "→", "↑", "←")
ANGLES = (0, 90, 180, 270)


class SitHereScreen(Base):
    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self.cards: list[tuple[Badge, NameLabel, Small]] = []
        self.holders: list[Any] = []
        self.layout_made = ""

    def make_cards(self) -> None:
        a = app()
        area = self.ids.area
        for h in self.holders:
            area.remove_widget(h)
        self.cards, self.holders = [], []
        facing = a.layout == "facing"
        for seat in range(4):
            tall = seat in (1, 3)  # the side seats: the name under the badge
            card = BoxLayout(orientation="vertical", spacing=a.mm * 0.5)
            top = BoxLayout(spacing=a.mm, size_hint_y=None, height=a.line_l)
            arrow = Small(size_hint_x=None, width=a.mm * 6)
            badge = Badge(kind="wind", size_hint=(None, None), size=(a.line_l, a.line_l), big=True)
            name = NameLabel(halign="left")
            top.add_widget(arrow)
            top.add_widget(badge)
            if tall:
                top.add_widget(BoxLayout())
                card.add_widget(top)
                name.size_hint_y = None
                name.height = 2 * a.line_m
                card.add_widget(name)
            else:
                top.add_widget(name)
                card.add_widget(top)
            self.cards.append((badge, name, arrow))
            holder = Turned(card, ANGLES[seat]) if facing and seat else card
            holder.size_hint = (None, None)
            self.holders.append(holder)
            area.add_widget(holder)
        self.layout_made = a.layout
        area.bind(size=self.place, pos=self.place)
        self.place()

    def place(self, *_: object) -> None:
        a = app()
        area = self.ids.area
        x0, y0, w, h = area.x, area.y, area.width, area.height
        row = a.line_l + a.mm
        tall = a.line_l + 2 * a.line_m + a.mm
        if a.layout == "facing":
            side = h - 2 * row
            rects = [(x0 + w * 0.25, y0, w * 0.5, row), (x0 + w - tall, y0 + row, tall, side),
                     (x0 + w * 0.25, y0 + h - row, w * 0.5, row), (x0, y0 + row, tall, side)]
        else:
            side_w = w * 0.27
            rects = [(x0 + w * 0.25, y0, w * 0.5, row), (x0 + w - side_w, y0 + (h - tall) / 2, side_w, tall),
                     (x0 + w * 0.25, y0 + h - row, w * 0.5, row), (x0, y0 + (h - tall) / 2, side_w, tall)]
        for holder, (x, y, rw, rh) in zip(self.holders, rects, strict=True):
            holder.pos, holder.size = (x, y), (rw, rh)

    def refresh(self) -> None:
        a = app()
        if self.layout_made != a.layout:
            self.make_cards()
        pub = a.pub
        names = pub["players"]
        winds = pub["winds"]
        for seat, (badge, name, arrow) in enumerate(self.cards):
            badge.text = wind_mark(winds[seat], a.lang)
            name.text = names[seat]
            arrow.text = ARROWS[seat] if a.layout != "facing" else ARROWS[0]
            arrow.font_size = a.fs_m
        east = next((s for s, w in enumerate(winds) if w == "E"), None)
        self.ids.hint.text = tr("sit_here_hint", a.lang, east=names[east]) if east is not None else ""
        seating = a.last_seating  # after rolls (B) or drawn winds (C): who moves where
        self.ids.moves.text = "\n".join(move_lines(seating, names, a.lang)) if seating is not None else ""
        self.place()

