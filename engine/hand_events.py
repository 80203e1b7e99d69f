"""The events of a hand's play (``engine.events`` reads their JSON): the bets, the rolls, the
discards, claims, kongs and wins, the win's confirmation or its taking back, the next hand.

Frozen dataclasses, each checked when built (docs/design.md "Events").

>>> Claim(1, "chow", (12, 14)).to_json()
{'type': 'claim', 'seat': 1, 'call': 'chow', 'tiles': '46p'}
>>> Kong(0, "exposed")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.InvalidEventError: kong: 'kind' must be 'concealed' or 'added', got 'exposed' ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final, Literal, get_args

from engine.errors import InvalidEventError
from engine.event_base import Event
from engine.fields import check_bets, check_dice, check_seat, check_tile
from engine.hand import HandError, parse_meld
from engine.records import CALLS, WAIT_KINDS, Call, WaitKind
from engine.tiles import TileError, format_tiles, parse_tiles, tile_text

OwnKong = Literal["concealed", "added"]
KONG_KINDS: Final[tuple[OwnKong, ...]] = get_args(OwnKong)


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


__all__ = ["KONG_KINDS", "Bets", "Claim", "ConfirmWin", "Discard", "Kong", "NextHand", "OwnKong", "Pass",
           "RejectWin", "Resolve", "Roll", "Win"]
