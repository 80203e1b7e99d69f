"""The answers to MQTT commands: each command exactly one, where its client reads it, never dropped.

Where an answer goes (docs/design.md §8.1):

- an MQTT 5 command with a ``ResponseTopic`` property: there, with the command's
  ``CorrelationData`` (if any) as the answer's;
- a command with ``"reply_to": "<base>/cmd/result/<client id>"`` (MQTT 3.1.1 clients): there;
- otherwise on the shared ``<base>/cmd/result``, as before.

A response topic or ``reply_to`` must be ``<base>/cmd/result/`` and one more topic level (the
client's id: printable, no ``/``, ``+``, ``#``, at most :data:`MAX_CLIENT_ID` characters);
anything else is refused on the shared topic (the table never publishes elsewhere for a
client: not ``state``, not another table's topics). The broker's ACL lets a client read only
its own ``cmd/result/<client id>`` (systemd/mosquitto/README.md).

Answers wait in their own queue (:class:`AnswerQueue`), published before the event stream
and never dropped. It is bounded at intake: a command is taken only while fewer than
``limit`` answers are owed (waiting for the service or queued); beyond that it is answered
``service.busy`` at once, without being applied. Those refusals are queued too (each under
1 KiB; they come only as fast as the broker delivers commands on the same connection the
answers leave by).

>>> from table_app.mqtt.topics import Topics
>>> t = Topics("xian", "t1")
>>> route(t, "xian/t1/cmd/result/phone-7", None, None)
Route(topic='xian/t1/cmd/result/phone-7', correlation=None)
>>> route(t, None, None, None)
Route(topic='xian/t1/cmd/result', correlation=None)
>>> route(t, "xian/t1/state", None, None)
"'reply_to' must be xian/t1/cmd/result/<your client id>, got 'xian/t1/state'"
"""

from __future__ import annotations

import logging
import re
import threading
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from typing import TYPE_CHECKING

from table_app.mqtt.journal_link import REPLAY
from table_app.mqtt.messages import (
    REPLY_TO,
    Outgoing,
    Route,
    Transaction,
    answer_message,
    parse_command,
    result_message,
)
from table_app.mqtt.topics import Topics
from table_app.system import bounded
from table_app.system.fault_log import FaultLog

if TYPE_CHECKING:
    from paho.mqtt.properties import Properties

    from table_app.core.notices import Answer
    from table_app.core.service import TableService

log = logging.getLogger(__name__)

Replay = Callable[[Mapping[str, object], Transaction, Route], Outgoing | None]
"""Takes a ``journal_replay`` command: None once queued, else its refusal."""

MAX_CLIENT_ID = 128
ANSWER_LIMIT = 1000  # answers owed at once; the next command is answered busy
_CLIENT_ID = re.compile(rf"[^/+#\s]{{1,{MAX_CLIENT_ID}}}")


def reply_topic(topics: Topics, value: object, what: str = REPLY_TO) -> str:
    """``value`` if it is ``<base>/cmd/result/<one level>``; else :class:`ValueError` (a short message)."""
    prefix = topics.cmd_result + "/"
    if isinstance(value, str) and value.startswith(prefix):
        client = value[len(prefix):]
        if _CLIENT_ID.fullmatch(client) and client.isprintable():
            return value
    shown = bounded.excerpt(value) if isinstance(value, str) else bounded.clip(repr(value), bounded.EXCERPT)
    raise ValueError(f"{what!r} must be {prefix}<your client id>, got {shown}")


def route(topics: Topics, reply_to: object, response_topic: str | None, correlation: bytes | None) -> Route | str:
    """The answer's :class:`Route`, or why the named reply topic is refused (a string)."""
    try:
        if response_topic is not None:
            topic = reply_topic(topics, response_topic, "ResponseTopic")
            if reply_to is not None and reply_to != topic:
                raise ValueError(f"'reply_to' and ResponseTopic name different topics: {bounded.excerpt(topic)}")
            return Route(topic, correlation)
        if reply_to is not None:
            return Route(reply_topic(topics, reply_to))
    except ValueError as e:
        return str(e)
    return Route(topics.cmd_result)


