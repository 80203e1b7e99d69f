"""Touches through Kivy's event loop, as a real touchscreen's reach the app, and waits for the
table to follow (the ``evening`` benchmark's hands and eyes; the UI tests' ``UI`` is the same idea)."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

from table_app.core.clock import ManualClock
from table_app.core.service import TableService

Widget = Any  # (Kivy is untyped: the app, its screens, buttons and dialogs)


@functools.cache
def _touch_class() -> type:
    from kivy.input.motionevent import MotionEvent

    class Touch(MotionEvent):  # type: ignore[misc]
        def depack(self, args: dict[str, float]) -> None:
            self.sx, self.sy = args["x"], args["y"]
            super().depack(args)

    return Touch


def _touch(x: float, y: float) -> Widget:
    """One finger at window pixel (x, y), as a touchscreen's input provider makes it. (Kivy's own
    ``kivy.tests.common.UnitTestTouch`` would do, but importing it imports pytest: megabytes the
    app on the Pi never holds, counted in the benchmark's figure.)"""
    from kivy.base import EventLoop

    win = EventLoop.window
    t = _touch_class()("touchscreen", 99, {"x": x / (win.width - 1.0), "y": y / (win.height - 1.0)},
              is_touch=True, type_id="touch")
    t.profile = ["pos"]
    return t


class Driver:
    """Touches through Kivy's event loop like a real touchscreen's, and waits for the table."""

    def __init__(self, app: Widget, service: TableService, clock: ManualClock) -> None:
        self.app, self.service, self.clock = app, service, clock

    def frames(self, n: int = 2) -> None:
        from kivy.base import EventLoop

        for _ in range(n):
            EventLoop.idle()

    def wait(self, cond: Callable[[], bool], what: str, limit: float = 30.0) -> None:
        deadline = time.monotonic() + limit
        while not cond():
            if time.monotonic() > deadline:
                raise RuntimeError(f"the evening stopped: {what} never came (message: {self.app.message!r}, "
                                   f"phase {self.service.public['phase']})")
            self.frames(1)
            time.sleep(0.002)
        self.frames(1)

    def rest(self, seconds: float) -> None:
        """Nobody touches anything for ``seconds`` (the app's own timers run)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.frames(1)
            time.sleep(0.02)

    def settled(self) -> None:
        self.wait(lambda: self.app.seq == self.service.seq and not self.service.queued, "the last notice")

    def tap(self, widget: Widget) -> None:
        from kivy.base import EventLoop

        self.frames(1)
        if widget.get_root_window() is None or widget.disabled:
            raise RuntimeError(f"the evening stopped: {widget!r} cannot be touched")
        t = _touch(*widget.to_window(*widget.center))
        EventLoop.post_dispatch_input("begin", t)
        self.frames(1)
        EventLoop.post_dispatch_input("end", t)
        self.frames(1)

    def tap_and_settle(self, widget: Widget) -> None:
        before = self.service.seq
        self.tap(widget)
        self.wait(lambda: self.service.seq > before or bool(self.app.message), "the service took the touch")
        self.settled()

    def send(self, command: dict[str, object]) -> None:
        """A command as the screen that makes it sends it (``app.send``)."""
        before = self.service.seq
        self.app.send(command)
        self.wait(lambda: self.service.seq > before, f"{command['type']} taken")
        self.settled()

    def press(self, seat: int | None, button: str) -> None:
        """A wired button's press (the hardware's path into the service)."""
        self.service.call({"type": "press", "seat": seat, "button": button, "held": False}, source="gpio")
        self.settled()

    def find(self, action: str, root: Widget = None) -> Widget:
        root = root if root is not None else self.app.sm.current_screen
        found = [w for w in root.walk() if getattr(w, "action", None) == action and w.opacity > 0
                 and not w.disabled]
        if not found:
            raise RuntimeError(f"the evening stopped: no {action!r} on {root!r}")
        return found[0]

    def modal(self) -> Widget:
        from kivy.core.window import Window
        from kivy.uix.modalview import ModalView

        views = [w for w in Window.children if isinstance(w, ModalView)]
        if not views:
            raise RuntimeError("the evening stopped: no dialog is open")
        return views[0]

    def visit(self, name: str) -> None:
        self.app.goto(name)
        self.frames(2)

    def menu(self, item: str) -> None:
        self.tap(self.find("menu", self.app.screen("table")) if self.app.sm.current == "table"
                 else self.find_menu())
        self.tap(self.modal().items[item])
        self.frames(2)

    def find_menu(self) -> Widget:
        screen = self.app.sm.current_screen
        found = [w for w in screen.walk() if getattr(w, "action", None) == "menu" and w.opacity > 0]
        if found:
            return found[0]
        self.visit("table")
        return self.find("menu")

    def yes(self) -> None:
        self.tap_and_settle(self.modal().ids.yes)
