"""Past sessions (往期牌局, issue 29): every session the journal holds, newest first, a page at
a time — when, who played, the base, how many hands, the ranking — each a big row that opens
the session (its ranking, settle-up and hands: ``past_session``). Not the History screen
(记录 · 撤销: this session's events, for undo).

A page is read from the archive (``Archive.sessions``: bounded, whatever the journal holds)
and only its rows are made; it is read again when the table moves on, the language changes
or another page is asked for."""

from __future__ import annotations

from table_app.present.history_view import session_line
from table_app.present.words import tr
from table_app.ui import past
from table_app.ui.past import PastRow
from table_app.ui.screens import app
from table_app.ui.widgets import Small


class PastScreen(past.PagedScreen):
    def refresh(self) -> None:
        a = app()
        part = past.of(a)
        if part.readable and self.reading(part):
            return
        per = past.rows_per_page()
        key = (a.seq, a.lang, part.page, per)
        if key == self._shown:
            return
        self._shown = key
        rows = self.ids.rows
        rows.clear_widgets()
        if not part.readable:
            self.ids.top.title = tr("ps_no_journal", a.lang)
            self.ids.pager.page, self.ids.pager.pages = 0, 1
            return
        page = part.archive().sessions(part.page, per)
        if page.items == [] and part.page > 0:  # (fewer sessions than before: the last page)
            part.page = max(0, page.pages - 1)
            page = part.archive().sessions(part.page, per)
        pages = max(1, page.pages)
        self.ids.top.title = tr("ps_title", a.lang, page=page.page + 1, pages=pages)
        self.ids.pager.page, self.ids.pager.pages = page.page, pages
        for s in page.items:
            row = PastRow(text=session_line(s, a.lang), action=f"session_{s.number}", marked=not s.finished)
            row.bind(on_release=lambda _r, n=s.number: part.open_session(n))
            rows.add_widget(row)
        if not page.items:
            rows.add_widget(Small(text=tr("ps_none", a.lang), size_hint_y=None, height=a.line_s * 2))

    def turn(self, step: int) -> None:
        past.of(app()).page += step
        self.refresh()
