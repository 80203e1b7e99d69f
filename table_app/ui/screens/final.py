"""The end of the evening: the ranking with every player's score (equal scores share a
place), and the settle-up — the fewest payments that clear the scores, computed by the engine
(the public state's ``settle_up`` in phase ``ended``). The end can be undone from here."""

from __future__ import annotations

from engine.scoring import ranking
from table_app.present.fees import house_lines
from table_app.present.money import money_each
from table_app.present.table import settle_lines
from table_app.present.words import tr, tr_n
from table_app.ui.palette import SEAT_COLOURS
from table_app.ui.screens import Base, app
from table_app.ui.widgets import NameLabel, ScoreLabel, Text, keep_last


class FinalScreen(Base):
    def refresh(self) -> None:
        a = app()
        pub = a.pub
        names = pub["players"]
        scores = list(pub["scores"])
        grid = self.ids.ranking
        grid.clear_widgets()
        for rank, seat in ranking(scores):
            grid.add_widget(Text(text=tr("rank_n", a.lang, n=rank), color=SEAT_COLOURS[seat]))
            grid.add_widget(NameLabel(text=names[seat], color=SEAT_COLOURS[seat]))
            grid.add_widget(ScoreLabel(text=f"{scores[seat]:+d}" if scores[seat] else "0", color=SEAT_COLOURS[seat]))
        ended = pub["phase"] == "ended"
        money = a.money()  # (the money beside the points when a point has a value)
        each = "" if money is None else "\n" + money_each(money, a.lang)
        self.ids.settle_head.text = tr("settle_up", a.lang) + each
        self.ids.settle.text = "\n".join(keep_last(line) for line in settle_lines(pub, a.lang, money)) if ended else ""
        house = house_lines(pub.get("fee"), pub.get("house"), names, a.lang, money) if ended else []
        # (one block the whole width, the lines run on: room for the settle-up above it at 800×480)
        lines = " · ".join(keep_last(x) for x in house)
        self.ids.house.text = tr("fe_house_lines", a.lang, lines=lines) if house else ""
        self.fit_settle()
        self.ids.top.title = tr("final", a.lang) + " · " + tr_n("hands_played", a.lang, len(pub["results"]))
        self.ids.resume.disabled = not ended  # (only end_session ends a session: undo takes it back)

    def fit_settle(self, *_: object) -> None:
        """The settle-up in the name size, or the small size where its lines would not all fit
        (the longest names at 800×480 with the house's lines under it)."""
        from kivy.core.text import Label as CoreLabel

        a, label = app(), self.ids.settle
        for size in (a.fs_m, a.fs_s):
            label.font_size = size
            core = CoreLabel(text=label.text, font_size=size, font_name=label.font_name, text_size=(label.width, None))
            core.refresh()
            if core.texture.size[1] <= label.height:
                return

    def resume(self) -> None:
        app().send({"type": "undo"})

    def past(self) -> None:
        """This session among the past ones: its ranking and settle-up stay after 开新牌局."""
        from table_app.ui import past

        past.of(app()).open_session(None)
