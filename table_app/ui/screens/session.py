"""New session: who sits where (by the place on the screen, not a number), the base, the
rules (in words, changed on the Rules screen before the start) and score-only mode."""

from __future__ import annotations

from typing import Any

from table_app.present.names import names_problem
from table_app.present.table import PLACES
from table_app.present.words import tr
from table_app.ui.dialogs import ConfirmDialog
from table_app.ui.screens import Base, app


class SessionScreen(Base):
    def refresh(self) -> None:
        a = app()
        n = len(a.rule_overrides)
        self.ids.rules.text = tr("rules_summary", a.lang, text=tr("rules_changed", a.lang, n=n) if n
                                 else tr("rules_default", a.lang))
        self.ids.score_only.state = "down" if a.score_only else "normal"
        for i, place in enumerate(PLACES):
            self.ids[f"place{i}"].text = tr(f"place_{place}", a.lang)

    def names(self) -> list[str]:
        return [self.ids[f"name{i}"].text.strip() for i in range(4)]

    def start(self) -> None:
        a = app()
        names = self.names()
        problem = names_problem(names, a.lang)
        if problem:
            a.say(problem)
            return
        try:
            base = int(self.ids.base.text)
        except ValueError:
            base = 0
        if base < 1:
            a.say(tr("base_bad", a.lang))
            return
        command: dict[str, Any] = {"type": "new_session", "players": names, "base": base}
        if a.rule_overrides:
            command["rules"] = dict(a.rule_overrides)

        def go() -> None:
            a.score_only = self.ids.score_only.state == "down"
            a.send(command)

        if a.pub["phase"] in ("idle", "ended"):
            go()
        else:  # a session is being played: starting over needs a yes (its events stay in the journal)
            ConfirmDialog(tr("confirm_new", a.lang), go).open()