class AnswerQueue:
    """Answers owed and queued (the caller holds the bridge's lock around every call)."""

    def __init__(self, limit: int = ANSWER_LIMIT) -> None:
        if limit < 1:
            raise ValueError("the answer limit must be at least 1")
        self.limit = limit
        self.owed = 0  # commands taken whose answer is not queued yet
        self.queue: deque[Outgoing] = deque()
        self.busy = 0  # commands answered busy here (counted, for tests and logs)

    def admit(self) -> bool:
        """Whether one more command may be taken (it then owes an answer: :meth:`put` it)."""
        if self.owed + len(self.queue) >= self.limit:
            self.busy += 1
            return False
        self.owed += 1
        return True

    def put(self, answer: Outgoing, *, admitted: bool) -> None:
        """Queue an answer; ``admitted``: it answers a command :meth:`admit` took."""
        if admitted:
            self.owed -= 1
        self.queue.append(answer)

    def __len__(self) -> int:
        return len(self.queue)


class CommandDesk:
    """The ``cmd`` topic: each message read, routed, taken or refused, and answered exactly
    once into the bridge's :class:`AnswerQueue` (under the bridge's ``cond``, which it notifies)."""

    def __init__(self, topics: Topics, service: TableService, cond: threading.Condition, answers: AnswerQueue,
                 faults: FaultLog, source: str, replay: Replay | None = None) -> None:
        self.topics, self.service, self.cond, self.answers = topics, service, cond, answers
        self.faults, self.source = faults, source
        self.replay = replay  # journal_replay commands (table_app/mqtt/journal_link.py): never the service's

    def take(self, payload: bytes, properties: Properties | None) -> None:
        """One ``cmd`` message (paho's network thread: never blocks). Raises only before
        anything is queued for it (the caller then answers ``internal error``)."""
        response = getattr(properties, "ResponseTopic", None) if properties is not None else None
        correlation = getattr(properties, "CorrelationData", None) if properties is not None else None
        cmd = parse_command(payload)
        where = route(self.topics, cmd.reply_to, response if isinstance(response, str) else None,
                      bytes(correlation) if isinstance(correlation, bytes | bytearray) else None)
        if isinstance(where, str):  # the reply topic named is refused: say so on the shared topic
            self._put(result_message(self.topics, transaction=cmd.transaction, error=where, code="invalid"))
            return
        if cmd.error is not None or cmd.event is None:
            self._put(result_message(self.topics, transaction=cmd.transaction, error=cmd.error, to=where))
            return
        if self.replay is not None and cmd.event.get("type") == REPLAY:
            with self.cond:
                refusal = self.replay(cmd.event, cmd.transaction, where)
                if refusal is not None:
                    self.answers.put(refusal, admitted=False)
                self.cond.notify_all()
            return
        with self.cond:
            admitted = self.answers.admit()
        if not admitted:
            self._put(result_message(self.topics, transaction=cmd.transaction, code="service.busy", to=where,
                                     error=f"the table is busy ({self.answers.limit} answers wait to be sent): "
                                           "send it again in a moment"))
            return
        try:  # behind the table's own buttons
            fut = self.service.submit(cmd.event, source=self.source, remote=True)
        except Exception as e:
            self.faults.log(log, "mqtt command", e)
            self._put(self.internal_error(cmd.transaction, where, e), admitted=True)
            return
        transaction = cmd.transaction
        fut.add_done_callback(lambda f: self._answered(f, transaction, where))

    def _answered(self, fut: Future[Answer], transaction: Transaction, where: Route) -> None:
        try:
            msg = answer_message(self.topics, transaction, fut.result(), where)
        except Exception as e:
            self.faults.log(log, "mqtt answer", e)
            msg = self.internal_error(transaction, where, e)
        self._put(msg, admitted=True)

    def internal_error(self, transaction: Transaction, where: Route | None, e: Exception) -> Outgoing:
        """The answer to a command the bridge failed on (never raises)."""
        try:
            return result_message(self.topics, transaction=transaction, error=f"internal error: {e}", to=where)
        except Exception:
            to = where or Route(self.topics.cmd_result)
            return Outgoing(to.topic, b'{"status":"error","error":"internal error","transaction":null}',
                            retain=False, correlation=to.correlation, answer=True)

    def _put(self, msg: Outgoing, *, admitted: bool = False) -> None:
        with self.cond:
            self.answers.put(msg, admitted=admitted)
            self.cond.notify_all()
