"""Why a score-only entry does not offer a special win (issue 28, item 10): the engine's bar
(``engine.scored.extra_bar``, the same check that refuses it) in the player's words, for the
touchscreen's entry screen and the phones' result-only form.

>>> bars = extra_bars(1, "self_drawn", [], dealer=0, names=["Ann", "Bo", "Cy", "Di"])
>>> sorted(bars), bars["heavenly"]["en"], bars["kong_bloom"]["zh"]
(['heavenly', 'kong_bloom', 'robbed_kong'], 'heavenly: only the dealer, Ann', '杠后开花：要Bo自己开过杠')
>>> extra_bars(None, None, [], 0, ["Ann", "Bo", "Cy", "Di"])["robbed_kong"]["en"]
'robbed kong: a drawn hand has no winner'
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.scored import EXTRAS, Extra, extra_bar
from engine.scoring import WinHow
from table_app.present.words import Both, tr


def extra_bars(winner: int | None, how: WinHow | None, kong_seats: Sequence[int], dealer: int | None,
               names: Sequence[str]) -> dict[Extra, Both]:
    """Each special win not offered now, with why (``kind: why``), in both languages."""
    out: dict[Extra, Both] = {}
    for x in EXTRAS:
        bar = extra_bar(x, winner, how, kong_seats, dealer)
        if bar is None:
            continue
        fields = {"name": names[winner] if winner is not None else "",
                  "dealer": names[dealer] if dealer is not None else ""}
        zh, en = (tr("xb_line", lang, kind=tr(f"kind_{x}", lang), why=tr(f"xb_{bar}", lang, **fields))
                  for lang in ("zh", "en"))
        out[x] = {"zh": zh, "en": en}
    return out


def bars_line(bars: dict[Extra, Both], lang: str) -> str:
    """The reasons on one line (what a form shows under its special wins)."""
    return " · ".join(b["zh"] if lang == "zh" else b["en"] for b in bars.values())


__all__ = ["bars_line", "extra_bars"]
