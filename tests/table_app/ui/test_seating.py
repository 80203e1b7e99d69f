"""The seating screen: its OK always whole on the screen and answering a tap (with the phones'
pages off, the default with a display, and on), at the 7" panel's 800×480 and at 1280×720;
method C by the wind each player drew, and who moves where after it and after method B."""

from __future__ import annotations

from typing import Any

import pytest

from tests.table_app.ui.conftest import UI

pytestmark = pytest.mark.kivy

LONG = ["欧阳诸葛司马东方", "Maximilianus", "Cy", "Di"]


def start(ui: UI, names: list[str]) -> Any:
    answer = ui.service.call({"type": "new_session", "players": names, "base": 1}, source="test")
    assert answer.ok, answer.error
    ui.settled()
    assert ui.screen.name == "seating"
    return ui.screen


def on_screen(widget: Any) -> None:
    """The widget's whole touch area is inside the window."""
    from kivy.core.window import Window

    x, y = widget.to_window(widget.x, widget.y)
    assert widget.width > 0 and widget.height > 0, f"{widget!r} has no touch area"
    assert x >= 0 and y >= 0 and x + widget.width <= Window.width and y + widget.height <= Window.height, \
        f"{widget!r} at {(x, y)} size {tuple(widget.size)} is not whole in the {Window.size} window"


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("phones", [False, True])
def test_ok_is_whole_on_the_screen_and_a_tap_at_it_seats_the_players(ui: UI, size: tuple[int, int],
                                                                     phones: bool) -> None:
    from kivy.core.window import Window

    Window.size = size
    ui.app.join_url = "http://192.168.1.20:8080/join/abc" if phones else ""
    seating = start(ui, LONG)
    ui.frames(3)
    for widget in (seating.ids.confirm, seating.ids.random, *([seating.ids.join] if phones else [])):
        on_screen(widget)
    assert (seating.ids.join.width > 0) is phones
    ui.tap(seating.ids.random)  # every method's form filled
    ui.send_and_settle(seating.ids.confirm)
    assert ui.service.public["phase"] == "betting" and ui.screen.name == "sithere"
    on_screen(ui.find("seated"))


def test_method_c_seats_each_player_by_the_wind_they_drew_and_says_who_moves(ui: UI) -> None:
    seating = start(ui, LONG)
    ui.tap(seating.ids.method_C)
    from tests.table_app.ui.test_screens import _toggle

    # 欧阳 drew North, Maximilianus West, Cy East: Di's is the last wind, South, filled in
    for seat, wind in ((0, "N"), (1, "W")):
        ui.tap(_toggle(seating, ("drew", seat, wind)))
    assert seating.ids.confirm.disabled and seating.ids.missing.text == "2 still to pick a wind"
    ui.tap(_toggle(seating, ("drew", 2, "E")))
    assert seating.choice["drew"] == ["N", "W", "E", "S"] and not seating.ids.confirm.disabled
    ui.tap(_toggle(seating, ("drew", 3, "W")))  # a wind is drawn once: Maximilianus has the one left
    assert seating.choice["drew"] == ["N", "S", "E", "W"] and not seating.ids.confirm.disabled
    ui.tap(_toggle(seating, ("drew", 3, "W")))  # (tapped again: it stays)
    assert seating.choice["drew"] == ["N", "S", "E", "W"]
    ui.send_and_settle(seating.ids.confirm)
    pub = ui.service.public
    # Cy keeps the top place as East; South (Maximilianus) sits at East's 下家 (left), West (Di)
    # across from East (bottom), North (欧阳…) at the right
    assert pub["players"] == ["Di", "欧阳诸葛司马东方", "Cy", "Maximilianus"]
    assert pub["winds"] == ["W", "N", "E", "S"] and pub["dealer"] == 2
    assert ui.screen.name == "sithere"
    assert ui.screen.ids.moves.text.split("\n") == [
        "Change places:", "欧阳诸葛司马东方: bottom → right (North)", "Maximilianus: right → left (South)",
        "Di: left → bottom (West)"]


def test_after_everyone_rolls_the_screen_says_who_moves_where(ui: UI) -> None:
    ui.app.lang = "zh"
    seating = start(ui, LONG)
    ui.tap(seating.ids.method_B)
    seating.choice["rolls"] = [[2, 3], [6, 6], [1, 2], [4, 5]]  # 5, 12, 3, 9 (the DicePad's own test is elsewhere)
    seating.refresh()
    ui.send_and_settle(seating.ids.confirm)
    assert ui.service.public["players"] == ["Cy", "Maximilianus", "Di", "欧阳诸葛司马东方"]
    assert ui.screen.ids.moves.text.split("\n") == [
        "请换座：", "欧阳诸葛司马东方：下方 → 左方（西）", "Cy：上方 → 下方（北）", "Di：左方 → 上方（南）"]


def test_names_on_the_seating_rows_are_whole_on_one_line(ui: UI) -> None:
    """Method B's and C's rows show each name whole: its column is as wide as the widest name
    (method B once showed only "）" of 欧阳诸葛司马东方)."""
    from kivy.core.window import Window

    for size in ((800, 480), (1280, 720)):
        Window.size = size
        seating = start(ui, LONG) if ui.screen.name != "seating" else ui.screen
        for method in ("B", "C"):
            ui.tap(seating.ids[f"method_{method}"])
            ui.frames(2)
            for label in seating.names[:4] if method == "B" else seating.names[4:]:
                label.texture_update()
                w, h = label.texture_size
                assert w <= label.width and h < 2 * label.font_size, f"{label.text!r} does not fit on one line"
                on_screen(label)
