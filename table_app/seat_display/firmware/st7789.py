# A small ST7789 driver for 240x240 IPS modules (SPI, RGB565), drawing from a 2-bit frame.
#
# A full RGB565 frame would take 115 KB; the seat display draws four colours into a GS2
# framebuffer (14.4 KB) and show() turns it into RGB565 a band of LINES rows at a time with
# framebuf's own palette blit, so the colour screen costs little more RAM than the OLED.
import framebuf
from seat_time import sleep_ms

LINES = 4
# black, white, gold (250, 200, 40), red (220, 40, 40) as RGB565, byte-swapped: framebuf stores pixels little-endian and
# the ST7789 reads them big-endian
COLOURS = (0x0000, 0xFFFF, 0x45FE, 0x45D9)


def _swap(c):
    return ((c & 0xFF) << 8) | (c >> 8)


class ST7789:
    def __init__(self, spi, dc, cs=None, rst=None, bl=None, width=240, height=240, colours=COLOURS):
        self.spi = spi
        self.dc = dc
        self.cs = cs
        self.width = width
        self.height = height
        self.buffer = bytearray(width * height // 4)
        self.fb = framebuf.FrameBuffer(self.buffer, width, height, framebuf.GS2_HMSB)
        self.band = bytearray(width * LINES * 2)
        self.band_fb = framebuf.FrameBuffer(self.band, width, LINES, framebuf.RGB565)
        self.palette = framebuf.FrameBuffer(bytearray(8), 4, 1, framebuf.RGB565)
        for i, c in enumerate(colours):
            self.palette.pixel(i, 0, c)
        if cs is not None:
            cs.value(1)
        if rst is not None:
            rst.value(1)
            sleep_ms(5)
            rst.value(0)
            sleep_ms(10)
            rst.value(1)
            sleep_ms(120)
        for cmd, data, wait in (
            (0x01, None, 150),  # software reset
            (0x11, None, 10),  # out of sleep
            (0x3A, b"\x55", 0),  # 16 bits a pixel
            (0x36, b"\x00", 0),  # memory order: rows top to bottom, RGB
            (0x21, None, 0),  # inverted colours: what 240x240 IPS modules need for true colours
            (0x13, None, 0),  # normal display mode
            (0x29, None, 10),  # display on
        ):
            self.command(cmd, data)
            if wait:
                sleep_ms(wait)
        if bl is not None:
            bl.value(1)

    def command(self, cmd, data=None):
        if self.cs is not None:
            self.cs.value(0)
        self.dc.value(0)
        self.spi.write(bytes((cmd,)))
        if data:
            self.dc.value(1)
            self.spi.write(data)
        if self.cs is not None:
            self.cs.value(1)

    def show(self):
        w, h = self.width, self.height
        self.command(0x2A, bytes((0, 0, (w - 1) >> 8, (w - 1) & 0xFF)))
        self.command(0x2B, bytes((0, 0, (h - 1) >> 8, (h - 1) & 0xFF)))
        if self.cs is not None:
            self.cs.value(0)
        self.dc.value(0)
        self.spi.write(b"\x2c")
        self.dc.value(1)
        for y in range(0, h, LINES):
            self.band_fb.blit(self.fb, 0, -y, -1, self.palette)
            self.spi.write(self.band)
        if self.cs is not None:
            self.cs.value(1)
