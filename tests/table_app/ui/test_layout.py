"""Every screen in every phase, at 800×480, 1024×600 and 1280×720, in Chinese and English,
with the longest names a session takes (8 Chinese characters, 12 letters), in both layouts:
no text is cut (its ink outside its box or the screen, lines dropped, a name shortened), wraps
mid-word (or leaves a lone closing bracket on a line, or breaks a name), or overlaps other text;
no two touch targets overlap, each is on the screen and at least 48 px; score digits are
9 mm and names 5 mm tall, measured on the glyphs drawn (the ink in the label's texture, in mm
of the real screen); and the screen each phase calls for shows what moves the table on."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest

from table_app.present.buttons import forward
from table_app.present.words import DEFAULT_NAMES
from tests.table_app.ui.conftest import UI

pytestmark = pytest.mark.kivy

SCORE_MM = 9.0  # the running scores' digits, read from a chair (issue 28)
NAME_MM = 5.0

# (8 characters at a side seat too; 阿 has the lowest ink of the characters)
NAMES = ["欧阳司马诸葛上官", "Maximilianus", "阿强", "欧阳诸葛司马东方"]
# (a fee by the hour with a minimum, paid by the winners, and tea: the final screen's longest house lines)
FEE = {"mode": "hour", "rate": 30, "min": 60, "payer": "winners", "tea": 5}
START = [{"type": "new_session", "players": NAMES, "base": 1, "fee": FEE}]
SEATED = [{"type": "seating", "method": "C", "east": 0}]
DEAL = [{"type": "roll", "dice": [4, 6]}, {"type": "roll", "dice": [2, 3]}]
# (what the walk adds, the screens to look at; the first is the one the phase calls for)
WALK: list[tuple[list[dict[str, Any]], tuple[str, ...]]] = [
    ([], ("session", "rules", "settings", "fee")),
    (START, ("seating",)),
    (SEATED, ("table", "sithere", "entry")),
    ([{"type": "bets", "bets": [0, 12, 0, 3]}, DEAL[0]], ("table",)),
    ([DEAL[1]], ("table",)),  # the dealer's turn: "欧阳司马诸葛上官's turn" in the middle, whole
    ([{"type": "discard", "seat": 0}, {"type": "resolve"}, {"type": "kong", "seat": 1, "kind": "concealed"}],
     ("table", "wall")),
    ([{"type": "discard", "seat": 1}, {"type": "claim", "seat": 2, "call": "pong"}], ("table",)),
    ([{"type": "resolve"}, {"type": "discard", "seat": 2}, {"type": "claim", "seat": 3, "call": "win"},
      {"type": "resolve"}], ("win",)),
    ([{"type": "confirm_win", "wait": "closed"}], ("settlement", "table", "scores", "history", "fee")),
    ([{"type": "next_hand"}, {"type": "score_hand", "winner": 1, "how": "self_drawn", "wait": "single"},
      {"type": "next_hand"}], ("table",)),  # the dealer kept the deal: 庄连1
    ([{"type": "end_session"}], ("final",)),
]
JOIN = "http://192.168.178.120:8080/join/Xq3vT0bLk9mWc2ZpR8sYfA"  # a session's link, as the web pages give it
FORWARD = {"session": "start", "seating": "seating", "win": "closed", "settlement": "next_hand",
           "final": "new_session", "entry": "score_hand", "sithere": "seated"}


def visible(w: Any) -> bool:
    while w is not None:
        if getattr(w, "opacity", 1) <= 0:
            return False
        w = w.parent if w.parent is not w else None
    return True


def window_box(w: Any) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) in window coordinates (through turned panels too)."""
    pts = [w.to_window(x, y) for x in (w.x, w.right) for y in (w.y, w.top)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def clip(w: Any, box: tuple[float, float, float, float]) -> tuple[float, float, float, float] | None:
    """The part of ``box`` a ScrollView around ``w`` lets through (None: scrolled away)."""
    from kivy.uix.scrollview import ScrollView

    p = w.parent
    while p is not None and p.parent is not p:
        if isinstance(p, ScrollView):
            v = window_box(p)
            box = (max(box[0], v[0]), max(box[1], v[1]), min(box[2], v[2]), min(box[3], v[3]))
            if box[2] - box[0] <= 1 or box[3] - box[1] <= 1:
                return None
        p = p.parent
    return box


def needed_height(w: Any) -> float:
    """How tall ``w``'s text is when its lines wrap in its width (no height limit)."""
    from kivy.core.text import Label as CoreLabel

    core = CoreLabel(text=w.text, font_size=w.font_size, text_size=(w.text_size[0], None), padding=w.padding)
    core.refresh()
    if not core.texture:
        return 0.0
    lines = max(1, len(core._cached_lines))
    shown = min(lines, w.max_lines) if w.max_lines else lines  # (max_lines drops the last lines on purpose)
    return float(core.texture.height) * shown / lines


Box = tuple[float, float, float, float]
CLOSING = set("）)】」』》〉，。、：；！？,.:;!?%")  # a line never starts with these (Chinese typesetting's 避头)


def ink(w: Any) -> tuple[Box, float] | None:
    """Where the ink of ``w``'s text is drawn, (x0, y0, x1, y1) in window coordinates, and how
    tall it is in px along the text's own up (a turned panel's text too): the pixels of its
    texture (alpha > 50 %), placed where a Label draws the texture (centred in its box)."""
    from PIL import Image

    tex = w.texture
    if tex is None or not w.text.strip():
        return None
    tw, th = tex.size
    alpha = Image.frombytes("RGBA", (tw, th), tex.pixels).getchannel("A")
    bbox = alpha.point(lambda a: 255 if a > 127 else 0).getbbox()
    if bbox is None:
        return None
    bx0, by0, bx1, by1 = bbox  # (row 0 is the text's top: the label's texture is flipped)
    tx, ty = int(w.center_x - tw / 2), int(w.center_y - th / 2)
    pts = [w.to_window(x, y) for x in (tx + bx0, tx + bx1) for y in (ty + th - by1, ty + th - by0)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys)), float(by1 - by0)


