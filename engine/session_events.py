"""The events about the session and its seats (``engine.events`` reads their JSON): ``new_session``,
``seating`` (定位), ``name``, ``fee`` and ``end_session``.

- ``new_session`` starts over with four players by seat, the base, the rules and the fee.
- ``seating`` says who sits East: method A, B or C (docs/rules.md §3).
- ``name``: a player names their seat, before the first deal or between hands.
- ``fee`` changes the session's fee setting (``engine.fees``) in any phase of a session but
  ``ended``: ``{"type": "fee", "fee": {...}}``, or ``"fee": null`` for no fee from now on.
- ``end_session`` ends it; ``seconds`` (optional): the session's length in whole seconds, from
  its ``new_session`` record to this one, stamped by the service from the journal's own times
  (``table_app/core/session_clock.py``) so that the engine stays without a clock. An end without it
  (a journal from before issue 31) bills an hourly fee 0 hours, then its minimum.

>>> Fee.from_setting({"mode": "hour", "rate": 30}).to_json()
{'type': 'fee', 'fee': {'mode': 'hour', 'rate': 30, 'min': 0, 'cap': None, 'payer': 'aa', 'tea': 0}}
>>> Fee().to_json(), EndSession(seconds=5400).to_json()
({'type': 'fee', 'fee': None}, {'type': 'end_session', 'seconds': 5400})
>>> EndSession(seconds=-1)
Traceback (most recent call last):
...
engine.errors.InvalidEventError: end_session: 'seconds' must be whole seconds 0..1,000,000,000, got -1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Literal, get_args

from engine.errors import IllegalEventError, InvalidEventError
from engine.event_base import Event
from engine.fees import MAX_SECONDS, FeeSetting
from engine.fields import (
    MAX_AMOUNT,
    amount_text,
    check_dice,
    check_name,
    check_player_id,
    check_player_ids,
    check_seat,
    check_text,
)
from engine.records import Wind
from engine.rules import Rules, RulesError

SeatingMethod = Literal["A", "B", "C"]
SEATING_METHODS: Final[tuple[SeatingMethod, ...]] = get_args(SeatingMethod)
WIND_LETTERS: Final[tuple[Wind, ...]] = get_args(Wind)


def name_key(name: str) -> str:
    """How the table tells two players' names apart: trimmed and without case, as the roster
    compares them (``" Ann"`` and ``"ann"`` are one player there: one id).

    >>> name_key(" Ann "), name_key("阿强") == name_key("阿强 ")
    ('ann', True)
    """
    return name.strip().casefold()


def seated_twice(players: Sequence[str], player_ids: Sequence[int | None] | None = None) -> tuple[int, int] | None:
    """The first two seats that hold one player — one name (by :func:`name_key`) or one roster
    id — or None when every player sits once. Empty seats (no name yet) hold nobody.

    >>> seated_twice(["阿强", "Bo", "阿强", "Di"]), seated_twice(["A", "B", "C", "D"], [1, 2, 1, None])
    ((0, 2), (0, 2))
    >>> seated_twice(["Ann", "Bo", " ann", "Di"]), seated_twice(["A", "B", "C", "D"], [None, None, 3, 4])
    ((0, 2), None)
    """
    ids = list(player_ids) if player_ids is not None else [None] * len(players)
    for b in range(len(players)):
        for a in range(b):
            same_name = bool(name_key(players[a])) and name_key(players[a]) == name_key(players[b])
            if same_name or (ids[a] is not None and ids[a] == ids[b]):
                return a, b
    return None


def check_seated_once(players: Sequence[str], player_ids: Sequence[int | None] | None, etype: str,
                      only: int | None = None) -> None:
    """One player, one seat: :class:`IllegalEventError` (``seat.same_name`` or
    ``seat.same_player``, with the ``player`` and both ``seats``) when :func:`seated_twice`
    finds a player at two seats (``only``: a pair that includes this seat — the seat a ``name``
    changes; another pair already there is the journal's past).

    >>> check_seated_once(["阿强", "Bo", "阿强", "Di"], None, "new_session")
    Traceback (most recent call last):
    ...
    engine.errors.IllegalEventError: new_session: '阿强' is at seats 0 and 2: a player sits at one seat
    """
    pair = seated_twice(players, player_ids)
    if pair is None or (only is not None and only not in pair):
        return
    a, b = pair
    player = players[b].strip()
    if name_key(players[a]) == name_key(players[b]):
        raise IllegalEventError(f"{etype}: {player!r} is at seats {a} and {b}: a player sits at one seat",
                                "seat.same_name", seat=b, player=player, seats=[a, b])
    pid = None if player_ids is None else player_ids[b]
    raise IllegalEventError(f"{etype}: player {pid} ({players[a].strip()!r}, {player!r}) is at seats {a} and {b}: "
                            "a player sits at one seat", "seat.same_player", seat=b, player=player, seats=[a, b],
                            player_id=pid)


@dataclass(frozen=True)
class NewSession(Event):
    """Start over: four players by seat, the base, rule overrides, and ``wall_seed`` for full-tile mode;
    ``player_ids``: each seat's player in the table's roster (None: not in it), when the table has one;
    ``fee``: the session's fee setting (``engine.fees``; None: no fee)."""

    TYPE: ClassVar[str] = "new_session"
    players: tuple[str, str, str, str]
    base: int = 1
    rules: Mapping[str, object] | None = None
    wall_seed: int | None = None
    player_ids: tuple[int | None, int | None, int | None, int | None] | None = None
    fee: FeeSetting | None = None

    def __post_init__(self) -> None:
        p = self.players
        if isinstance(p, list):
            object.__setattr__(self, "players", p := tuple(p))
        if not isinstance(p, tuple) or len(p) != 4 or any(not isinstance(n, str) or not n.strip() for n in p):
            raise InvalidEventError(f"new_session: 'players' must be 4 non-empty names, one per seat 0..3, got {p!r}")
        if type(self.base) is not int or not 1 <= self.base <= MAX_AMOUNT:
            raise InvalidEventError(f"new_session: 'base' must be a whole number >= 1 (at most {MAX_AMOUNT:,}), "
                                    f"got {amount_text(self.base)}")
        if self.rules is not None:
            if not isinstance(self.rules, Mapping):
                raise InvalidEventError(f"new_session: 'rules' must be an object of option: value, got {self.rules!r}")
            try:
                Rules.from_overrides(self.rules)
            except (RulesError, TypeError) as e:
                raise InvalidEventError(f"new_session: {e}") from None
        if self.wall_seed is not None and type(self.wall_seed) is not int:
            raise InvalidEventError(f"new_session: 'wall_seed' must be a whole number, got {self.wall_seed!r}")
        if self.player_ids is not None:
            object.__setattr__(self, "player_ids", check_player_ids(self.player_ids, self.TYPE))
        object.__setattr__(self, "fee", None if self.fee is None else FeeSetting.from_json(self.fee, self.TYPE))

    @property
    def rule_set(self) -> Rules:
        return Rules.from_overrides(self.rules)

    def check_new(self) -> None:
        """Four names a screen can show (:func:`engine.fields.check_text`, the names' one rule),
        four players: no name and no roster id at two seats (:func:`check_seated_once`; a journal
        from before the rule is read as written)."""
        for name in self.players:
            check_text(name, "players", self.TYPE)
        check_seated_once(self.players, self.player_ids, self.TYPE)

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"type": self.TYPE, "players": list(self.players), "base": self.base}
        if self.rules is not None:
            d["rules"] = dict(self.rules)
        if self.wall_seed is not None:
            d["wall_seed"] = self.wall_seed
        if self.player_ids is not None:
            d["player_ids"] = list(self.player_ids)
        if self.fee is not None:
            d["fee"] = self.fee.to_json()
        return d


