"""The table fee (台费, issue 31): how the house charges — by the hour, the hand (局), the round
(圈) or the session, a minimum and a cap, who pays (AA, 大赢家付, the winners in proportion) and
each seat's tea (茶水) — set for the session being played (the ``fee`` event), for the next one
(``new_session.fee``) or as the table's default (the config's ``[fee]``). Reached from the menu
and from the new session's form. Amounts are whole points, − and + beside each (no keyboard
needed); a value refused is said in the screen's language and nothing is sent. The setting in
words, as every screen says it, is shown as it is chosen (``present.fees``). The form itself —
its choices, steps, checks and the ``fee`` command — is :mod:`table_app.present.forms.fee`; this
screen draws it."""

from __future__ import annotations

from table_app.present.fees import FeeJSON, setting_line
from table_app.present.forms import fee as form
from table_app.present.forms.fee import AMOUNTS, MODES, PAYERS, FeeForm
from table_app.present.forms.refused import Refused
from table_app.present.money import points_text
from table_app.present.words import tr
from table_app.ui import palette as P
from table_app.ui.fee_default import save_default, table_default
from table_app.ui.screens import Base, app


def next_fee() -> tuple[bool, FeeJSON | None]:
    """The fee chosen here for the next session: ``(chosen, setting)`` (not chosen: the table's default)."""
    chosen = app().fee_next
    return (False, None) if chosen is None else (True, chosen[0])


def fee_button() -> str:
    """The new session's fee button: the next session's fee in a few words ("台费：每小时 30")."""
    a = app()
    chosen, setting = next_fee()
    fee = setting if chosen else table_default(a)
    what = tr("fe_mode_none", a.lang) if fee is None else \
        tr(f"fe_rate_{fee['mode']}", a.lang, amount=points_text(int(str(fee["rate"])), a.money(), a.lang))
    return tr("fe_button", a.lang, what=what)


class FeeScreen(Base):
    note_error = ""  # the last value refused, until the form changes

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self.mode, self.payer = "none", "aa"
        self.filled = -1  # the table's seq when the form was filled from the setting in force
        self.sent: tuple[FeeJSON | None, int] | None = None  # the setting sent for the session, at the seq seen then

    def on_leave(self, *_: object) -> None:
        self.note_error = ""
        self.filled = -1

    def playing(self) -> bool:
        return form.playing(app().pub)  # (a session in play, as the engine says)

    def current(self) -> FeeJSON | None:
        """The setting the form starts from: the session's when one is played, else the next one's."""
        a = app()
        chosen, setting = next_fee()
        fee: FeeJSON | None = a.pub.get("fee") if self.playing() else setting if chosen else \
            table_default(a)
        return fee

    def fill(self, fee: FeeJSON | None) -> None:
        filled = form.fields(fee)
        self.mode, self.payer = filled["mode"], filled["payer"]
        for key in AMOUNTS:
            self.ids[key].text = filled["texts"][key]
        self.filled = app().seq

    def form(self) -> FeeForm:
        """The form's value as the screen holds it."""
        return {"mode": self.mode, "payer": self.payer, "texts": {k: self.ids[k].text for k in AMOUNTS}}

    def refresh(self) -> None:
        a = app()
        if self.filled < 0:
            self.fill(self.current())
        lang = a.lang
        ids = self.ids
        for m in MODES:
            ids[f"mode_{m}"].state = "down" if m == self.mode else "normal"
            ids[f"mode_{m}"].text = tr(f"fe_mode_{m}", lang)
        off = not form.enabled(self.form())
        for p in PAYERS:
            ids[f"payer_{p}"].state = "down" if p == self.payer else "normal"
            ids[f"payer_{p}"].text = tr(f"fe_pick_{p}", lang)
            ids[f"payer_{p}"].disabled = off
        for key in AMOUNTS:
            ids[key].disabled = ids[f"{key}_down"].disabled = ids[f"{key}_up"].disabled = off
        ids.this.disabled = not self.playing()
        ids.default.disabled = getattr(a.service, "fees", None) is None  # (kept in the journal's file: save_default)
        self.show_note()

    def show_note(self) -> None:
        """The setting in words as chosen, or why it is refused (in the message colour)."""
        a = app()
        ids = self.ids
        setting, problem = self.setting()
        if self.note_error or problem:
            ids.note.text, ids.note.color = self.note_error or problem, P.MESSAGE
        else:
            ids.note.text, ids.note.color = setting_line(setting, a.lang, a.money()), P.STATUS
        ids.now.text = tr("fe_now", a.lang, line=setting_line(a.pub.get("fee"), a.lang, a.money())) \
            if self.playing() else ""

    def setting(self) -> tuple[FeeJSON | None, str]:
        """The setting the form makes, or why not in the screen's language."""
        checked = form.check(self.form())
        return (None, checked.words(app().lang)) if isinstance(checked, Refused) else (checked, "")

    # -- the form ------------------------------------------------------------------------------

    def set_mode(self, mode: str) -> None:
        self.mode, self.note_error = mode, ""
        self.refresh()

    def set_payer(self, payer: str) -> None:
        self.payer, self.note_error = payer, ""
        self.refresh()

    def step(self, key: str, up: bool) -> None:
        """− or + one step (``forms.fee.step``: an empty field and a decimal too; what is not a
        number stays, and the note says what is wrong with it)."""
        self.ids[key].text = form.step(self.form(), key, up)
        self.note_error = ""
        self.show_note()

    def checked(self) -> tuple[bool, FeeJSON | None]:
        setting, problem = self.setting()
        if problem:
            self.note_error = problem
            app().say(problem)
            self.show_note()
            return False, None
        return True, setting

    # -- where it goes -------------------------------------------------------------------------

    def for_session(self) -> None:
        """The session being played: the ``fee`` event (the engine may still refuse it)."""
        ok, setting = self.checked()
        if not ok:
            return
        a = app()
        command = form.command(self.form(), a.pub)
        if not isinstance(command, Refused) and (setting, a.seq) == self.sent:  # (a second tap: one event, one undo)
            command = Refused("fe_already", "fee.already")
        if isinstance(command, Refused):
            a.say(tr(command.key, a.lang, line=setting_line(setting, a.lang, a.money())))
            return
        self.sent = (setting, a.seq)
        a.send(command)
        a.say(tr("fe_set", a.lang, line=setting_line(setting, a.lang, a.money())))

    def for_next(self) -> None:
        """The next session (this screen's choice, sent with its ``new_session``)."""
        ok, setting = self.checked()
        if not ok:
            return
        a = app()
        a.fee_next = (setting,)
        a.say(tr("fe_next_set", a.lang, line=setting_line(setting, a.lang, a.money())))

    def as_default(self) -> None:
        """The table's default (as the parlour's ``fee`` command sets it), for every session that names none."""
        ok, setting = self.checked()
        if not ok:
            return
        a = app()
        problem = save_default(a, setting)
        if problem:
            self.note_error = problem
            self.show_note()
            return
        a.say(tr("fe_default_saved", a.lang, line=setting_line(setting, a.lang, a.money())))
