"""Frames as PNG: what the bus carried to the screen, compared with the golden frames that
``docs/seat-display.md`` shows (``docs/seat-display/``). ``XIAN_UPDATE_GOLDEN=1`` rewrites
them (then look at every one before committing)."""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image

from tests.seat_display.board_standin import lcd_frame, oled_frame

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "docs" / "seat-display"
OLED_SCALE = 4
OLED_LIT = (140, 220, 255)  # a blue-white SSD1306 module


def oled_png(data: bytes) -> Image.Image:
    rows = oled_frame(data)
    img = Image.new("RGB", (128, 64))
    img.putdata([OLED_LIT if px else (0, 0, 0) for row in rows for px in row])
    return img.resize((128 * OLED_SCALE, 64 * OLED_SCALE), Image.NEAREST)


def lcd_png(data: bytes) -> Image.Image:
    img = Image.new("RGB", (240, 240))
    img.putdata([px for row in lcd_frame(data) for px in row])
    return img


def check_golden(img: Image.Image, name: str, out_dir: Path) -> Path:
    """Write ``img`` to ``out_dir`` and require it to equal ``docs/seat-display/<name>.png``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    actual = out_dir / f"{name}.png"
    img.save(actual)
    golden = GOLDEN / f"{name}.png"
    if os.environ.get("XIAN_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(parents=True, exist_ok=True)
        img.save(golden)
    assert golden.exists(), f"no golden frame {golden}: run with XIAN_UPDATE_GOLDEN=1 and look at {actual}"
    want = Image.open(golden).convert("RGB")
    assert want.size == img.size and want.tobytes() == img.tobytes(), \
        f"frame {name} differs from {golden}: see {actual}"
    return actual
