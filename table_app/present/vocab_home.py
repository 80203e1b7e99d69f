"""The names Home Assistant shows, zh and en (issue 40 item 5): a table's device and its
sensors (``table_app.mqtt.discovery``), a parlour table's device, its occupancy and its fee so
far (``parlour.home_assistant``). A device's or a parlour entity's name carries both languages
(``words.entity_name``: "Occupied · 有人在打"); the table's own sensors are named in English, as
Home Assistant's entity ids are made from them (data only: gathered by
:mod:`table_app.present.words`)."""

from __future__ import annotations

from typing import Final

HOME: Final[dict[str, tuple[str, str]]] = {
    # a table's own discovery
    "ha_table": ("麻将桌", "Mahjong table {table}"),
    "ha_seat_score": ("{seat}号座的分", "Seat {seat} score"),
    "ha_phase": ("阶段", "Phase"),
    "ha_drawable": ("牌墙可摸的牌", "Wall drawable tiles"),
    # the parlour's
    "ha_parlour_table": ("棋牌室 {table} 桌", "Parlour table {table}"),
    "ha_occupied": ("有人在打", "Occupied"),
    "ha_fee": ("台费", "Fee so far"),
}