def lines(w: Any) -> list[str]:
    """The lines ``w`` shows, as its renderer broke them."""
    return ["".join(word.text for word in line.words) for line in getattr(w._label, "_cached_lines", [])]


def wrap_problems(w: Any, where: str) -> Iterator[str]:
    shown = lines(w)
    for a, b in pairwise(shown):
        a, b = a.rstrip(), b.lstrip()
        joined = a.split(" ")[-1] + b.split(" ")[0]  # (a break at a space drops the space)
        if "://" in joined:  # (a link breaks anywhere)
            continue
        if a and b and a[-1].isascii() and a[-1].isalnum() and b[0].isascii() and b[0].isalnum() and joined in w.text:
            yield f"{where}: {w.text!r} wraps mid-word: {a!r} / {b!r}"
        if b and b[0] in CLOSING:
            yield f"{where}: {w.text!r} starts a line with {b[0]!r}: {a!r} / {b!r}"
    for name in NAMES:
        if name in w.text.replace("\n", "") and len(shown) > 1 and not any(name in line for line in shown):
            yield f"{where}: {w.text!r} breaks the name {name!r} over two lines: {shown}"


def inside(a: Box, b: Box, slack: float = 1.0) -> bool:
    return a[0] >= b[0] - slack and a[1] >= b[1] - slack and a[2] <= b[2] + slack and a[3] <= b[3] + slack


