"""UI tests under a real X server: an ``Xvfb`` started here on a free display number.

One Kivy window serves the whole session (Kivy makes one per process); each test gets a
fresh journal, ``TableService`` (with a ManualClock: the claim window never closes by
itself) and ``TableApp`` whose root is put into that window. Touches go through Kivy's
event loop like a real touchscreen's (``UnitTestTouch`` → ``post_dispatch_input``).
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from table_app.core.roster import Roster
from table_app.core.service import ManualClock, TableService
from table_app.journal.journal import Journal


def _free_display() -> int:
    """A display number nobody uses, from a range of this xdist worker's own (``gw1`` from :160),
    so that two workers starting their windows at once never pick the same one."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    first = 140 + 20 * (int(worker) % 12 if worker.isdigit() else 0)
    for n in (*range(first, 400), *range(140, first)):
        if not Path(f"/tmp/.X{n}-lock").exists() and not Path(f"/tmp/.X11-unix/X{n}").exists():
            return n
    raise RuntimeError("no free X display number between :140 and :399")


@pytest.fixture(scope="session")
def xvfb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    n = _free_display()
    proc = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1280x720x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sock = Path(f"/tmp/.X11-unix/X{n}")
    deadline = time.monotonic() + 20
    while not sock.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"Xvfb :{n} did not start (exit {proc.poll()})")
        time.sleep(0.05)
    old = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = f":{n}"
    os.environ["KIVY_HOME"] = str(tmp_path_factory.mktemp("kivy-home"))
    try:
        yield f":{n}"
    finally:
        proc.terminate()
        proc.wait(10)
        if old is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = old


@pytest.fixture(scope="session")
def window(xvfb: str) -> Any:
    from table_app.ui.launch import configure_kivy

    configure_kivy(1280, 720, False)
    from kivy.base import EventLoop

    EventLoop.ensure_window()
    return EventLoop.window


class UI:
    """The app under test, with helpers to touch widgets and wait for the table to follow."""

    def __init__(self, app: Any, service: TableService, clock: ManualClock) -> None:
        self.app, self.service, self.clock = app, service, clock

    def frames(self, n: int = 2) -> None:
        from kivy.base import EventLoop

        for _ in range(n):
            EventLoop.idle()

    def wait(self, cond: Callable[[], bool], what: str, limit: float = 20.0) -> None:
        """Run the event loop until ``cond()`` (a hang guard, not a timing check)."""
        deadline = time.monotonic() + limit
        while not cond():
            if time.monotonic() > deadline:
                raise AssertionError(f"the screen never showed: {what} (message: {self.app.message!r})")
            self.frames(1)
            time.sleep(0.005)
        self.frames(2)

    def settled(self) -> None:
        """Every command sent so far is applied and its notice shown."""
        self.wait(lambda: self.app.seq == self.service.seq and not self.service.queued, "the last notice")

    def tap(self, widget: Any) -> None:
        from kivy.tests.common import UnitTestTouch

        self.frames(1)  # laid out where it will be touched
        assert widget.get_root_window() is not None, f"{widget!r} is not on the screen"
        assert not widget.disabled, f"{widget!r} is disabled"
        x, y = widget.to_window(*widget.center)
        t = UnitTestTouch(x, y)
        t.touch_down()
        self.frames(1)
        t.touch_up()
        self.frames(2)

    def send_and_settle(self, widget: Any) -> None:
        before = self.service.seq
        self.tap(widget)
        self.wait(lambda: self.service.seq > before or bool(self.app.message), "the service took the touch")
        self.settled()

    @property
    def screen(self) -> Any:
        return self.app.sm.current_screen

    def button(self, seat: int, action: str) -> Any:
        """Seat ``seat``'s enabled button that sends ``action`` (on the table screen)."""
        panel = self.app.screen("table").panel(seat)
        found = panel.button(action)
        assert found is not None, f"seat {seat} has no enabled {action!r} button; it has {panel.actions}"
        return found

    def find(self, action: str, root: Any = None) -> Any:
        """The visible widget (on the current screen, or under ``root``) whose ``action`` is ``action``."""
        root = root if root is not None else self.screen
        found = [w for w in root.walk() if getattr(w, "action", None) == action and w.opacity > 0]
        assert found, f"no {action!r} on {root!r}"
        return found[0]

    def modal(self) -> Any:
        from kivy.core.window import Window
        from kivy.uix.modalview import ModalView

        views = [w for w in Window.children if isinstance(w, ModalView)]
        assert views, "no dialog is open"
        return views[0]

    def pub(self) -> dict[str, Any]:
        return self.service.public


@pytest.fixture
def ui(window: Any, tmp_path: Path) -> Iterator[UI]:
    from kivy.core.window import Window

    from table_app.ui.app import TableApp

    Window.size = (800, 480)  # the 7" panel (and the cheapest frames under llvmpipe)
    journal = Journal.open(tmp_path / "journal.sqlite3")
    clock = ManualClock()
    roster = Roster.open(journal.path)  # (the touchscreen's table remembers its players, as compose's does)
    service = TableService(journal, claim_window_s=3.0, clock=clock, dice=lambda: (2, 3), roster=roster).start()
    app = TableApp(service, journal=journal, sim=True, lang="en",
                   links={"hardware": "simulated", "mqtt": "offline", "journal": str(journal.path)})
    app._run_prepare()
    u = UI(app, service, clock)
    u.frames(3)
    try:
        yield u
    finally:
        for child in list(Window.children):
            Window.remove_widget(child)
        app.dispatch("on_stop")
        service.stop()
        roster.close()
        journal.close()
