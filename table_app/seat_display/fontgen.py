"""The seat display's bitmap fonts, made from Noto CJK with Pillow (run at build time).

``python -m table_app.seat_display.fontgen`` writes ``firmware/font_s.bin`` (the 128×64
OLED) and ``firmware/font_l.bin`` (the 240×240 colour screen). Each has four faces: the
large wind (东南西北), the large score figures, the fixed Chinese words of
``firmware/seat_words.py`` (with digits) and Latin capitals for the English words. Glyphs
are rendered without anti-aliasing (FreeType's own 1-bit hinting), so they stay crisp on
a 1-bit screen; the file format is described in ``firmware/seat_font.py``.
The tests check that the files in the repository are exactly what this module makes.
"""

from __future__ import annotations

import argparse
import importlib.util
import struct
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

FIRMWARE = Path(__file__).resolve().parent / "firmware"
NOTO_DIR = Path("/usr/share/fonts/opentype/noto")
REGULAR = NOTO_DIR / "NotoSansCJK-Regular.ttc"
BOLD = NOTO_DIR / "NotoSansCJK-Bold.ttc"
SC = 2  # the collection's Simplified Chinese member (Noto Sans CJK SC)
MAGIC = b"XSF1"


def words() -> ModuleType:
    """The firmware's own word list (a MicroPython file that CPython can import too)."""
    spec = importlib.util.spec_from_file_location("seat_words", FIRMWARE / "seat_words.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True)
class FaceSpec:
    name: str
    font: Path
    size: int  # pixels per em
    chars: str


def face_specs(screen: str) -> list[FaceSpec]:
    w = words()
    winds = "".join(sorted(w.WIND_ZH.values()))
    cjk = "".join(sorted(set(w.all_cjk()) | set("0123456789")))
    sizes = {"s": (36, 26, 16, 11), "l": (100, 60, 32, 20)}[screen]
    return [FaceSpec("wind", BOLD, sizes[0], winds), FaceSpec("num", BOLD, sizes[1], w.DIGITS),
            FaceSpec("cjk", REGULAR, sizes[2], cjk), FaceSpec("latin", BOLD, sizes[3], w.LATIN)]


def render_face(spec: FaceSpec) -> tuple[int, list[tuple[str, int, bytes]]]:
    """The face's cell height and each glyph as (char, width, MONO_HLSB rows)."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(str(spec.font), spec.size, index=SC)
    pad, base = spec.size, spec.size * 2
    canvases = []
    for ch in spec.chars:
        advance = max(1, round(font.getlength(ch)))
        img = Image.new("1", (advance + 2 * pad, spec.size * 4), 0)
        draw = ImageDraw.Draw(img)
        draw.fontmode = "1"  # no anti-aliasing: FreeType's monochrome rendering
        draw.text((pad, base), ch, font=font, fill=1, anchor="ls")
        canvases.append((ch, advance, img))
    boxes = [img.getbbox() for _, _, img in canvases]
    top = min(b[1] for b in boxes if b)
    bottom = max(b[3] for b in boxes if b)
    glyphs = []
    for ch, advance, img in canvases:
        cell = img.crop((pad, top, pad + advance, bottom))
        glyphs.append((ch, advance, pack_hlsb(cell)))
    return bottom - top, glyphs


def pack_hlsb(img: object) -> bytes:
    """A 1-bit image as framebuf.MONO_HLSB: rows of bytes, the leftmost pixel in the high bit."""
    from PIL import Image

    assert isinstance(img, Image.Image)
    w, h = img.size
    stride = (w + 7) // 8
    out = bytearray(stride * h)
    px = img.load()
    assert px is not None
    for y in range(h):
        for x in range(w):
            if px[x, y]:
                out[y * stride + x // 8] |= 0x80 >> (x % 8)
    return bytes(out)


def build(screen: str) -> bytes:
    specs = face_specs(screen)
    out = bytearray(MAGIC) + bytes([len(specs)])
    for spec in specs:
        height, glyphs = render_face(spec)
        chars = "".join(ch for ch, _, _ in glyphs).encode()
        name = spec.name.encode()
        out += bytes([len(name)]) + name + bytes([height]) + struct.pack("<H", len(chars)) + chars
        out += bytes(w for _, w, _ in glyphs)
        for _, _, rows in glyphs:
            out += rows
    return bytes(out)


def font_path(screen: str, folder: Path = FIRMWARE) -> Path:
    return folder / f"font_{screen}.bin"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="make the seat display's bitmap fonts from Noto CJK")
    p.add_argument("--out", type=Path, default=FIRMWARE, help="the folder to write font_s.bin and font_l.bin")
    args = p.parse_args(argv)
    for screen in ("s", "l"):
        data = build(screen)
        path = font_path(screen, args.out)
        path.write_bytes(data)
        print(f"{path}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
