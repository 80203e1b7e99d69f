"""The table's events (DESIGN.md "Events"): one frozen dataclass per type, checked when built.

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

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from engine.errors import InvalidEventError
from engine.hand import HandError, parse_meld
from engine.rules import Rules, RulesError
from engine.tiles import TileError, format_tiles, parse_tile, parse_tiles, tile_text

SEATS: Final = 4
CALLS: Final = ("win", "kong", "pong", "chow")
KONG_KINDS: Final = ("concealed", "added")
WAITS: Final = ("closed", "single", "edge", "plain")
SEATING_METHODS: Final = ("A", "B", "C")
MAX_AMOUNT: Final = 10**6  # base and bets: far above any table's stakes, and settlements stay short to print


def _amount(value: object) -> str:
    """An amount for an error message: a huge int is described, never converted (over 4,300
    digits ``repr`` itself raises)."""
    if type(value) is int and not -(10**18) < value < 10**18:
        return f"a number of about {int(abs(value).bit_length() * 0.30103) + 1:,} digits"
    return repr(value)


def _quoted(obj: Mapping[str, Any]) -> str:
    """``repr`` of an event for an error, even one holding an int too long to convert."""
    try:
        return repr(dict(obj))
    except ValueError:
        return f"a {obj.get('type')!r} event holding a number too long to print"


def _where(obj: object) -> str:
    return f" in {obj!r}" if obj is not None else ""


def _seat(value: object, name: str, etype: str, src: object = None) -> int:
    if type(value) is not int or not 0 <= value < SEATS:
        raise InvalidEventError(f"{etype}: {name!r} must be a seat 0..3, got {value!r}{_where(src)}")
    return value


def _dice(value: object, name: str, etype: str, src: object = None) -> tuple[int, int]:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or any(type(d) is not int or not 1 <= d <= 6 for d in value)
    ):
        raise InvalidEventError(f"{etype}: {name!r} must be two dice [a, b], each 1..6, got {value!r}{_where(src)}")
    return (value[0], value[1])


def _tile(value: object, name: str, etype: str, src: object = None) -> int:
    """A tile from its mpsz text (JSON) or an int 0..33 (Python)."""
    if type(value) is int and 0 <= value < 34:
        return value
    if isinstance(value, str):
        try:
            return parse_tile(value)
        except TileError as e:
            raise InvalidEventError(f"{etype}: {name!r}: {e}{_where(src)}") from None
    raise InvalidEventError(f"{etype}: {name!r} must be one tile in mpsz text like '5p', got {value!r}{_where(src)}")


dice_pair = _dice  # (engine.presses reads a press's dice with the same check)


@dataclass(frozen=True)
class Event:
    """Base of all events; ``TYPE`` is the JSON ``type``."""

    TYPE: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError

    @property
    def seat_of(self) -> int | None:
        """The seat that acts, if the event has one."""
        seat = getattr(self, "seat", None)
        return seat if isinstance(seat, int) else None


@dataclass(frozen=True)
class NewSession(Event):
    """Start over: four players by seat, the base, rule overrides, and ``wall_seed`` for full-tile mode."""

    TYPE: ClassVar[str] = "new_session"
    players: tuple[str, str, str, str]
    base: int = 1
    rules: Mapping[str, Any] | None = None
    wall_seed: int | None = None

    def __post_init__(self) -> None:
        p = self.players
        if isinstance(p, list):
            object.__setattr__(self, "players", p := tuple(p))
        if not isinstance(p, tuple) or len(p) != 4 or any(not isinstance(n, str) or not n.strip() for n in p):
            raise InvalidEventError(f"new_session: 'players' must be 4 non-empty names, one per seat 0..3, got {p!r}")
        if type(self.base) is not int or not 1 <= self.base <= MAX_AMOUNT:
            raise InvalidEventError(f"new_session: 'base' must be a whole number >= 1 (at most {MAX_AMOUNT:,}), "
                                    f"got {_amount(self.base)}")
        if self.rules is not None:
            if not isinstance(self.rules, Mapping):
                raise InvalidEventError(f"new_session: 'rules' must be an object of option: value, got {self.rules!r}")
            try:
                Rules.from_overrides(self.rules)
            except (RulesError, TypeError) as e:
                raise InvalidEventError(f"new_session: {e}") from None
        if self.wall_seed is not None and type(self.wall_seed) is not int:
            raise InvalidEventError(f"new_session: 'wall_seed' must be a whole number, got {self.wall_seed!r}")

    @property
    def rule_set(self) -> Rules:
        return Rules.from_overrides(self.rules)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.TYPE, "players": list(self.players), "base": self.base}
        if self.rules is not None:
            d["rules"] = dict(self.rules)
        if self.wall_seed is not None:
            d["wall_seed"] = self.wall_seed
        return d


@dataclass(frozen=True)
class Seating(Event):
    """定位: method A (``roller`` rolls ``dice``), B (every seat's ``rolls``) or C (``east`` given)."""

    TYPE: ClassVar[str] = "seating"
    method: str
    roller: int | None = None
    dice: tuple[int, int] | None = None
    rolls: tuple[tuple[int, int], ...] | None = None
    east: int | None = None

    def __post_init__(self) -> None:
        m = self.method
        if m not in SEATING_METHODS:
            raise InvalidEventError(f"seating: 'method' must be 'A', 'B' or 'C', got {m!r}")
        need = {"A": {"roller", "dice"}, "B": {"rolls"}, "C": {"east"}}[m]
        for name in ("roller", "dice", "rolls", "east"):
            given = getattr(self, name) is not None
            if given and name not in need:
                raise InvalidEventError(f"seating: method {m} takes {' and '.join(sorted(need))}, not {name!r}")
            if not given and name in need:
                raise InvalidEventError(f"seating: method {m} needs {name!r}")
        if self.roller is not None:
            _seat(self.roller, "roller", "seating")
        if self.east is not None:
            _seat(self.east, "east", "seating")
        if self.dice is not None:
            object.__setattr__(self, "dice", _dice(self.dice, "dice", "seating"))
        if self.rolls is not None:
            r = self.rolls
            if not isinstance(r, list | tuple) or len(r) != 4:
                raise InvalidEventError(f"seating: 'rolls' must be 4 pairs of dice, one per seat, got {r!r}")
            object.__setattr__(self, "rolls", tuple(_dice(x, f"rolls[{i}]", "seating") for i, x in enumerate(r)))

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.TYPE, "method": self.method}
        if self.method == "A":
            d["roller"] = self.roller
            d["dice"] = list(self.dice or ())
        elif self.method == "B":
            d["rolls"] = [list(x) for x in self.rolls or ()]
        else:
            d["east"] = self.east
        return d


