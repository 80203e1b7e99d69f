"""Picking a new session's players from the roster (issue 28), written once: a tapped roster
name sits at the place chosen (a player seated at another place already moves there — the two
swap), and the next place is chosen (:func:`pick`); which roster players are seated
(:func:`seated`, names compared as the table tells players apart: trimmed, without case) and
each place's badge (:func:`badges`).

The touchscreen's new-session screen calls :func:`pick` on a tap. The phone page keeps no copy
of it: a tap posts the form's four names as they stand, the place chosen and the name tapped
to ``POST /phone/<n>/pick`` (a bound phone's; its input bounded and checked by
:func:`from_json`) and draws the answer (:func:`answer`: the names, the next place, the roster
players seated). Why not ship the outcomes with the view: the names are text fields a player
may type into at any moment, so what a tap does depends on what is in them then — every
outcome for every text cannot be computed beforehand; a round trip on the table's own network
is a few milliseconds, and a tap that cannot reach the table is said like any other refusal.

>>> pick(["Ann", "Bo", "Cy", "Di"], 2, "Eve")
{'names': ['Ann', 'Bo', 'Eve', 'Di'], 'place': 3}
>>> pick(["Ann", "Bo", "Cy", "Di"], 3, "bo")
{'names': ['Ann', 'Di', 'Cy', 'bo'], 'place': 0}
>>> seated(["Ann", "Bo ", "Cy", "Di"], ["bo", "Eve", "Ann"])
['bo', 'Ann']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, TypedDict

from engine.seats import SEATS
from engine.session_events import name_key
from table_app.present.forms.refused import Refused
from table_app.present.roster import badge

TEXT_MAX: Final = 64  # a place's text or the name tapped, in characters (a name has at most 12: room to type over)
FIELDS: Final = frozenset({"names", "place", "name"})


class Pick(TypedDict):
    """The form's names after a tap, and the place chosen next."""

    names: list[str]
    place: int


class PickAnswer(Pick):
    """:class:`Pick`, and which of the roster players offered are seated now."""

    seated: list[str]


def pick(names: Sequence[str], place: int, name: str) -> Pick:
    """Seat ``name`` at ``place``: the place it had, if it was seated elsewhere, gets the chosen
    place's player (the two swap); then the next place is chosen."""
    out = [n.strip() for n in names]
    name = name.strip()
    keys = [name_key(n) for n in out]
    if name_key(name) in keys:
        out[keys.index(name_key(name))] = out[place]
    out[place] = name
    return {"names": out, "place": (place + 1) % SEATS}


def seated(names: Sequence[str], roster: Sequence[str]) -> list[str]:
    """The roster players (in the roster's order) seated at one of the places ``names``."""
    keys = {name_key(n) for n in names}
    return [r for r in roster if name_key(r) in keys]


def badges(names: Sequence[str], roster: Sequence[tuple[int, str]]) -> list[tuple[str, int]]:
    """Each place's badge (its letter and colour index: -1 for a name not in the roster), from
    the roster's ``(id, name)``.

    >>> badges(["ann", "Zed"], [(3, "Ann")])
    [('A', 3), ('Z', -1)]
    """
    ids = {name_key(n): pid for pid, n in roster}
    return [badge(n, ids.get(name_key(n))) for n in names]


def from_json(data: Mapping[str, object]) -> tuple[Pick, str] | Refused:
    """A phone's tap: ``{"names": [four texts], "place": 0..3, "name": the name tapped}`` as the
    form before the tap and the name, or why not (anything else, each text at most
    :data:`TEXT_MAX` characters, the name not empty).

    >>> from_json({"names": ["A", "B", "", "D"], "place": 2, "name": "Eve"})
    ({'names': ['A', 'B', '', 'D'], 'place': 2}, 'Eve')
    >>> from_json({"names": ["A", "B", "C", "D"], "place": True, "name": "Eve"}).words("en")
    'The name tapped was not understood: nothing changed'
    """
    names, place, name = data.get("names"), data.get("place"), data.get("name")
    if set(data) != FIELDS or type(place) is not int or not 0 <= place < SEATS \
            or not isinstance(name, str) or not name.strip() or len(name) > TEXT_MAX \
            or not isinstance(names, list) or len(names) != SEATS \
            or not all(isinstance(n, str) and len(n) <= TEXT_MAX for n in names):
        return Refused("sc_bad_pick", "invalid", "malformed")
    return {"names": list(names), "place": place}, name


def answer(data: Mapping[str, object], roster: Sequence[str]) -> PickAnswer | Refused:
    """What a phone's tap does (:func:`from_json`, :func:`pick`), with the roster players
    (``roster``: those the phone's form offers) seated after it.

    >>> answer({"names": ["Ann", "Bo", "Cy", "Di"], "place": 0, "name": "Eve"}, ["Eve", "Cy", "Fay"])
    {'names': ['Eve', 'Bo', 'Cy', 'Di'], 'place': 1, 'seated': ['Eve', 'Cy']}
    """
    tap = from_json(data)
    if isinstance(tap, Refused):
        return tap
    before, name = tap
    after = pick(before["names"], before["place"], name)
    return {**after, "seated": seated(after["names"], roster)}


__all__ = ["FIELDS", "TEXT_MAX", "Pick", "PickAnswer", "answer", "badges", "from_json", "pick", "seated"]
