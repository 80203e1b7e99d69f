"""The join QR code (issue 18) with segno (pure Python, no dependencies): as SVG for the web
table page, as rows of modules for the touchscreen (a texture), as text for a terminal
(``serve`` prints it).

>>> "<svg" in qr_svg("http://192.168.1.20:8080/join/abc")
True
"""

from __future__ import annotations

import io

import segno


def _code(url: str) -> segno.QRCode:
    return segno.make(url, error="m", micro=False)


def qr_svg(url: str) -> str:
    """No width and height, a viewBox instead: the page sizes it."""
    return str(_code(url).svg_inline(scale=5, dark="#000", light="#fff", omitsize=True))


def qr_rows(url: str, border: int = 2) -> list[list[bool]]:
    """The code's modules row by row from the top, dark True, with a light border (the
    touchscreen draws them as a texture).

    >>> rows = qr_rows("http://x/join/abc", border=2)
    >>> len(rows) == len(rows[0]) and rows[0][0] is False and rows[2][2] is True
    True
    """
    return [[bool(v) for v in row] for row in _code(url).matrix_iter(scale=1, border=border)]


def qr_text(url: str) -> str:
    """The code in block characters, for a terminal (dark on light)."""
    out = io.StringIO()
    _code(url).terminal(out=out, compact=True)
    return out.getvalue()
