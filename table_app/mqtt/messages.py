"""The table's outgoing MQTT messages as small values, and the parsing of commands.

Building a message does no I/O: the bridge only hands these to paho.

>>> from table_app.mqtt.topics import Topics
>>> m = status_message(Topics("xian", "t1"), online=True)
>>> m.topic, m.payload, m.retain, m.qos
('xian/t1/status', b'online', True, 1)
>>> parse_command(b'{"type": "pass", "seat": 2, "transaction": "a7"}')
Command(event={'type': 'pass', 'seat': 2}, transaction='a7', error=None, reply_to=None)
>>> parse_command(b'[1]').error
'a command must be a JSON object, got [1]'
>>> dumps({"t": "\\ud800 中"})  # a lone surrogate (JSON carries one, UTF-8 cannot) is escaped
b'{"t":"\\\\ud800 \\xe4\\xb8\\xad"}'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from engine.moves import Effect
from engine.public import PublicState
from engine.seats import SEATS
from table_app.core.notices import Answer
from table_app.mqtt.topics import OFFLINE, ONLINE, QOS, Topics
from table_app.present.view_context import ViewContext
from table_app.system import bounded

MAX_COMMAND_BYTES = bounded.MAX_COMMAND_BYTES
_TRANSACTION = "transaction"
REPLY_TO = "reply_to"


Transaction = str | int | None
"""A command's ``transaction``, echoed in its answer."""


def dumps(obj: object) -> bytes:
    """``obj`` as compact JSON in UTF-8; anything JSON can carry, a lone surrogate too
    (:func:`table_app.system.bounded.json_line` writes it, and a C1 or DEL, as its ``\\u`` escape)."""
    return bounded.json_line(obj).encode("utf-8")


@dataclass(frozen=True)
class Outgoing:
    """One message to publish. ``seq``: the journal record it reflects (None: not tied to one)."""

    topic: str
    payload: bytes
    retain: bool
    qos: int = QOS
    seq: int | None = None
    correlation: bytes | None = None  # an answer's MQTT 5 CorrelationData
    answer: bool = False  # an answer to a command (its own queue: never dropped)


@dataclass(frozen=True)
class Route:
    """Where one command's answer goes, and the correlation data it carries back (MQTT 5)."""

    topic: str
    correlation: bytes | None = None


def status_message(topics: Topics, online: bool) -> Outgoing:
    return Outgoing(topics.status, (ONLINE if online else OFFLINE).encode(), retain=True)


def state_message(topics: Topics, public: PublicState, seq: int | None) -> Outgoing:
    """The public state exactly as the engine gives it (docs/design.md, public state)."""
    return Outgoing(topics.state, dumps(public), retain=True, seq=seq)


def seat_message(topics: Topics, context: ViewContext, seat: int) -> Outgoing:
    """The seat's view (:meth:`ViewContext.seat <table_app.present.view_context.ViewContext.seat>`)
    with ``seq``, the journal record: the same view the phones and ``/seat/<n>.json`` show."""
    return Outgoing(topics.seat(seat), dumps(context.seat(seat)), retain=True, seq=context.seq)


def table_messages(topics: Topics, context: ViewContext) -> list[Outgoing]:
    """The retained messages for one change: ``state`` and the four seat views, all from its one
    view (:class:`~table_app.present.view_context.ViewContext`)."""
    return [state_message(topics, context.public, context.seq),
            *(seat_message(topics, context, s) for s in range(SEATS))]


def event_message(topics: Topics, *, seq: int, kind: str, event: Mapping[str, object] | None, at: float,
                  source: str, undone: tuple[int, ...] = (), effects: tuple[Effect, ...] = ()) -> Outgoing:
    """One applied change for the (not retained) event stream, with what the engine says it
    did (``effects``: drew, claims_open, claim_taken, kong, win_declared, hand_over, …)."""
    body: dict[str, object] = {"seq": seq, "kind": kind, "event": event, "at": at, "source": source}
    if undone:
        body["undone"] = list(undone)
    if effects:
        body["effects"] = [e.to_json() for e in effects]
    return Outgoing(topics.event, dumps(body), retain=False, seq=seq)


@dataclass(frozen=True)
class Command:
    """A parsed ``cmd`` message: the command for the service, or why it was refused."""

    event: dict[str, object] | None
    transaction: Transaction = None
    error: str | None = None
    reply_to: object = None  # the command's "reply_to", unchecked (table_app/mqtt/answers.py checks it)


def parse_command(payload: bytes) -> Command:
    """A JSON object in the event vocabulary, with an optional ``transaction`` (a string or
    integer echoed in the answer) and an optional ``reply_to`` (where the answer goes);
    everything else about the event the service checks.

    The payload is read with :mod:`table_app.system.bounded`'s limits (size, nesting, digits), so
    no message can raise anything but a short refusal here.
    """
    try:
        data = bounded.parse_command(payload, max_bytes=MAX_COMMAND_BYTES, strings=False)
    except bounded.BoundedInputError as e:
        return Command(None, None, str(e))
    if not isinstance(data, dict):
        shown = bounded.clip(json.dumps(data), bounded.EXCERPT)
        return Command(None, None, f"a command must be a JSON object, got {shown}")
    transaction = data.pop(_TRANSACTION, None)
    reply_to = data.pop(REPLY_TO, None)
    if transaction is not None and (type(transaction) not in (str, int) or len(str(transaction)) > 128):
        return Command(None, None, f"'transaction' must be a string or an integer of at most 128 characters, "
                                   f"got {bounded.clip(json.dumps(transaction, ensure_ascii=False), bounded.EXCERPT)}",
                       reply_to)
    try:  # (after taking out the transaction, so that the refusal echoes it — escaped if need be)
        bounded.check_strings(transaction, "'transaction'")
        bounded.check_strings(data)
    except bounded.BoundedInputError as e:
        return Command(None, transaction, str(e), reply_to)
    return Command(data, transaction, None, reply_to)


def result_message(topics: Topics, *, transaction: Transaction, data: object = None, error: str | None = None,
                   code: str = "", params: Mapping[str, object] | None = None, to: Route | None = None) -> Outgoing:
    """The answer on ``cmd/result`` (or where ``to`` says): ``{status, data|error, transaction}``
    (zigbee2mqtt's shape); a refusal with the engine's ``code`` and ``params`` also carries
    them (for a display that words it in its own language)."""
    body: dict[str, object] = {"status": "error" if error is not None else "ok"}
    if error is not None:
        body["error"] = bounded.clip(error)  # an engine error quotes the event: never a whole big one
        if code:
            body["code"], body["params"] = code, dict(params or {})
    else:
        body["data"] = data
    body["transaction"] = transaction
    to = to or Route(topics.cmd_result)
    return Outgoing(to.topic, dumps(body), retain=False, correlation=to.correlation, answer=True)


def answer_message(topics: Topics, transaction: Transaction, answer: Answer, to: Route | None = None) -> Outgoing:
    """The service's answer to a ``cmd`` message, on ``cmd/result`` (or where ``to`` says)."""
    if answer.ok:
        return result_message(topics, transaction=transaction, data={"seq": answer.seq, "state": answer.state},
                              to=to)
    return result_message(topics, transaction=transaction, error=answer.error, code=answer.code,
                          params=answer.params, to=to)
