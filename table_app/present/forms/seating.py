"""Seating (定位, docs/rules.md §3), written once: the three methods and what each needs — A one
roller and two dice, B every seat's roll, C the wind each player drew (the last one follows from
the other three) — what is still missing, by name (:func:`missing`, :func:`missing_line`), the
``seating`` command (:func:`command`), the seats that roll again after a tie the engine refused
(:func:`roll_again`), and a phone's "I drew East" (:func:`drew_east`). The touchscreen's seating
screen (``table_app/ui/screens/seating.py``) draws the form; a phone offers only method C's East.
Who moves where afterwards is read from the event (:mod:`table_app.present.seating`).

>>> f = blank(); f["method"] = "B"; f["rolls"][0] = [2, 3]
>>> command(f) is None, missing(f, ["A", "B", "C", "D"])
(True, ['B', 'C', 'D'])
>>> missing_line(f, ["A", "B", "C", "D"], "en")
'dice still missing: B, C, D'
>>> f["rolls"] = [[2, 3], [6, 6], [1, 2], [2, 3]]
>>> command(f)
{'type': 'seating', 'method': 'B', 'rolls': [[2, 3], [6, 6], [1, 2], [2, 3]]}
>>> roll_again(f, "seating.ties", {"tied": [0, 3]}), f["rolls"]
(True, [[0, 0], [6, 6], [1, 2], [0, 0]])
>>> drew_east(2)
{'type': 'seating', 'method': 'C', 'east': 2}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final, Literal, TypedDict

from engine.public import PublicState
from engine.records import Wind
from engine.seats import SEATS, WINDS
from engine.table import accepts
from table_app.present.words import names_list, tr

Method = Literal["A", "B", "C"]
METHODS: Final[tuple[Method, ...]] = ("A", "B", "C")
NOT_ROLLED: Final = 0  # a die not rolled yet


class SeatingForm(TypedDict):
    """The form's value: the method; A's roller and dice, B's rolls by seat, C's drawn winds by
    seat (a die of 0: not rolled; a wind of None: not drawn)."""

    method: Method
    roller: int | None
    dice: list[int]
    rolls: list[list[int]]
    drew: list[Wind | None]


def blank() -> SeatingForm:
    """The form as it starts: method A, its roller preselected (the bottom seat), nothing rolled or drawn."""
    return {"method": "A", "roller": 0, "dice": [NOT_ROLLED] * 2, "rolls": [[NOT_ROLLED] * 2 for _ in range(SEATS)],
            "drew": [None] * SEATS}


def open_now(public: PublicState) -> bool:
    """Whether the players are being seated (the engine's phase takes ``seating``)."""
    return "seating" in accepts(public["phase"])


def _rolled(roll: Sequence[int]) -> bool:
    return NOT_ROLLED not in roll


def drawn(drew: Sequence[Wind | None], seat: int, wind: Wind) -> list[Wind | None]:
    """The winds drawn after ``seat`` is given ``wind``: one tile each, so a seat that had it
    has none; the last seat without one gets the last wind.

    >>> drawn(["E", None, None, None], 1, "E")
    [None, 'E', None, None]
    >>> drawn(["E", "S", None, None], 2, "N")
    ['E', 'S', 'N', 'W']
    """
    out = [None if w == wind else w for w in drew]
    out[seat] = wind
    empty = [s for s, w in enumerate(out) if w is None]
    if len(empty) == 1:
        out[empty[0]] = next(w for w in WINDS if w not in out)
    return out


def missing_seats(form: SeatingForm) -> list[int]:
    """The seats the form still waits for: B's seats not rolled, C's without a wind (A: none —
    its roller and dice are one roll, :func:`command` says whether it is in)."""
    if form["method"] == "B":
        return [s for s, r in enumerate(form["rolls"]) if not _rolled(r)]
    if form["method"] == "C":
        return [s for s, w in enumerate(form["drew"]) if w is None]
    return []


def missing(form: SeatingForm, names: Sequence[str]) -> list[str]:
    """The names of the players the form still waits for (:func:`missing_seats`)."""
    return [names[s] for s in missing_seats(form)]


def missing_line(form: SeatingForm, names: Sequence[str], lang: str,
                 fits: Callable[[str], bool] = lambda _: True) -> str:
    """What is still missing in one line ("" when nothing is): who still rolls, by name where
    the names ``fits`` the line, else how many; how many still pick a wind.

    >>> f = blank(); f["method"] = "C"; f["drew"] = ["E", None, "W", None]
    >>> missing_line(f, ["A", "B", "C", "D"], "zh")
    '还有 2 人没选风'
    >>> f["method"] = "B"; missing_line(f, ["A", "B", "C", "D"], "en", fits=lambda line: len(line) < 20)
    '4 still to roll'
    """
    todo = missing_seats(form)
    if not todo:
        return ""
    if form["method"] == "C":
        return tr("winds_missing", lang, n=len(todo))
    line = tr("dice_missing", lang, names=names_list([names[s] for s in todo], lang))
    return line if fits(line) else tr("rolls_missing", lang, n=len(todo))


def command(form: SeatingForm) -> dict[str, object] | None:
    """The ``seating`` command the form describes, or None while something is missing.

    >>> f = blank(); f["dice"] = [2, 3]
    >>> command(f)
    {'type': 'seating', 'method': 'A', 'roller': 0, 'dice': [2, 3]}
    >>> f.update(method="C", drew=["E", None, "W", "N"]); command(f) is None
    True
    >>> f["drew"] = ["E", "S", "W", "N"]; command(f)
    {'type': 'seating', 'method': 'C', 'drew': ['E', 'S', 'W', 'N']}
    """
    method = form["method"]
    if method == "A":
        if form["roller"] is None or not _rolled(form["dice"]):
            return None
        return {"type": "seating", "method": "A", "roller": form["roller"], "dice": list(form["dice"])}
    if missing_seats(form):
        return None
    if method == "B":
        return {"type": "seating", "method": "B", "rolls": [list(r) for r in form["rolls"]]}
    return {"type": "seating", "method": "C", "drew": list(form["drew"])}


def roll_again(form: SeatingForm, code: str, params: Mapping[str, object]) -> bool:
    """After the engine's refusal ``code``: method B's tied seats roll again (their rolls are
    cleared); whether the form changed."""
    tied = params.get("tied")
    if code != "seating.ties" or not isinstance(tied, list):
        return False
    for seat in tied:
        if type(seat) is int and 0 <= seat < SEATS:
            form["rolls"][seat] = [NOT_ROLLED] * 2
    return True


def drew_east(seat: int) -> dict[str, object]:
    """A phone's seating: its player drew East (method C; the others keep the order they sit in)."""
    return {"type": "seating", "method": "C", "east": seat}


__all__ = ["METHODS", "NOT_ROLLED", "Method", "SeatingForm", "blank", "command", "drawn", "drew_east", "missing",
           "missing_line", "missing_seats", "open_now", "roll_again"]