@dataclass(frozen=True)
class Seating(Event):
    """定位: method A (``roller`` rolls ``dice``), B (every seat's ``rolls``) or C (the wind tile
    each seat ``drew``; in journals before it, only the seat that drew East: ``east``)."""

    TYPE: ClassVar[str] = "seating"
    method: SeatingMethod
    roller: int | None = None
    dice: tuple[int, int] | None = None
    rolls: tuple[tuple[int, int], ...] | None = None
    east: int | None = None
    drew: tuple[Wind, Wind, Wind, Wind] | None = None

    def __post_init__(self) -> None:
        m = self.method
        if m not in SEATING_METHODS:
            raise InvalidEventError(f"seating: 'method' must be 'A', 'B' or 'C', got {m!r}")
        given = {name for name in ("roller", "dice", "rolls", "east", "drew") if getattr(self, name) is not None}
        need = {"A": ({"roller", "dice"},), "B": ({"rolls"},), "C": ({"drew"}, {"east"})}[m]
        if given not in need:
            takes = " or ".join(" and ".join(repr(n) for n in sorted(fs)) for fs in need)
            extra = sorted(given - set().union(*need))
            if extra:
                raise InvalidEventError(f"seating: method {m} takes {takes}, not {extra[0]!r}")
            if any(given < fs for fs in need):
                raise InvalidEventError(f"seating: method {m} needs {takes}")
            raise InvalidEventError(f"seating: method {m} takes {takes}, not both")
        if self.roller is not None:
            check_seat(self.roller, "roller", "seating")
        if self.east is not None:
            check_seat(self.east, "east", "seating")
        if self.dice is not None:
            object.__setattr__(self, "dice", check_dice(self.dice, "dice", "seating"))
        if self.rolls is not None:
            r = self.rolls
            if not isinstance(r, list | tuple) or len(r) != 4:
                raise InvalidEventError(f"seating: 'rolls' must be 4 pairs of dice, one per seat, got {r!r}")
            object.__setattr__(self, "rolls", tuple(check_dice(x, f"rolls[{i}]", "seating") for i, x in enumerate(r)))
        if self.drew is not None:
            d = self.drew
            if not isinstance(d, list | tuple) or sorted(map(str, d)) != sorted(WIND_LETTERS):
                raise InvalidEventError(f"seating: 'drew' must be the wind tile each seat drew, "
                                        f"the four of E, S, W, N once each, got {d!r}")
            object.__setattr__(self, "drew", tuple(d))

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"type": self.TYPE, "method": self.method}
        if self.method == "A":
            d["roller"] = self.roller
            d["dice"] = list(self.dice or ())
        elif self.method == "B":
            d["rolls"] = [list(x) for x in self.rolls or ()]
        elif self.drew is not None:
            d["drew"] = list(self.drew)
        else:
            d["east"] = self.east
        return d


