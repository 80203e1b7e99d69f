"""Presses to the table without waiting: the one way every device thread hands a press on.

>>> import pathlib, tempfile
>>> from table_app.journal.journal import Journal
>>> from table_app.core.service import TableService
>>> journal = Journal.open(pathlib.Path(tempfile.mkdtemp()) / "journal.sqlite3")
>>> service = TableService(journal).start()
>>> send = PressSender(service, "gpio")
>>> future = send(Press(0, "TURN"))  # returns at once; the answer comes after the commit
>>> answer = future.result(10)  # (a test may wait; a device thread never does)
>>> answer.ok, answer.code
(False, 'press.phase')
>>> service.stop(); journal.close()
"""

from __future__ import annotations

import logging
from concurrent.futures import Future
from typing import TYPE_CHECKING

from engine.presses import Press

if TYPE_CHECKING:
    from table_app.core.service import Answer, TableService

log = logging.getLogger(__name__)

# The service's own refusals (the table could not act, whatever the rules say): worth a warning.
_TROUBLE = ("journal.failed", "service.stopped", "service.internal", "service.busy")


class PressSender:
    """``sender(press)`` queues the press as coming from ``source`` and returns its future.

    Call it from a device's own thread (the GPIO poll thread, the panel's reader): it only
    queues, so the device is back at its buttons at once, however long the commit takes.
    The service takes its queue in order, so presses act in the order they were sent. A press
    the rules refuse is told to every observer as a ``refused`` notice (the seat's LED
    flashes, the screen says why); here it is only logged, from the future's callback.
    """

    def __init__(self, service: TableService, source: str) -> None:
        self.service = service
        self.source = source

    def __call__(self, press: Press) -> Future[Answer]:
        future = self.service.submit(press.to_json(), self.source)
        future.add_done_callback(lambda done: self._answered(press, done))
        return future

    def _answered(self, press: Press, future: Future[Answer]) -> None:
        try:
            answer = future.result()
        except Exception:  # the service answers every command; this would be a bug there
            log.exception("%s from %s got no answer", press.label(), self.source)
            return
        if answer.ok:
            return
        if answer.code in _TROUBLE:
            log.warning("%s from %s was not recorded: %s", press.label(), self.source, answer.error)
        else:
            log.info("the table refused %s from %s: %s", press.label(), self.source, answer.error)
