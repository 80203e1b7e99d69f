"""The browser tests' Chromium: the benchmark's headless Debian Chromium
(:mod:`table_app.bench.browser`, the DevTools protocol on a pipe) with a finger: each page taps,
clicks and types as a phone's user does. Pages in browser contexts of their own (each with its
own cookie jar, like separate phones). Nothing mocked: the pages talk to the table's real web
server."""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from table_app.bench import browser
from table_app.bench.browser import CHROMIUM, WAIT

__all__ = ["CHROMIUM", "WAIT", "Chromium", "Page", "join_phone", "phone_table", "shots_dir", "until"]


class Page(browser.Page):
    """A page a finger uses: real clicks at an element's centre, and a phone keyboard's typing."""

    def click(self, selector: str) -> None:
        """A real click at the element's centre (the mouse events a finger's tap makes)."""
        self.tap(f"document.querySelector({json.dumps(selector)})", f"{selector} there and enabled")

    def tap(self, element: str, what: str) -> None:
        """A real click at the centre of the element the JavaScript expression ``element`` gives,
        once it is there and enabled: found, scrolled to and measured in one step (a live update
        may draw the page again between two steps)."""
        box = self.wait(f"(() => {{ const e = {element};"
                        " if (!e || e.disabled) return null; e.scrollIntoView({block: 'center'});"
                        " const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()",
                        what)
        assert isinstance(box, list)
        for kind in ("mousePressed", "mouseReleased"):
            self.browser.send("Input.dispatchMouseEvent", self.session, type=kind, x=box[0], y=box[1],
                              button="left", clickCount=1)

    def type(self, selector: str, text: str) -> None:
        """Focus a field and type ``text`` as a phone's keyboard would (any script)."""
        self.js(f"document.querySelector({json.dumps(selector)}).focus()")
        self.browser.send("Input.insertText", self.session, text=text)


class Chromium(browser.Chromium):
    """The benchmark's browser, whose pages are :class:`Page`: a finger on each."""

    page_class = Page


def join_phone(browser: Chromium, url: str, seat: int, name: str | None = None, *, width: int = 390,
               height: int = 844, own_cookies: bool = True) -> Page:
    """A phone that opens the join link ``url``, taps seat ``seat``, types ``name`` (none: the
    name shown is kept) and joins: its seat's page, live."""
    page = browser.page(url, width=width, height=height, own_cookies=own_cookies)
    page.wait("document.querySelectorAll('.seat').length === 4", "the four seats")
    page.click(f".seat[data-seat='{seat}']")
    if name is not None:
        page.type("#name", name)
    page.click("#join")
    page.wait(f"location.pathname === '/phone/{seat}' && document.body.dataset.seq !== ''", "the seat's page")
    return page


@contextlib.contextmanager
def phone_table(tmp_path: Path, table: str, roster: bool = False) -> Iterator[tuple[Any, Any, Any, Chromium]]:
    """A real table for the phones' browser tests: a journal, its service (no claim timer, a
    manual clock; with ``roster``, the players' ids from the table's roster), its pages and a
    Chromium — (journal, service, pages, browser), all closed after."""
    from table_app.core.roster import Roster
    from table_app.core.service import ManualClock, TableService
    from table_app.journal.journal import Journal
    from table_app.web.server import SeatPages

    journal = Journal.open(tmp_path / "j.sqlite3")
    players = Roster.open(journal.path) if roster else None
    service = TableService(journal, claim_window_s=0, clock=ManualClock(), roster=players).start()
    pages = SeatPages(service, "127.0.0.1", 0, table=table).start()
    browser = Chromium(tmp_path / "profile")
    try:
        yield journal, service, pages, browser
    finally:
        browser.close()
        pages.stop()
        service.stop()
        if players is not None:
            players.close()
        journal.close()


def shots_dir(docs: str, tmp_path: Path) -> Path:
    """Where a test's screenshots go: ``docs/<docs>/`` when ``XIAN_TABLE_DOC_SHOTS=1`` (to
    renew the documentation's pictures), else the test's own temporary directory (a test
    run leaves the tree as it was)."""
    if os.environ.get("XIAN_TABLE_DOC_SHOTS") == "1":
        return Path(__file__).resolve().parents[2] / "docs" / docs
    return tmp_path / "shots"


def until(pred: Callable[[], bool], timeout: float = WAIT) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.02)
    return pred()
