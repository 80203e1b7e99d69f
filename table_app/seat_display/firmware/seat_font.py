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
        self.widths = widths  # bytes: one width per glyph
        self.offsets = offsets  # list: where each cell starts in the file


class Font:
    """Draws the fixed words; a character the font lacks is drawn as a box and counted.

    Only the index stays in RAM: each glyph is read from the open file when it is drawn
    (into one buffer the size of the largest cell), which keeps the 240x240 screen's font
    (16 KB) out of the heap for the price of a read per glyph."""

    def __init__(self, f):
        self.f = f
        self.faces = {}
        self.missing = 0
        if f.read(4) != MAGIC:
            raise ValueError("not a seat display font")
        pos = 5
        largest = 0
        for _ in range(f.read(1)[0]):
            n = f.read(1)[0]
            name = f.read(n).decode()
            head = f.read(3)
            height = head[0]
            clen = head[1] | (head[2] << 8)
            chars = f.read(clen).decode()
            widths = f.read(len(chars))
            pos += 1 + n + 3 + clen + len(chars)
            offsets = []
            for w in widths:
                offsets.append(pos)
                size = ((w + 7) >> 3) * height
                largest = max(largest, size)
                pos += size
            self.faces[name] = Face(name, height, chars, widths, offsets)
            f.seek(pos)
        # framebuf needs a writable buffer even to read from
        self.cell = bytearray(largest)

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
        for ch in text:
            i = f.chars.find(ch)
            if i < 0:
                self.missing += 1
                fb.rect(x + 1, y + 1, h // 2 - 2, h - 2, palette.pixel(1, 0))
                x += h // 2
                continue
            w = f.widths[i]
            if ch != " ":
                size = ((w + 7) >> 3) * h
                cell = memoryview(self.cell)[0:size]
                self.f.seek(f.offsets[i])
                self.f.readinto(cell)
                fb.blit(framebuf.FrameBuffer(cell, w, h, framebuf.MONO_HLSB), x, y, key, palette)
            x += w
        return x
