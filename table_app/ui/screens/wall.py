"""The wall drawn large: whose wall is where, the break, what each colour means."""

from __future__ import annotations

from table_app.present.table import wall_line
from table_app.present.wall import wall_view
from table_app.present.words import tr
from table_app.ui import drawings  # noqa: F401  (drawings: the kv rules use its widgets)
from table_app.ui.screens import Base, app


class WallScreen(Base):
    def refresh(self) -> None:
        a = app()
        self.ids.wall.view = wall_view(a.pub)
        for seat, name in enumerate(a.pub["players"]):
            self.ids[f"owner{seat}"].text = tr("wall_of", a.lang, name=name)
        self.ids.line.text = wall_line(a.pub, a.lang) or tr("wall_unbroken", a.lang)
        self.ids.legend.text = tr("wall_legend", a.lang)
