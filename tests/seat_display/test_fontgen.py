"""The bitmap fonts: the files on the board are what the build makes from Noto CJK, and they
hold every glyph the firmware's fixed words need."""

from __future__ import annotations

import pytest

from table_app.seat_display import fontgen


@pytest.mark.parametrize("screen", ["s", "l"])
def test_the_fonts_in_the_repository_are_the_build_output(screen: str) -> None:
    assert fontgen.font_path(screen).read_bytes() == fontgen.build(screen), \
        "the font differs from what the build makes: run python -m table_app.seat_display.fontgen"


@pytest.mark.parametrize("screen", ["s", "l"])
def test_every_fixed_word_is_in_the_font(fw, screen: str) -> None:
    font = fw.font.Font(open(fontgen.font_path(screen), "rb"))  # noqa: SIM115 - the font keeps its file
    words = fw.words
    assert font.has(words.all_cjk() + "0123456789", "cjk")
    assert font.has("".join(words.WIND_ZH.values()), "wind")
    assert font.has(words.DIGITS, "num")
    english = [en for zh, en in [*words.PHASES.values(), words.YOUR_TURN, words.CLAIM, words.YOU_WON, words.DRAWN,
                                 words.OFFLINE, words.NO_WIFI, words.TABLE_OFF, words.RETRYING, words.SEAT]]
    assert font.has("".join(english) + "".join(words.WIND_EN.values()) + words.RANK[2], "latin")
    assert not font.has("麻", "cjk")  # and it says so when a glyph is missing
    font.f.close()


def test_the_font_is_a_subset(fw) -> None:
    font = fw.font.Font(open(fontgen.font_path("s"), "rb"))  # noqa: SIM115
    assert len(font.face("cjk").chars) < 80 and len(font.face("wind").chars) == 4
    font.f.close()