@dataclass(frozen=True)
class Bets(Event):
    """下注: every seat's bet n_s >= 0 for the coming hand."""

    TYPE: ClassVar[str] = "bets"
    bets: tuple[int, int, int, int]

    def __post_init__(self) -> None:
        b = self.bets
        if not isinstance(b, list | tuple) or len(b) != 4 or any(
            type(n) is not int or not 0 <= n <= MAX_AMOUNT for n in b
        ):
            shown = f"[{', '.join(map(_amount, b[:8]))}]" if isinstance(b, list | tuple) else repr(b)
            raise InvalidEventError(
                f"bets: 'bets' must be 4 whole numbers >= 0 (each at most {MAX_AMOUNT:,}), one per seat, got {shown}"
            )
        object.__setattr__(self, "bets", tuple(b))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "bets": list(self.bets)}


@dataclass(frozen=True)
class Roll(Event):
    """Two dice: first the dealer's, then the wall owner's; ``seat`` (optional) is checked."""

    TYPE: ClassVar[str] = "roll"
    dice: tuple[int, int]
    seat: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", _dice(self.dice, "dice", "roll"))
        if self.seat is not None:
            _seat(self.seat, "seat", "roll")

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.TYPE, "dice": list(self.dice)}
        if self.seat is not None:
            d["seat"] = self.seat
        return d


