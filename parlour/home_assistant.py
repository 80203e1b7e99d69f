"""Home Assistant on the parlour broker: per table a device with its occupancy (a
``binary_sensor``: a session being played) and the fee so far (a ``sensor``, points), both
unavailable while the table's own ``xian/T/status`` says ``offline``.

The shapes are the table's own discovery's (:mod:`table_app.mqtt.discovery`); the configs
are retained, each table's state is one retained JSON message on ``<prefix>-parlour/T/state``
(``{"occupied": "ON", "fee": 40, "started": "…", "hands": 3, "players": […]}``), sent when a
session starts, settles a hand or ends, and every minute while one is played (the fee so far:
:func:`parlour.sessions.fee_so_far`). A retired table's configs and state are taken
away (an empty retained message each).

>>> msgs = discovery_messages("xian", "den")
>>> [m.topic for m in msgs]
['homeassistant/binary_sensor/xian_parlour_den/occupied/config', 'homeassistant/sensor/xian_parlour_den/fee/config']
>>> [m.payload for m in removal_messages("xian", "den")][0]
b''
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import cast

from parlour.sessions import SessionRow, fee_so_far
from table_app.mqtt.discovery import _sensor
from table_app.mqtt.messages import Outgoing, dumps
from table_app.mqtt.topics import HA_PREFIX, Topics, node_id
from table_app.present.words import entity_name

QUIET = timedelta(hours=4)  # a session not ended whose last record is older: not occupied


def state_topic(prefix: str, table: str) -> str:
    return f"{prefix}-parlour/{table}/state"


def _config(prefix: str, table: str, object_id: str, name: str, template: str, **extra: object) -> dict[str, object]:
    node = node_id(f"{prefix}_parlour", table)
    body: dict[str, object] = _sensor(Topics(prefix, table), object_id, name, state_topic(prefix, table), template,
                                      **extra)
    body.update(unique_id=f"{node}_{object_id}", object_id=f"{node}_{object_id}")
    device = dict(cast(Mapping[str, object], body["device"]))
    body["device"] = {**device, "identifiers": [node], "name": entity_name("ha_parlour_table", table=table),
                      "model": "xian-table parlour"}
    return body


def _topics(prefix: str, table: str, ha_prefix: str) -> list[tuple[str, str]]:
    node = node_id(f"{prefix}_parlour", table)
    return [("binary_sensor", f"{ha_prefix}/binary_sensor/{node}/occupied/config"),
            ("sensor", f"{ha_prefix}/sensor/{node}/fee/config")]


def discovery_messages(prefix: str, table: str, ha_prefix: str = HA_PREFIX) -> list[Outgoing]:
    """The retained discovery configs of one table's two entities."""
    occupied = _config(prefix, table, "occupied", entity_name("ha_occupied"), "{{ value_json.occupied }}",
                       device_class="occupancy", payload_on="ON", payload_off="OFF", icon="mdi:table-chair")
    fee = _config(prefix, table, "fee", entity_name("ha_fee"), "{{ value_json.fee }}", state_class="measurement",
                  unit_of_measurement="points", icon="mdi:cash-register")
    (_, occ_topic), (_, fee_topic) = _topics(prefix, table, ha_prefix)
    return [Outgoing(occ_topic, dumps(occupied), retain=True), Outgoing(fee_topic, dumps(fee), retain=True)]


def removal_messages(prefix: str, table: str, ha_prefix: str = HA_PREFIX) -> list[Outgoing]:
    """A retired table: its configs and its state taken away (empty retained messages)."""
    return [Outgoing(topic, b"", retain=True)
            for topic in [t for _, t in _topics(prefix, table, ha_prefix)] + [state_topic(prefix, table)]]


def state(row: SessionRow | None, now: datetime | None = None) -> dict[str, object]:
    """What a table's entities show: its latest session being played (not ended, a record in the
    last :data:`QUIET` — a session left without its end is not played for ever), its fee so far;
    once ended, its final bill (as the floor's "due"), until :data:`QUIET` after its end."""
    t = now or datetime.now(UTC)
    recent = row is not None and t - datetime.fromisoformat(row.last_at) < QUIET
    playing = recent and row is not None and row.ended is None
    return {"occupied": "ON" if playing else "OFF", "fee": fee_so_far(row, t) if recent and row else 0,
            "started": row.started if playing and row else None, "hands": row.hands if playing and row else 0,
            "players": row.players if playing and row else []}


def state_message(prefix: str, table: str, body: dict[str, object]) -> Outgoing:
    return Outgoing(state_topic(prefix, table), json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode(),
                    retain=True)
