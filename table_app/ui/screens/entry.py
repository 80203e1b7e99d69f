"""Score-only mode (记分): a hand's result entered after it was played without buttons — who
won, how (自摸, or who fed it), the wait; the kongs and bets on a second page. A plain hand
is three taps (winner, how, 记分), four with a wait. It is sent as ``score_hand`` and paid by
the engine like a played hand, into the same journal. The form itself — what it offers, its
taps, its checks and its command — is :mod:`table_app.present.forms.result`, the phones' too;
this screen draws it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import IllegalEventError
from engine.scored import EXTRAS, Extra
from table_app.present.forms import result
from table_app.present.forms.refused import Refused
from table_app.present.forms.result import COUNTED, WAITS
from table_app.present.words import tr
from table_app.ui.dialogs import ChoiceDialog
from table_app.ui.screens import Base, app
from table_app.ui.widgets import BigButton, BigToggle, NameLabel, text_width


class EntryScreen(Base):
    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self.result_page = self.ids.result.__self__  # (strong references: a page off the screen stays)
        self.extra_page = self.ids.extra_page.__self__
        self.ids.pages.remove_widget(self.extra_page)
        self.e = result.blank()
        self.page = "result"
        self.hand: tuple[int, int | None] | None = None

    def refresh(self) -> None:
        a = app()
        pub = a.pub
        names = pub["players"]
        if self.hand != (pub["hand"], a.seq if pub["phase"] != "betting" else None):
            self.hand = (pub["hand"], a.seq if pub["phase"] != "betting" else None)
            self.e = result.blank()
        dealer = pub["dealer"]
        result.fit(self.e, dealer)  # (a special win no longer allowed: a kong taken back, another winner)
        self.ids.top.title = tr("entry", a.lang) + " · " + tr(
            "entry_title", a.lang, hand=pub.get("hand", 1), dealer=names[dealer] if dealer is not None else "")
        pages = self.ids.pages
        shown = self.result_page if self.page == "result" else self.extra_page
        if shown.parent is None:  # only the page shown is on the screen (a hidden one would take touches)
            pages.clear_widgets()
            pages.add_widget(shown)
        self.fill_result(names, a.lang, result.offered(self.e, dealer))
        self.ids.extras_why.text = result.why_not_line(self.e, dealer, names, a.lang)
        self.fill_extra(names, a.lang, pub["bets"])
        self.ids.score_it.disabled = not result.ready(self.e) or not result.open_now(pub)
        self.ids.page.text = tr("back" if self.page == "extra" else "kongs_bets", a.lang)

    def _toggles(self, box: Any, items: list[tuple[str, Any, bool, bool]]) -> None:
        box.clear_widgets()
        for text, value, down, enabled in items:
            t = BigToggle(text=text, value=value, state="down" if down else "normal", disabled=not enabled)
            t.size_hint_min_x = text_width(text, app().fs_s) + app().mm  # (a name of 8 characters on one line)
            t.bind(on_release=lambda btn: self.pick(*btn.value))
            box.add_widget(t)

    def fill_result(self, names: list[str], lang: str, allowed: tuple[Extra, ...]) -> None:
        e = self.e
        self.ids.who_label.text = tr("who_won", lang)
        self._toggles(self.ids.who, [(names[s], ("winner", s), e["winner"] == s, True) for s in range(4)]
                      + [(tr("nobody", lang), ("winner", "nobody"), e["winner"] == "nobody", True)])
        won = isinstance(e["winner"], int)
        self.ids.how_label.text = tr("how_won", lang)
        others = [s for s in range(4) if s != e["winner"]] if won else []
        self._toggles(self.ids.how, [(tr("self_drawn", lang), ("how", "self_drawn"), e["how"] == "self_drawn", won)]
                      + [(tr("fed_by", lang, name=names[s]), ("fed", s), e["how"] == "discard" and e["discarder"] == s,
                          won) for s in others])
        self.ids.wait_label.text = tr("wait", lang)
        self._toggles(self.ids.wait, [(tr(f"wait_{w}", lang), ("wait", w), e["wait"] == w, won) for w in WAITS]
                      + [(tr(f"kind_{x}", lang), ("extra", x), e["extra"] == x, x in allowed) for x in EXTRAS])

    def fill_extra(self, names: list[str], lang: str, table_bets: list[int]) -> None:
        grid = self.ids.counters
        grid.clear_widgets()
        e = self.e
        bets = result.shown_bets(e, table_bets)
        for s in range(4):
            grid.add_widget(NameLabel(text=names[s]))
            for k, word in enumerate(("entry_kong_c", "entry_kong_e")):
                b = BigButton(text=tr(word, lang, n=result.kong_count(e, s, COUNTED[k])), action=f"kong_{s}_{k}")
                b.bind(on_release=lambda _b, s=s, k=k: self.count_kong(s, k))
                grid.add_widget(b)
            b = BigButton(text=tr("entry_bet", lang, n=bets[s]), action=f"bet_{s}")
            b.bind(on_release=lambda _b, s=s: self.count_bet(s))
            grid.add_widget(b)

    def pick(self, what: str, value: Any) -> None:
        result.pick(self.e, what, value)
        self.refresh()

    def count_kong(self, seat: int, k: int) -> None:
        a = app()
        e = self.e
        if result.count_kong(e, seat, COUNTED[k]) and COUNTED[k] == "exposed" and result.kong_discarder(a.pub):
            names = a.pub.get("players") or [""] * 4

            def set_from(s: int) -> None:
                result.kong_from(e, seat, s)
                self.refresh()

            def chooser(s: int) -> Callable[[], None]:
                return lambda: set_from(s)

            ChoiceDialog(tr("from_whom", a.lang, name=names[seat]),
                         [(names[s], chooser(s)) for s in range(4) if s != seat]).open()
        self.refresh()

    def count_bet(self, seat: int) -> None:
        result.count_bet(self.e, seat, app().pub["bets"])
        self.refresh()

    def flip_page(self) -> None:
        self.page = "extra" if self.page == "result" else "result"
        self.refresh()

    def play_instead(self) -> None:
        """Back to playing with the buttons (this hand and the next ones)."""
        a = app()
        a.score_only = False
        a.goto("table")

    def score_it(self) -> None:
        a = app()
        command = result.command(self.e, a.pub)
        if isinstance(command, Refused):
            err = command.rule
            if isinstance(err, IllegalEventError):  # (the table's refusal, as the table's would be shown)
                a.show_refusal(err.code, dict(err.params), str(err), err.params.get("seat"))
            else:
                a.say(command.words(a.lang))
            return
        self.page = "result"
        a.send(command)
