"""The screens' behaviour; their layout is in ``kv/<screen>.kv`` (one file per screen).

Every screen has ``refresh()`` (re-read ``app.pub`` and the language) and sends commands
only through ``app.send``; nothing here decides a rule — the engine accepts or refuses.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import ListProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from engine.hand import HandError, analyse_win
from engine.rules import Rules
from engine.tiles import TileError, format_tiles, tile_name, tile_text
from table_app.ui import view
from table_app.ui.text import known, rule_lines, tr, wind
from table_app.ui.wallmodel import wall_view
from table_app.ui.widgets import SEAT_COLOURS, BigButton, BigToggle, ChoiceDialog, ConfirmDialog, DicePad


def _app() -> Any:
    return App.get_running_app()


class Base(Screen):  # type: ignore[misc]  # Kivy is untyped
    def refresh(self) -> None:
        pass


class SessionScreen(Base):
    """New session: four names, base, rule preset (options explained), table id."""

    rules_text = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(name="session", **kw)

    def refresh(self) -> None:
        self.rules_text = "\n".join(rule_lines(_app().lang))

    def start(self) -> None:
        ids = self.ids
        names = [ids[f"name{i}"].text.strip() or tr("player_n", "zh", n=i + 1) for i in range(4)]
        try:
            base = int(ids.base.text)
        except ValueError:
            _app().message = tr("refused", _app().lang, error=f"base {ids.base.text!r}")
            return
        app = _app()
        command = {"type": "new_session", "players": names, "base": base}
        if app.pub.get("phase") in (None, "idle", "ended"):
            app.send(command)
        else:  # a session is being played: starting over needs a yes (its events stay in the journal)
            ConfirmDialog(tr("confirm_new", app.lang), lambda: app.send(command)).open()


class SeatingScreen(Base):
    """Seating by method A (one roll), B (everyone rolls) or C (wind tiles): dice by touch."""

    method = StringProperty("A")
    names = ListProperty(["", "", "", ""])

    def __init__(self, **kw: Any) -> None:
        super().__init__(name="seating", **kw)
        self.choice: dict[str, Any] = {"roller": 0, "east": 0, "dice": [0, 0], "rolls": [[0, 0] for _ in range(4)]}

    def on_kv_post(self, base_widget: Any) -> None:
        from kivy.uix.boxlayout import BoxLayout

        def row(label: str, values: list[tuple[Any, str]], group: str, width: float = dp(110)) -> BoxLayout:
            box = BoxLayout(spacing=dp(3), size_hint_y=None, height=dp(52))
            box.add_widget(Label(text=label, size_hint_x=None, width=width))
            for value, text in values:
                t = BigToggle(text=text, group=group, value=value)
                t.bind(on_release=self._pick_toggle)
                box.add_widget(t)
            return box

        def dice_row(label: str, kind: str, index: int, die: int) -> BoxLayout:
            vals = [((kind, v, index, die), str(v)) for v in range(1, 7)]
            box = row(label, [], f"{kind}{index}{die}", dp(110) if kind == "dice" else dp(24))
            for value, text in vals:
                t = BigToggle(text=text, group=f"{kind}{index}{die}", value=value)
                t.bind(on_release=lambda btn: self._pick_die(btn))
                box.add_widget(t)
            return box

        def area() -> BoxLayout:
            return BoxLayout(orientation="vertical", spacing=dp(4))

        self.areas = {"A": area(), "B": area(), "C": area()}
        a = self.areas["A"]
        self.roller_row = row("", [(("roller", s), str(s)) for s in range(4)], "roller")
        a.add_widget(self.roller_row)
        self.die_labels = []
        for die in (0, 1):
            r = dice_row("", "dice", 0, die)
            self.die_labels.append((r.children[-1], die + 1))
            a.add_widget(r)
        b = self.areas["B"]
        for seat in range(4):
            line = BoxLayout(spacing=dp(6))
            line.add_widget(dice_row(str(seat), "rolls", seat, 0))
            line.add_widget(dice_row("", "rolls", seat, 1))
            b.add_widget(line)
        self.east_row = row("", [(("east", s), str(s)) for s in range(4)], "east")
        self.areas["C"].add_widget(self.east_row)
        for box in self.areas.values():
            box.add_widget(Widget())  # the rows at the top
        self.ids.area.add_widget(self.areas[self.method])

    def _pick_toggle(self, btn: Any) -> None:
        if btn.state == "down":
            self.pick(btn.value[0], btn.value[1])

    def _pick_die(self, btn: Any) -> None:
        kind, v, index, die = btn.value
        if btn.state == "down":
            self.pick(kind, v, index, die)

    def refresh(self) -> None:
        app = _app()
        self.names = list(app.pub.get("players") or ["", "", "", ""])
        labels = {"roller": tr("roller", app.lang), "east": tr("east_is", app.lang)}
        for label, n in self.die_labels:
            label.text = tr("die_n", app.lang, n=n)
        for r, key in ((self.roller_row, "roller"), (self.east_row, "east")):
            for w in r.children:
                if isinstance(w, BigToggle):
                    w.text = f"{w.value[1]} {self.names[w.value[1]]}"
                else:
                    w.text = labels[key]

    def set_method(self, m: str) -> None:
        self.method = m
        # only the chosen method's rows are on the screen (hidden widgets would still take touches)
        self.ids.area.clear_widgets()
        self.ids.area.add_widget(self.areas[m])

    def pick(self, what: str, value: int, index: int = 0, die: int = 0) -> None:
        if what == "rolls":
            self.choice["rolls"][index][die] = value
        elif what == "dice":
            self.choice["dice"][die] = value
        else:
            self.choice[what] = value

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
        self._show_choice()

    def _show_choice(self) -> None:
        c = self.choice
        toggles = [w for box in self.areas.values() for w in box.walk() if isinstance(w, BigToggle)]
        for w in toggles:
            if isinstance(w.value, tuple) and w.value[0] in ("dice", "rolls"):
                kind, v, index, die = w.value
                want = c["dice"][die] if kind == "dice" else c["rolls"][index][die]
                w.state = "down" if v == want else "normal"

    def confirm(self) -> None:
        c = self.choice
        if self.method == "A":
            cmd = {"type": "seating", "method": "A", "roller": c["roller"], "dice": list(c["dice"])}
        elif self.method == "B":
            cmd = {"type": "seating", "method": "B", "rolls": [list(r) for r in c["rolls"]]}
        else:
            cmd = {"type": "seating", "method": "C", "east": c["east"]}
        _app().send(cmd)


class TableScreen(Base):
    """The four seats in their places, the wall in the middle, the status and the claims."""

    status = StringProperty("")
    info = StringProperty("")
    wall_text = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(name="table", **kw)

    def on_kv_post(self, base_widget: Any) -> None:
        for seat in range(4):
            self.panel(seat).on_action = self.action

    def panel(self, seat: int) -> Any:
        return self.ids[f"seat{seat}"]

    def refresh(self) -> None:
        app = _app()
        pub, lang = app.pub, app.lang
        leds = view.led_modes(pub)
        for seat in range(4):
            p = self.panel(seat)
            lines = view.seat_lines(pub, seat, lang)
            p.title, p.mark, p.score, p.detail = lines["title"], lines["mark"], lines["score"], lines["detail"]
            if pub.get("phase") == "betting":
                p.detail = f"{tr('bet', lang)} {app.pending_bets[seat]}"
            acts = view.buttons(pub, seat)
            p.active = (bool(acts) and pub.get("phase") != "claims") or pub.get("turn") == seat
            p.betting = pub.get("phase") == "betting"
            p.set_actions(acts, lang)
            p.led = leds[seat]
        self.ids.bets_done.opacity = 1 if pub.get("phase") == "betting" else 0
        self.ids.bets_done.disabled = pub.get("phase") != "betting"
        self.info = view.info_line(pub, lang)
        self.ids.wall.view = wall_view(pub)
        self.wall_text = wall_summary(pub, lang)
        self.update_status()

    def update_status(self) -> None:
        app = _app()
        self.status = view.status_line(app.pub, app.lang, app.claim_left())

    def flash(self, seat: int, word: str, refused: bool = False) -> None:
        self.panel(seat).flash(word, refused)

    def action(self, seat: int, action: str) -> None:
        app = _app()
        if action in ("bet_up", "bet_down"):
            app.pending_bets[seat] = max(0, app.pending_bets[seat] + (1 if action == "bet_up" else -1))
            self.refresh()
            return
        if action == "roll":
            first = (app.pub.get("dice") or {}).get("dealer") is None
            name = (app.pub.get("players") or [""] * 4)[seat]
            what = tr("roll_wall" if first else "roll_break", app.lang)
            pad = DicePad(on_done=lambda a, b: self.roll(seat, a, b),
                          title=tr("rolls_next", app.lang, name=name, what=what))
            pad.open()
            return
        app.send(view.command(action, seat))

    def roll(self, seat: int, a: int, b: int) -> None:
        app = _app()
        if app.pub.get("phase") == "betting" and any(app.pending_bets):
            app.send({"type": "bets", "bets": list(app.pending_bets)})
        app.send(view.command("roll", seat, dice=(a, b)))

    def ask_kong(self, seat: int) -> None:
        """The seat may declare more than one kind of kong (the engine cannot tell which the
        player means): ask, and send the kong event of the kind chosen."""
        app = _app()
        def declare(kind: str) -> Callable[[], None]:
            return lambda: app.send({"type": "kong", "seat": seat, "kind": kind})

        ChoiceDialog(tr("kong_which", app.lang),
                     [(tr(f"kong_{kind}", app.lang), declare(kind)) for kind in ("concealed", "added")]).open()

    def bets_done(self) -> None:
        app = _app()
        app.send({"type": "bets", "bets": list(app.pending_bets)})


def wall_summary(pub: dict[str, Any], lang: str) -> str:
    w = pub.get("wall") or {}
    b = pub.get("break")
    if not b:
        return ""
    players = pub.get("players") or [""] * 4
    if lang == "zh":
        head = f"{players[b['owner']]}墙 第{b['count']}墩断" if b["count"] <= 17 else \
            f"{players[b['owner']]}墙 数{b['count']}墩（入{players[b['wall']]}墙第{b['stack']}墩）"
        return (f"{head} · 剩{w.get('remaining')}张 · 可摸{w.get('drawable')}张 · "
                f"留{w.get('reserve_stacks')}墩 · 杠{w.get('kongs')}")
    return (f"break: {players[b['owner']]}'s wall, count {b['count']} (tail: wall of {players[b['wall']]}, "
            f"stack {b['stack']}) · {w.get('remaining')} left · {w.get('drawable')} drawable · "
            f"reserve {w.get('reserve_stacks')} stacks · kongs {w.get('kongs')}")


class WallScreen(Base):
    """The wall drawn large with its legend."""

    wall_text = StringProperty("")
    legend = StringProperty("")
    owners = ListProperty(["", "", "", ""])

    def __init__(self, **kw: Any) -> None:
        super().__init__(name="wall", **kw)

    def refresh(self) -> None:
        app = _app()
        self.ids.wall.view = wall_view(app.pub)
        players = app.pub.get("players") or [""] * 4
        winds = app.pub.get("winds") or [None] * 4
        mine = "的墙" if app.lang == "zh" else "'s wall"
        self.owners = [f"{wind(winds[s], app.lang)} {players[s]}{mine}".strip() for s in range(4)]
        self.wall_text = wall_summary(app.pub, app.lang)
        self.legend = ("象牙色=在墙 深色=已摸 橙色=补牌(上明杠/下暗杠) 红框=留牌墩 绿框=下一张 蓝框=最后一墩 白圈=断点"
                       if app.lang == "zh" else
                       "ivory = on the table, dark = drawn, orange = kong replacement (upper: exposed, lower: "
                       "concealed), red edge = kong reserve, green = next draw, blue = tail, white ring = break")


TILE_ROWS = [list(range(0, 9)), list(range(9, 18)), list(range(18, 27)), list(range(27, 34))]
WAITS = ("closed", "single", "edge", "plain")


class WinScreen(Base):
    """Confirm a declared win: the wait by one tap, or the hand tapped in and checked."""

    title_text = StringProperty("")
    hand_text = StringProperty("")
    verdict = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(name="win", **kw)
        self.concealed: list[int] = []
        self.melds: list[list[int]] = []
        self.in_meld = False

    def on_kv_post(self, base_widget: Any) -> None:
        kb = self.ids.keyboard
        for row in TILE_ROWS:
            for t in row:
                b = BigButton(text=tile_text(t), action=tile_text(t))
                b.bind(on_release=lambda btn, t=t: self.tap(t))
                kb.add_widget(b)

    def refresh(self) -> None:
        app = _app()
        p = app.pub.get("pending_win") or {}
        names = app.pub.get("players") or [""] * 4
        if p:
            self.title_text = tr("win_by", app.lang, name=names[p["seat"]], kind=tr(f"kind_{p['kind']}", app.lang))
        for w in self.ids.waits.children:
            w.text = tr(f"wait_{w.action}", app.lang)
        for b in self.ids.keyboard.children:
            t = b.action
            b.text = t if app.lang == "en" else _short_zh(t)
        self.show()

    def wait(self, kind: str) -> None:
        _app().send({"type": "confirm_win", "wait": kind})

    def reject(self) -> None:
        _app().send({"type": "reject_win"})

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
        if not self.concealed:
            return None
        return format_tiles(self.concealed), self.concealed[-1], [format_tiles(m) for m in self.melds if m]

    def show(self) -> None:
        app = _app()
        got = self.entered()
        melds = " ".join(f"[{format_tiles(m)}]" for m in self.melds)
        self.hand_text = (format_tiles(self.concealed) if self.concealed else "—") + (" " + melds if melds else "")
        if got is not None:
            self.hand_text += f"   ← {tile_text(got[1])} {tile_name(got[1], app.lang)}"
        self.verdict = ""
        if got is None:
            return
        hand, win, melds_text = got
        need = len((app.pub.get("seats") or [{}] * 4)[(app.pub.get("pending_win") or {}).get("seat", 0)]
                   .get("melds", [])) if app.pub.get("seats") else 0
        if len(self.concealed) + 3 * len(melds_text) != 14:
            self.verdict = f"{len(self.concealed) + 3 * len(melds_text)}/14"
            if need and len(melds_text) != need:
                self.verdict += " · " + tr("need_melds", app.lang, n=need)
            return
        try:
            a = analyse_win(hand, win, melds_text, Rules.from_overrides(app.pub.get("rules") or {}))
        except (HandError, TileError, ValueError) as e:
            self.verdict = str(e)
            return
        if not a.winning or a.wait is None:
            self.verdict = tr("not_winning", app.lang)
        else:
            self.verdict = tr("reads_as", app.lang, wait=tr(f"wait_{a.wait}", app.lang),
                              bonus=tr("bonus_yes", app.lang) if a.bonus else "")

    def confirm_hand(self) -> None:
        got = self.entered()
        if got is None:
            return
        hand, win, melds = got
        cmd: dict[str, Any] = {"type": "confirm_win", "hand": hand, "win_tile": tile_text(win)}
        if melds:
            cmd["melds"] = melds
        _app().send(cmd)

    def on_leave(self, *args: Any) -> None:
        self.clear()


def _short_zh(text: str) -> str:
    n, suit = text[0], text[1]
    if suit == "z":
        return "东南西北中发白"[int(n) - 1]
    return n + {"m": "万", "p": "筒", "s": "条"}[suit]


class SettlementScreen(Base):
    lines = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(name="settlement", **kw)

    def refresh(self) -> None:
        app = _app()
        self.lines = "\n".join(view.settlement_lines(app.pub, app.lang))
        grid = self.ids.rows
        grid.clear_widgets()
        for text in ("", tr("delta", app.lang), tr("total", app.lang)):
            grid.add_widget(Label(text=text, bold=True))
        for seat, row in enumerate(view.score_rows(app.pub, app.lang)):
            for text in row:
                grid.add_widget(Label(text=text, color=SEAT_COLOURS[seat], font_size="22sp"))

    def next_hand(self) -> None:
        _app().send({"type": "next_hand"})

    def end_session(self) -> None:
        _app().send({"type": "end_session"})


class ScoresScreen(Base):
    def __init__(self, **kw: Any) -> None:
        super().__init__(name="scores", **kw)

    def refresh(self) -> None:
        app = _app()
        series = [list(s) for _, s in app.totals] or [[0, 0, 0, 0]]
        now = list(app.pub.get("scores") or [0, 0, 0, 0])
        if now != series[-1]:  # kongs already paid in the hand being played
            series.append(now)
        self.ids.chart.series = series
        legend = self.ids.legend
        legend.clear_widgets()
        names = app.pub.get("players") or [""] * 4
        scores = app.pub.get("scores") or [0] * 4
        for seat in range(4):
            legend.add_widget(Label(text=f"{names[seat]}  {scores[seat]}", color=SEAT_COLOURS[seat]))
        self.ids.hands.text = (f"{len(app.totals) - 1} 局" if app.lang == "zh" else f"{len(app.totals) - 1} hands") \
            if app.totals else ""


class HistoryScreen(Base):
    def __init__(self, **kw: Any) -> None:
        super().__init__(name="history", **kw)

    def refresh(self) -> None:
        app = _app()
        box = self.ids.events
        box.clear_widgets()
        names = app.pub.get("players") or [""] * 4
        for seq, ev, source in reversed(app.in_effect[-40:]):
            row = _history_row(seq, describe(ev, names), source, app.lang, self.undo_to)
            box.add_widget(row)
        self.ids.redo.disabled = not app.redo_list

    def undo(self) -> None:
        app = _app()
        if not app.in_effect:
            return
        seq, ev, _ = app.in_effect[-1]
        what = f"#{seq} {describe(ev, app.pub.get('players') or [''] * 4)}"
        ConfirmDialog(tr("confirm_undo", app.lang, what=what), lambda: app.send({"type": "undo"})).open()

    def undo_to(self, seq: int) -> None:
        app = _app()
        ConfirmDialog(tr("confirm_undo_to", app.lang, seq=seq), lambda: app.send({"type": "undo", "to": seq})).open()

    def redo(self) -> None:
        app = _app()
        ConfirmDialog(tr("confirm_redo", app.lang), lambda: app.send({"type": "redo"})).open()


def _history_row(seq: int, text: str, source: str, lang: str, undo_to: Any) -> Any:
    from kivy.uix.boxlayout import BoxLayout

    row = BoxLayout(size_hint_y=None, height=dp(50), spacing=dp(6))
    row.add_widget(Label(text=f"#{seq}", size_hint_x=None, width=dp(60)))
    label = Label(text=text, halign="left", valign="middle", shorten=True)
    label.bind(size=lambda w, size: setattr(w, "text_size", size))
    row.add_widget(label)
    row.add_widget(Label(text=source, size_hint_x=None, width=dp(90), color=(0.7, 0.7, 0.7, 1)))
    b = BigButton(text=tr("undo_to", lang), size_hint_x=None, width=dp(150), action="undo_to", seat=seq)
    b.bind(on_release=lambda *_: undo_to(seq))
    row.add_widget(b)
    return row


def describe(ev: dict[str, Any], names: list[str]) -> str:
    """One line for an event in the history."""
    t = ev.get("type", "?")
    who = names[ev["seat"]] if isinstance(ev.get("seat"), int) and ev["seat"] < len(names) else ""
    rest = {k: v for k, v in ev.items() if k not in ("type", "seat")}
    text = " ".join(f"{k}={v}" for k, v in rest.items())
    return f"{t} {who} {text}".strip()


class SettingsScreen(Base):
    links = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(name="settings", **kw)

    def refresh(self) -> None:
        from kivy.core.window import Window

        app = _app()
        lang = app.lang
        rows = []
        for k in ("hardware", "panel", "mqtt"):
            v = app.links.get(k, "not_connected")
            head, _, rest = v.partition(" · ")
            rows.append((tr(k, lang), (tr(head, lang) if known(head) else head) + (f" · {rest}" if rest else "")))
        rows.append((tr("font", lang), app.font_path or tr("no_font", lang)))
        rows.append((tr("journal", lang), app.links.get("journal", "")))
        rows.append(("window", f"{Window.width}×{Window.height}"))
        rows.append(("claim window", f"{app.service.claim_window_s:g} s"))
        if app.sim:
            rows.append(("sim", tr("keys_help", lang)))
        self.links = "\n".join(f"{a}: {b}" for a, b in rows)


ALL = (SessionScreen, SeatingScreen, TableScreen, WallScreen, WinScreen, SettlementScreen, ScoresScreen,
       HistoryScreen, SettingsScreen)
