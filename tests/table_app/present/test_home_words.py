"""Home Assistant's names from the word table (issue 40 item 5): the table's device and
sensors, the parlour table's device, its occupancy and its fee."""

from __future__ import annotations

import json

from parlour.home_assistant import discovery_messages as parlour_discovery
from table_app.mqtt.discovery import discovery_messages
from table_app.mqtt.messages import Outgoing
from table_app.mqtt.topics import Topics
from table_app.present.words import pair


def _names(msgs: list[Outgoing]) -> dict[str, tuple[str, str]]:
    bodies = [json.loads(m.payload) for m in msgs]
    return {b["object_id"]: (b["name"], b["device"]["name"]) for b in bodies}


def test_the_table_s_device_and_sensors_are_named_by_the_word_table() -> None:
    names = _names(discovery_messages(Topics("xian", "t1")))
    zh, en = pair("ha_table")
    devices = {device for _, device in names.values()}
    assert devices == {f"{en.format(table='t1')} · {zh}"} == {"Mahjong table t1 · 麻将桌"}
    assert names["xian_t1_score_2"][0] == pair("ha_seat_score")[1].format(seat=2) == "Seat 2 score"
    assert names["xian_t1_phase"][0] == "Phase" and names["xian_t1_drawable"][0] == "Wall drawable tiles"


def test_the_parlour_s_entities_carry_both_languages() -> None:
    names = _names(parlour_discovery("xian", "den"))
    assert names["xian_parlour_den_occupied"] == ("Occupied · 有人在打", "Parlour table den · 棋牌室 den 桌")
    assert names["xian_parlour_den_fee"][0] == f"{pair('ha_fee')[1]} · {pair('ha_fee')[0]}" == "Fee so far · 台费"
