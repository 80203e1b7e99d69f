"""Home Assistant MQTT discovery: one device per table, a sensor per seat's score, the
phase and the wall's drawable count, all unavailable while the table's ``status`` is
``offline``. The configs are retained and resent when Home Assistant says it is online.

>>> from table_app.mqtt.topics import Topics
>>> msgs = discovery_messages(Topics("xian", "t1"))
>>> [m.topic for m in msgs][:2]
['homeassistant/sensor/xian_t1/score_0/config', 'homeassistant/sensor/xian_t1/score_1/config']
"""

from __future__ import annotations

from typing import Any

from engine.seats import SEATS
from table_app.mqtt.messages import Outgoing, dumps
from table_app.mqtt.topics import HA_PREFIX, OFFLINE, ONLINE, Topics, node_id
from table_app.present.words import entity_name, tr

MODEL = "xian-table"


def _sensor(topics: Topics, object_id: str, name: str, state_topic: str, template: str,
            **extra: Any) -> dict[str, Any]:
    node = node_id(topics.prefix, topics.table)
    return {
        "name": name,
        "unique_id": f"{node}_{object_id}",
        "object_id": f"{node}_{object_id}",
        "state_topic": state_topic,
        "value_template": template,
        "availability_topic": topics.status,
        "payload_available": ONLINE,
        "payload_not_available": OFFLINE,
        "qos": 1,
        "device": {
            "identifiers": [node],
            "name": entity_name("ha_table", table=topics.table),
            "manufacturer": "xian-table",
            "model": MODEL,
        },
        **extra,
    }


def discovery_messages(topics: Topics, ha_prefix: str = HA_PREFIX) -> list[Outgoing]:
    """The retained discovery configs of one table."""
    node = node_id(topics.prefix, topics.table)
    configs: list[tuple[str, dict[str, Any]]] = []
    for s in range(SEATS):
        configs.append((f"score_{s}", _sensor(
            topics, f"score_{s}", tr("ha_seat_score", "en", seat=s), topics.seat(s), "{{ value_json.score }}",
            state_class="measurement", icon="mdi:counter",
            json_attributes_topic=topics.seat(s),
            json_attributes_template=("{{ {'name': value_json.name, 'wind': value_json.wind, "
                                      "'rank': value_json.rank, 'dealer': value_json.dealer} | tojson }}"))))
    configs.append(("phase", _sensor(topics, "phase", tr("ha_phase", "en"), topics.state, "{{ value_json.phase }}",
                                     icon="mdi:cards-playing")))
    configs.append(("drawable", _sensor(topics, "drawable", tr("ha_drawable", "en"), topics.state,
                                        "{{ value_json.wall.drawable }}", state_class="measurement",
                                        unit_of_measurement="tiles", icon="mdi:wall")))
    return [Outgoing(f"{ha_prefix}/sensor/{node}/{object_id}/config", dumps(body), retain=True)
            for object_id, body in configs]
