"""The running totals: each player's place and score, and the totals hand by hand as a chart;
the fee so far (台费) in the title when the session has one."""

from __future__ import annotations

from engine.scoring import ranking
from table_app.present.table import running_totals
from table_app.present.words import tr, tr_n
from table_app.ui import drawings  # noqa: F401  (drawings: the kv rules use its widgets)
from table_app.ui.palette import SEAT_COLOURS
from table_app.ui.screens import Base, app
from table_app.ui.widgets import NameLabel, ScoreLabel, Small


class ScoresScreen(Base):
    def refresh(self) -> None:
        a = app()
        series = running_totals(a.pub)
        scores = list(a.pub["scores"])
        self.ids.chart.series = series
        names = a.pub["players"]
        grid = self.ids.legend
        grid.clear_widgets()
        for rank, seat in ranking(scores):
            grid.add_widget(Small(text=tr("rank_n", a.lang, n=rank), color=SEAT_COLOURS[seat]))
            grid.add_widget(NameLabel(text=names[seat], color=SEAT_COLOURS[seat]))
            grid.add_widget(ScoreLabel(text=f"{scores[seat]:+d}" if scores[seat] else "0",
                                       color=SEAT_COLOURS[seat]))
        hands = len(a.pub["results"])
        fee = a.views.context().fee_line(a.lang)  # the fee so far (台费), "" without one: as MQTT and the pages say it
        self.ids.top.title = " · ".join(x for x in (tr("scoreboard", a.lang), tr_n("hands_played", a.lang, hands), fee)
                                        if x)

