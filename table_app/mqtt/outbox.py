"""What the MQTT bridge owes the broker, in the order it is sent: after a (re)connect ``online``,
the Home Assistant discovery and the retained views again; the retained table views (``state``
and the four ``seat/<n>`` of the one view of the latest change, with the players' names as
bitmaps); the answers to commands; then the event stream.

The table's retained topics keep just their latest value (a new change replaces one not yet
sent); the event stream waits in a bounded queue (the oldest is dropped and counted when it is
full); the answers in a queue of their own (:class:`~table_app.mqtt.answers.AnswerQueue`), never
dropped. Messages a lost connection left unacknowledged come back to the front of their queues
(:meth:`Outbox.again`). The caller (:mod:`table_app.mqtt.connection`, the bridge's observer)
holds the bridge's lock around every call.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING

from table_app.mqtt.answers import AnswerQueue
from table_app.mqtt.discovery import discovery_messages
from table_app.mqtt.journal_link import JournalLink
from table_app.mqtt.messages import Outgoing, event_message, status_message, table_messages
from table_app.mqtt.names import NameBitmaps
from table_app.mqtt.topics import HA_PREFIX, Topics
from table_app.views.table_views import TableViews

if TYPE_CHECKING:
    from table_app.core.notices import Notice

log = logging.getLogger(__name__)


class Outbox:
    """The bridge's messages not yet handed to paho. ``ha_prefix`` None: no discovery."""

    def __init__(self, topics: Topics, views: TableViews, ha_prefix: str | None, queue_size: int,
                 answers: AnswerQueue, journal: JournalLink | None) -> None:
        self.topics = topics
        self.views = views
        self.ha_prefix = ha_prefix
        self.answers = answers
        self.journal = journal  # the parlour link's journal records (taken by the connection, outside the lock)
        self.table_dirty = True  # the retained table views are due (from the start: the table as it is)
        self.discovery_dirty = False
        self.republish = False
        self.queue: deque[Notice | Outgoing] = deque(maxlen=queue_size)  # the event stream
        self.names = NameBitmaps()  # the players' names as bitmaps for the seat displays
        self.dropped = 0

    def noticed(self, notice: Notice) -> None:
        """A change: the retained views are due again, and the change goes on the event stream."""
        self.table_dirty = True
        if self.journal is not None:
            self.journal.committed(notice.seq)
        self._enqueue(notice)

    def connected(self) -> None:
        """A new connection: ``online``, the discovery and the retained views again."""
        self.republish = True

    def has_work(self) -> bool:
        return bool(self.republish or self.table_dirty or self.discovery_dirty or self.answers or self.queue
                    or (self.journal is not None and self.journal.has_work()))

    def take(self, room: int) -> list[Outgoing]:
        """The next messages to publish: the retained ones owed, then up to ``room`` answers and events."""
        out: list[Outgoing] = []
        if self.republish:
            out.append(status_message(self.topics, online=True))
            self.republish = False
            self.names.forget()
            self.discovery_dirty = self.ha_prefix is not None
            self.table_dirty = True
        if self.discovery_dirty:
            out.extend(discovery_messages(self.topics, self.ha_prefix or HA_PREFIX))
            self.discovery_dirty = False
        if self.table_dirty:
            out.extend(self._table())
            self.table_dirty = False
        while self.answers.queue and len(out) < room:  # answers before the event stream
            out.append(self.answers.queue.popleft())
        while self.queue and len(out) < room:
            item = self.queue.popleft()
            if not isinstance(item, Outgoing):
                item = event_message(self.topics, seq=item.seq, kind=item.kind,
                                     event=None if item.event is None else item.event.to_json(), at=item.at,
                                     source=item.source, undone=item.undone, effects=item.effects)
            out.append(item)
        return out

    def _table(self) -> list[Outgoing]:
        """``state`` and the seat views of the one view of the latest change, and the names' bitmaps."""
        context = self.views.context()
        out = table_messages(self.topics, context)
        try:
            out.extend(self.names.changed(self.topics, context.public))
        except Exception:  # the names' bitmaps are extra: never let them stop the table's own topics
            log.exception("mqtt: rendering the players' names failed")
        return out

    def again(self, unacknowledged: Iterable[Outgoing]) -> None:
        """Events and answers a lost connection left unacknowledged go back to the front of their
        queues, in their order (the answers all of them; the retained views are sent anew anyway)."""
        for m in reversed([m for m in unacknowledged if not m.retain]):
            if m.answer:
                self.answers.queue.appendleft(m)
            elif len(self.queue) < (self.queue.maxlen or 0):
                self.queue.appendleft(m)

    def _enqueue(self, item: Notice | Outgoing) -> None:
        if len(self.queue) == self.queue.maxlen:
            self.dropped += 1
            if self.dropped == 1 or self.dropped % 1000 == 0:
                log.warning("mqtt: outgoing queue full, dropped the oldest message (%d so far)", self.dropped)
        self.queue.append(item)
