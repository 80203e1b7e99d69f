"""MicroPython's ``framebuf`` in pure Python, for running the seat display firmware under CPython.

Only what the firmware and the SSD1306 driver use: the formats MONO_VLSB, MONO_HLSB,
GS2_HMSB and RGB565 with MicroPython's exact memory layouts (so a frame's bytes are the
bytes a board would hold and send), ``fill``, ``pixel``, ``hline``, ``vline``, ``rect``,
``fill_rect`` and ``blit`` with a key and a palette, clipped as ``modframebuf.c`` clips.
``test_firmware_wasm.py`` draws the same frames with the real ``framebuf`` under MicroPython
(WebAssembly) and requires the same bytes.
"""

from __future__ import annotations

from typing import Any

MONO_VLSB = 0
MVLSB = MONO_VLSB
RGB565 = 1
MONO_HLSB = 3
GS2_HMSB = 5


class FrameBuffer:
    def __init__(self, buf: Any, width: int, height: int, format: int, stride: int | None = None) -> None:
        mv = memoryview(buf)
        if mv.readonly:
            raise TypeError("object with buffer protocol required")  # MicroPython wants a writable buffer
        self.buf = mv.cast("B")
        self.width, self.height, self.format = width, height, format
        stride = width if stride is None else stride
        if format == MONO_HLSB:
            stride = (stride + 7) & ~7
        elif format == GS2_HMSB:
            stride = (stride + 3) & ~3
        elif format not in (MONO_VLSB, RGB565):
            raise ValueError(f"format {format} is not in the stand-in")
        self.stride = stride
        need = {MONO_VLSB: ((height + 7) // 8) * stride, MONO_HLSB: stride * height // 8,
                GS2_HMSB: stride * height // 4, RGB565: stride * height * 2}[format]
        if len(self.buf) < need:
            raise ValueError("buffer too small")

    # -- one pixel, as modframebuf.c's setpixel/getpixel per format
    def _set(self, x: int, y: int, c: int) -> None:
        b, f, s = self.buf, self.format, self.stride
        if f == MONO_VLSB:
            i, bit = (y >> 3) * s + x, y & 7
            b[i] = (b[i] & ~(1 << bit)) | ((c & 1) << bit)
        elif f == MONO_HLSB:
            i, bit = (x + y * s) >> 3, 7 - (x & 7)
            b[i] = (b[i] & ~(1 << bit)) | ((c & 1) << bit)
        elif f == GS2_HMSB:
            i, shift = (x + y * s) >> 2, (x & 3) << 1
            b[i] = (b[i] & ~(3 << shift)) | ((c & 3) << shift)
        else:
            i = (x + y * s) * 2
            b[i], b[i + 1] = c & 0xFF, (c >> 8) & 0xFF

    def _get(self, x: int, y: int) -> int:
        b, f, s = self.buf, self.format, self.stride
        if f == MONO_VLSB:
            return (b[(y >> 3) * s + x] >> (y & 7)) & 1
        if f == MONO_HLSB:
            return (b[(x + y * s) >> 3] >> (7 - (x & 7))) & 1
        if f == GS2_HMSB:
            return (b[(x + y * s) >> 2] >> ((x & 3) << 1)) & 3
        i = (x + y * s) * 2
        return b[i] | (b[i + 1] << 8)

    # -- the methods
    def pixel(self, x: int, y: int, c: int | None = None) -> int | None:
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        if c is None:
            return self._get(x, y)
        self._set(x, y, c)
        return None

    def fill_rect(self, x: int, y: int, w: int, h: int, c: int) -> None:
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self.height or x >= self.width:
            return
        xend, yend = min(self.width, x + w), min(self.height, y + h)
        x, y = max(x, 0), max(y, 0)
        for yy in range(y, yend):
            for xx in range(x, xend):
                self._set(xx, yy, c)

    def fill(self, c: int) -> None:
        self.fill_rect(0, 0, self.width, self.height, c)

    def hline(self, x: int, y: int, w: int, c: int) -> None:
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x: int, y: int, h: int, c: int) -> None:
        self.fill_rect(x, y, 1, h, c)

    def rect(self, x: int, y: int, w: int, h: int, c: int, f: bool = False) -> None:
        if f:
            self.fill_rect(x, y, w, h, c)
            return
        self.fill_rect(x, y, w, 1, c)
        self.fill_rect(x, y + h - 1, w, 1, c)
        self.fill_rect(x, y, 1, h, c)
        self.fill_rect(x + w - 1, y, 1, h, c)

    def blit(self, src: FrameBuffer, x: int, y: int, key: int = -1, palette: FrameBuffer | None = None) -> None:
        if x >= self.width or y >= self.height or -x >= src.width or -y >= src.height:
            return
        x0, y0, x1, y1 = max(0, x), max(0, y), max(0, -x), max(0, -y)
        x0end, y0end = min(self.width, x + src.width), min(self.height, y + src.height)
        while y0 < y0end:
            cx1 = x1
            for cx0 in range(x0, x0end):
                col = src._get(cx1, y1)
                if palette is not None:
                    col = palette._get(col, 0)
                if col != key:  # the key is compared after the palette, as MicroPython does
                    self._set(cx0, y0, col)
                cx1 += 1
            y0 += 1
            y1 += 1
