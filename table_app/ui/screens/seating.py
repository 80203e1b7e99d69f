"""Seating (定位), guided: each method says what to do in a line; method A's roller is
preselected (the bottom seat); the dice are entered by touch, by Random or by the table's dice
button; OK stays disabled until every die needed is in. The engine seats the players
(method B's ties are refused, naming the tied players); then "please sit here" follows."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from table_app.present.table import PLACES
from table_app.present.words import names_list, tr
from table_app.ui.dialogs import DicePad
from table_app.ui.screens import Base, app
from table_app.ui.widgets import BigButton, BigToggle, Small, Text


def seating_command(method: str, choice: dict[str, Any]) -> dict[str, Any] | None:
    """The seating event the form describes, or None while something is missing.

    >>> seating_command("A", {"roller": 0, "dice": [2, 3], "rolls": [[0, 0]] * 4, "east": None})
    {'type': 'seating', 'method': 'A', 'roller': 0, 'dice': [2, 3]}
    >>> seating_command("C", {"roller": 0, "dice": [0, 0], "rolls": [[0, 0]] * 4, "east": None}) is None
    True
    """
    if method == "A":
        if choice["roller"] is None or 0 in choice["dice"]:
            return None
        return {"type": "seating", "method": "A", "roller": choice["roller"], "dice": list(choice["dice"])}
    if method == "B":
        if any(0 in r for r in choice["rolls"]):
            return None
        return {"type": "seating", "method": "B", "rolls": [list(r) for r in choice["rolls"]]}
    if choice["east"] is None:
        return None
    return {"type": "seating", "method": "C", "east": choice["east"]}


class SeatingScreen(Base):
    method = StringProperty("A")

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self.choice: dict[str, Any] = {"roller": 0, "east": None, "dice": [0, 0], "rolls": [[0, 0] for _ in range(4)]}
        self.toggles: dict[tuple[Any, ...], BigToggle] = {}
        self.roll_buttons: list[BigButton] = []
        self.build_areas()

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

        self.heads: dict[str, Small] = {}
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
        area_b = BoxLayout(orientation="vertical", spacing=a.mm * 0.8)
        self.b_names: list[Text] = []
        for s in range(4):
            r = row(name := Text(halign="left"))
            name.bind(size=lambda w, sz: setattr(w, "text_size", sz))
            name.size_hint_x, name.width = None, a.mm * 60
            self.b_names.append(name)
            b = BigButton(action=f"roll_{s}", style="go")
            b.bind(on_release=lambda _b, s=s: self.roll_for(s))
            self.roll_buttons.append(b)
            r.add_widget(b)
            area_b.add_widget(r)
        area_c = BoxLayout(orientation="vertical", spacing=a.mm * 0.8)
        r = row(head := Small())
        self.heads["east"] = head
        for s in range(4):
            toggle(r, ("east", s), "east")
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
        for key, word in (("roller", "who_rolls"), ("die0", "die_1"), ("die1", "die_2"), ("east", "who_east")):
            self.heads[key].text = tr(word, a.lang)
        for (kind, *rest), t in self.toggles.items():
            if kind in ("roller", "east"):
                t.text = names[rest[0]]
        for s, (label, b) in enumerate(zip(self.b_names, self.roll_buttons, strict=True)):
            label.text = f"{names[s]}（{tr('place_' + PLACES[s], a.lang)}）" if a.lang == "zh" else \
                f"{names[s]} ({tr('place_' + PLACES[s], a.lang)})"
            roll = self.choice["rolls"][s]
            b.text = "+".join(map(str, roll)) + f" = {sum(roll)}" if 0 not in roll else tr("slot_roll", a.lang)
        self.show_ready()

    def show_ready(self) -> None:
        a = app()
        cmd = seating_command(self.method, self.choice)
        self.ids.confirm.disabled = cmd is None
        missing = ""
        if cmd is None and self.method == "B":
            names = a.pub["players"]
            missing = tr("dice_missing", a.lang,
                         names=names_list([names[s] for s, r in enumerate(self.choice["rolls"]) if 0 in r], a.lang))
        self.ids.missing.text = missing

    def refused(self, code: str, params: Mapping[str, object]) -> None:
        if code == "seating.ties":  # the tied players roll again: their rolls are cleared
            tied = params.get("tied")
            for seat in tied if isinstance(tied, list) else []:
                self.choice["rolls"][seat] = [0, 0]
            self.refresh()

    def set_method(self, m: str) -> None:
        self.method = m
        # only the chosen method's rows are on the screen (hidden widgets would still take touches)
        self.ids.area.clear_widgets()
        self.ids.area.add_widget(self.areas[m])
        self.refresh()

    def pick(self, what: str, *value: int) -> None:
        if what == "dice":
            die, v = value
            self.choice["dice"][die] = v
        else:
            self.choice[what] = value[0]
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
            todo = [i for i, r in enumerate(c["rolls"]) if 0 in r]
            if todo:
                c["rolls"][todo[0]] = roll
        else:
            c["dice"] = roll
        self._show_choice()

    def randomise(self) -> None:
        c = self.choice
        c["dice"] = [random.randint(1, 6), random.randint(1, 6)]
        c["rolls"] = [[random.randint(1, 6), random.randint(1, 6)] for _ in range(4)]
        if c["east"] is None:
            c["east"] = random.randrange(4)
        self._show_choice()

    def _show_choice(self) -> None:
        c = self.choice
        for (kind, *rest), t in self.toggles.items():
            if kind == "dice":
                t.state = "down" if c["dice"][rest[0]] == rest[1] else "normal"
            elif kind == "east":
                t.state = "down" if c["east"] == rest[0] else "normal"
        self.refresh()

    def confirm(self) -> None:
        cmd = seating_command(self.method, self.choice)
        if cmd is not None:
            if self.method == "B":  # a tie is refused: those seats roll again
                self.choice["rolls"] = [list(r) for r in self.choice["rolls"]]
            app().send(cmd)

