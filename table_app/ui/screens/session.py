"""New session: who sits where (by the place on the screen, not a number), picked from the
roster with one tap, the base, the rules (in words, changed on the Rules screen before the
start) and score-only mode.

The four places start with the last session's players (else the roster's four most recent);
a tap on a place chooses it, a tap on a roster name seats that player there (swapping with the
place it had) and moves on to the next place. ``＋ New name`` asks for a name
(:func:`table_app.ui.name_entry.ask_name`); a new name joins the roster when the session
starts (the service asks the roster). A roster row's 改名 renames the player, who keeps the id
and so the record.

Starting over a session nobody has played a hand in (back from seating to fix the base)
replaces it: the unplayed ``new_session`` is undone and the new one sent, and the screen
moves on to seating (issue 28 item 3). The base is whole points: anything else is refused
with a message and nothing changes (item 4).
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from engine.authority import new_session_way
from engine.fields import MAX_AMOUNT
from table_app.core.notices import Answer
from table_app.core.roster import Player, RosterError
from table_app.present.names import names_problem
from table_app.present.roster import badge, badge_colour, parse_base
from table_app.present.table import PLACES
from table_app.present.words import DEFAULT_NAMES, tr
from table_app.ui.dialogs import ConfirmDialog
from table_app.ui.name_entry import ask_name
from table_app.ui.screens import Base, app
from table_app.ui.screens.fee import fee_button, next_fee

SOURCE = "touch"  # (the touchscreen's source, as ``TableApp.send`` writes it)


class RosterBadge(BoxLayout):  # type: ignore[misc]  # Kivy is untyped
    """A name's badge: its first letter on the player's colour."""

    letter = StringProperty("")
    colour = ListProperty([0.45, 0.47, 0.5, 1])

    def show(self, name: str, pid: int | None) -> None:
        self.letter, index = badge(name, pid)
        self.colour = list(badge_colour(index))


class SeatSlot(ButtonBehavior, BoxLayout):  # type: ignore[misc]  # Kivy is untyped
    """One place's player: badge and name; a tap chooses the place for the next name tapped."""

    text = StringProperty("")
    seat = NumericProperty(0)
    selected = BooleanProperty(False)
    action = StringProperty("")


class RosterRow(ButtonBehavior, BoxLayout):  # type: ignore[misc]  # Kivy is untyped
    """A roster player (a tap seats them) with its rename button."""

    text = StringProperty("")
    pid = NumericProperty(0)
    seated = BooleanProperty(False)
    action = StringProperty("")