def label_problems(ui: UI, where: str, w: Any, drawn: tuple[Box, float] | None) -> Iterator[str]:
    from kivy.core.window import Window

    from table_app.ui.widgets import NameLabel, ScoreLabel, text_width

    mm = ui.app.mm
    ink = None if drawn is None else drawn[0]
    if ink is not None and not inside(ink, window_box(w)):
        yield f"{where}: {w.text!r} is drawn outside its box ({ink} beyond {window_box(w)})"
    if ink is not None and clip(w, window_box(w)) == window_box(w) and not inside(ink, (0, 0, *Window.size)):
        yield f"{where}: {w.text!r} is drawn off the screen ({ink})"
    if w.text_size[1] is not None and not w.shorten:  # a fixed height cuts off the lines that do not fit
        need = needed_height(w)
        if need > w.text_size[1] + 2:
            yield f"{where}: {w.text!r} needs {need:.0f} px, its box is {w.text_size[1]:.0f} px tall"
    named = [n for n in NAMES if n in w.text]
    drawn_lines = [" ".join(word.text for word in line.words) for line in (w._label._cached_lines or [])]
    cut = w.shorten and any(line.endswith("...") and not w.text.endswith("...") for line in drawn_lines)
    if named and (cut or (w.shorten and w.text_size[0] and text_width(w.text, w.font_size) > w.text_size[0] + 1)):
        yield f"{where}: {w.text!r} is cut short ({drawn_lines}), and it holds a name"
    yield from wrap_problems(w, where)
    tall = 0.0 if drawn is None else drawn[1] / mm
    if isinstance(w, NameLabel):
        if w.shorten or w.text not in [*NAMES, *DEFAULT_NAMES, ""]:
            yield f"{where}: the name {w.text!r} is not shown whole"
        if ink is not None and tall < NAME_MM - 0.1:
            yield f"{where}: the name {w.text!r} is {tall:.1f} mm tall (its glyphs; ≥ {NAME_MM} mm)"
    if isinstance(w, ScoreLabel) and ink is not None and any(c.isdigit() for c in w.text) and tall < SCORE_MM - 0.1:
        yield f"{where}: the score {w.text!r} is {tall:.1f} mm tall (its digits; ≥ {SCORE_MM} mm)"


def problems(ui: UI, where: str, root: Any = None) -> Iterator[str]:
    from kivy.core.window import Window
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label
    from kivy.uix.textinput import TextInput

    screen = root if root is not None else ui.screen
    W, H = Window.size
    shown = [w for w in screen.walk() if visible(w)]
    inks: list[tuple[Any, Box]] = []
    for w in shown:
        if not isinstance(w, Label) or not w.text.strip() or clip(w, window_box(w)) is None:
            continue
        drawn = ink(w)
        yield from label_problems(ui, where, w, drawn)
        seen = None if drawn is None else clip(w, drawn[0])  # (what a list scrolls away is not drawn)
        if seen is not None:
            inks.append((w, seen))
    for i, (a, ra) in enumerate(inks):
        for b, rb in inks[i + 1:]:
            if overlap(ra, rb) and not related(a, b):
                yield f"{where}: the text {a.text!r} and {b.text!r} overlap"
    targets = []
    for w in shown:
        if isinstance(w, ButtonBehavior | TextInput):
            box = clip(w, window_box(w))
            if box is None:
                continue
            x0, y0, x1, y1 = window_box(w)
            if x1 - x0 < 47.5 or y1 - y0 < 47.5:
                yield f"{where}: {getattr(w, 'text', w)!r} is only {x1 - x0:.0f}×{y1 - y0:.0f} px"
            x0, y0, x1, y1 = box  # (a row half scrolled out of a list is still on the screen)
            if x0 < -1 or y0 < -1 or x1 > W + 1 or y1 > H + 1:
                yield f"{where}: {getattr(w, 'text', w)!r} is off the screen at {box}"
            targets.append((w, box))
    for i, (a, ra) in enumerate(targets):
        for b, rb in targets[i + 1:]:
            if overlap(ra, rb):
                yield f"{where}: {getattr(a, 'text', a)!r} and {getattr(b, 'text', b)!r} overlap"