@dataclass(frozen=True)
class Discard(Event):
    """The player to move discards (``tile`` required in full-tile mode)."""

    TYPE: ClassVar[str] = "discard"
    seat: int
    tile: int | None = None

    def __post_init__(self) -> None:
        _seat(self.seat, "seat", "discard")
        if self.tile is not None:
            object.__setattr__(self, "tile", _tile(self.tile, "tile", "discard"))

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.TYPE, "seat": self.seat}
        if self.tile is not None:
            d["tile"] = tile_text(self.tile)
        return d


@dataclass(frozen=True)
class Claim(Event):
    """A claim on the open discard (or on an added kong's tile: ``win`` only).

    ``tiles`` only with ``chow``: the claimer's two tiles, or the whole sequence with the discard.
    """

    TYPE: ClassVar[str] = "claim"
    seat: int
    call: str
    tiles: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        _seat(self.seat, "seat", "claim")
        if self.call not in CALLS:
            raise InvalidEventError(f"claim: 'call' must be one of {', '.join(CALLS)}, got {self.call!r}")
        if self.tiles is not None:
            if self.call != "chow":
                raise InvalidEventError(f"claim: 'tiles' are given only with a chow, not with {self.call!r}")
            t = self.tiles
            try:
                tiles = parse_tiles(t) if isinstance(t, str) else [_tile(x, "tiles", "claim") for x in t]
            except (TileError, TypeError):
                raise InvalidEventError(
                    f"claim: 'tiles' must be 2 or 3 tiles in mpsz text like '34m', got {t!r}"
                ) from None
            if len(tiles) not in (2, 3):
                raise InvalidEventError(f"claim: a chow's 'tiles' are 2 (from the hand) or 3 (the sequence), got {t!r}")
            object.__setattr__(self, "tiles", tuple(sorted(tiles)))

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.TYPE, "seat": self.seat, "call": self.call}
        if self.tiles is not None:
            d["tiles"] = format_tiles(self.tiles)
        return d


@dataclass(frozen=True)
class Pass(Event):
    TYPE: ClassVar[str] = "pass"
    seat: int

    def __post_init__(self) -> None:
        _seat(self.seat, "seat", "pass")

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat}


@dataclass(frozen=True)
class Resolve(Event):
    TYPE: ClassVar[str] = "resolve"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE}


@dataclass(frozen=True)
class Kong(Event):
    """A kong on one's own turn: ``concealed`` 暗杠 or ``added`` 加杠 (``tile`` required in full-tile mode)."""

    TYPE: ClassVar[str] = "kong"
    seat: int
    kind: str
    tile: int | None = None

    def __post_init__(self) -> None:
        _seat(self.seat, "seat", "kong")
        if self.kind not in KONG_KINDS:
            raise InvalidEventError(
                f"kong: 'kind' must be 'concealed' or 'added', got {self.kind!r}"
                " (a kong on a discard is a claim with call 'kong')"
            )
        if self.tile is not None:
            object.__setattr__(self, "tile", _tile(self.tile, "tile", "kong"))

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.TYPE, "seat": self.seat, "kind": self.kind}
        if self.tile is not None:
            d["tile"] = tile_text(self.tile)
        return d


@dataclass(frozen=True)
class Win(Event):
    """A self-drawn win declared on one's own turn (天胡 before the first discard)."""

    TYPE: ClassVar[str] = "win"
    seat: int

    def __post_init__(self) -> None:
        _seat(self.seat, "seat", "win")

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat}


