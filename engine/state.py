"""The table's state (``engine.table.TableState``): plain data, cheap to copy, exact JSON.

Kept apart from the transitions in ``engine.table`` so each module stays small. Tiles are
ints inside; :meth:`TableState.to_json` is the complete state (hands included, for the
journal and tests); :func:`engine.public.public_state` makes the public state of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, cast

from engine.fees import FeeSetting
from engine.records import (
    Claims,
    Drawn,
    HandResult,
    KongKind,
    MeldKind,
    PendingWin,
    Phase,
    Settlement,
    Wind,
    settlement_from_json,
)
from engine.rules import XIAN, Rules
from engine.scoring import Transfer
from engine.seats import SEAT_RANGE, SEATS, WINDS
from engine.tiles import NUM_KINDS, Tile, format_tiles, parse_tiles, tile_text
from engine.wall import TILES, BreakPoint, WallState, break_point

SCHEMA: Final = 1


@dataclass(frozen=True)
class Meld:
    """An exposed (or concealed-kong) meld: ``kind`` chow/pong/kong, ``tiles`` sorted or None
    when unknown (tracked mode), ``kong`` concealed/exposed/added, ``frm`` the claimed seat."""

    kind: MeldKind
    tiles: tuple[Tile, ...] | None = None
    kong: KongKind | None = None
    frm: int | None = None

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"kind": self.kind, "tiles": format_tiles(self.tiles) if self.tiles else None}
        if self.kong is not None:
            d["kong"] = self.kong
        if self.frm is not None:
            d["from"] = self.frm
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Meld:
        tiles = tuple(parse_tiles(d["tiles"])) if d.get("tiles") else None
        return cls(d["kind"], tiles, d.get("kong"), d.get("from"))


class SeatState:
    """One seat's hand: concealed tiles (a count vector in full-tile mode, else only ``count``),
    melds, and its discards (river) still on the table (``None`` = not known).

    The count vector is a ``bytearray`` (34 counts, 0..4): a copy is one block copy and
    ``bytes(concealed)`` is the key the hand tables take, where a list would convert each count.
    """

    __slots__ = ("concealed", "count", "discards", "melds")

    def __init__(self, full: bool = False) -> None:
        self.concealed: bytearray | None = bytearray(NUM_KINDS) if full else None
        self.count = 0
        self.melds: list[Meld] = []
        self.discards: list[Tile | None] = []

    def copy(self) -> SeatState:
        s = SeatState.__new__(SeatState)
        s.concealed = None if self.concealed is None else self.concealed[:]
        s.count, s.melds, s.discards = self.count, list(self.melds), list(self.discards)
        return s

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SeatState) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    @property
    def size(self) -> int:
        """Tiles held counting a kong as three (13 between turns, 14 for the player to move)."""
        return self.count + 3 * len(self.melds)

    def meld_tiles(self) -> list[tuple[Tile, ...]]:
        return [m.tiles for m in self.melds if m.tiles is not None]

    def to_json(self) -> dict[str, object]:
        return {
            "concealed": None if self.concealed is None else list(self.concealed),
            "count": self.count,
            "melds": [m.to_json() for m in self.melds],
            "discards": [None if t is None else tile_text(t) for t in self.discards],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SeatState:
        s = cls()
        s.concealed = None if d["concealed"] is None else bytearray(int(n) for n in d["concealed"])
        s.count = int(d["count"])
        s.melds = [Meld.from_json(m) for m in d["melds"]]
        s.discards = [None if t is None else parse_tiles(t)[0] for t in d["discards"]]
        return s


@dataclass
class TableState:
    """Everything the table knows. Build with ``engine.table.new_table()``; change only
    through ``engine.table.apply``. Phase ``idle`` is the table before any ``new_session``.

    ``breakpoint``: where this hand's wall is broken, set when the wall's owner rolls.
    ``wall_tiles``: full-tile mode, this hand's wall in physical order (``wall.tiles`` has
    them by draw slot). ``drawn`` says how the player to move got to 14 tiles
    (``engine.records.Drawn``). ``claims`` (phase ``claims``) and ``pending`` (phase
    ``win_pending``): ``engine.records.Claims`` and ``PendingWin``; ``last_settlement``: the
    last hand's ``engine.records.Settlement``. ``passes``: how often the deal has moved on;
    ``round == passes // 4 + 1``.
    ``results``: this session's settled hands, in order (``engine.records.HandResult``).
    ``fee``: the session's fee setting (``engine.fees``); ``settled_round``: the 圈 of its last
    settled hand (0: none), what a fee per round counts; ``seconds``: its length, from its
    ``end_session`` (None: not ended, or not known).
    """

    phase: Phase = "idle"
    players: list[str] = field(default_factory=lambda: [""] * SEATS)
    player_ids: list[int | None] = field(default_factory=lambda: [None] * SEATS)  # the roster's, by seat
    base: int = 1
    rules: Rules = XIAN
    wall_seed: int | None = None
    east: int | None = None
    dealer: int | None = None
    hand: int = 0
    passes: int = 0
    dealer_streak: int = 0
    bets: list[int] = field(default_factory=lambda: [0] * SEATS)
    dice_dealer: tuple[int, int] | None = None
    dice_owner: tuple[int, int] | None = None
    breakpoint: BreakPoint | None = None
    wall: WallState = field(default_factory=WallState)
    wall_tiles: list[Tile] | None = None
    kongs: int = 0
    seats: list[SeatState] = field(default_factory=lambda: [SeatState() for _ in range(SEATS)])
    turn: int | None = None
    drawn: Drawn | None = None
    last_drawn: Tile | None = None
    discards_made: int = 0
    claims: Claims | None = None
    pending: PendingWin | None = None
    hand_transfers: list[Transfer] = field(default_factory=list)
    scores: list[int] = field(default_factory=lambda: [0] * SEATS)
    last_settlement: Settlement | None = None
    results: list[HandResult] = field(default_factory=list)  # this session's hands, in order
    fee: FeeSetting | None = None
    settled_round: int = 0
    seconds: int | None = None

    # --- derived ---------------------------------------------------------------------

    @property
    def full(self) -> bool:
        """Full-tile mode (every tile known) rather than tracked mode."""
        return self.wall_seed is not None

    @property
    def round(self) -> int:
        return self.passes // 4 + 1

    @property
    def reserve_stacks(self) -> int:
        return self.rules.reserve_stacks(self.kongs)

    @property
    def drawable(self) -> int:
        """Tiles the head may still give (docs/rules.md §10: only while remaining > 2 × R(k))."""
        w = self.wall
        left = TILES - w.head_taken - w.tail_taken - 2 * self.rules.reserve_stacks(self.kongs)
        return left if left > 0 else 0

    def winds(self) -> list[Wind | None]:
        if self.east is None:
            return [None] * SEATS
        return [WINDS[(s - self.east) % SEATS] for s in SEAT_RANGE]

    # --- copies and JSON -------------------------------------------------------------

    def copy(self) -> TableState:
        """An independent copy (lists copied; values like Rules and Meld are immutable)."""
        c = TableState.__new__(TableState)
        c.__dict__.update(self.__dict__)
        c.players, c.bets, c.scores = list(self.players), list(self.bets), list(self.scores)
        c.player_ids = list(self.player_ids)
        c.wall = self.wall.copy()
        c.seats = [s.copy() for s in self.seats]
        c.hand_transfers = list(self.hand_transfers)
        c.results = list(self.results)  # (each result is never changed once made)
        if self.claims is not None:
            c.claims = {**self.claims, "answers": list(self.claims["answers"]), "tiles": list(self.claims["tiles"])}
        if self.pending is not None:
            c.pending = {**self.pending}
        # wall_tiles and breakpoint are never changed in place, last_settlement is replaced, never edited
        return c

    def to_json(self) -> dict[str, object]:
        """The complete state as JSON; :meth:`from_json` gives it back exactly."""
        return {
            "schema": SCHEMA,
            "phase": self.phase,
            "players": list(self.players),
            "player_ids": list(self.player_ids),
            "base": self.base,
            "rules": self.rules.to_json(),
            "wall_seed": self.wall_seed,
            "east": self.east,
            "dealer": self.dealer,
            "hand": self.hand,
            "passes": self.passes,
            "dealer_streak": self.dealer_streak,
            "bets": list(self.bets),
            "dice_dealer": None if self.dice_dealer is None else list(self.dice_dealer),
            "dice_owner": None if self.dice_owner is None else list(self.dice_owner),
            "wall": self.wall.to_json(),
            "wall_tiles": None if self.wall_tiles is None else list(self.wall_tiles),
            "kongs": self.kongs,
            "seats": [s.to_json() for s in self.seats],
            "turn": self.turn,
            "drawn": self.drawn,
            "last_drawn": self.last_drawn,
            "discards_made": self.discards_made,
            "claims": None
            if self.claims is None
            else {
                **self.claims,
                "answers": list(self.claims["answers"]),
                "tiles": [None if t is None else list(t) for t in self.claims["tiles"]],
            },
            "pending": None if self.pending is None else {**self.pending},
            "hand_transfers": [t.to_json() for t in self.hand_transfers],
            "scores": list(self.scores),
            "last_settlement": self.last_settlement,
            "results": list(self.results),
            "fee": None if self.fee is None else self.fee.to_json(),
            "settled_round": self.settled_round,
            "seconds": self.seconds,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TableState:
        if d.get("schema") != SCHEMA:
            raise ValueError(f"not a schema {SCHEMA} table state: schema {d.get('schema')!r}")
        claims = d["claims"]
        if claims is not None:
            claims = {
                **claims,
                "answers": list(claims["answers"]),
                "tiles": [None if t is None else tuple(t) for t in claims["tiles"]],
                "held": claims.get("held"),  # (snapshots before issue 28: none)
            }
        rules = Rules.from_overrides(d["rules"])
        bp = None
        if d["dealer"] is not None and d["dice_dealer"] is not None and d["dice_owner"] is not None:
            bp = break_point(d["dealer"], d["dice_dealer"], d["dice_owner"], rules.wall_direction)
        wall_tiles = None if d["wall_tiles"] is None else list(d["wall_tiles"])
        laid_out = None if wall_tiles is None or bp is None else bp.in_draw_order(wall_tiles)
        last = d["last_settlement"]
        return cls(
            phase=d["phase"],
            players=list(d["players"]),
            player_ids=list(d.get("player_ids") or [None] * SEATS),  # (snapshots from before the roster)
            base=d["base"],
            rules=rules,
            wall_seed=d["wall_seed"],
            east=d["east"],
            dealer=d["dealer"],
            hand=d["hand"],
            passes=d["passes"],
            dealer_streak=d["dealer_streak"],
            bets=list(d["bets"]),
            dice_dealer=None if d["dice_dealer"] is None else (d["dice_dealer"][0], d["dice_dealer"][1]),
            dice_owner=None if d["dice_owner"] is None else (d["dice_owner"][0], d["dice_owner"][1]),
            breakpoint=bp,
            wall=WallState.from_json(d["wall"], laid_out),
            wall_tiles=wall_tiles,
            kongs=d["kongs"],
            seats=[SeatState.from_json(s) for s in d["seats"]],
            turn=d["turn"],
            drawn=d["drawn"],
            last_drawn=d["last_drawn"],
            discards_made=d["discards_made"],
            claims=claims,
            pending=None if d["pending"] is None else cast(PendingWin, {**d["pending"]}),
            hand_transfers=[Transfer.from_json(t) for t in d["hand_transfers"]],
            scores=list(d["scores"]),
            last_settlement=None if last is None else settlement_from_json(last),
            results=[cast(HandResult, {**r}) for r in d.get("results", [])],  # (older snapshots: none)
            # (snapshots before issue 31: no fee; the round of the last hand, if any, is the round now)
            fee=None if d.get("fee") is None else FeeSetting.from_json(d["fee"]),
            settled_round=d.get("settled_round", d["passes"] // 4 + 1 if d.get("results") else 0),
            seconds=d.get("seconds"),
        )
