"""Money beside points (config money.*): off by default; when a point has a value every
settle-up says the money beside the points — the phones' view (a seat's part and the whole),
the table page's end of the session — through a real SeatPages on a real service."""

from __future__ import annotations

import http.client
import json

import pytest

from table_app.core.service import TableService
from table_app.present.money import Money
from table_app.web.server import SeatPages
from tests.support.mqtt import WAIT, service_fixture  # noqa: F401  (a fixture)

EVENING: list[dict[str, object]] = [
    {"type": "new_session", "players": ["欧阳诸葛司马东方", "Maximilianus", "Cy", "Di"], "base": 1},
    {"type": "seating", "method": "C", "east": 0},
    {"type": "score_hand", "winner": 2, "how": "self_drawn"}, {"type": "end_session"}]


def get(port: int, path: str) -> dict[str, object]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    conn.request("GET", path)
    body = conn.getresponse().read()
    conn.close()
    # (the money's no-break spaces read as spaces here)
    return json.loads(body.decode().replace("\\u00a0", " ").replace("\xa0", " "))  # type: ignore[no-any-return]


@pytest.fixture
def ended(service: TableService) -> TableService:
    for ev in EVENING:
        assert service.call(ev, source="test").ok
    return service


@pytest.mark.parametrize("per_point", ["0.5", ""])
def test_the_pages_settle_up_in_money_beside_the_points_when_a_point_has_a_value(ended: TableService,
                                                                                 per_point: str) -> None:
    pages = SeatPages(ended, "127.0.0.1", 0, table="t-money", money=Money.of(per_point)).start()
    try:
        seat = get(pages.port, "/seat/0.json")
        table = get(pages.port, "/table.json?lang=zh")
    finally:
        pages.stop()
    final = seat["final"]
    assert isinstance(final, dict) and isinstance(table["final"], dict)
    if per_point:
        assert seat["settle_up"] == [{"zh": "你付 Cy 2 分（1 元）", "en": "You pay Cy 2 (1 yuan)"}]
        assert final["settle"][0] == {"zh": "欧阳诸葛司马东方 给 Cy 2 分（1 元）",
                                      "en": "欧阳诸葛司马东方 pays Cy 2 (1 yuan)"}
        assert "每分 0.5 元" in final["text"]["zh"] and "#1 Cy +6 (+3 yuan)" in final["text"]["en"]
        assert table["final"]["settle"][1] == "Maximilianus 给 Cy 2 分（1 元）"
    else:  # (off by default: points only, as before)
        assert seat["settle_up"] == [{"zh": "你付 Cy 2", "en": "You pay Cy 2"}]
        assert table["final"]["settle"][1] == "Maximilianus 给 Cy 2" and "元" not in final["text"]["zh"]


def test_a_point_value_has_at_most_two_decimals_and_money_is_worded_once() -> None:
    from table_app.present.money import points_text

    with pytest.raises(ValueError, match="at most 2 decimals"):
        Money.of("0.125")
    with pytest.raises(ValueError, match=r"a number like 0\.5"):
        Money.of("half")
    m = Money.of("0.25", "元", "dollars")
    assert m is not None and m.per_point() == "0.25"
    assert points_text(-3, m, "en", signed=True) == "-3\xa0(-0.75\xa0dollars)"  # (never wrapped apart)
    assert points_text(4, m, "zh", signed=True) == "+4\xa0分（+1\xa0元）"


def test_the_currency_word_is_the_word_table_s_unless_the_config_names_one() -> None:
    """元 is written once (present.money.CURRENCY, the word table's money_unit): the config's
    default (empty) and the touchscreen's take it; a word the config names wins."""
    from table_app.config.file import Config, parse_config
    from table_app.present.money import CURRENCY, money_text
    from table_app.present.words import pair

    assert CURRENCY == pair("money_unit") == ("元", "yuan")
    cfg = Config()
    assert (cfg.money_unit_zh, cfg.money_unit_en) == ("", "")
    m = Money.of("0.5", cfg.money_unit_zh, cfg.money_unit_en)
    assert m is not None and money_text(3, m, "zh") == "1.50\xa0元" and money_text(3, m, "en") == "1.50\xa0yuan"
    named = parse_config('[money]\nper_point = "2"\nunit_zh = "港币"\nunit_en = "HKD"\n', "t.toml")
    m = Money.of(named.money_per_point, named.money_unit_zh, named.money_unit_en)
    assert m is not None and money_text(1, m, "zh") == "2\xa0港币" and money_text(1, m, "en") == "2\xa0HKD"




@pytest.mark.parametrize("per_point", ["0.5", ""])
def test_the_mqtt_seat_views_settle_up_in_money_too(ended: TableService, per_point: str) -> None:
    """The seat displays read MQTT ``seat/<n>``: the same settle-up as the phones' (the bridge's money)."""
    from table_app.mqtt.messages import table_messages
    from table_app.mqtt.topics import Topics
    from table_app.present.view_context import ViewContext

    out = table_messages(Topics("xian", "t-money"), ViewContext(ended.public, ended.seq, money=Money.of(per_point)))
    seat0 = json.loads(out[1].payload.decode())
    assert out[1].topic == "xian/t-money/seat/0"
    want = "你付 Cy 2 分（1 元）" if per_point else "你付 Cy 2"
    assert [line["zh"].replace("\xa0", " ") for line in seat0["settle_up"]] == [want]