class SessionScreen(Base):
    chosen = NumericProperty(0)  # the place the next name tapped goes to

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.filled = -1  # the table's seq when the places were filled (-1: to fill)
        self.edited = False  # a place was changed here since: a change of the table keeps them
        self.players: list[Player] = []
        self.listed: tuple[tuple[int, str], ...] = ()  # the roster as its rows show it

    # -- what the screen shows ----------------------------------------------------------------

    def fill(self) -> None:
        """The places and the base as the last session had them (else the roster's four most
        recent players, else four names to change)."""
        a = app()
        pub = a.pub
        names = [n for n in pub["players"] if n]
        if len(names) < 4:
            recent = [p.name for p in self.roster_players()[:4]]
            names = recent if len(recent) == 4 else list(DEFAULT_NAMES)
        for i, name in enumerate(names):
            self.ids[f"name{i}"].text = name
        self.ids.base.text = str(pub["base"] if pub["phase"] != "idle" else 1)
        self.chosen = 0
        self.filled, self.edited = a.seq, False

    def roster_players(self) -> list[Player]:
        roster = app().service.roster
        return [] if roster is None else roster.players()

    def refresh(self) -> None:
        a = app()
        if self.filled != a.seq and not self.edited:
            self.fill()
        n = len(a.rule_overrides)
        self.ids.rules.text = tr("ro_rules_changed", a.lang, n=n) if n else tr("ro_rules_default", a.lang)
        self.ids.score_only.state = "down" if a.score_only else "normal"
        self.ids.fee.text = fee_button()
        for i, place in enumerate(PLACES):
            self.ids[f"place{i}"].text = tr(f"place_{place}", a.lang)
        self.players = self.roster_players()
        self.show_places()
        self.show_roster()

    def show_places(self) -> None:
        by_name = {p.name.casefold(): p.id for p in self.players}
        for i in range(4):
            slot = self.ids[f"name{i}"]
            slot.selected = i == self.chosen
            slot.ids.badge.show(slot.text, by_name.get(slot.text.strip().casefold()))

    def show_roster(self) -> None:
        """The roster's rows: made again only when the roster changed (a refresh comes with
        every change of the table; new widgets each time would only cost memory)."""
        a = app()
        box = self.ids.roster
        listed = tuple((p.id, p.name) for p in self.players)
        if listed != self.listed:
            box.clear_widgets()
            for p in self.players:
                row = RosterRow(text=p.name, pid=p.id, action=f"roster_{p.id}")
                row.ids.badge.show(p.name, p.id)
                row.bind(on_release=lambda r: self.pick(r.text))
                row.ids.rename.bind(on_release=lambda b, pid=p.id, name=p.name: self.ask_rename(pid, name))
                box.add_widget(row)
            self.listed = listed
        seated = {n.strip().casefold() for n in self.names()}
        for row in box.children:
            row.seated = row.text.casefold() in seated
            row.ids.rename.text = tr("ro_rename", a.lang)
        roster = a.service.roster
        self.ids.roster_note.text = tr("ro_off", a.lang, why=roster.problem) if roster is not None and \
            roster.problem else tr("ro_pick", a.lang) if self.players else tr("ro_nobody", a.lang)

    def names(self) -> list[str]:
        return [self.ids[f"name{i}"].text.strip() for i in range(4)]

    # -- picking ------------------------------------------------------------------------------

    def choose(self, seat: int) -> None:
        self.chosen, self.edited = seat, True
        self.show_places()

    def pick(self, name: str) -> None:
        """Seat ``name`` at the chosen place (the place it had gets the chosen place's player),
        then choose the next place."""
        names = self.names()
        here = self.chosen
        if name in names:
            self.ids[f"name{names.index(name)}"].text = names[here]
        self.ids[f"name{here}"].text = name
        self.chosen, self.edited = (here + 1) % 4, True
        self.refresh()

    def ask_new(self) -> None:
        """A new name, typed on the name keyboard, for the chosen place."""
        ask_name(app().lang, self.pick)

    def ask_rename(self, pid: int, old: str) -> None:
        ask_name(app().lang, lambda new: self.rename(pid, old, new), initial=old)

    def rename(self, pid: int, old: str, new: str) -> None:
        a = app()
        roster = a.service.roster
        if roster is None:
            return
        try:
            player = roster.rename(pid, new)
        except RosterError as e:
            word = {"roster.name_taken": "ro_name_taken", "roster.bad_name": "ro_bad_name"}.get(e.code)
            a.say(tr(word, a.lang, name=new) if word else tr("ro_off", a.lang, why=str(e)))
            return
        for i, name in enumerate(self.names()):
            if name.casefold() == old.casefold():
                self.ids[f"name{i}"].text = player.name
        a.say(tr("ro_renamed", a.lang, old=old, new=player.name))
        self.refresh()

    # -- starting -----------------------------------------------------------------------------

    def step_base(self, up: bool) -> None:
        """− or + one point (1..MAX_AMOUNT); a base typed that is not whole points is refused as at 开始."""
        a = app()
        base = parse_base(self.ids.base.text)
        if base is None:
            a.say(tr("ro_base_bad", a.lang, max=f"{MAX_AMOUNT:,}", text=self.ids.base.text.strip()))
            return
        self.ids.base.text = str(min(MAX_AMOUNT, max(1, base + (1 if up else -1))))

    def start(self) -> None:
        a = app()
        names = self.names()
        problem = names_problem(names, a.lang)
        if problem:
            a.say(problem)
            return
        base = parse_base(self.ids.base.text)
        if base is None:
            a.say(tr("ro_base_bad", a.lang, max=f"{MAX_AMOUNT:,}", text=self.ids.base.text.strip()))
            return
        command: dict[str, Any] = {"type": "new_session", "players": names, "base": base}
        if a.rule_overrides:
            command["rules"] = dict(a.rule_overrides)
        chosen, fee = next_fee()
        if chosen:  # (else the table's default, put in by the service)
            command["fee"] = fee
        score_only = self.ids.score_only.state == "down"
        way = new_session_way(a.pub)
        if way == "start":
            self.send(command, score_only, None)
            return
        history = a.read_history()
        first = history.in_effect[0] if history.in_effect else None
        if way == "replace" and first is not None and first.event.TYPE == "new_session":
            self.send(command, score_only, (history.before, history.in_effect[-1].seq))  # (nothing to lose)
            return
        # a session is being played: starting over needs a yes (its events stay in the journal)
        ConfirmDialog(tr("confirm_new", a.lang), lambda: self.send(command, score_only, None)).open()

    def send(self, command: dict[str, Any], score_only: bool, replace: tuple[int, int] | None) -> None:
        """Send the new session (after undoing the unplayed one it replaces: ``(to, last)``);
        once it is in effect, on to seating."""
        a = app()
        a.score_only = score_only

        def answered(f: Future[Answer], then: Any) -> None:
            ans = f.result()
            if ans.ok:
                then()
            else:
                params = dict(ans.params or {})
                Clock.schedule_once(lambda *_: a.show_refusal(ans.code, params, ans.error or "", None), 0)

        def started() -> None:
            self.filled = -1  # (coming back here shows this session's names and base)
            a.fee_next = None  # (the fee chosen for it was this session's: the next takes the default)
            Clock.schedule_once(lambda *_: a.goto(a.home()), 0)

        def new_session() -> None:
            a.service.submit(command, SOURCE).add_done_callback(lambda f: answered(f, started))

        if replace is None:
            new_session()
        else:
            undo = {"type": "undo", "to": replace[0], "last": replace[1]}
            a.service.submit(undo, SOURCE).add_done_callback(lambda f: answered(f, new_session))
