"""Score-only mode (记分): a hand's result entered after it was played without buttons — who
won, how (自摸, or who fed it), the wait; the kongs and bets on a second page. A plain hand
is three taps (winner, how, 记分), four with a wait. It is sent as ``score_hand`` and paid by
the engine like a played hand, into the same journal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Literal, TypedDict

from engine.errors import InvalidEventError
from engine.records import WAIT_KINDS, KongKind, WaitKind
from engine.rules import Rules
from engine.scored import EXTRAS, Extra, ScoredKong, ScoreHand, extras, kong_discarder_needed, score_hand
from engine.scoring import WinHow
from engine.table import accepts
from table_app.present.extras import bars_line, extra_bars
from table_app.present.words import tr
from table_app.ui.dialogs import ChoiceDialog
from table_app.ui.screens import Base, app
from table_app.ui.widgets import BigButton, BigToggle, NameLabel

WAITS: Final = ("plain", *(w for w in WAIT_KINDS if w != "plain"))  # (plain first: the default)
COUNTED: Final[tuple[KongKind, ...]] = ("concealed", "exposed")  # the kongs counted on the second page
CYCLE = 5  # a counter goes 0 → 4 and back to 0 (a kong count, a bet)


class EntryForm(TypedDict):
    """What the form holds: the winner (a seat, "nobody" for a drawn hand, None: not chosen yet),
    how, who fed it, the wait, the special win; per seat its concealed and exposed kongs, whose
    discard an exposed kong was (where asked), its bets."""

    winner: int | Literal["nobody"] | None
    how: WinHow | None
    discarder: int | None
    wait: WaitKind
    extra: Extra | None
    kongs: list[list[int]]
    frm: dict[int, int]  # whose discard each exposed kong was
    bets: list[int]


def entry_kongs(e: EntryForm) -> list[ScoredKong]:
    """The kongs counted in the entry ``e`` (an exposed one with its discarder where it was asked)."""
    return [ScoredKong(s, kind, e["frm"].get(s) if kind == "exposed" else None)
            for s in range(4) for k, kind in enumerate(COUNTED) for _ in range(e["kongs"][s][k])]


def offered(e: EntryForm, dealer: int | None) -> tuple[Extra, ...]:
    """The special wins (杠后开花, 天胡, 抢杠) the engine allows the entry ``e`` now
    (``engine.scored.extras``): none before the winner and the way are chosen.

    >>> e = blank()
    >>> e.update(winner=1, how="self_drawn")
    >>> offered(e, dealer=0), offered(e, dealer=1)
    ((), ('heavenly',))
    >>> e["kongs"][1][0] = 1
    >>> offered(e, dealer=1)
    ('kong_bloom',)
    """
    winner = e["winner"]
    if not isinstance(winner, int):
        return ()
    return extras(winner, e["how"], [k.seat for k in entry_kongs(e)], dealer)


def why_not_offered(e: EntryForm, dealer: int | None, names: list[str], lang: str) -> str:
    """Why the special wins not offered are not (the engine's bars, ``present.extras``), once
    the winner is chosen: how it was won first, then each bar.

    >>> e = blank()
    >>> e.update(winner=1)
    >>> why_not_offered(e, 0, ["A", "B", "C", "D"], "en")
    'say how it was won first'
    >>> e.update(how="self_drawn")
    >>> why_not_offered(e, 0, ["A", "B", "C", "D"], "zh")
    '杠后开花：要B自己开过杠 · 天胡：只有庄家A才有 · 抢杠：是胡别人补的杠，不是自摸'
    """
    winner = e["winner"]
    if not isinstance(winner, int):
        return ""
    if e["how"] is None:
        return tr("xb_how", lang)
    return bars_line(extra_bars(winner, e["how"], [k.seat for k in entry_kongs(e)], dealer, names), lang)


def entry_event(e: EntryForm) -> ScoreHand | None:
    """The engine's ``score_hand`` event of the entry ``e`` (``engine.scored.score_hand`` builds
    and checks it), or None while the winner or the way is missing; what the engine refuses
    raises :class:`InvalidEventError`.

    >>> e = blank()
    >>> e.update(winner=2, how="discard", discarder=0, extra="robbed_kong")
    >>> entry_event(e).to_json()
    {'type': 'score_hand', 'winner': 2, 'how': 'robbed_kong', 'discarder': 0}
    """
    kongs = entry_kongs(e)
    bets = list(e["bets"]) if any(e["bets"]) else None  # (none entered: the bets the table holds)
    if e["winner"] == "nobody":
        return score_hand(None, kongs=kongs, bets=bets)
    if e["winner"] is None or e["how"] is None:
        return None
    return score_hand(e["winner"], e["how"], e["discarder"], e["wait"], e["extra"], kongs, bets)


def ready(e: EntryForm) -> bool:
    """Whether 记分 may be tapped: the winner and the way are chosen (what the engine refuses is
    said when it is tapped)."""
    try:
        return entry_event(e) is not None
    except InvalidEventError:
        return True


def blank() -> EntryForm:
    return {"winner": None, "how": None, "discarder": None, "wait": "plain", "extra": None,
            "kongs": [[0, 0] for _ in range(4)], "frm": {}, "bets": [0, 0, 0, 0]}


class EntryScreen(Base):
    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self.result_page = self.ids.result.__self__  # (strong references: a page off the screen stays)
        self.extra_page = self.ids.extra_page.__self__
        self.ids.pages.remove_widget(self.extra_page)
        self.e = blank()
        self.page = "result"
        self.hand: tuple[int, int | None] | None = None

    def refresh(self) -> None:
        a = app()
        pub = a.pub
        names = pub["players"]
        if self.hand != (pub["hand"], a.seq if pub["phase"] != "betting" else None):
            self.hand = (pub["hand"], a.seq if pub["phase"] != "betting" else None)
            self.e = blank()
            self.e["bets"] = list(pub["bets"])
        dealer = pub["dealer"]
        if self.e["extra"] not in offered(self.e, dealer):
            self.e["extra"] = None  # (no longer what the engine allows: a kong taken back, another winner)
        self.ids.top.title = tr("entry", a.lang) + " · " + tr(
            "entry_title", a.lang, hand=pub.get("hand", 1), dealer=names[dealer] if dealer is not None else "")
        pages = self.ids.pages
        shown = self.result_page if self.page == "result" else self.extra_page
        if shown.parent is None:  # only the page shown is on the screen (a hidden one would take touches)
            pages.clear_widgets()
            pages.add_widget(shown)
        self.fill_result(names, a.lang, offered(self.e, dealer))
        self.ids.extras_why.text = why_not_offered(self.e, dealer, names, a.lang)
        self.fill_extra(names, a.lang)
        self.ids.score_it.disabled = not ready(self.e) or "score_hand" not in accepts(pub["phase"])
        self.ids.page.text = tr("back" if self.page == "extra" else "kongs_bets", a.lang)

    def _toggles(self, box: Any, items: list[tuple[str, Any, bool, bool]]) -> None:
        box.clear_widgets()
        for text, value, down, enabled in items:
            t = BigToggle(text=text, value=value, state="down" if down else "normal", disabled=not enabled)
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

    def fill_extra(self, names: list[str], lang: str) -> None:
        grid = self.ids.counters
        grid.clear_widgets()
        e = self.e
        for s in range(4):
            grid.add_widget(NameLabel(text=names[s]))
            for k, word in enumerate(("entry_kong_c", "entry_kong_e")):
                b = BigButton(text=tr(word, lang, n=e["kongs"][s][k]), action=f"kong_{s}_{k}")
                b.bind(on_release=lambda _b, s=s, k=k: self.count_kong(s, k))
                grid.add_widget(b)
            b = BigButton(text=tr("entry_bet", lang, n=e["bets"][s]), action=f"bet_{s}")
            b.bind(on_release=lambda _b, s=s: self.count_bet(s))
            grid.add_widget(b)

    def pick(self, what: str, value: Any) -> None:
        e = self.e
        if what == "winner":
            e["winner"] = value
            if e["discarder"] == value:
                e["how"], e["discarder"] = None, None
        elif what == "how":
            e["how"], e["discarder"] = value, None
        elif what == "fed":
            e["how"], e["discarder"] = "discard", value
        elif what == "wait":
            e["wait"] = value
        elif what == "extra":
            e["extra"] = None if e["extra"] == value else value
        self.refresh()

    def count_kong(self, seat: int, k: int) -> None:
        a = app()
        e = self.e
        e["kongs"][seat][k] = (e["kongs"][seat][k] + 1) % CYCLE
        if COUNTED[k] == "exposed" and e["kongs"][seat][k] \
                and kong_discarder_needed(Rules.from_overrides(a.pub.get("rules") or {})):
            names = a.pub.get("players") or [""] * 4

            def set_from(s: int) -> None:
                e["frm"][seat] = s
                self.refresh()

            def chooser(s: int) -> Callable[[], None]:
                return lambda: set_from(s)

            ChoiceDialog(tr("from_whom", a.lang, name=names[seat]),
                         [(names[s], chooser(s)) for s in range(4) if s != seat]).open()
        self.refresh()

    def count_bet(self, seat: int) -> None:
        self.e["bets"][seat] = (self.e["bets"][seat] + 1) % CYCLE
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
        try:
            ev = entry_event(self.e)
        except InvalidEventError as err:  # (the engine's refusal, as the table's would be shown)
            a.show_refusal(err.code, dict(err.params), str(err), err.params.get("seat"))
            return
        if ev is None:
            a.say(tr("entry_pick", a.lang))
            return
        self.page = "result"
        a.send(ev.to_json())
