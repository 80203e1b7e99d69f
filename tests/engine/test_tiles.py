import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.tiles import (
    TileError,
    format_tiles,
    from_counts,
    parse_tile,
    parse_tiles,
    tile_name,
    tile_text,
    to_counts,
)


def test_tile_numbering_follows_mpsz():
    assert parse_tiles("1m9m1p9p1s9s1z7z") == [0, 8, 9, 17, 18, 26, 27, 33]
    assert [tile_text(t) for t in (0, 8, 9, 26, 27, 33)] == ["1m", "9m", "1p", "9s", "1z", "7z"]


def test_names_in_chinese_and_english():
    assert [tile_name(parse_tile(t)) for t in ("1m", "5p", "9s")] == ["一万", "五筒", "九条"]
    assert [tile_name(t) for t in range(27, 34)] == ["东", "南", "西", "北", "中", "发", "白"]
    assert tile_name(parse_tile("3s"), "en") == "3 Bamboo"
    assert tile_name(parse_tile("5z"), "en") == "Red"
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        tile_name(0, "fr")


def test_format_sorts_and_groups_by_suit():
    assert format_tiles(parse_tiles("1z9m1m5p")) == "19m5p1z"
    assert format_tiles([]) == ""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("10m", r"'10m': 0 is not a tile rank"),
        ("8z", r"'8z': honours are 1z..7z, there is no 8z"),
        ("12x", r"'12x': unexpected 'x'"),
        ("11111m", r"5 copies of 1m in '11111m'"),
        ("123", r"'123': digits '123' have no suit letter"),
        ("m", r"'m': suit letter 'm' has no digits"),
    ],
)
def test_bad_text_is_refused_quoting_the_input(text, message):
    with pytest.raises(TileError, match=message):
        parse_tiles(text)


def test_tile_error_is_a_value_error():
    assert issubclass(TileError, ValueError)


def test_parse_tile_wants_exactly_one():
    assert parse_tile("7z") == 33
    with pytest.raises(TileError, match="exactly one tile, got 2"):
        parse_tile("12m")


def test_spaces_are_ignored():
    assert parse_tiles(" 123m 45 6p ") == parse_tiles("123m456p")


@given(st.lists(st.integers(0, 33), max_size=40).filter(lambda ts: all(ts.count(t) <= 4 for t in ts)))
def test_text_round_trip(tiles):
    assert parse_tiles(format_tiles(tiles)) == sorted(tiles)
    assert from_counts(to_counts(tiles)) == sorted(tiles)


def test_bad_tile_values():
    with pytest.raises(TileError, match="not a tile: 34"):
        tile_text(34)
    with pytest.raises(TileError, match="34 entries"):
        from_counts([0] * 9)