def overlap(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def related(a: Any, b: Any) -> bool:
    """One holds the other (a button's own label)."""
    for x, y in ((a, b), (b, a)):
        p = x.parent
        while p is not None and p is not p.parent:
            if p is y:
                return True
            p = p.parent
    return False


def forward_problems(ui: UI, where: str) -> Iterator[str]:
    """The screen the phase calls for shows the way on."""
    app, screen = ui.app, ui.screen
    wanted = []
    if screen.name == "table":
        for seat, act in forward(app.pub, app.score_only):
            wanted.append((screen.panel(seat), act) if seat is not None else (screen, act))
    else:
        wanted.append((screen, FORWARD[screen.name]))
    found = [w for root, act in wanted for w in root.walk() if getattr(w, "action", "") == act and visible(w)]
    if not found:
        yield f"{where}: nothing moves the table on (wanted {[a for _, a in wanted]})"
    elif screen.name not in ("seating", "entry") and all(w.disabled for w in found):  # (forms: once filled in)
        yield f"{where}: what moves the table on is disabled"


def look(ui: UI, name: str, where: str, home: bool) -> list[str]:
    ui.app.goto(name)
    ui.frames(2)
    found = list(problems(ui, where))
    if home:
        found += list(forward_problems(ui, where))
    return found


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_screen_fits(ui: UI, size: tuple[int, int]) -> None:
    from kivy.core.window import Window

    Window.size = size
    ui.app.join_url = JOIN  # (the phones' pages on: the join buttons are shown)
    ui.frames(4)
    found: list[str] = []
    for events, screens in WALK:
        for ev in events:
            answer = ui.service.call(ev, source="test")
            assert answer.ok, answer.error
        ui.settled()
        phase = ui.app.pub["phase"]
        for layout in ("upright", "facing") if size != (1024, 600) else ("upright",):  # (facing: the two ends)
            ui.app.set_layout(layout)
            for lang in ("zh", "en"):
                ui.app.set_lang(lang)
                for name in screens:
                    if layout == "facing" and name not in ("table", "sithere"):
                        continue
                    ui.app.score_only = name == "entry"
                    home = name == ui.app.home() or name == "sithere"
                    found += look(ui, name, f"{size} {lang} {layout} {phase} {name}", home)
                ui.app.score_only = False
        ui.app.set_layout("upright")
    assert not found, "\n".join(found)


def test_the_check_sees_a_label_too_big_and_two_buttons_on_top_of_each_other(ui: UI) -> None:
    """The layout check itself can fail."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    from table_app.ui.widgets import BigButton

    Window.size = (800, 480)
    ui.app.goto("session")
    ui.frames(3)
    screen = ui.screen
    extra = [Label(text="a label far too long for its box " * 3, size_hint=(None, None), size=(60, 20)),
             BigButton(text="x", size_hint=(None, None), size=(60, 60), pos=(0, 0)),
             BigButton(text="y", size_hint=(None, None), size=(60, 60), pos=(30, 30))]
    for w in extra:
        screen.add_widget(w)
    ui.frames(3)
    try:
        found = list(problems(ui, "session"))
        assert any("is drawn outside its box" in p for p in found)
        assert any("'x' and 'y' overlap" in p or "'y' and 'x' overlap" in p for p in found)
    finally:
        for w in extra:
            screen.remove_widget(w)


def test_the_dialogs_fit(ui: UI) -> None:
    """The menu, the dice pad and the questions, at the smallest size, in both languages."""
    from kivy.core.window import Window

    from table_app.present.words import tr
    from table_app.ui.dialogs import ChoiceDialog, ConfirmDialog, DicePad, JoinDialog, Menu

    Window.size = (800, 480)
    ui.app.join_url = JOIN
    for ev in START + SEATED:
        assert ui.service.call(ev, source="test").ok
    ui.settled()
    found: list[str] = []
    for lang in ("zh", "en"):
        ui.app.set_lang(lang)
        ui.app.goto("table")
        for dialog in (Menu(), DicePad(on_done=lambda a, b: None, title=tr("rolls_next", lang, name=NAMES[0],
                                                                              what=tr("roll_wall", lang))),
                       ConfirmDialog(tr("confirm_false_win", lang, name=NAMES[0]), lambda: None),
                       ConfirmDialog(tr("confirm_new", lang), lambda: None),
                       ChoiceDialog(tr("kong_which", lang), [(tr("kong_concealed", lang), lambda: None),
                                                             (tr("kong_added", lang), lambda: None)]),
                       JoinDialog()):
            dialog.open()
            ui.frames(3)
            found += list(problems(ui, f"{lang} {type(dialog).__name__}", dialog))
            dialog.dismiss()
            ui.frames(2)
    assert not found, "\n".join(found)


def test_the_check_sees_words_broken_text_overlapping_and_glyphs_too_small(ui: UI) -> None:
    """The glyph and wrap checks themselves can fail: a name wrapped mid-word, a lone "）" on
    a line, a Chinese name broken over two lines, two texts drawn over each other, a score
    whose digits are under 9 mm and a name under 5 mm (the font sizes of the first review)."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    from table_app.ui.widgets import NameLabel, ScoreLabel

    Window.size = (800, 480)
    ui.app.goto("session")
    ui.frames(3)
    screen = ui.screen
    narrow = {"size_hint": (None, None), "halign": "left", "valign": "top"}
    extra = [Label(text="Maximilianus", font_size=30, size=(120, 120), pos=(10, 300), text_size=(120, None), **narrow),
             Label(text="自摸（杠上花）", font_size=30, size=(180, 120), pos=(200, 300), text_size=(180, None),
                   **narrow),
             Label(text="欧阳司马诸葛上官", font_size=30, size=(130, 120), pos=(400, 300), text_size=(130, None),
                   **narrow),
             Label(text="一二三四", font_size=30, size=(200, 50), pos=(10, 100), **narrow),
             Label(text="五六七八", font_size=30, size=(200, 50), pos=(20, 110), **narrow),
             ScoreLabel(text="+12", size_hint=(None, None), size=(200, 80), pos=(300, 20)),
             NameLabel(text="Maximilianus", size_hint=(None, None), size=(300, 60), pos=(500, 20))]
    for w in extra:
        screen.add_widget(w)
    extra[-2].font_size, extra[-1].font_size = 42, 27  # (the sizes of the first review: 6 mm digits, 4 mm capitals)
    ui.frames(3)
    try:
        found = "\n".join(problems(ui, "session"))
        assert "'Maximilianus' wraps mid-word" in found, found
        assert "starts a line with '）'" in found, found
        assert "breaks the name '欧阳司马诸葛上官' over two lines" in found, found
        assert "the text '一二三四' and '五六七八' overlap" in found, found
        assert "the score '+12' is 5.9 mm tall" in found, found
        assert "the name 'Maximilianus' is 4.2 mm tall" in found, found
    finally:
        for w in extra:
            screen.remove_widget(w)


def test_the_screen_size_buttons_stay_under_the_finger(ui: UI) -> None:
    """Settings' screen size: each tap changes every size in mm (the px per mm), yet − and +
    stay where the finger is (they once moved off it after one tap)."""
    from kivy.core.window import Window

    Window.size = (800, 480)
    ui.app.goto("settings")
    ui.frames(3)
    for action in ("diagonal_up", "diagonal_up", "diagonal_down", "diagonal_down"):  # 7" → 8" → 10.1" → 8" → 7"
        button = ui.find(action)
        x, y = button.to_window(*button.center)
        before = ui.app.diagonal_in
        ui.tap(button)
        ui.frames(2)
        assert ui.app.diagonal_in != before
        moved = ui.find(action)
        assert moved.collide_point(*moved.to_widget(x, y)), f"{action}: the button left the finger at {(x, y)}"
