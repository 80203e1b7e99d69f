"""New session: who sits where (by the place on the screen, not a number), picked from the
roster with one tap, the base, the rules (in words, changed on the Rules screen before the
start) and score-only mode.

The form is :mod:`table_app.present.forms.new_session` (its names, base and rules, checked
there, and how the session begins now), the roster's taps
:mod:`table_app.present.forms.roster_pick`; the fee and score-only are this screen's own. The
four places start with the last session's players (else the roster's most recent); a tap on a
place chooses it, a tap on a roster name seats that player there (swapping with the place it
had) and moves on to the next place. ``＋ New name`` asks for a name
(:func:`table_app.ui.name_entry.ask_name`); a new name joins the roster when the session
starts (the service asks the roster). A roster row's 改名 renames the player, who keeps the id
and so the record.

Starting over a session nobody has played a hand in (back from seating to fix the base)
replaces it: the unplayed ``new_session`` is undone and the new one sent (the form's
:func:`~table_app.present.forms.new_session.steps`, as a phone's), and the screen moves on to
seating (issue 28 item 3); over a session being played it asks first. The base is whole points: anything else is refused
with a message and nothing changes (item 4).
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from engine.fields import MAX_AMOUNT
from table_app.core.notices import Answer
from table_app.core.roster import Player, RosterError
from table_app.present.forms import new_session, roster_pick
from table_app.present.forms.refused import Refused
from table_app.present.roster import badge, badge_colour
from table_app.present.table import PLACES
from table_app.present.words import tr
from table_app.ui.dialogs import ConfirmDialog
from table_app.ui.name_entry import ask_name
from table_app.ui.screens import Base, app
from table_app.ui.screens.fee import fee_button, next_fee

SOURCE = "touch"  # (the touchscreen's source, as ``TableApp.send`` writes it)


class RosterBadge(BoxLayout):  # type: ignore[misc]  # Kivy is untyped
    """A name's badge: its first letter on the player's colour."""

    letter = StringProperty("")
    colour = ListProperty([0.45, 0.47, 0.5, 1])

    def show(self, letter: str, index: int) -> None:
        """The badge's letter and colour index (``present.roster.badge``; -1: not in the roster)."""
        self.letter = letter
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
        """The places and the base the form starts with (:func:`new_session.start_names`: the
        last session's, else the roster's most recent players, else four names to change)."""
        a = app()
        pub = a.pub
        for i, name in enumerate(new_session.start_names(pub, [p.name for p in self.roster_players()])):
            self.ids[f"name{i}"].text = name
        self.ids.base.text = str(new_session.start_base(pub))
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
        shown = roster_pick.badges(self.names(), [(p.id, p.name) for p in self.players])
        for i, (letter, index) in enumerate(shown):
            slot = self.ids[f"name{i}"]
            slot.selected = i == self.chosen
            slot.ids.badge.show(letter, index)

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
                row.ids.badge.show(*badge(p.name, p.id))
                row.bind(on_release=lambda r: self.pick(r.text))
                row.ids.rename.bind(on_release=lambda b, pid=p.id, name=p.name: self.ask_rename(pid, name))
                box.add_widget(row)
            self.listed = listed
        seated = set(roster_pick.seated(self.names(), [p.name for p in self.players]))
        for row in box.children:
            row.seated = row.text in seated
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
        """Seat ``name`` at the chosen place (:func:`roster_pick.pick`: the place it had gets the
        chosen place's player), then choose the next place."""
        after = roster_pick.pick(self.names(), self.chosen, name)
        for i, placed in enumerate(after["names"]):
            self.ids[f"name{i}"].text = placed
        self.chosen, self.edited = after["place"], True
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
        base = new_session.check_base(self.ids.base.text)
        if isinstance(base, Refused):
            a.say(base.words(a.lang))
            return
        self.ids.base.text = str(min(MAX_AMOUNT, max(1, base + (1 if up else -1))))

    def start(self) -> None:
        """The form's command (its refusal said, nothing sent) and how it begins now
        (:func:`new_session.steps`): at once, or after undoing the unplayed session it replaces;
        over a session being played, after a yes (its events stay in the journal)."""
        a = app()
        chosen, fee = next_fee()  # (not chosen: the table's default, put in by the service)
        made = new_session.command(self.names(), self.ids.base.text, a.rule_overrides, fee if chosen else None)
        if isinstance(made, Refused):
            a.say(made.words(a.lang))
            return
        score_only = self.ids.score_only.state == "down"
        planned = new_session.steps(a.pub, made, a.read_history)
        if not isinstance(planned, Refused):
            self.send(planned, score_only)
            return

        def yes() -> None:
            again = new_session.steps(a.pub, made, a.read_history, over=True)
            if not isinstance(again, Refused):
                self.send(again, score_only)

        ConfirmDialog(tr("confirm_new", a.lang), yes).open()

    def send(self, steps: list[dict[str, Any]], score_only: bool) -> None:
        """Send the commands that begin the session, in turn (an undo of the unplayed one it
        replaces, then the new session); once it is in effect, on to seating."""
        a = app()
        a.score_only = score_only

        def answered(f: Future[Answer]) -> None:
            ans = f.result()
            if not ans.ok:
                params = dict(ans.params or {})
                Clock.schedule_once(lambda *_: a.show_refusal(ans.code, params, ans.error or "", None), 0)
                return
            self.filled = -1  # (coming back here shows this session's names and base)
            a.fee_next = None  # (the fee chosen for it was this session's: the next takes the default)
            Clock.schedule_once(lambda *_: a.goto(a.home()), 0)

        a.service.submit_in_turn(steps, SOURCE).add_done_callback(answered)
