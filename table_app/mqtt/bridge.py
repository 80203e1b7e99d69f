"""The table on MQTT: an observer of the table (through the one view per change,
:class:`~table_app.views.table_views.TableViews`) that publishes the retained ``state``, the four
retained seat views, the ``event`` stream and ``status``; and the ``cmd`` topic, whose commands
go to the service and are each answered once, on ``cmd/result`` or the command's own reply
topic (:mod:`table_app.mqtt.answers`).

The table never waits on the broker. The observer only records the notice in the
:class:`~table_app.mqtt.outbox.Outbox` under a lock and returns (what is owed, in what order,
and what is dropped when the broker is away long). One thread owns the connection and
publishes (:mod:`table_app.mqtt.connection`: reconnects, acknowledgements, messages in flight);
while the broker is away the table plays on. On every (re)connect the bridge publishes
``online``, the discovery configs and the latest retained views again, then the queued answers
and events. The parlour link's ``journal`` and ``journal_replay``:
:mod:`table_app.mqtt.journal_link`; its ``roster``: :mod:`table_app.mqtt.roster_link`.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING

from table_app.mqtt.answers import ANSWER_LIMIT, AnswerQueue, CommandDesk
from table_app.mqtt.connection import Connection
from table_app.mqtt.journal_link import JournalLink
from table_app.mqtt.outbox import Outbox
from table_app.mqtt.roster_link import RosterLink
from table_app.mqtt.topics import HA_PREFIX, BrokerURL, Topics
from table_app.present.money import Money
from table_app.system.fault_log import FAULTS, FaultLog
from table_app.views.table_views import TableViews

if TYPE_CHECKING:
    from table_app.core.notices import Notice
    from table_app.core.service import TableService

COMMAND_SOURCE = "mqtt"


class MqttBridge:
    """Publishes a :class:`TableService` to a broker and takes commands from it.

    ``service`` needs ``subscribe``, ``submit``, ``seq`` and ``public``. ``views``: the table's
    one view per change, shared with the other front ends (None: one of its own, with ``money``,
    a point's value beside the points). ``ha_prefix`` None turns Home Assistant discovery off;
    ``commands`` False leaves ``cmd`` unsubscribed. ``queue_size``: events queued (then the
    oldest is dropped); ``answer_limit``: answers owed at once (then a command is answered busy);
    ``faults``: where handler failures are logged (the process's
    :data:`~table_app.system.fault_log.FAULTS`); ``journal`` False: no ``journal`` topic, no
    replays, no ``roster`` (else ``service`` needs ``journal_reader``).
    """

    def __init__(self, service: TableService, url: BrokerURL, topics: Topics, *, ha_prefix: str | None = HA_PREFIX,
                 commands: bool = True, client_id: str | None = None, queue_size: int = 1000,
                 max_inflight: int = 100, keepalive: int = 30, min_backoff: float = 0.2,
                 max_backoff: float = 5.0, heartbeat: Callable[[], None] | None = None,
                 answer_limit: int = ANSWER_LIMIT, faults: FaultLog | None = None,
                 money: Money | None = None, journal: bool = True, views: TableViews | None = None) -> None:
        if queue_size < 1 or max_inflight < 1:
            raise ValueError("queue_size and max_inflight must be at least 1")
        self.service = service
        self.url = url
        self.topics = topics
        self._own_views = views is None  # (stopped with the bridge)
        self.views = views if views is not None else TableViews(service, money)
        self._cond = threading.Condition()
        self._faults = FAULTS if faults is None else faults
        answers = AnswerQueue(answer_limit)
        link = JournalLink.of(service, topics, self._faults, queue_size) if journal else None
        self._outbox = Outbox(topics, self.views, ha_prefix, queue_size, answers, link)
        desk = CommandDesk(topics, service, self._cond, answers, self._faults, COMMAND_SOURCE,
                           link.ask if link is not None else None)
        self._conn = Connection(
            self._cond, self._outbox, desk, RosterLink.of(service, topics, journal), self._faults, url, topics,
            client_id=client_id or f"xian-table-{topics.table}-{uuid.uuid4().hex[:8]}", commands=commands,
            ha_prefix=ha_prefix, keepalive=keepalive, min_backoff=min_backoff, max_backoff=max_backoff,
            max_inflight=max_inflight, heartbeat=heartbeat)
        self._thread: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None

    # -- life cycle ----------------------------------------------------------------------

    def start(self) -> MqttBridge:
        if self._thread is not None:
            return self
        self._unsubscribe = self.views.subscribe(self)
        self._thread = threading.Thread(target=self._conn.run, name="mqtt-bridge", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Send what is queued (up to ``timeout`` seconds), publish ``offline``, disconnect."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._own_views:
            self.views.stop()
        if self._thread is None:
            return
        with self._cond:
            self._conn.closing = True
            self._conn.deadline = time.monotonic() + timeout
            self._cond.notify_all()
        self._thread.join(timeout + 2)
        self._thread = None
        if self._outbox.journal is not None:
            self._outbox.journal.close()
        self._faults.flush()

    def __enter__(self) -> MqttBridge:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- what it tells ---------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._conn.link == "up"

    @property
    def delivered(self) -> int:
        """Messages the broker acknowledged (for tests, the benchmark and logs)."""
        return self._conn.delivered

    @property
    def delivered_seq(self) -> int | None:
        """The seq of the last ``state`` the broker acknowledged."""
        return self._conn.delivered_seq

    @property
    def connects(self) -> int:
        return self._conn.connects

    @property
    def dropped(self) -> int:
        """Events dropped from the full queue while the broker was away."""
        return self._outbox.dropped

    def add_listener(self, fn: Callable[[str, str], None]) -> None:
        """Hear the link state — ``connecting``, ``online``, ``offline``, ``denied`` — and a
        detail line, from the bridge's threads (the touchscreen's Settings and ``serve`` show it)."""
        self._conn.listeners.append(fn)
        fn(*self._conn.link_state())

    def wait_idle(self, timeout: float) -> bool:
        """Wait until connected with nothing queued or unacknowledged; False on timeout."""
        with self._cond:
            return self._cond.wait_for(self._conn.idle, timeout)

    # -- the observer (called on the service thread: never blocks) -----------------------

    def __call__(self, notice: Notice) -> None:
        if not notice.changed:  # a refused press, the seating dice: nothing to publish
            return
        with self._cond:
            self._outbox.noticed(notice)
            self._cond.notify_all()