@dataclass(frozen=True)
class ConfirmWin(Event):
    """Confirms the pending win: with its ``wait``, or with the ``hand`` (+ ``melds``) and
    ``win_tile`` for the analyser to check; in full-tile mode with nothing (the engine knows)."""

    TYPE: ClassVar[str] = "confirm_win"
    wait: str | None = None
    hand: str | None = None
    win_tile: int | None = None
    melds: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.wait is not None and self.wait not in WAITS:
            raise InvalidEventError(f"confirm_win: 'wait' must be one of {', '.join(WAITS)}, got {self.wait!r}")
        if self.wait is not None and (self.hand is not None or self.win_tile is not None or self.melds is not None):
            raise InvalidEventError("confirm_win: give either 'wait' or 'hand' + 'win_tile' (+ 'melds'), not both")
        if (self.hand is None) != (self.win_tile is None):
            raise InvalidEventError("confirm_win: 'hand' and 'win_tile' go together")
        if self.melds is not None and self.hand is None:
            raise InvalidEventError("confirm_win: 'melds' go with 'hand' and 'win_tile'")
        if self.hand is not None:
            if not isinstance(self.hand, str):
                raise InvalidEventError(f"confirm_win: 'hand' must be mpsz text, got {self.hand!r}")
            try:
                parse_tiles(self.hand)
            except TileError as e:
                raise InvalidEventError(f"confirm_win: 'hand': {e}") from None
            object.__setattr__(self, "win_tile", _tile(self.win_tile, "win_tile", "confirm_win"))
        if self.melds is not None:
            m = self.melds
            if isinstance(m, str) or not isinstance(m, list | tuple) or not all(isinstance(x, str) for x in m):
                raise InvalidEventError(
                    f"confirm_win: 'melds' must be a list of mpsz texts like ['123m', '5555z'], got {m!r}"
                )
            for x in m:
                try:
                    parse_meld(x)
                except (HandError, TileError) as e:
                    raise InvalidEventError(f"confirm_win: 'melds': {e}") from None
            object.__setattr__(self, "melds", tuple(m))

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.TYPE}
        if self.wait is not None:
            d["wait"] = self.wait
        if self.hand is not None:
            d["hand"] = self.hand
        if self.win_tile is not None:
            d["win_tile"] = tile_text(self.win_tile)
        if self.melds is not None:
            d["melds"] = list(self.melds)
        return d


@dataclass(frozen=True)
class RejectWin(Event):
    TYPE: ClassVar[str] = "reject_win"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE}


@dataclass(frozen=True)
class NextHand(Event):
    TYPE: ClassVar[str] = "next_hand"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE}


@dataclass(frozen=True)
class EndSession(Event):
    TYPE: ClassVar[str] = "end_session"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE}


NAME_MAX: Final = 12


def check_name(value: object, field: str = "name", etype: str = "name") -> str:
    """A player's name as a phone or the screen gives it: 1–12 characters once trimmed, every
    one printable (no control, format or line characters); any script.

    >>> check_name("  阿强 ")
    '阿强'
    >>> check_name("a\u202eb")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidEventError: name: 'name' must be 1-12 printable characters, got 'a\u202eb'
    """
    if not isinstance(value, str) or not (name := value.strip()) or len(name) > NAME_MAX \
            or not name.isprintable():
        shown = value if isinstance(value, str) and len(value) <= 40 else f"{str(value)[:40]}…"
        raise InvalidEventError(f"{etype}: {field!r} must be 1-{NAME_MAX} printable characters, got {shown!r}",
                                "invalid.name")
    return name


@dataclass(frozen=True)
class Name(Event):
    """A player names their seat (from a phone, or the screen): before the first hand's deal or
    between hands. Journaled and undoable like any event."""

    TYPE: ClassVar[str] = "name"
    seat: int
    name: str

    def __post_init__(self) -> None:
        _seat(self.seat, "seat", "name")
        object.__setattr__(self, "name", check_name(self.name))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "name": self.name}


# --- reading JSON --------------------------------------------------------------------

_Field = tuple[str, bool, Callable[[Any], Any] | None]  # name, required, JSON -> value


def _same(v: Any) -> Any:
    return v


def _text_tile(v: Any) -> Any:
    if not isinstance(v, str):
        raise InvalidEventError(f"a tile in JSON is mpsz text like '5p', got {v!r}")
    return v


def _chow_tiles(v: Any) -> Any:
    if not isinstance(v, str):
        raise InvalidEventError(f"'tiles' in JSON are mpsz text like '34m', got {v!r}")
    return v


from engine.scored import SCORED_FIELDS, ScoreHand  # noqa: E402  (score-only mode: engine/scored.py)