@dataclass(frozen=True)
class Name(Event):
    """A player names their seat (from a phone, or the screen): before the first hand's deal or
    between hands. Journaled and undoable like any event. ``player_id``: the name's player in
    the table's roster, when the table has one."""

    TYPE: ClassVar[str] = "name"
    seat: int
    name: str
    player_id: int | None = None

    def __post_init__(self) -> None:
        check_seat(self.seat, "seat", "name")
        object.__setattr__(self, "name", check_name(self.name))
        if self.player_id is not None:
            check_player_id(self.player_id, "player_id", self.TYPE)

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"type": self.TYPE, "seat": self.seat, "name": self.name}
        if self.player_id is not None:
            d["player_id"] = self.player_id
        return d


@dataclass(frozen=True)
class Fee(Event):
    """The session's fee from now on (None: none); the whole session is billed by the setting in
    force when it ends. Undoable like any event."""

    TYPE: ClassVar[str] = "fee"
    fee: FeeSetting | None = None

    def __post_init__(self) -> None:
        if self.fee is not None:
            object.__setattr__(self, "fee", FeeSetting.from_json(self.fee, self.TYPE))

    @classmethod
    def from_setting(cls, setting: FeeSetting | Mapping[str, object] | None) -> Fee:
        return cls(None if setting is None else FeeSetting.from_json(setting, cls.TYPE))

    def to_json(self) -> dict[str, object]:
        return {"type": self.TYPE, "fee": None if self.fee is None else self.fee.to_json()}


@dataclass(frozen=True)
class EndSession(Event):
    """The session is over (结账); ``seconds``: how long it lasted, when known."""

    TYPE: ClassVar[str] = "end_session"
    seconds: int | None = None

    def __post_init__(self) -> None:
        s = self.seconds
        if s is not None and (type(s) is not int or not 0 <= s <= MAX_SECONDS):
            raise InvalidEventError(f"end_session: 'seconds' must be whole seconds 0..{MAX_SECONDS:,}, "
                                    f"got {amount_text(s)}")

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"type": self.TYPE}
        if self.seconds is not None:
            d["seconds"] = self.seconds
        return d


__all__ = ["SEATING_METHODS", "WIND_LETTERS", "EndSession", "Fee", "Name", "NewSession", "Seating", "SeatingMethod",
           "check_seated_once", "name_key", "seated_twice"]
