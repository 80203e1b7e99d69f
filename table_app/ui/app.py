"""The touchscreen table app (Kivy): it follows the ``TableService`` and sends it commands.

Threads: the service calls :meth:`TableApp.notice` on its own thread after each durable
commit (and after a press that changed nothing: refused, or the seating dice); that only
schedules :meth:`TableApp.apply_notice` on the Kivy thread (``Clock.schedule_once``).
Answers to the app's own commands come back the same way. What happened is read from the
notice — the engine's effects, the public state's ``actions`` and ``claims`` keys, the
service's claim-window time — never worked out by comparing two states.

Screens are built when first shown (``screens.SCREENS``: one module and one ``.kv`` each),
so the first frame waits only for the screen it shows. Every size is in millimetres of the
real screen (``units``): :attr:`TableApp.mm` px per mm and three font sizes.
Kivy must be configured (window size, ``KIVY_NO_ARGS``) before this module is imported;
:func:`table_app.ui.launch.main` does that.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import DEFAULT_FONT, LabelBase
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import BooleanProperty, DictProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from engine.event_base import Event
from engine.events import Claim, Kong, Pass, Seating
from engine.moves import Effect
from engine.public import PublicState
from engine.scored import ScoreHand
from table_app.core.notices import Answer, Notice
from table_app.core.service import TableService
from table_app.journal.journal import Journal
from table_app.journal.session_history import History, SessionHistory
from table_app.present.buttons import forward
from table_app.present.fonts import MISSING, find_cjk_font
from table_app.present.money import Money
from table_app.present.refusals import refusal
from table_app.present.words import tr
from table_app.ui import memory, screens, units
from table_app.ui.sim import KEYS
from table_app.ui.undo import UndoPart
from table_app.views.table_views import TableViews

HERE = Path(__file__).parent
TOUCH = "touch"
SIM_KEYS = "sim-keys"
MESSAGE_S = 6.0  # how long a message stays in the top line


def _ui_heartbeat() -> object:
    """Under the systemd unit (``Type=notify``, ``XIAN_TABLE_WATCHDOG_SOURCES=service,ui``) the
    Kivy clock beats for the watchdog: a frozen screen stops the pings and the app is restarted."""
    try:
        from table_app.system import sdnotify
    except ImportError:
        return None
    return Clock.schedule_interval(sdnotify.ui_tick, 1.0)


class TableApp(App):  # type: ignore[misc]  # Kivy is untyped
    lang = StringProperty("zh")
    message = StringProperty("")  # the last refusal or warning, shown in the top line for a while
    font_warning = StringProperty("")
    version = NumericProperty(0)  # +1 on every change of the table (screens refresh on it)
    sim = BooleanProperty(False)
    layout = StringProperty("upright")  # upright: the screen at one side; facing: in the middle
    score_only = BooleanProperty(False)  # hands are entered (score_hand), not played
    rule_overrides = DictProperty({})  # the rules chosen for the next session
    join_url = StringProperty("")  # the phones' join link (the QR code) while the web pages are on
    money_per_point = StringProperty("")  # the money a point is worth ("0.5"; "": points only), config money.per_point
    money_units = ("", "")  # the currency's word in zh, en (config money.unit_zh, .unit_en; "": present.money's)
    diagonal_in = NumericProperty(units.DEFAULT_DIAGONAL_IN)
    # sizes in px, from the window's size and the screen's diagonal (units.py)
    mm = NumericProperty(5.25)
    fs_s = NumericProperty(19)
    fs_m = NumericProperty(27)
    fs_latin = NumericProperty(33)  # a name in Latin letters (its capitals 5 mm)
    fs_l = NumericProperty(63)  # a score (its digits 9 mm)
    line_s = NumericProperty(30)
    line_m = NumericProperty(45)
    line_l = NumericProperty(63)  # a score's box: its digits and a margin
    touch = NumericProperty(53)

    def __init__(self, service: TableService, *, journal: Journal | None = None, sim: bool = False, lang: str = "zh",
                 first_screen: str | None = None, links: dict[str, str] | None = None,
                 screenshot: str | None = None, exit_after: float | None = None, started: float | None = None,
                 layout: str = "upright", diagonal_in: float = units.DEFAULT_DIAGONAL_IN,
                 config_path: Path | str | None = None, views: TableViews | None = None, **kw: object) -> None:
        super().__init__(**kw)
        self.service = service
        # the table's one view per change, shared with MQTT and the pages (None: one of its own)
        self._own_views = views is None
        self.views = views if views is not None else TableViews(service)
        self.journal = journal
        self.sim = sim
        self.lang = lang
        self.layout = layout
        self.diagonal_in = diagonal_in
        self.config_path = config_path  # where Settings saves (the config file read, else the user's); None: nowhere
        self.links = dict(links or {})
        self.first_screen = first_screen
        self.screenshot_path = screenshot
        self.exit_after = exit_after
        self.started = started if started is not None else time.monotonic()
        self.first_frame_s: float | None = None
        self.window_size: tuple[int, int] = (0, 0)  # as the last frame drew it
        self.demo_hands = 0
        self.frames_shown = 0
        self.pub: PublicState = service.public
        self.seq = service.seq
        self.claims_window: float = float(service.claim_window_s)
        self.history: SessionHistory | None = None  # the session's events from the journal (History)
        self.pending_bets = [0, 0, 0, 0]
        self.fee_next: tuple[Mapping[str, object] | None] | None = None  # the next session's fee (screens/fee.py)
        self.last_phase = self.pub["phase"]
        self.last_seating: Seating | None = None  # who moves where after it (the sithere screen)
        self.font_path = find_cjk_font()
        self.sm: ScreenManager | None = None
        self.shown: list[str] = []  # the last two screens shown (kept: see release)
        self._unsubscribe: Callable[[], None] | None = None
        self._pending: list[Notice] = []
        self.undo = UndoPart(self)  # an undo's dialog and note (ui/undo.py)
        self._pending_lock = threading.Lock()
        self._drain_scheduled = False

    # -- start-up -------------------------------------------------------------------------

    def build(self) -> ScreenManager:
        self.title = "xian-table " + tr("app_title", "zh")
        if self.font_path:
            LabelBase.register(DEFAULT_FONT, self.font_path)
        else:
            self.font_warning = MISSING
        path = str(HERE / "widgets.kv")
        Builder.unload_file(path)  # a second app in one process (the tests) must not add the rules twice
        Builder.load_file(path)
        screens.unload_all()
        self.load_history()
        self.sizes()
        Window.bind(size=self.sizes)
        sm = ScreenManager(transition=NoTransition())
        self.sm = sm
        self._unsubscribe = self.views.subscribe(self.notice)
        Window.bind(on_key_down=self.on_key)
        self._ticker = Clock.schedule_interval(self.tick, 0.1)
        self._beat = _ui_heartbeat()
        Window.bind(on_flip=self._flipped)
        if self.screenshot_path:
            Path(self.screenshot_path).unlink(missing_ok=True)  # what is there afterwards is this run's
            Clock.schedule_once(self._screenshot, max(0.5, (self.exit_after or 3) - 0.5))
        if self.exit_after:
            Clock.schedule_once(self._exit, self.exit_after)
        memory.freeze()
        self.goto(self.first_screen or self.home())
        return sm

    def sizes(self, *_: object) -> None:
        """Millimetres and font sizes for the window's size (on start and on every resize)."""
        w, h = Window.size
        ppm = units.px_per_mm(w, h, self.diagonal_in)
        ts = units.type_scale(ppm)
        self.mm = ppm
        self.fs_s, self.fs_m, self.fs_latin, self.fs_l = ts
        self.line_s, self.line_m = (int(units.LINE * f) + 3 for f in (ts.small, ts.name))
        self.line_l = math.ceil(units.SCORE_BOX * ts.score)
        self.touch = max(48, round(units.TOUCH_MM * ppm))

    def _flipped(self, *_: object) -> None:
        """A frame reached the screen (the first one is the launch-to-first-frame figure)."""
        self.frames_shown += 1
        if self.first_frame_s is None:
            self.first_frame_s = time.monotonic() - self.started
        self.window_size = tuple(Window.size)

    def _exit(self, *_: object) -> None:
        if self.screenshot_path and not Path(self.screenshot_path).exists():
            Clock.schedule_once(self._exit, 0.2)  # the screenshot first
            return
        self.stop()

    def on_stop(self) -> None:
        Window.unbind(on_flip=self._flipped)
        Window.unbind(size=self.sizes)
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._own_views:
            self.views.stop()
        Window.unbind(on_key_down=self.on_key)
        for ev in (getattr(self, "_ticker", None), getattr(self, "_beat", None)):
            if ev is not None:
                ev.cancel()

    def load_history(self) -> None:
        """The session's history is read from the journal when History shows it; at start-up only
        whether the session is scored hand by hand (只记分)."""
        if self.journal is None:
            return
        try:
            self.history = SessionHistory(self.journal)
            self.score_only = self.score_only or self.history.read().has("score_hand")
        except Exception as e:  # a history we cannot read must not stop the table
            self.message = f"history: {e}"

    def read_history(self) -> History:
        """The events in effect of this session and the next redo (empty without a journal)."""
        if self.history is None:
            return History([], [])
        try:
            return self.history.read()
        except Exception as e:  # (a history we cannot read must not stop the table)
            self.say(f"history: {e}")
            return History([], [])

    def money(self) -> Money | None:
        """What a point is worth, for every settle-up (None: points only): the views', which
        MQTT and the pages show too."""
        return self.views.money

    def on_money_per_point(self, _app: object, value: str) -> None:
        """Settings (or the config at launch) gave a point a new value: every front end's next view has it."""
        self.views.set_money(Money.of(value, *self.money_units))

    # -- the service's notices (service thread → Kivy thread) -----------------------------

    def notice(self, n: Notice) -> None:
        """Service thread: queue the notice; one drain on the Kivy thread takes all queued ones
        (so a fast source — the demo, a replay — never builds a backlog of screen refreshes)."""
        self.undo.heard(n)  # (an undo is worded now, on this thread: the steps' record moves on with the table)
        with self._pending_lock:
            self._pending.append(n)
            if self._drain_scheduled:
                return
            self._drain_scheduled = True
        Clock.schedule_once(self._drain, 0)

    def _drain(self, *_: object) -> None:
        with self._pending_lock:
            batch, self._pending = self._pending, []
            self._drain_scheduled = False
        for n in batch:
            self.apply_notice(n, refresh=False)
        self.refresh()

    def apply_notice(self, n: Notice, refresh: bool = True) -> None:
        press_seat = None if n.press is None else n.press.seat
        if n.kind == "refused":
            self.show_refusal(n.code, dict(n.params or {}), n.error or "", press_seat)
            return
        if n.kind == "dice":  # the dice button while the seats are chosen: the seating form takes them
            if n.dice is not None:
                self.seating_dice(list(n.dice))
            return
        if n.kind == "proposal":  # a held TURN put an undo up: its dialog
            self.undo.ask(n)
            return
        self.pub, self.seq = n.state, n.seq
        ev = n.event
        if isinstance(ev, ScoreHand):
            self.score_only = True
        if isinstance(ev, Seating):
            self.last_seating = ev
        left = self.views.claim_left()
        if left is not None and n.has("claims_open"):
            self.claims_window = max(left, 0.1)
        if n.has("to_move") and any(e.data == "roll" for e in n.effects) and self.pub["phase"] == "betting":
            self.pending_bets = list(self.pub["bets"])
        table = self.made("table")
        if table is not None:
            seat = None if ev is None else ev.seat_of
            if n.press is not None and not n.source.startswith(TOUCH) and ev is not None and seat is not None:
                table.flash(seat, self.event_word(ev))  # a wired button's press
            for e in n.effects:  # what the engine says happened to a seat, whoever pressed
                word = self.effect_word(e)
                if word and e.seat is not None:
                    table.flash(e.seat, word)
        phase = self.pub["phase"]
        if phase != self.last_phase:
            self.last_phase = phase
            stay = n.kind in ("undo", "redo") and self.sm is not None and self.sm.current == "history"
            if not stay:
                seated = ev is not None and ev.TYPE == "seating" and n.kind == "event"
                self.goto("sithere" if seated else self.home(), refresh=False)
        self.undo.changed(n)  # (after the screen: its note of what an undo took back stays)
        if refresh:
            self.refresh()

    def show_refusal(self, code: str, params: Mapping[str, object], error: str, seat: object) -> None:
        """A refusal, from any input: its reason in the player's language on the seat's panel
        (red) and in the top line; the kong the engine cannot tell is asked for."""
        text = refusal(code, params, error, list(self.pub["players"]), self.lang)
        self.say(text)
        current = self.sm.current_screen if self.sm is not None else None
        if current is not None:
            current.refused(code, params)  # a form may show what to do again (the tied seats roll again)
        table = self.made("table")
        if not isinstance(seat, int) or table is None:
            return
        table.flash(seat, text, refused=True)
        if code == "press.kong_which" and self.sm is not None and self.sm.current == "table":
            table.ask_kong(seat)

    def say(self, text: str) -> None:
        """A message in the top line (in place of the title: nothing moves), for a while."""
        self.message = text
        Clock.unschedule(self._quiet)
        Clock.schedule_once(self._quiet, MESSAGE_S)

    def _quiet(self, *_: object) -> None:
        self.message = ""

    def effect_word(self, e: Effect) -> str:
        """The word a seat's panel flashes for an engine effect (a claim taken, a kong, a win)."""
        if e.what == "claim_taken":
            return tr(f"flash_claim_{e.data}", self.lang)
        if e.what == "kong":
            return tr(f"kong_{e.data}", self.lang)
        if e.what == "win_declared":
            return tr(f"kind_{e.data}", self.lang)
        return ""

    def event_word(self, ev: Event) -> str:
        if isinstance(ev, Pass) and ev.drew:  # the 下家's held press (§17): it drew, not passed
            return tr("flash_drew", self.lang)
        if isinstance(ev, Claim):
            return tr(f"flash_claim_{ev.call}", self.lang)
        if isinstance(ev, Kong):
            return tr(f"kong_{ev.kind}", self.lang)
        return tr(f"flash_{ev.TYPE}", self.lang) if ev.TYPE in ("roll", "discard", "win", "pass") else ""

    # -- sending commands (Kivy thread → service) ------------------------------------------

    def send(self, command: Mapping[str, object], source: str = TOUCH) -> None:
        fut = self.service.submit(command, source)
        if command.get("type") == "press":
            return  # a refused press comes back as a notice, whichever input sent it

        def answered(f: Future[Answer]) -> None:
            ans = f.result()
            if not ans.ok:
                params = dict(ans.params or {})
                seat = command.get("seat") if isinstance(command.get("seat"), int) else params.get("seat")
                Clock.schedule_once(lambda *_: self.show_refusal(ans.code, params, ans.error or "", seat), 0)

        fut.add_done_callback(answered)

    def seating_dice(self, dice: list[int]) -> None:
        """The dice button (GPIO, or the panel's own dice) while the table is seated: called on
        an input thread, it fills the seating form on the Kivy thread."""
        values = list(dice)

        def fill(*_: object) -> None:
            if self.sm is not None and self.sm.current != "seating":
                self.goto("seating")
            self.screen("seating").dice_from_button(values)

        Clock.schedule_once(fill, 0)

    def show_join(self) -> None:
        """The phones' QR code (the session screen, seating, the menu: whenever it is asked for)."""
        if self.join_url:
            from table_app.ui.dialogs import JoinDialog

            JoinDialog().open()

    def open_menu(self) -> None:
        from table_app.ui.dialogs import Menu

        Menu().open()

    # -- screens ----------------------------------------------------------------------------

    def home(self) -> str:
        """The screen the phase calls for."""
        steps = [act for seat, act in forward(self.pub, self.score_only) if seat is None]
        return screens.STEP_SCREENS.get(steps[0], "table") if steps else "table"

    def screen(self, name: str) -> Any:
        """The screen ``name``, built the first time it is asked for."""
        assert self.sm is not None
        if not self.sm.has_screen(name):
            self.sm.add_widget(screens.make(name))
        return self.sm.get_screen(name)

    def made(self, name: str) -> Any:
        """Screen ``name`` if it has been built (else None: nothing to update on it)."""
        return self.sm.get_screen(name) if self.sm is not None and self.sm.has_screen(name) else None

    def goto(self, name: str, refresh: bool = True) -> None:
        self.message = ""
        screen = self.screen(name)
        assert self.sm is not None
        self.sm.current = name
        self.release(name)
        if refresh:
            screen.refresh()

    def release(self, shown: str) -> None:
        """Let go of the screens no longer needed: all but the table, the screen the phase calls
        for (a form being filled in: the names, the seating, the win) and the last two shown (back
        from Rules to the names typed). Built again when next shown, they do not all stay in
        memory all evening."""
        assert self.sm is not None
        if self.shown[-1:] != [shown]:
            self.shown = [*self.shown[-1:], shown]
        keep = {"table", self.home(), *self.shown}
        gone = [s for s in self.sm.screens if s.name not in keep]
        for s in gone:
            self.sm.remove_widget(s)
        memory.later()  # (also the rows, dialogs and buttons a screen rebuilt while it was shown)

    def refresh(self) -> None:
        self.version += 1
        if self.sm is not None and self.sm.current_screen is not None:
            self.sm.current_screen.refresh()

    def toggle_lang(self) -> None:
        self.set_lang("en" if self.lang == "zh" else "zh")

    def set_lang(self, lang: str) -> None:
        self.lang = lang
        self.refresh()

    def set_layout(self, layout: str) -> None:
        if layout == self.layout:
            return
        self.layout = layout
        table = self.made("table")
        if table is not None:
            table.arrange()
        self.refresh()

    def tick(self, _dt: float) -> None:
        if self.sm is not None and self.sm.current == "table" and self.views.claim_left() is not None:
            self.sm.current_screen.update_status()

    def claim_left(self) -> float | None:
        """Seconds until the service closes the claim window now (the views' one deadline)."""
        return self.views.claim_left()

    # -- simulated hardware: keys stand for the panel's buttons ------------------------------

    def on_key(self, _window: object, key: int, _scancode: int, codepoint: str | None, mods: list[str] | None) -> bool:
        """``--sim``: a key is a press of the button it stands for, sent like the panel's;
        with Shift the button is held (a held TURN is undo)."""
        if not self.sim or self.sm is None or self.sm.current in ("session", "settings", "rules"):
            return False
        name = "spacebar" if key == 32 else chr(key) if 32 < key < 127 else (codepoint or "")
        if name not in KEYS:
            return False
        seat, button = KEYS[name]
        held = "shift" in (mods or ())
        self.service.submit({"type": "press", "seat": seat, "button": button, "held": held}, SIM_KEYS)
        return True

    # -- screenshots ------------------------------------------------------------------------

    def _screenshot(self, *_: object) -> None:
        if self.frames_shown < 1:  # a slow start (a loaded machine): nothing drawn yet
            Clock.schedule_once(self._screenshot, 0.2)
            return
        self.save_screenshot(self.screenshot_path or "screenshot.png")

    def save_screenshot(self, path: str) -> str:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        # draw the frame now: the pixels are read from the back buffer, which after a flip may
        # still hold an older frame (seen under Xvfb: two screens over each other)
        Window.dispatch("on_draw")
        made = Window.screenshot(name=str(target.with_name(target.stem + "-tmp.png")))
        if made:
            Path(made).replace(target)
        return str(target)
