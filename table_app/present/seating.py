"""Who moves where after seating (docs/rules.md §3): by name and by the place on the screen,
from the engine's :func:`engine.seating.seated` (the rule lives there).

>>> from engine.events import Seating
>>> ev = Seating(method="C", drew=("N", "W", "E", "S"))
>>> for line in move_lines(ev, ["Bo", "Ann", "Cai", "Dee"], "en"):
...     print(line)
Change places:
Ann: bottom → right (North)
Bo: right → bottom (West)
>>> move_lines(Seating(method="A", roller=0, dice=(2, 3)), ["A", "B", "C", "D"], "en")
[]
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.events import Seating
from engine.seating import seated
from engine.seats import SEATS, WINDS
from table_app.present.table import PLACES
from table_app.present.words import WIND_EN, WIND_ZH, tr


def move_lines(ev: Seating, players: Sequence[str], lang: str) -> list[str]:
    """After a seating by rolls (B) or drawn winds (C): a title and one line for each player who
    moves (``players``: by seat after the seating), or that nobody moves; [] for a seating that
    moves nobody by its nature (A, or C as old journals give it)."""
    result = seated(ev)
    if ev.method == "A" or (ev.method == "C" and ev.drew is None):
        return []
    lines = []
    for seat, to in enumerate(result.moves):
        if to != seat:
            wind = WINDS[(to - result.east) % SEATS]
            lines.append(tr("move_line", lang, name=players[to], frm=tr(f"place_{PLACES[seat]}", lang),
                            to=tr(f"place_{PLACES[to]}", lang), wind=(WIND_ZH if lang == "zh" else WIND_EN)[wind]))
    return [tr("moves_title", lang), *lines] if lines else [tr("moves_none", lang)]
