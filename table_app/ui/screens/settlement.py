"""The settlement of the last hand: one row per player — 胡 · 杠 · 注, the hand (本局) and the
running total (总分) — and every transfer on demand. 下一局 moves the table on; 结束牌局 asks
first. Reachable from the menu at any time (it then shows the last hand settled)."""

from __future__ import annotations

from kivy.uix.scrollview import ScrollView

from table_app.present.forms import end_session
from table_app.present.money import money_amount
from table_app.present.table import settlement_head, settlement_rows, transfer_lines
from table_app.present.words import tr
from table_app.ui.dialogs import Dialog, ask_end_session
from table_app.ui.palette import SEAT_COLOURS
from table_app.ui.screens import Base, app
from table_app.ui.widgets import BigButton, NameLabel, ScoreLabel, Small, Text

COLUMNS = ("col_win", "col_kong", "col_bet", "col_hand", "col_total")


def signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


class SettlementScreen(Base):
    def refresh(self) -> None:
        a = app()
        pub = a.pub
        self.ids.top.title = settlement_head(pub, a.lang)
        grid = self.ids.rows
        grid.clear_widgets()
        money = a.money()  # a point's value: the running total in money too, in a last column
        grid.cols = len(COLUMNS) + 1 + (money is not None)
        grid.add_widget(Small(text=""))
        for key in COLUMNS:
            grid.add_widget(Small(text=tr(key, a.lang), halign="right", valign="middle"))
        if money is not None:
            grid.add_widget(Small(text=money.unit(a.lang), halign="right", valign="middle"))
        settled = pub["last_settlement"] is not None
        for seat, (name, win, kong, bet, hand, total) in enumerate(settlement_rows(pub)):
            grid.add_widget(NameLabel(text=name, color=SEAT_COLOURS[seat]))
            for n in (win, kong, bet):
                grid.add_widget(Text(text=signed(n) if settled else "", halign="right", valign="middle"))
            grid.add_widget(ScoreLabel(text=signed(hand) if settled else ""))
            grid.add_widget(ScoreLabel(text=str(total)))
            if money is not None:
                grid.add_widget(Text(text=money_amount(total, money), halign="right", valign="middle"))
        for w in grid.children:
            if isinstance(w, ScoreLabel):  # (one line wider than its box: the digits' ink is in it)
                w.halign = "right"
                w.bind(width=lambda w, v: setattr(w, "text_size", (v, None)))
            elif not isinstance(w, NameLabel):
                w.bind(size=lambda w, s: setattr(w, "text_size", s))
        hand_over = pub["phase"] == "hand_over"
        self.ids.next_hand.disabled = not hand_over
        self.ids.end_session.disabled = not end_session.offered(pub)  # (between hands only)
        self.ids.transfers.disabled = not settled

    def next_hand(self) -> None:
        app().send({"type": "next_hand"})

    def end_session(self) -> None:
        ask_end_session()

    def show_transfers(self) -> None:
        a = app()
        d = Dialog(settlement_head(a.pub, a.lang), size_hint=(0.9, 0.9))
        d.question.size_hint_y = None
        d.question.height = a.line_m
        scroll = ScrollView(do_scroll_x=False)
        lines = Small(text="\n".join(transfer_lines(a.pub, a.lang)), size_hint_y=None, halign="left",
                      valign="top")
        lines.bind(width=lambda w, v: setattr(w, "text_size", (v, None)),
                   texture_size=lambda w, v: setattr(w, "height", v[1]))
        scroll.add_widget(lines)
        d.box.add_widget(scroll)
        close = BigButton(text=tr("close", a.lang), action="close")
        close.bind(on_release=lambda *_: d.dismiss())
        d.row(close)
        d.open()

