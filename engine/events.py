"""The table's events (docs/design.md "Events"): one frozen dataclass per type, checked when built.

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
from dataclasses import dataclass
from typing import ClassVar, Final, Literal, get_args

from engine.errors import InvalidEventError
from engine.event_base import Event
from engine.fees import FeeSetting
from engine.fields import (
    MAX_AMOUNT,
    amount_text,
    check_bets,
    check_dice,
    check_name,
    check_player_id,
    check_player_ids,
    check_seat,
    check_text,
    check_tile,
    quoted_event,
)
from engine.hand import HandError, parse_meld
from engine.records import CALLS, WAIT_KINDS, Call, WaitKind, Wind
from engine.rules import Rules, RulesError
from engine.scored import SCORED_FIELDS, ScoreHand  # (score-only mode)
from engine.session_events import EndSession, Fee  # (the session's fee and end: issue 31)
from engine.tiles import TileError, format_tiles, parse_tiles, tile_text

OwnKong = Literal["concealed", "added"]
KONG_KINDS: Final[tuple[OwnKong, ...]] = get_args(OwnKong)
SeatingMethod = Literal["A", "B", "C"]
SEATING_METHODS: Final[tuple[SeatingMethod, ...]] = get_args(SeatingMethod)
WIND_LETTERS: Final[tuple[Wind, ...]] = get_args(Wind)
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
        """Four names a screen can show (:func:`engine.fields.check_text`, the names' one rule)."""
        for name in self.players:
            check_text(name, "players", self.TYPE)

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
class Bets(Event):
    """下注: every seat's bet n_s >= 0 for the coming hand."""

    TYPE: ClassVar[str] = "bets"
    bets: tuple[int, int, int, int]

    def __post_init__(self) -> None:
        object.__setattr__(self, "bets", check_bets(self.bets, "bets"))

    def to_json(self) -> dict[str, object]:
        return {"type": self.TYPE, "bets": list(self.bets)}


@dataclass(frozen=True)
class Roll(Event):
    """Two dice: first the dealer's, then the wall owner's; ``seat`` (optional) is checked."""

    TYPE: ClassVar[str] = "roll"
    dice: tuple[int, int]
    seat: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", check_dice(self.dice, "dice", "roll"))
        if self.seat is not None:
            check_seat(self.seat, "seat", "roll")

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"type": self.TYPE, "dice": list(self.dice)}
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
        check_seat(self.seat, "seat", "discard")
        if self.tile is not None:
            object.__setattr__(self, "tile", check_tile(self.tile, "tile", "discard"))

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"type": self.TYPE, "seat": self.seat}
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
    call: Call
    tiles: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        check_seat(self.seat, "seat", "claim")
        if self.call not in CALLS:
            raise InvalidEventError(f"claim: 'call' must be one of {', '.join(CALLS)}, got {self.call!r}")
        if self.tiles is not None:
            if self.call != "chow":
                raise InvalidEventError(f"claim: 'tiles' are given only with a chow, not with {self.call!r}")
            t = self.tiles
            try:
                tiles = parse_tiles(t) if isinstance(t, str) else [check_tile(x, "tiles", "claim") for x in t]
            except (TileError, TypeError):
                raise InvalidEventError(
                    f"claim: 'tiles' must be 2 or 3 tiles in mpsz text like '34m', got {t!r}"
                ) from None
            if len(tiles) not in (2, 3):
                raise InvalidEventError(f"claim: a chow's 'tiles' are 2 (from the hand) or 3 (the sequence), got {t!r}")
            object.__setattr__(self, "tiles", tuple(sorted(tiles)))

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"type": self.TYPE, "seat": self.seat, "call": self.call}
        if self.tiles is not None:
            d["tiles"] = format_tiles(self.tiles)
        return d


@dataclass(frozen=True)
class Pass(Event):
    """A seat claims nothing. ``drew`` (issue 28): the discarder's 下家 has drawn (and, where the
    tiles are not known, discarded) while the others may still claim — its answer, held until
    the claims close; with no claim it is the claims' outcome (docs/rules.md §17, the quick 下家)."""

    TYPE: ClassVar[str] = "pass"
    seat: int
    drew: bool = False

    def __post_init__(self) -> None:
        check_seat(self.seat, "seat", "pass")
        if type(self.drew) is not bool:
            raise InvalidEventError(f"pass: 'drew' must be true or false, got {self.drew!r}")

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"type": self.TYPE, "seat": self.seat}
        if self.drew:
            d["drew"] = True
        return d


@dataclass(frozen=True)
class Resolve(Event):
    TYPE: ClassVar[str] = "resolve"

    def to_json(self) -> dict[str, object]:
        return {"type": self.TYPE}


@dataclass(frozen=True)
class Kong(Event):
    """A kong on one's own turn: ``concealed`` 暗杠 or ``added`` 加杠 (``tile`` required in full-tile mode)."""

    TYPE: ClassVar[str] = "kong"
    seat: int
    kind: OwnKong
    tile: int | None = None

    def __post_init__(self) -> None:
        check_seat(self.seat, "seat", "kong")
        if self.kind not in KONG_KINDS:
            raise InvalidEventError(
                f"kong: 'kind' must be 'concealed' or 'added', got {self.kind!r}"
                " (a kong on a discard is a claim with call 'kong')"
            )
        if self.tile is not None:
            object.__setattr__(self, "tile", check_tile(self.tile, "tile", "kong"))

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"type": self.TYPE, "seat": self.seat, "kind": self.kind}
        if self.tile is not None:
            d["tile"] = tile_text(self.tile)
        return d


@dataclass(frozen=True)
class Win(Event):
    """A self-drawn win declared on one's own turn (天胡 before the first discard)."""

    TYPE: ClassVar[str] = "win"
    seat: int

    def __post_init__(self) -> None:
        check_seat(self.seat, "seat", "win")

    def to_json(self) -> dict[str, object]:
        return {"type": self.TYPE, "seat": self.seat}


@dataclass(frozen=True)
class ConfirmWin(Event):
    """Confirms the pending win: with its ``wait``, or with the ``hand`` (+ ``melds``) and
    ``win_tile`` for the analyser to check; in full-tile mode with nothing (the engine knows)."""

    TYPE: ClassVar[str] = "confirm_win"
    wait: WaitKind | None = None
    hand: str | None = None
    win_tile: int | None = None
    melds: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.wait is not None and self.wait not in WAIT_KINDS:
            raise InvalidEventError(f"confirm_win: 'wait' must be one of {', '.join(WAIT_KINDS)}, got {self.wait!r}")
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
            object.__setattr__(self, "win_tile", check_tile(self.win_tile, "win_tile", "confirm_win"))
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

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"type": self.TYPE}
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

    def to_json(self) -> dict[str, object]:
        return {"type": self.TYPE}


@dataclass(frozen=True)
class NextHand(Event):
    TYPE: ClassVar[str] = "next_hand"

    def to_json(self) -> dict[str, object]:
        return {"type": self.TYPE}


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


__all__ = ["EVENT_CLASSES", "EVENT_TYPES", "Bets", "Claim", "ConfirmWin", "Discard", "EndSession", "Event", "Fee",
           "InvalidEventError", "Kong", "Name", "NewSession", "NextHand", "Pass", "RejectWin", "Resolve", "Roll",
           "Seating", "Win", "parse_event"]
