"""The table as the web pages' streams see it: the latest state, each view built once per
change, and the pace-maker whose ticks move every stream.

The service's observer (:meth:`LiveTable.__call__`, on the table's own thread) only stores the
state and wakes the pace-maker, however many phones watch. The streams move together, on the
pace-maker thread's ticks: a change is sent at once, a burst of changes at most every
``STREAM_INTERVAL_S`` (it shows its end), and each seat's view (and the table page's, per
language) is built once per tick for all its streams (how many may be open, and whose, the
server's places decide: :mod:`table_app.http_kit.admission`). The views come from the table's
one view per change (:class:`table_app.views.table_views.TableViews`, shared with MQTT and the
touchscreen): its seat views are MQTT ``seat/<n>``'s, its table view the touchscreen's table screen.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.public import PublicState
from table_app.http_kit.server import sse_view
from table_app.present.money import Money
from table_app.present.seat import SeatView
from table_app.present.table_page import TableView
from table_app.present.words import Both
from table_app.views.table_views import TableViews

if TYPE_CHECKING:
    from table_app.core.service import Notice, TableService

KEEPALIVE_S = 15.0  # a stream with nothing new sends a comment this often
# the streams' fastest pace in a burst (a press of two events, the quick 下家's, is sent as one)
STREAM_INTERVAL_S = 0.05


class LiveTable:
    """``LiveTable(service).start()``; the views; the streams' count and ticks; ``.stop()``.
    ``views``: the table's one view per change, shared with the other front ends (None: one of
    its own, with ``money``)."""

    def __init__(self, service: TableService, views: TableViews | None = None, money: Money | None = None) -> None:
        self.service = service
        self._own_views = views is None  # (stopped with the pages)
        self.views = views if views is not None else TableViews(service, money)
        self._cond = threading.Condition()
        self._settled = True
        self._version = 0
        self._closing = False
        self._closed = threading.Event()
        self._tick = 0  # the pace-maker's count: the streams wake when it moves
        self._tick_cond = threading.Condition()
        self._pacer: threading.Thread | None = None
        self._views: dict[int | str, tuple[int, bytes]] = {}  # seat or table language → (version, SSE frame)
        self._views_lock = threading.Lock()
        self._unsubscribe: Callable[[], None] | None = None
        self.undone: Callable[[], Both | None] = lambda: None  # what the last undo took back (phone_decide)
        self.streams = 0  # open event streams (for logs and tests)

    @property
    def money(self) -> Money | None:
        """A point's value, beside the points in the settle-ups (config money.*): the views'."""
        return self.views.money

    def start(self) -> None:
        self._unsubscribe = self.views.subscribe(self)
        with self._cond:  # a change between construction and subscription is not lost
            self._version += 1
        self._pacer = threading.Thread(target=self._pace, name="seat-pages-pacer", daemon=True)
        self._pacer.start()

    def unsubscribe(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def stop(self) -> None:
        self.unsubscribe()
        if self._own_views:
            self.views.stop()
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._closed.set()
        with self._tick_cond:
            self._tick_cond.notify_all()
        if self._pacer is not None:
            self._pacer.join(5)
            self._pacer = None

    def __call__(self, notice: Notice) -> None:
        """The observer (through the views, which know the change already): wake the streams."""
        if not notice.changed:
            return
        with self._cond:
            self._settled = notice.final  # a press's first event of two: its second comes at once
            self._version += 1
            self._cond.notify_all()

    # -- the views ------------------------------------------------------------------------------

    def snapshot(self) -> tuple[int, int, PublicState]:
        """(the streams' version, the seq, the public state) of the latest change."""
        with self._cond:
            version = self._version
        context = self.views.context()
        return version, context.seq or 0, context.public

    def view(self, seat: int) -> SeatView:
        """Seat ``seat``'s view: the same as MQTT ``seat/<n>`` (one view per change)."""
        return self.views.context().seat(seat)

    def seat_names(self) -> list[str]:
        """Each seat's name as its view shows it (the index page's links)."""
        return list(self.views.context().public["players"])

    def table_view(self, lang: str) -> TableView:
        """The table page's view in ``lang`` (``zh`` or ``en``): the touchscreen's table screen."""
        return self.views.context().table(lang, self.undone())

    def frame(self, seat: int | str) -> tuple[int, bytes]:
        """``(version, the SSE frame of the seat's current view)`` — or of the table page's in a
        language, for ``seat`` ``"zh"`` or ``"en"`` —, built once per change."""
        version = self.snapshot()[0]
        with self._views_lock:
            cached = self._views.get(seat)
            if cached is not None and cached[0] == version:
                return cached
        view = self.view(seat) if isinstance(seat, int) else self.table_view(seat)
        made = (version, sse_view(view))
        with self._views_lock:
            self._views[seat] = made
        return made

    # -- the pace-maker and the streams' places ---------------------------------------------------

    def wait_change(self, version: int, timeout: float) -> tuple[bool, int]:
        """Wait for a version after ``version``; (closing, the current version)."""
        with self._cond:
            self._cond.wait_for(lambda: self._version != version or self._closing, timeout)
            return self._closing, self._version

    def wait_tick(self, seen: int, timeout: float) -> tuple[bool, int]:
        """Wait for the pace-maker's next tick after ``seen``; (closing, the current tick)."""
        with self._tick_cond:
            self._tick_cond.wait_for(lambda: self._tick != seen or self._closed.is_set(), timeout)
            return self._closed.is_set(), self._tick

    def _pace(self) -> None:
        """Tick when the state changes, at most every STREAM_INTERVAL_S: the streams' one clock."""
        version = -1
        while not self._closed.is_set():
            closing, newer = self.wait_change(version, KEEPALIVE_S)
            if closing:
                return
            with self._cond:  # the rest of a press (its second event) before the streams are woken
                self._cond.wait_for(lambda: self._settled or self._closing, STREAM_INTERVAL_S)
                newer = self._version
            if newer != version:
                version = newer
                with self._tick_cond:
                    self._tick += 1
                    self._tick_cond.notify_all()
            if self._closed.wait(STREAM_INTERVAL_S):
                return

    def open_stream(self) -> None:
        with self._cond:
            self.streams += 1

    def close_stream(self) -> None:
        with self._cond:
            self.streams -= 1
            self._cond.notify_all()
