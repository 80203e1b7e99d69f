"""The touchscreen's look back (issue 29): the archive read for the past screens — past
sessions (``past``), one session's ranking, settle-up and hands (``past_session``), a hand
replayed step by step (``replay``) and the records (``records``) — and where the player is in
them.

One :class:`PastPart` per app (:func:`of`), made when a past screen is first shown. It opens
the archive's reader (``table_app.archive.Archive``, Kivy-free, read-only: the service goes on
writing meanwhile) then, and lets it go, with the hand it replayed, as soon as the screen
shown is none of the past screens: nothing of the look back stays in memory while the table
plays. The screens themselves are built when shown and let go when left like every screen
(``TableApp.release``); where the player was — the page, the session, the hand, the step —
is kept here, so a screen built again shows the same place.
"""

from __future__ import annotations

import logging
import threading
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Final

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from table_app.archive import Archive, Replay
from table_app.present.words import tr
from table_app.ui.screens import Base

if TYPE_CHECKING:
    from table_app.ui.app import TableApp

log = logging.getLogger(__name__)
PAST_SCREENS: Final = ("past", "past_session", "replay", "records")
PERIODS: Final = (None, "day", "week", "month")  # the records' periods (None: all time)


def rows_per_page(bars: int = 2, gaps_mm: float = 4) -> int:
    """The rows of two lines a page holds: the window's height less ``bars`` rows of buttons
    (the title's, the page buttons', the periods') and ``gaps_mm`` of spacing."""
    from kivy.core.window import Window

    a = _app()
    room = Window.height - bars * a.touch - a.mm * gaps_mm
    return max(1, int(room // (2 * a.line_s + a.mm * 2)))


class PagedScreen(Base):
    """A past screen of rows (``ids.rows``) under a title (``ids.top``), drawn again only when
    what it shows changed (``_shown``: the key of what is on it)."""

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self._shown: tuple[object, ...] = ()

    def reading(self, part: PastPart) -> bool:
        """While the archive's first read runs (a thread): the rows empty and the title says so."""
        if part.up_to_date():
            return False
        self._shown = ()
        self.ids.rows.clear_widgets()
        self.ids.top.title = tr("ps_reading", _app().lang)
        return True


def _app() -> TableApp:
    from kivy.app import App

    app: TableApp = App.get_running_app()
    return app


class PastPart:
    """The archive for the past screens and the place the player is at in them."""

    def __init__(self, app: TableApp) -> None:
        self.app = app
        self.page = 0  # the sessions' page shown
        self.session: int | None = None  # the session shown (numbered as `xian-table history` does); None: the newest
        self.hands_page = 0
        self.details = False  # the hands with every transfer (明细), not only who gained or lost what
        self.hand: int | None = None  # the hand replayed
        self.step = 0  # the replay's step shown (an index into its steps)
        self.player: int | None = None  # the records' player (None: the leaderboard)
        self.period: str | None = None
        self.records_page = 0
        self.warm = False  # the archive is up to the journal (its first read done, in a thread)
        self._warming: Archive | None = None  # the archive being brought up to the journal
        self._archive: Archive | None = None
        self._replay: Replay | None = None
        if app.sm is not None:
            app.sm.bind(current=self._moved)

    @property
    def readable(self) -> bool:
        """A journal to read (an app started without one has no past)."""
        return self.app.journal is not None

    def archive(self) -> Archive:
        if self._archive is None:
            journal = self.app.journal
            if journal is None:
                raise KeyError("no journal")  # (the screens check ``readable`` first)
            self._archive = Archive(journal, self.app.service.roster)
        return self._archive

    def up_to_date(self) -> bool:
        """Whether the archive is up to the journal. Its first read after it is opened brings
        its summary up to the journal's last record — an evening's records in a moment, but a
        long journal's first look back, or a summary made again, takes seconds (16 s for
        985,382 records here): that read is done in a thread, never on the screen's, and the
        past screen shown is drawn again when it is done (False until then)."""
        if self.warm:
            return True
        if self._warming is None:
            self._warming = archive = self.archive()
            threading.Thread(target=self._warm_up, args=(archive,), name="archive-warm-up", daemon=True).start()
        return False

    def _warm_up(self, archive: Archive) -> None:
        try:
            archive.sessions(0, 1)
        except Exception:  # (the screen's own read says what is wrong)
            log.exception("archive: bringing the summary up to the journal failed")
        Clock.schedule_once(lambda *_: self._warmed(archive), 0)

    def _warmed(self, archive: Archive) -> None:
        self._warming = None
        if archive is not self._archive:  # (the past screens were left meanwhile)
            archive.close()
            return
        self.warm = True
        sm = self.app.sm
        if sm is not None and sm.current in PAST_SCREENS:
            sm.current_screen.refresh()

    def replay(self) -> Replay:
        """The hand chosen, its steps read once (a step moved to is only its state)."""
        if self.session is None or self.hand is None:
            raise KeyError("no hand chosen")
        r = self._replay
        if r is None or (r.session, r.hand) != (self.session, self.hand):
            self._replay = r = self.archive().replay(self.session, self.hand)
        return r

    # -- where the player goes --------------------------------------------------------------

    def open_session(self, number: int | None) -> None:
        """Session ``number`` (None: the newest — from the last screen of an evening: its
        ranking and settle-up kept after a new session is started)."""
        if number != self.session or number is None:
            self.hands_page, self.details = 0, False
        self.session = number
        self.app.goto("past_session")

    def open_hand(self, hand: int) -> None:
        self.hand, self.step = hand, 0
        self.app.goto("replay")

    def open_player(self, player_id: int | None) -> None:
        self.player, self.records_page = player_id, 0
        self.app.goto("records")

    def _moved(self, _sm: object, current: str) -> None:
        """Left the past screens: the archive's reader and the hand read are let go (an
        archive still being brought up to the journal is closed when that is done)."""
        if current not in PAST_SCREENS:
            self._replay = None
            if self._archive is not None and self._archive is not self._warming:
                self._archive.close()
            self._archive = None
            self.warm = False


_parts: weakref.WeakKeyDictionary[TableApp, PastPart] = weakref.WeakKeyDictionary()


def of(app: TableApp) -> PastPart:
    """The app's :class:`PastPart` (made on first use)."""
    part = _parts.get(app)
    if part is None:
        part = _parts[app] = PastPart(app)
    return part


def pages(total: int, per_page: int) -> int:
    """How many pages ``total`` rows fill (one, empty, for none).

    >>> pages(0, 5), pages(5, 5), pages(6, 5)
    (1, 1, 2)
    """
    return max(1, -(-total // max(1, per_page)))


class PastRow(ButtonBehavior, BoxLayout):  # type: ignore[misc]  # Kivy is untyped
    """A row of a past list — a session, a hand, a player's record — as tall as its words (a
    touch target at least 10 mm): a tap opens it."""

    text = StringProperty("")
    action = StringProperty("")
    marked = BooleanProperty(False)  # (a session still being played, an undone step)


class PageBar(BoxLayout):  # type: ignore[misc]  # Kivy is untyped
    """上一页 · the page · 下一页: ``on_turn(step)`` with -1 or +1 (each disabled at its end)."""

    page = NumericProperty(0)  # from 0
    pages = NumericProperty(1)
    __events__ = ("on_turn",)

    def turn(self, step: int) -> None:
        self.dispatch("on_turn", step)

    def on_turn(self, step: int) -> None:
        pass


_KV = str(Path(__file__).with_name("past.kv"))
Builder.unload_file(_KV)
Builder.load_file(_KV)
