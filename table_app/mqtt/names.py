"""Players' names as small 1-bit bitmaps for the seat displays: MQTT ``seat/<n>/name``.

A name can be in any script, and a seat display has only the few glyphs of its fixed words
(``table_app/seat_display``), so the table renders each name with its CJK font and
publishes the bitmaps retained beside the seat's view, one per display size:

``{"schema": 1, "seat": 2, "name": "Cy", "bitmaps": [{"h": 16, "w": 18, "bits": "<base64>"}, …]}``

``bits`` is ``h`` rows of ``ceil(w / 8)`` bytes, the leftmost pixel in the high bit
(MicroPython's ``framebuf.MONO_HLSB``). A name wider than the screen is cut with "…".
The payload carries no ``seq``, so it only changes when the name does, and
:class:`NameBitmaps` publishes it only then (and again after every reconnect).

>>> from table_app.mqtt.topics import Topics
>>> msgs = NameBitmaps().changed(Topics("xian", "t1"), {"players": ["Ann", "Bo", "Cy", "Di"]})
>>> [m.topic for m in msgs][:2], msgs[0].retain
(['xian/t1/seat/0/name', 'xian/t1/seat/1/name'], True)
"""

from __future__ import annotations

import base64
import logging
from functools import lru_cache

from engine.public import PublicState
from engine.seats import SEATS
from table_app.mqtt.messages import Outgoing, dumps
from table_app.mqtt.topics import Topics

log = logging.getLogger(__name__)

NAME_SCHEMA = 1
# (height, widest) of each display's name line: the 128×64 OLED and the 240×240 colour screen
SIZES = ((16, 128), (32, 240))
ELLIPSIS = "…"


@lru_cache(maxsize=1)
def _font_path() -> str | None:
    from table_app.present.fonts import find_cjk_font  # Kivy-free: only finds the file

    path = find_cjk_font()
    if path is None:
        log.warning("mqtt: no CJK font, so the seat displays get no name bitmaps (install fonts-noto-cjk)")
    return path


@lru_cache(maxsize=64)
def render_name(name: str, height: int, widest: int, font_path: str) -> tuple[int, bytes]:
    """``name`` as a ``height``-pixel 1-bit bitmap at most ``widest`` wide: (width, MONO_HLSB rows)."""
    from PIL import Image, ImageDraw, ImageFont

    index = 2 if "NotoSansCJK" in font_path or "NotoSerifCJK" in font_path else 0  # the SC member
    font = ImageFont.truetype(font_path, height, index=index)
    text = name
    while text and font.getlength(text) > widest:
        text = text[:-2] + ELLIPSIS if len(text) > 1 and text[-1] == ELLIPSIS else text[:-1] + ELLIPSIS
        if text == ELLIPSIS:
            break
    width = min(widest, max(1, round(font.getlength(text)))) if text else 0
    if width == 0:
        return 0, b""
    img = Image.new("1", (width, height), 0)
    draw = ImageDraw.Draw(img)
    draw.fontmode = "1"  # no anti-aliasing: the displays have one bit a pixel
    draw.text((0, round(height * 0.88)), text, font=font, fill=1, anchor="ls")
    stride = (width + 7) // 8
    rows = bytearray(stride * height)
    px = img.load()
    assert px is not None
    for y in range(height):
        for x in range(width):
            if px[x, y]:
                rows[y * stride + x // 8] |= 0x80 >> (x % 8)
    return width, bytes(rows)


def name_payload(seat: int, name: str, font_path: str | None) -> bytes:
    bitmaps = []
    if font_path is not None and name:
        for height, widest in SIZES:
            width, rows = render_name(name, height, widest, font_path)
            bitmaps.append({"h": height, "w": width, "bits": base64.b64encode(rows).decode()})
    return dumps({"schema": NAME_SCHEMA, "seat": seat, "name": name, "bitmaps": bitmaps})


def name_messages(topics: Topics, public: PublicState) -> list[Outgoing]:
    """The four retained name messages for a public state."""
    players = public["players"]
    path = _font_path()
    return [Outgoing(topics.seat_name(s), name_payload(s, players[s] or "", path), retain=True)
            for s in range(SEATS)]


class NameBitmaps:
    """Which name messages the broker already has on this connection: only changes are sent."""

    def __init__(self) -> None:
        self._sent: dict[str, bytes] = {}

    def changed(self, topics: Topics, public: PublicState) -> list[Outgoing]:
        out = [m for m in name_messages(topics, public) if self._sent.get(m.topic) != m.payload]
        for m in out:
            self._sent[m.topic] = m.payload
        return out

    def forget(self) -> None:
        """A new connection (the broker may have lost its retained messages): send them all again."""
        self._sent.clear()
