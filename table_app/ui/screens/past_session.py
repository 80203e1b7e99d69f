"""One past session (issue 29): its ranking with each player's total (equal totals share a
place) and its settle-up — the engine's fewest payments — kept after the evening ended and a
new session began; beside them its hands, a page at a time (who won how, the transfers, a
drawn hand as 荒牌), each a row that opens the hand's replay (``replay``)."""

from __future__ import annotations

from engine.scoring import ranking
from table_app.present.history_view import hand_line, transfer_lines
from table_app.present.money import points_text
from table_app.present.words import tr
from table_app.ui import past
from table_app.ui.past import PastRow
from table_app.ui.screens import app
from table_app.ui.widgets import Small, keep_last


class PastSessionScreen(past.PagedScreen):
    def refresh(self) -> None:
        a = app()
        part = past.of(a)
        if not part.readable:
            a.goto("past")
            return
        if self.reading(part):
            self.ids.summary.text = ""
            return
        archive = part.archive()
        if part.session is None:  # (the newest: from the last screen of an evening)
            newest = archive.sessions(0, 1).items
            if not newest:
                a.goto("past")
                return
            part.session = newest[0].number
        per = past.rows_per_page()
        key = (a.seq, a.lang, part.session, part.hands_page, per, part.details)
        if key == self._shown:
            return
        self._shown = key
        try:
            s = archive.session(part.session)
        except KeyError:
            a.goto("past")
            return
        hands = archive.hands(s.number)
        lang = a.lang
        date = s.started[:16].replace("T", " ")
        title = tr("ps_session_title", lang, n=s.number, date=date, hands=s.hands)
        self.ids.top.title = title if s.finished else f"{title} · {tr('ps_playing', lang)}"
        ranked = [keep_last(tr("ps_rank_line", lang, rank=rank, name=s.players[seat],
                               total=f"{s.totals[seat]:+d}" if s.totals[seat] else "0"))
                  for rank, seat in ranking(s.totals)]
        money = a.money()
        pays = [keep_last(tr("settle_pay", lang, frm=s.players[p["from"]], to=s.players[p["to"]],
                             amount=points_text(p["amount"], money, lang))) for p in s.settle_up]
        self.ids.summary.text = "\n".join([tr("ps_ranking", lang), *ranked, "", tr("settle_up", lang),
                                           *(pays or [tr("settle_none", lang)])])
        self.ids.details.text = tr("ps_brief" if part.details else "ps_details", lang)
        pages = past.pages(len(hands), per)
        part.hands_page = min(part.hands_page, pages - 1)
        self.ids.pager.page, self.ids.pager.pages = part.hands_page, pages
        rows = self.ids.rows
        rows.clear_widgets()
        for h in hands[part.hands_page * per:(part.hands_page + 1) * per]:
            text = "\n".join([hand_line(h, lang), *transfer_lines(h, lang)]) if part.details else hand_line(h, lang)
            row = PastRow(text=text, action=f"hand_{h.hand}")
            row.bind(on_release=lambda _r, n=h.hand: part.open_hand(n))
            rows.add_widget(row)
        if not hands:
            rows.add_widget(Small(text=tr("ps_no_hands", lang), size_hint_y=None, height=a.line_s * 2))

    def details(self) -> None:
        """The hands with every transfer (胡 · 杠 · 注), or again in brief."""
        part = past.of(app())
        part.details = not part.details
        self.refresh()

    def turn(self, step: int) -> None:
        past.of(app()).hands_page += step
        self.refresh()
