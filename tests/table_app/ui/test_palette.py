"""The dealer's 庄 and the wind stay legible on every colour a seat's panel takes."""

from __future__ import annotations

import pytest

from table_app.ui.palette import (
    DEALER_BG,
    DEALER_FG,
    PANEL,
    TEXT,
    WIND_BG,
    WIND_FG,
    contrast,
)

pytestmark = pytest.mark.kivy


@pytest.mark.parametrize("panel", sorted(PANEL))
def test_badges_stand_out_on_every_panel_colour(panel: str) -> None:
    for badge in (DEALER_BG, WIND_BG):
        assert contrast(badge, PANEL[panel]) >= 3.0, (panel, badge)
    assert contrast(TEXT, PANEL[panel]) >= 4.5


def test_the_marks_read_on_their_badges() -> None:
    assert contrast(DEALER_FG, DEALER_BG) >= 4.5
    assert contrast(WIND_FG, WIND_BG) >= 4.5
    red_on_orange = contrast((1, 0.3, 0.3, 1), (0.75, 0.55, 0.1, 1))  # the old red 庄 on the old lit panel
    assert red_on_orange < 1.5