_SCHEMA: Final[dict[str, tuple[type[Event], tuple[_Field, ...]]]] = {
    "new_session": (
        NewSession,
        (("players", True, None), ("base", True, None), ("rules", False, None), ("wall_seed", False, None)),
    ),
    "seating": (
        Seating,
        (
            ("method", True, None),
            ("roller", False, None),
            ("dice", False, None),
            ("rolls", False, None),
            ("east", False, None),
        ),
    ),
    "bets": (Bets, (("bets", True, None),)),
    "roll": (Roll, (("dice", True, None), ("seat", False, None))),
    "discard": (Discard, (("seat", True, None), ("tile", False, _text_tile))),
    "claim": (Claim, (("seat", True, None), ("call", True, None), ("tiles", False, _chow_tiles))),
    "pass": (Pass, (("seat", True, None),)),
    "resolve": (Resolve, ()),
    "kong": (Kong, (("seat", True, None), ("kind", True, None), ("tile", False, _text_tile))),
    "win": (Win, (("seat", True, None),)),
    "confirm_win": (
        ConfirmWin,
        (("wait", False, None), ("hand", False, None), ("win_tile", False, _text_tile), ("melds", False, None)),
    ),
    "reject_win": (RejectWin, ()),
    "next_hand": (NextHand, ()),
    "end_session": (EndSession, ()),
    "name": (Name, (("seat", True, None), ("name", True, None))),
    "score_hand": (ScoreHand, SCORED_FIELDS),
}
EVENT_TYPES: Final = tuple(_SCHEMA)
EVENT_CLASSES: Final[dict[str, type[Event]]] = {k: v[0] for k, v in _SCHEMA.items()}


def parse_event(obj: object) -> Event:
    """The event a JSON object describes; :class:`InvalidEventError` quoting it if malformed.

    An :class:`Event` is returned as it is.

    >>> parse_event({"type": "claim", "seat": 1, "call": "chow", "tiles": "46p"})
    Claim(seat=1, call='chow', tiles=(12, 14))
    >>> parse_event({"type": "pass", "seat": 1, "why": 0})
    Traceback (most recent call last):
    ...
    engine.errors.InvalidEventError: pass: unknown field 'why' (fields: seat) in {'type': 'pass', 'seat': 1, 'why': 0}
    """
    if isinstance(obj, Event):
        return obj
    if not isinstance(obj, Mapping):
        raise InvalidEventError(f"an event must be a JSON object with a 'type', got {obj!r}")
    etype = obj.get("type")
    if not isinstance(etype, str) or etype not in _SCHEMA:
        raise InvalidEventError(f"unknown event type {etype!r} (types: {', '.join(_SCHEMA)}) in {dict(obj)!r}")
    cls, fields = _SCHEMA[etype]
    names = {f[0] for f in fields}
    for key in obj:
        if key != "type" and key not in names:
            allowed = ", ".join(f[0] for f in fields) or "none"
            raise InvalidEventError(f"{etype}: unknown field {key!r} (fields: {allowed}) in {dict(obj)!r}")
    kwargs: dict[str, Any] = {}
    for name, required, conv in fields:
        if name not in obj or obj[name] is None:
            if required:
                raise InvalidEventError(f"{etype}: missing field {name!r} in {dict(obj)!r}")
            continue
        try:
            kwargs[name] = (conv or _same)(obj[name])
        except InvalidEventError as e:
            raise InvalidEventError(f"{etype}: {name!r}: {e} in {dict(obj)!r}") from None
    try:
        return cls(**kwargs)
    except InvalidEventError as e:
        msg = str(e)
        raise InvalidEventError(msg if " in {" in msg else f"{msg} in {_quoted(obj)}") from None
    except (TypeError, ValueError) as e:  # a value so odd the checks above did not name it
        raise InvalidEventError(f"{etype}: {e} in {dict(obj)!r}") from None


__all__ = [
    "EVENT_CLASSES",
    "EVENT_TYPES",
    "Bets",
    "Claim",
    "ConfirmWin",
    "Discard",
    "EndSession",
    "Event",
    "InvalidEventError",
    "Kong",
    "Name",
    "NewSession",
    "NextHand",
    "Pass",
    "RejectWin",
    "Resolve",
    "Roll",
    "Seating",
    "Win",
    "parse_event",
]
