"""``xian-table parlour fee T|all``: the parlour sends tables their fee (docs/parlour-service.md).

The command is the table's own ``fee`` event, ``{"type": "fee", "fee": {...} | null,
"transaction": …}``, published on ``xian/T/cmd`` (QoS 1) through the parlour broker as the
parlour service's user (its ACL writes ``xian/+/cmd``); the table's bridge carries it in, and
a table whose link is down gets it when the link is back (the bridge's session is persistent).
The table keeps it as its default fee and applies it to the session in play
(``table_app/core/house_fee.py``); its answer comes back on ``xian/T/cmd/result`` with the same
``transaction``, which this waits for a few seconds. A short-lived client of its own (a fresh
client id, a clean session): the parlour service's session is left alone.

>>> json.loads(fee_message(FeeSetting("hour", 30, min=20), "t1"))
{'type': 'fee', 'fee': {'mode': 'hour', 'rate': 30, 'min': 20, 'cap': None, 'payer': 'aa', 'tea': 0}, \
'transaction': 't1'}
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from engine.fees import FeeSetting
from table_app.mqtt.topics import BrokerURL

WAIT_S = 10.0


def fee_message(setting: FeeSetting | None, transaction: str) -> bytes:
    """The ``fee`` command for a table (None: no fee from now on)."""
    data = {"type": "fee", "fee": None if setting is None else setting.to_json(), "transaction": transaction}
    return json.dumps(data, separators=(",", ":")).encode()


def send_fee(broker: BrokerURL, tables: Sequence[str], setting: FeeSetting | None, *, prefix: str = "xian",
             cafile: Path | None = None, wait_s: float = WAIT_S) -> dict[str, dict[str, object] | None]:
    """Publish the fee to each table and wait up to ``wait_s`` for their answers: each table's
    answer (``{"status": "ok", …}`` or ``{"status": "error", "error": …}``), None when none
    came in time. ``OSError`` / ``RuntimeError`` when the broker cannot be reached or refuses."""
    tag = f"parlour-fee-{secrets.token_hex(4)}"
    cond = threading.Condition()
    answers: dict[str, dict[str, object] | None] = dict.fromkeys(tables)
    ready: list[object] = []
    result_topics = {f"{prefix}/{t}/cmd/result": t for t in tables}

    def on_connect(client: mqtt.Client, userdata: object, flags: object, rc: ReasonCode, props: object) -> None:
        with cond:
            ready.append(rc)
            cond.notify_all()
        if not rc.is_failure:
            client.subscribe([(topic, 1) for topic in result_topics])

    def on_subscribe(client: mqtt.Client, userdata: object, mid: int, rcs: object, props: object) -> None:
        with cond:
            ready.append("subscribed")
            cond.notify_all()

    def on_message(client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        table = result_topics.get(msg.topic)
        try:
            answer = json.loads(msg.payload)
        except ValueError:
            return
        if table is not None and isinstance(answer, dict) and answer.get("transaction") == f"{tag}-{table}":
            with cond:
                answers[table] = answer
                cond.notify_all()

    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"{tag}", clean_session=True, protocol=mqtt.MQTTv311)
    if broker.username:
        c.username_pw_set(broker.username, broker.password)
    if broker.tls:
        c.tls_set(ca_certs=str(cafile) if cafile else None)
    c.on_connect, c.on_subscribe, c.on_message = on_connect, on_subscribe, on_message
    c.connect(broker.host, broker.port, keepalive=30)
    c.loop_start()
    try:
        with cond:
            if not cond.wait_for(lambda: "subscribed" in ready or any(
                    isinstance(r, ReasonCode) and r.is_failure for r in ready), WAIT_S):
                raise RuntimeError(f"the parlour broker {broker.redacted()} did not answer")
            refused = [r for r in ready if isinstance(r, ReasonCode) and r.is_failure]
            if refused:
                raise RuntimeError(f"the parlour broker {broker.redacted()} refused the connection: {refused[0]}")
        for table in tables:
            c.publish(f"{prefix}/{table}/cmd", fee_message(setting, f"{tag}-{table}"), qos=1).wait_for_publish(WAIT_S)
        end = time.monotonic() + wait_s
        with cond:
            cond.wait_for(lambda: all(a is not None for a in answers.values()), max(0.0, end - time.monotonic()))
            return dict(answers)
    finally:
        c.disconnect()
        c.loop_stop()


__all__ = ["WAIT_S", "fee_message", "send_fee"]
