"""``xian-table export --format csv``: a session as hands × players, for a spreadsheet.

One row per settled hand: the session, when it started, the hand, the round, the dealer, the
result, the winner and how, the four players by seat, each one's delta for the hand (they add
up to 0), each one's running total, and the hand's transfers in words. When a session exported
has ended with a fee (docs/rules.md "Fees"), four more columns ``house_0``..``house_3``: what
each player pays the house (the table fee's share and the tea), on that session's last row.

For Excel: UTF-8 with a byte-order mark (:data:`BOM`) by default — without it Excel reads the
file in the computer's own code page and the Chinese names come out garbled (LibreOffice,
Numbers, Google Sheets and Python's ``utf-8-sig`` all take it); ``--no-bom`` leaves it out
for tools that do not. A name is never written with a control character raw
(:func:`engine.fields.printable`), and a text cell that a spreadsheet would take for a formula
(it begins with ``=``, ``+``, ``-``, ``@``) is written after an apostrophe, which the
spreadsheet shows as text.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from typing import Final, Protocol, TextIO

from engine.fees import BillJSON
from engine.fields import printable
from engine.records import TransferJSON

__all__ = ["BOM", "COLUMNS", "HOUSE_COLUMNS", "cell", "write_csv"]

BOM: Final = "\ufeff"
COLUMNS: Final = ("session", "started_at", "hand", "round", "dealer", "result", "winner", "kind",
                  *[f"player_{s}" for s in range(4)], *[f"delta_{s}" for s in range(4)],
                  *[f"total_{s}" for s in range(4)], "transfers")
HOUSE_COLUMNS: Final = tuple(f"house_{s}" for s in range(4))
_FORMULA: Final = ("=", "+", "-", "@", "\t", "\r")


class Hand(Protocol):
    hand: int
    round: int
    dealer: int | None
    result: str | None
    winner: int | None
    kind: str | None
    transfers: list[TransferJSON]
    deltas: list[int]
    totals: list[int]


class Session(Protocol):
    session: int
    started_at: str
    players: list[str]
    in_effect: bool

    @property
    def hands(self) -> Sequence[Hand]: ...

    @property
    def house(self) -> BillJSON | None: ...


def cell(value: object) -> object:
    """A cell as a spreadsheet should read it: text never acts on a terminal nor as a formula.

    >>> cell("=1+1"), cell("-Bo"), cell("阿强"), cell(-3)
    ("'=1+1", "'-Bo", '阿强', -3)
    """
    if not isinstance(value, str):
        return value
    text = printable(value)
    return "'" + text if text.startswith(_FORMULA) else text


def _transfers_text(transfers: list[TransferJSON], players: list[str]) -> str:
    def name(s: object) -> str:
        return players[s] if isinstance(s, int) and 0 <= s < len(players) else str(s)

    return "; ".join(f"{name(t.get('from'))}→{name(t.get('to'))} {t.get('amount')} {t.get('reason')}"
                     for t in transfers)


def write_csv(sessions: Sequence[Session], out: TextIO, *, bom: bool = True) -> None:
    if bom:
        out.write(BOM)
    w = csv.writer(out, lineterminator="\n")
    billed = any(s.in_effect and s.house is not None for s in sessions)
    w.writerow(COLUMNS + HOUSE_COLUMNS if billed else COLUMNS)
    for s in sessions:
        if not s.in_effect:
            continue
        for i, h in enumerate(s.hands):
            row = [s.session, s.started_at, h.hand, h.round, "" if h.dealer is None else s.players[h.dealer],
                   h.result or "", "" if h.winner is None else s.players[h.winner], h.kind or "",
                   *s.players, *h.deltas, *h.totals, _transfers_text(h.transfers, s.players)]
            if billed:
                house = s.house if i == len(s.hands) - 1 else None
                row += ["" if house is None else house["table"][seat] + house["tea"][seat] for seat in range(4)]
            w.writerow([cell(c) for c in row])
