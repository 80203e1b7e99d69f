"""The table's events (docs/design.md "Events"): one frozen dataclass per type, checked when built —
the session's and its seats' in ``engine.session_events``, a hand's in ``engine.hand_events`` —
and :func:`parse_event`, which reads any of them from JSON.

Events are plain values. Tiles are ints (``engine.tiles``) inside and mpsz text in JSON;
``to_json`` gives the canonical JSON object and :func:`parse_event` reads it back, so
``parse_event(e.to_json()) == e`` for every event, and a canonical object survives
``parse_event(obj).to_json() == obj``. Anything malformed — an unknown type or field, a
missing field, a value of the wrong kind — raises :class:`InvalidEventError` quoting it.

>>> e = parse_event({"type": "discard", "seat": 2, "tile": "5p"})
>>> e
Discard(seat=2, tile=13)
>>> e.to_json()
{'type': 'discard', 'seat': 2, 'tile': '5p'}
>>> parse_event({"type": "discard", "seat": 4})
Traceback (most recent call last):
...
engine.errors.InvalidEventError: discard: 'seat' must be a seat 0..3, got 4 in {'type': 'discard', 'seat': 4}
"""


from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from engine.errors import InvalidEventError
from engine.event_base import Event
from engine.fields import quoted_event
from engine.hand_events import (  # (a hand's play)
    KONG_KINDS,
    Bets,
    Claim,
    ConfirmWin,
    Discard,
    Kong,
    NextHand,
    OwnKong,
    Pass,
    RejectWin,
    Resolve,
    Roll,
    Win,
)
from engine.scored import SCORED_FIELDS, ScoreHand  # (score-only mode)
from engine.session_events import (  # (the session and its seats)
    SEATING_METHODS,
    WIND_LETTERS,
    EndSession,
    Fee,
    Name,
    NewSession,
    Seating,
    SeatingMethod,
)

# --- reading JSON --------------------------------------------------------------------


_SCHEMA: Final[dict[str, tuple[type[Event], tuple[str, ...], tuple[str, ...]]]] = {
    # type: (class, required fields, optional fields)
    "new_session": (NewSession, ("players", "base"), ("rules", "wall_seed", "player_ids", "fee")),
    "seating": (Seating, ("method",), ("roller", "dice", "rolls", "east", "drew")),
    "bets": (Bets, ("bets",), ()),
    "roll": (Roll, ("dice",), ("seat",)),
    "discard": (Discard, ("seat",), ("tile",)),
    "claim": (Claim, ("seat", "call"), ("tiles",)),
    "pass": (Pass, ("seat",), ("drew",)),
    "resolve": (Resolve, (), ()),
    "kong": (Kong, ("seat", "kind"), ("tile",)),
    "win": (Win, ("seat",), ()),
    "confirm_win": (ConfirmWin, (), ("wait", "hand", "win_tile", "melds")),
    "reject_win": (RejectWin, (), ()),
    "next_hand": (NextHand, (), ()),
    "end_session": (EndSession, (), ("seconds",)),
    "name": (Name, ("seat", "name"), ("player_id",)),
    "score_hand": (ScoreHand, (), SCORED_FIELDS),
    "fee": (Fee, (), ("fee",)),
}
_TEXT: Final = {"tile": "a tile in JSON is mpsz text like '5p'", "win_tile": "a tile in JSON is mpsz text like '5p'",
                "tiles": "'tiles' in JSON are mpsz text like '34m'"}
"""Fields whose JSON is mpsz text (the Python events also take tile ints)."""
EVENT_TYPES: Final = tuple(_SCHEMA)
EVENT_CLASSES: Final[dict[str, type[Event]]] = {k: v[0] for k, v in _SCHEMA.items()}


def parse_event(obj: object) -> Event:
    """The event a JSON object describes; :class:`InvalidEventError` quoting it if malformed.

    An :class:`Event` is returned as it is.

    >>> parse_event({"type": "claim", "seat": 1, "call": "chow", "tiles": "46p"})
    Claim(seat=1, call='chow', tiles=(12, 14))
    >>> parse_event({"type": "pass", "seat": 1, "why": 0})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.errors.InvalidEventError: pass: unknown field 'why' (fields: seat, drew) in {'type': 'pass', 'seat': 1, ...}
    """
    if isinstance(obj, Event):
        return obj
    if not isinstance(obj, Mapping):
        raise InvalidEventError(f"an event must be a JSON object with a 'type', got {obj!r}")
    etype = obj.get("type")
    if not isinstance(etype, str) or etype not in _SCHEMA:
        raise InvalidEventError(f"unknown event type {etype!r} (types: {', '.join(_SCHEMA)}) in {dict(obj)!r}")
    cls, required, optional = _SCHEMA[etype]
    for key in obj:
        if key != "type" and key not in required + optional:
            allowed = ", ".join(required + optional) or "none"
            raise InvalidEventError(f"{etype}: unknown field {key!r} (fields: {allowed}) in {dict(obj)!r}")
    kwargs: dict[str, object] = {}
    for name in required + optional:
        if name not in obj or obj[name] is None:
            if name in required:
                raise InvalidEventError(f"{etype}: missing field {name!r} in {dict(obj)!r}")
            continue
        if name in _TEXT and not isinstance(obj[name], str):
            raise InvalidEventError(f"{etype}: {name!r}: {_TEXT[name]}, got {obj[name]!r} in {dict(obj)!r}")
        kwargs[name] = obj[name]
    try:
        return cls(**kwargs)
    except InvalidEventError as e:
        msg = str(e)
        raise InvalidEventError(msg if " in {" in msg else f"{msg} in {quoted_event(obj)}") from None
    except (TypeError, ValueError) as e:  # a value so odd the checks above did not name it
        raise InvalidEventError(f"{etype}: {e} in {dict(obj)!r}") from None


__all__ = [
    "EVENT_CLASSES",
    "EVENT_TYPES",
    "KONG_KINDS",
    "SEATING_METHODS",
    "WIND_LETTERS",
    "Bets",
    "Claim",
    "ConfirmWin",
    "Discard",
    "EndSession",
    "Event",
    "Fee",
    "InvalidEventError",
    "Kong",
    "Name",
    "NewSession",
    "NextHand",
    "OwnKong",
    "Pass",
    "RejectWin",
    "Resolve",
    "Roll",
    "ScoreHand",
    "Seating",
    "SeatingMethod",
    "Win",
    "parse_event",
]
