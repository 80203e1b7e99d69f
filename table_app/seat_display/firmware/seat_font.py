# Bitmap fonts made at build time from Noto CJK (table_app/seat_display/fontgen.py): a few
# faces, each a set of glyph cells of one height, 1 bit a pixel in framebuf.MONO_HLSB rows.
#
# File: b"XSF1", u8 face count; per face: u8 name length, the name, u8 height, u16 byte
# length of its characters in UTF-8, the characters, one width byte per character, then the
# cells in the same order, each ((width + 7) // 8) * height bytes.
import framebuf

MAGIC = b"XSF1"


class Face:
    def __init__(self, name, height, chars, widths, offsets):
        self.name = name
        self.height = height
        self.chars = chars  # str: find() gives a glyph's index
        self.widths = widths  # memoryview of one byte per glyph
        self.offsets = offsets  # list: where each cell starts in the font's data


class Font:
    """Draws the fixed words; a character the font lacks is drawn as a box and counted."""

    def __init__(self, data):
        # framebuf needs a writable buffer even to read from: keep the data in a bytearray
        self.data = data
        self.faces = {}
        self.missing = 0
        mv = memoryview(data)
        if bytes(mv[0:4]) != MAGIC:
            raise ValueError("not a seat display font")
        pos = 5
        for _ in range(data[4]):
            n = data[pos]
            name = bytes(mv[pos + 1:pos + 1 + n]).decode()
            pos += 1 + n
            height = data[pos]
            clen = data[pos + 1] | (data[pos + 2] << 8)
            chars = bytes(mv[pos + 3:pos + 3 + clen]).decode()
            pos += 3 + clen
            count = len(chars)
            widths = mv[pos:pos + count]
            pos += count
            offsets = []
            for w in widths:
                offsets.append(pos)
                pos += ((w + 7) >> 3) * height
            self.faces[name] = Face(name, height, chars, widths, offsets)

    def face(self, name):
        return self.faces[name]

    def has(self, text, face):
        chars = self.faces[face].chars
        return all(chars.find(ch) >= 0 for ch in text)

    def width(self, text, face):
        f = self.faces[face]
        w = 0
        for ch in text:
            i = f.chars.find(ch)
            w += f.widths[i] if i >= 0 else f.height // 2
        return w

    def draw(self, fb, text, x, y, face, palette, key):
        """Draw ``text`` with its top-left corner at (x, y): ``palette`` maps a glyph's ink (1)
        to a colour and its background (0) to ``key``, which the blit leaves out.

        Returns the x after the text."""
        f = self.faces[face]
        h = f.height
        mv = memoryview(self.data)
        for ch in text:
            i = f.chars.find(ch)
            if i < 0:
                self.missing += 1
                fb.rect(x + 1, y + 1, h // 2 - 2, h - 2, palette.pixel(1, 0))
                x += h // 2
                continue
            w = f.widths[i]
            if ch != " ":
                off = f.offsets[i]
                cell = framebuf.FrameBuffer(mv[off:off + ((w + 7) >> 3) * h], w, h, framebuf.MONO_HLSB)
                fb.blit(cell, x, y, key, palette)
            x += w
        return x
