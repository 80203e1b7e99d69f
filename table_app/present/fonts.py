"""Finding a font that really has the Chinese glyphs (no Kivy here).

Order: ``XIAN_TABLE_FONT`` (a file path), Debian's ``fonts-noto-cjk`` files, then
``fc-match`` for a font covering zh. ``find_cjk_font`` returns None when nothing is found
and the app then shows :data:`MISSING` (and falls back to Kivy's Roboto, which has no CJK).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Final

KNOWN: Final = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Medium.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
)

MISSING: Final = ("找不到中文字体：sudo apt-get install fonts-noto-cjk，或设置 XIAN_TABLE_FONT=/path/font.ttf · "
                  "No CJK font: install fonts-noto-cjk or set XIAN_TABLE_FONT")


def find_cjk_font(env: Mapping[str, str] | None = None, known: tuple[str, ...] = KNOWN) -> str | None:
    env = os.environ if env is None else env
    configured = env.get("XIAN_TABLE_FONT", "")
    if configured:
        return configured if Path(configured).is_file() else None
    for path in known:
        if Path(path).is_file():
            return path
    if shutil.which("fc-match"):
        try:
            out = subprocess.run(["fc-match", "-f", "%{file}", ":lang=zh-cn"], capture_output=True, text=True,
                                 timeout=5).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return None
        if out and Path(out).is_file() and any(w in out.lower() for w in ("cjk", "droid", "wqy", "hei", "song")):
            return out
    return None
