"""Seating (定位), guided: each method says what to do in a line; the dice are entered by touch,
by Random or by the table's dice button. The form — what each method needs, what is missing,
the command, the tied seats that roll again — is :mod:`table_app.present.forms.seating`; this
screen draws it: OK stays disabled until everything needed is in. The engine seats the players
(method B's ties are refused, naming the tied players); then "please sit here" follows, saying
who moves where after rolls or drawn winds (``table_app.present.seating``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from engine.records import Wind
from engine.seats import WINDS
from table_app.present.forms import seating
from table_app.present.table import PLACES
from table_app.present.words import WIND_EN, WIND_ZH, tr
from table_app.ui.dialogs import DicePad
from table_app.ui.screens import Base, app
from table_app.ui.widgets import BigButton, BigToggle, NameLabel, Small, Text, text_width


def wind_name(wind: Wind, lang: str) -> str:
    return (WIND_ZH if lang == "zh" else WIND_EN)[wind]


class SeatingScreen(Base):
    method = StringProperty("A")

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self.choice: seating.SeatingForm = seating.blank()
        self.toggles: dict[tuple[Any, ...], BigToggle] = {}
        self.roll_buttons: list[BigButton] = []
        self.build_areas()
        self.ids.missing.bind(width=lambda *_: self.show_ready())  # (names or a count: as the line's room allows)

    def build_areas(self) -> None:
        a = app()

        def row(head: Text | None = None) -> BoxLayout:
            box = BoxLayout(size_hint_y=None, height=a.touch, spacing=a.mm * 0.8)
            if head is not None:
                head.size_hint_x = None
                head.width = a.mm * 22
                box.add_widget(head)
            return box

        def toggle(box: BoxLayout, value: tuple[Any, ...], group: str) -> BigToggle:
            t = BigToggle(group=group, value=value, allow_no_selection=False)
            t.bind(on_release=lambda btn: self.pick(*btn.value))
            box.add_widget(t)
            self.toggles[value] = t
            return t

        def player_row(seat: int) -> BoxLayout:
            """A seat's row of B and C: where it sits (small), the name whole, then the inputs."""
            box = BoxLayout(size_hint_y=None, height=a.touch, spacing=a.mm * 0.8)
            place, name = Small(halign="left", valign="middle", size_hint_x=None), NameLabel(size_hint_x=None)
            place.bind(size=lambda w, sz: setattr(w, "text_size", sz))
            name.bind(size=lambda w, sz: setattr(w, "text_size", sz))
            self.places.append(place)
            self.names.append(name)
            box.add_widget(place)
            box.add_widget(name)
            return box

        self.heads: dict[str, Small] = {}
        self.places: list[Small] = []
        self.names: list[NameLabel] = []
        area_a = BoxLayout(orientation="vertical", spacing=a.mm * 0.8)
        r = row(head := Small())
        self.heads["roller"] = head
        for s in range(4):
            toggle(r, ("roller", s), "roller")
        area_a.add_widget(r)
        for die in (0, 1):
            r = row(head := Small())
            self.heads[f"die{die}"] = head
            for v in range(1, 7):
                toggle(r, ("dice", die, v), f"die{die}").text = str(v)
            area_a.add_widget(r)
        area_b = BoxLayout(orientation="vertical", spacing=a.mm * 0.5)
        for s in range(4):
            r = player_row(s)
            b = BigButton(action=f"roll_{s}", style="go")
            b.bind(on_release=lambda _b, s=s: self.roll_for(s))
            self.roll_buttons.append(b)
            r.add_widget(b)
            area_b.add_widget(r)
        area_c = BoxLayout(orientation="vertical", spacing=a.mm * 0.5)
        for s in range(4):
            r = player_row(s)
            for w in WINDS:
                toggle(r, ("drew", s, w), f"drew{s}")
            area_c.add_widget(r)
        for box in (area_a, area_b, area_c):
            box.add_widget(BoxLayout())  # the rows at the top
        self.areas = {"A": area_a, "B": area_b, "C": area_c}
        self.ids.area.add_widget(self.areas[self.method])
        self.toggles[("roller", 0)].state = "down"

    def refresh(self) -> None:
        a = app()
        names = list(a.pub["players"])
        self.ids.explain.text = tr(f"explain_{self.method}", a.lang)
        for key, word in (("roller", "who_rolls"), ("die0", "die_1"), ("die1", "die_2")):
            self.heads[key].text = tr(word, a.lang)
        for (kind, *rest), t in self.toggles.items():
            if kind == "roller":
                t.text = names[rest[0]]
            elif kind == "drew":
                t.text = wind_name(rest[1], a.lang)
        self.size_names(names)
        for s, b in enumerate(self.roll_buttons):
            roll = self.choice["rolls"][s]
            b.text = "+".join(map(str, roll)) + f" = {sum(roll)}" if 0 not in roll else tr("slot_roll", a.lang)
        self.show_ready()

    def size_names(self, names: list[str]) -> None:
        """B's and C's rows: the place and the name columns as wide as their widest word, so a
        name is always whole on one line (8 Chinese characters, 12 letters)."""
        a = app()
        places = [tr(f"place_{p}", a.lang) for p in PLACES]
        place_w = max(text_width(p, a.fs_s) for p in places) + a.mm
        name_w = max(text_width(n, a.fs_m) for n in names) + a.mm
        for i, (place, name) in enumerate(zip(self.places, self.names, strict=True)):
            seat = i % 4
            place.text, place.width = places[seat], place_w
            name.text, name.width = names[seat], name_w

    def show_ready(self) -> None:
        a = app()
        self.ids.confirm.disabled = seating.command(self.choice) is None
        room = self.ids.missing.width - a.mm  # (who still rolls by name when the names fit on the line)
        self.ids.missing.text = seating.missing_line(self.choice, a.pub["players"], a.lang,
                                                     fits=lambda line: text_width(line, a.fs_s) <= room)

    def refused(self, code: str, params: Mapping[str, object]) -> None:
        if seating.roll_again(self.choice, code, params):  # the tied players roll again: their rolls are cleared
            self.refresh()

    def set_method(self, m: seating.Method) -> None:
        self.method = self.choice["method"] = m
        # only the chosen method's rows are on the screen (hidden widgets would still take touches)
        self.ids.area.clear_widgets()
        self.ids.area.add_widget(self.areas[m])
        self.refresh()

    def pick(self, what: str, *value: Any) -> None:
        if what == "dice":
            die, v = value
            self.choice["dice"][die] = v
        elif what == "drew":
            seat, wind = value
            self.choice["drew"] = seating.drawn(self.choice["drew"], seat, wind)
            self._show_choice()
            return
        elif what == "roller":
            self.choice["roller"] = value[0]
        self.show_ready()

    def roll_for(self, seat: int) -> None:
        a = app()
        name = (a.pub["players"])[seat]

        def done(x: int, y: int) -> None:
            self.choice["rolls"][seat] = [x, y]
            self.refresh()

        DicePad(on_done=done, title=name).open()

    def dice_from_button(self, dice: list[int] | None = None) -> None:
        """The dice button during seating (``dice``: what the panel's or the GPIO dice showed):
        A fills the roll, B the next seat without one."""
        c = self.choice
        roll = list(dice) if dice is not None else [random.randint(1, 6), random.randint(1, 6)]
        if self.method == "B":
            todo = seating.missing_seats(c)
            if todo:
                c["rolls"][todo[0]] = roll
        else:
            c["dice"] = roll
        self._show_choice()

    def randomise(self) -> None:
        c = self.choice
        c["dice"] = [random.randint(1, 6), random.randint(1, 6)]
        c["rolls"] = [[random.randint(1, 6), random.randint(1, 6)] for _ in range(4)]
        c["drew"] = random.sample(WINDS, 4)
        self._show_choice()

    def _show_choice(self) -> None:
        c = self.choice
        for (kind, *rest), t in self.toggles.items():
            if kind == "dice":
                t.state = "down" if c["dice"][rest[0]] == rest[1] else "normal"
            elif kind == "drew":
                t.state = "down" if c["drew"][rest[0]] == rest[1] else "normal"
        self.refresh()

    def confirm(self) -> None:
        cmd = seating.command(self.choice)
        if cmd is not None:
            app().send(cmd)

