"""The wall drawn large: whose wall is where, the break, what each colour means."""

from __future__ import annotations

from table_app.present.wall import wall_view
from table_app.present.words import tr
from table_app.ui import drawings, view  # noqa: F401  (drawings: the kv rules use its widgets)
from table_app.ui.screens import Base, app


class WallScreen(Base):
    def refresh(self) -> None:
        a = app()
        self.ids.wall.view = wall_view(a.pub)
        players = a.pub.get("players") or [""] * 4
        for seat in range(4):
            self.ids[f"owner{seat}"].text = tr("wall_of", a.lang, name=players[seat])
        self.ids.line.text = view.wall_line(a.pub, a.lang) or tr("wall_unbroken", a.lang)
        self.ids.legend.text = tr("wall_legend", a.lang)
