"""Records (战绩, issue 29): the table's leaderboard — every roster player's sessions, hands,
wins, self-draws, kongs and net points, best first — for all time or for this day, week or
month; a tap on a player shows that player's record period by period (by day, week or month),
a page at a time, and whether they are shown on the parlour's leaderboards (a tap changes it:
the roster's ``listed``, issue 31)."""

from __future__ import annotations

from table_app.core.roster import Roster, RosterError
from table_app.present.history_view import leaderboard_lines, record_lines
from table_app.present.words import tr
from table_app.ui import past
from table_app.ui.past import PERIODS, PastRow
from table_app.ui.screens import app
from table_app.ui.widgets import Small


def period_key(period: str | None) -> str:
    return f"rc_{period or 'all'}"


class RecordsScreen(past.PagedScreen):
    def refresh(self) -> None:
        a = app()
        part = past.of(a)
        if part.readable and self.reading(part):
            return
        per = past.rows_per_page(3, 5)
        listed = self.show_listed(part, a.lang)
        key = (a.seq, a.lang, part.player, part.period, part.records_page, per, listed)
        if key == self._shown:
            return
        self._shown = key
        lang = a.lang
        for period in PERIODS:  # (the leaderboard's are the current day, week, month; a record's each one)
            b = self.ids[period_key(period)]
            b.style = "go" if period == part.period else "plain"
            b.text = tr(period_key(period) if part.player is not None or period is None else f"rc_now_{period}", lang)
        self.ids.back.text = tr("rc_board_button" if part.player is not None else "ps_sessions", lang)
        rows = self.ids.rows
        rows.clear_widgets()
        if not part.readable:
            self.ids.top.title = tr("ps_no_journal", lang)
            return
        lines, tap = self.lines(part, lang)
        pages = past.pages(len(lines), per)
        part.records_page = min(part.records_page, pages - 1)
        self.ids.pager.page, self.ids.pager.pages = part.records_page, pages
        start = part.records_page * per
        for i, text in enumerate(lines[start:start + per], start):
            row = PastRow(text=text, action=f"record_{i}")
            if tap:
                row.bind(on_release=lambda _r, pid=tap[i]: part.open_player(pid))
            rows.add_widget(row)
        if not lines:
            rows.add_widget(Small(text=tr("rc_nobody", lang), size_hint_y=None, height=a.line_s * 2))

    def lines(self, part: past.PastPart, lang: str) -> tuple[list[str], list[int]]:
        """The rows' words, and (the leaderboard) the player each row opens."""
        archive = part.archive()
        if part.player is not None:
            try:
                record = archive.record(part.player, part.period)
            except KeyError:
                part.player = None
            else:
                self.ids.top.title = tr("rc_player", lang, name=record.name)
                return record_lines(record, lang)[1:], []  # (the name is the title)
        board = archive.leaderboard(part.period)
        period = tr(f"rc_now_{part.period}", lang) if part.period else ""
        self.ids.top.title = tr("rc_board_period", lang, period=period) if part.period else tr("rc_board", lang)
        return (leaderboard_lines(board, lang) if board else []), [r.player_id for r in board]

    def show_listed(self, part: past.PastPart, lang: str) -> bool | None:
        """The player's choice on its button (hidden on the leaderboard, or without a roster)."""
        roster: Roster | None = app().service.roster
        player = roster.get(part.player) if roster is not None and part.player is not None else None
        b = self.ids.listed
        b.disabled, b.opacity = player is None, 0 if player is None else 1
        if player is None:
            return None
        state = tr("ro_listed_on" if player.listed else "ro_listed_off", lang)
        b.text = tr("ro_listed_button", lang, state=state)
        b.style = "claim" if player.listed else "plain"
        return player.listed

    def toggle_listed(self) -> None:
        part = past.of(app())
        roster: Roster | None = app().service.roster
        player = roster.get(part.player) if roster is not None and part.player is not None else None
        if roster is None or player is None:
            return
        try:
            roster.set_listed(player.id, not player.listed)
        except RosterError:
            return  # (a roster that cannot be written says so in its problem; the button stays as it was)
        self.refresh()

    def choose(self, period: str | None) -> None:
        part = past.of(app())
        part.period, part.records_page = period, 0
        self.refresh()

    def back(self) -> None:
        a = app()
        part = past.of(a)
        if part.player is not None:
            part.player, part.records_page = None, 0
            self.refresh()
        else:
            a.goto("past")

    def turn(self, step: int) -> None:
        past.of(app()).records_page += step
        self.refresh()
