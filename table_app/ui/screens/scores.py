"""The running totals: each player's place and score, and the totals hand by hand as a chart."""

from __future__ import annotations

from table_app.present.words import tr
from table_app.ui import drawings, view  # noqa: F401  (drawings: the kv rules use its widgets)
from table_app.ui.palette import SEAT_COLOURS
from table_app.ui.screens import Base, app
from table_app.ui.widgets import NameLabel, ScoreLabel, Small


class ScoresScreen(Base):
    def refresh(self) -> None:
        a = app()
        series = [list(s) for _, s in a.totals] or [[0, 0, 0, 0]]
        scores = list(a.pub.get("scores") or [0, 0, 0, 0])
        if scores != series[-1]:  # kongs already paid in the hand being played
            series.append(scores)
        self.ids.chart.series = series
        names = a.pub.get("players") or [""] * 4
        grid = self.ids.legend
        grid.clear_widgets()
        for rank, seat in view.ranking(scores):
            grid.add_widget(Small(text=tr("rank_n", a.lang, n=rank), color=SEAT_COLOURS[seat]))
            grid.add_widget(NameLabel(text=names[seat], color=SEAT_COLOURS[seat]))
            grid.add_widget(ScoreLabel(text=f"{scores[seat]:+d}" if scores[seat] else "0", big=False,
                                       color=SEAT_COLOURS[seat]))
        hands = max(0, len(a.totals) - 1)
        self.ids.top.title = tr("scoreboard", a.lang) + " · " + tr("hands_played", a.lang, n=hands)
