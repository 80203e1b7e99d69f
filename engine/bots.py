"""Bots for full-tile self-play: they see what a player sees and answer with table events.

A bot gets a :class:`View` — its own concealed tiles, every seat's melds and discards on
the table, the wall counters, the open claim — built by :func:`view_of` from the table state
and nothing else, and returns an :mod:`engine.events` event (or ``None`` for a pass). The
events go through ``engine.apply`` like anyone's; a bot has no other way in.

Two strengths, both deterministic given a seeded ``random.Random``:

- ``random``: a uniformly random legal choice (any discard, kong or claim, or a pass) — but
  it always takes a win, or settlement would hardly ever be exercised;
- ``greedy``: always takes a win; declares a concealed or added kong and claims a pong,
  chow or exposed kong when that does not raise its shanten (``engine.shanten``); discards
  to the lowest shanten, ties broken by the most unseen tiles that would lower it (受入),
  then by the RNG.

>>> import random
>>> from engine.tiles import parse_tiles, to_counts
>>> v = View(seat=0, phase="turn", hand=to_counts(parse_tiles("123m456p789s1122z5z")), melds=(),
...          drawn=True, last_drawn=31)
>>> GreedyBot(random.Random(1)).act(v).to_json()
{'type': 'discard', 'seat': 0, 'tile': '5z'}
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import add, eq
from typing import Final, Protocol

from engine._tables import COMPLETE, PAIR_MARK
from engine.events import Claim, Discard, Event, Kong, Win
from engine.rules import XIAN, Rules
from engine.shanten import (
    Adds,
    Vector,
    caps_of,
    combine,
    finish,
    seven_pairs_overlap,
    suit_adds,
    suit_codes,
    suit_drops,
    suit_vector,
)
from engine.state import TableState
from engine.tiles import NUM_KINDS, Tile

SEATS: Final = 4
STRENGTHS: Final = ("random", "greedy")
_MISSING: Final = -10_000
_SUIT: Final = tuple(t // 9 for t in range(NUM_KINDS))


Table = tuple[tuple[tuple[tuple[Tile, ...], ...], ...], tuple[tuple[Tile | None, ...], ...]]
"""What lies open on the table: every seat's melds (tiles) and every seat's discards."""

_EMPTY_TABLE: Final[Table] = (((), (), (), ()), ((), (), (), ()))


class View:
    """What seat ``seat`` can see. ``hand`` is its own concealed count vector; ``melds`` its own
    melds (tiles, a kong as four; concealed kongs included); ``pongs`` the tiles of its pongs;
    ``drawn``: it is its turn and it began with a draw (so it may win by itself or kong).
    ``table_melds`` and ``discards`` are every seat's, as on the table. ``claim_*`` describe
    the open claim (phase ``claims``): kind ``discard``/``rob``, the seat it is from, the tile.
    """

    __slots__ = (
        "_table",
        "_table_of",
        "claim_from",
        "claim_kind",
        "claim_tile",
        "drawable",
        "drawn",
        "hand",
        "last_drawn",
        "melds",
        "phase",
        "pongs",
        "rules",
        "seat",
        "wall_remaining",
    )

    def __init__(
        self,
        seat: int,
        phase: str,
        hand: list[int],
        melds: tuple[tuple[Tile, ...], ...],
        pongs: tuple[Tile, ...] = (),
        drawn: bool = False,
        last_drawn: Tile | None = None,
        claim_kind: str | None = None,
        claim_from: int | None = None,
        claim_tile: Tile | None = None,
        table: Table | Callable[[], Table] = _EMPTY_TABLE,
        wall_remaining: int = 136,
        drawable: int = 0,
        rules: Rules = XIAN,
    ) -> None:
        self.seat, self.phase, self.hand, self.melds, self.pongs = seat, phase, hand, melds, pongs
        self.drawn, self.last_drawn = drawn, last_drawn
        self.claim_kind, self.claim_from, self.claim_tile = claim_kind, claim_from, claim_tile
        self._table: Table | None = None if callable(table) else table
        self._table_of: Callable[[], Table] | None = table if callable(table) else None
        self.wall_remaining, self.drawable, self.rules = wall_remaining, drawable, rules

    def _open(self) -> Table:
        if self._table is None:
            assert self._table_of is not None
            self._table = self._table_of()
        return self._table

    @property
    def table_melds(self) -> tuple[tuple[tuple[Tile, ...], ...], ...]:
        """Every seat's melds (tiles), as they lie on the table."""
        return self._open()[0]

    @property
    def discards(self) -> tuple[tuple[Tile | None, ...], ...]:
        """Every seat's discards still on the table (claimed ones have moved into melds)."""
        return self._open()[1]

    def seen(self) -> list[int]:
        """How many of each tile this seat can see: its hand, every meld, every discard."""
        seen = list(self.hand)
        for melds in self.table_melds:
            for m in melds:
                for t in m:
                    seen[t] += 1
        for river in self.discards:
            for d in river:
                if d is not None:
                    seen[d] += 1
        return seen


def table_of(state: TableState) -> Table:
    """Every seat's melds and discards: what any player sees on the table."""
    return (
        tuple(tuple(m.tiles for m in s.melds if m.tiles is not None) for s in state.seats),
        tuple(tuple(s.discards) for s in state.seats),
    )


def view_of(state: TableState, seat: int, table: Callable[[], Table] | None = None) -> View:
    """The view of ``seat``: its own hand and what lies open on the table (full-tile mode).

    The open table is read only if the bot looks at it; ``table`` (a memoised
    ``lambda: table_of(state)``) may be shared when several seats look at one state."""
    me = state.seats[seat]
    if me.concealed is None:
        raise ValueError("bots play in full-tile mode only (new_session with a wall_seed)")
    claims = state.claims if state.phase == "claims" else None
    mine = state.turn == seat
    return View(
        seat,
        state.phase,
        list(me.concealed),
        tuple(m.tiles for m in me.melds if m.tiles is not None),
        tuple(m.tiles[0] for m in me.melds if m.kind == "pong" and m.tiles is not None),
        mine and state.drawn is not None,
        state.last_drawn if mine else None,
        None if claims is None else claims["kind"],
        None if claims is None else claims["from"],
        None if claims is None else claims["tile"],
        table if table is not None else (lambda: table_of(state)),
        state.wall.remaining,
        state.drawable,
        state.rules,
    )


class Bot(Protocol):
    """A player: ``act`` on its own turn (a discard, kong or win), ``claim`` when claims are
    open on another seat's tile (a claim, or ``None`` to pass)."""

    name: str

    def act(self, view: View) -> Event: ...

    def claim(self, view: View) -> Event | None: ...


def make_bot(strength: str, rng: random.Random) -> Bot:
    """A bot of ``strength`` (``random`` or ``greedy``) drawing on ``rng``."""
    if strength == "random":
        return RandomBot(rng)
    if strength == "greedy":
        return GreedyBot(rng)
    raise ValueError(f"unknown bot strength {strength!r} (strengths: {', '.join(STRENGTHS)})")


# --- what is legal ---------------------------------------------------------------------------


def wins(hand: Sequence[int], melds: int, seven_pairs: bool = False) -> bool:
    """Whether concealed counts ``hand`` with ``melds`` exposed melds make a winning hand."""
    b = bytes(hand)
    get = COMPLETE.get
    total = get(b[0:9], _MISSING) + get(b[9:18], _MISSING) + get(b[18:27], _MISSING) + get(b[27:34], _MISSING)
    if total == 14 + PAIR_MARK - 3 * melds:
        return True
    return seven_pairs and melds == 0 and sum(hand) == 14 and all(n in (0, 2, 4) for n in hand)


def may_claim(hand: Sequence[int], melds: int, tile: Tile, kind: str, next_seat: bool, seven_pairs: bool) -> bool:
    """Whether a seat holding ``hand`` has any legal claim on ``tile``: a win, or (on a
    discard) a pong or kong, or a chow for the discarder's 下家. A table asks a player only
    then; a bot is never asked to pass on a tile it could do nothing with."""
    b = bytearray(hand)
    b[tile] += 1
    if wins(b, melds, seven_pairs):
        return True
    if kind != "discard":
        return False
    return hand[tile] >= 2 or (next_seat and bool(chow_options(hand, tile)))


def _wins_with(view: View, tile: Tile) -> bool:
    hand = view.hand
    hand[tile] += 1
    try:
        return wins(hand, len(view.melds), view.rules.seven_pairs)
    finally:
        hand[tile] -= 1


def chow_options(hand: Sequence[int], tile: Tile) -> list[tuple[Tile, Tile]]:
    """The pairs of held tiles that make a sequence with ``tile``."""
    if tile >= 27:
        return []
    r = tile % 9
    out = []
    for a, b in ((-2, -1), (-1, 1), (1, 2)):
        if r + a >= 0 and r + b <= 8 and hand[tile + a] and hand[tile + b]:
            out.append((tile + a, tile + b))
    return out


def _own_turn_options(view: View) -> tuple[list[Tile], list[Tile], list[Tile]]:
    """(distinct discards, concealed kong tiles, added kong tiles) legal now."""
    hand = view.hand
    discards = [t for t in range(NUM_KINDS) if hand[t]]
    if not view.drawn or view.wall_remaining == 0:
        return discards, [], []
    concealed = [t for t in discards if hand[t] == 4]
    added = [t for t in view.pongs if hand[t]] if view.rules.added_kong else []
    return discards, concealed, added


# --- the bots ------------------------------------------------------------------------------


@dataclass
class RandomBot:
    """A uniformly random legal choice; it always takes a win."""

    rng: random.Random
    name: str = "random"

    def act(self, view: View) -> Event:
        if view.drawn and wins(view.hand, len(view.melds), view.rules.seven_pairs):
            return Win(view.seat)
        discards, concealed, added = _own_turn_options(view)
        i = self.rng.randrange(len(discards) + len(concealed) + len(added))
        if i < len(discards):
            return Discard(view.seat, discards[i])
        i -= len(discards)
        if i < len(concealed):
            return Kong(view.seat, "concealed", concealed[i])
        return Kong(view.seat, "added", added[i - len(concealed)])

    def claim(self, view: View) -> Event | None:
        tile, seat = view.claim_tile, view.seat
        assert tile is not None and view.claim_from is not None
        if _wins_with(view, tile):
            return Claim(seat, "win")
        if view.claim_kind != "discard":
            return None
        options: list[tuple[str, tuple[Tile, Tile] | None]] = []
        n = view.hand[tile]
        if n >= 2:
            options.append(("pong", None))
        if n >= 3 and view.wall_remaining > 0:
            options.append(("kong", None))
        if seat == (view.claim_from + 1) % SEATS:
            options += [("chow", pair) for pair in chow_options(view.hand, tile)]
        if not options:
            return None
        i = self.rng.randrange(len(options) + 1)  # the last choice: pass
        if i == len(options):
            return None
        call, pair = options[i]
        return Claim(seat, call, pair)


class _Eval:
    """Shanten of one hand and of the hands one discard away, sharing the suit lookups."""

    __slots__ = ("caps", "codes", "k", "melds_needed", "others", "seven", "vecs")

    def __init__(self, hand: Sequence[int], melds: Sequence[Sequence[Tile]], seven_pairs: bool) -> None:
        self.k = len(melds)
        self.melds_needed = 4 - self.k
        self.caps = caps_of(melds)
        self.codes = suit_codes(hand, self.caps)
        codes = self.codes
        self.vecs = (suit_vector(codes[0]), suit_vector(codes[1]), suit_vector(codes[2]), suit_vector(codes[3], False))
        self.seven = seven_pairs and self.k == 0
        self.others: tuple[Vector, Vector, Vector, Vector] | None = None

    def _others(self) -> tuple[Vector, Vector, Vector, Vector]:
        """Per suit, the other three suits combined (combining is associative and commutative)."""
        o = self.others
        if o is None:
            v0, v1, v2, v3 = self.vecs
            low, high = combine(v0, v1), combine(v2, v3)
            o = self.others = (combine(v1, high), combine(v0, high), combine(low, v3), combine(low, v2))
        return o

    def shanten(self, hand: Sequence[int]) -> int:
        v = self.vecs
        best = finish(combine(v[0], v[1]), combine(v[2], v[3]), self.melds_needed)
        if self.seven:
            best = max(best, seven_pairs_overlap(hand))
        return 13 - 3 * self.k - best

    def after_discard(self, hand: list[int], tiles: Sequence[Tile]) -> dict[Tile, int]:
        """The shanten after discarding each of ``tiles`` (held)."""
        out: dict[Tile, int] = {}
        m = 2 * self.melds_needed + 1
        rev = [o[m::-1] for o in self._others()]  # finish(a, b) is max(map(add, a, b[m::-1]))
        codes = self.codes
        drops = (suit_drops(codes[0]), suit_drops(codes[1]), suit_drops(codes[2]), suit_drops(codes[3], False))
        base = 13 - 3 * self.k
        seven = self.seven
        for t in tiles:
            s = _SUIT[t]
            best = max(map(add, drops[s][t - 9 * s], rev[s]))  # type: ignore[arg-type]
            if seven:
                hand[t] -= 1
                best = max(best, seven_pairs_overlap(hand))
                hand[t] += 1
            out[t] = base - best
        return out

    def useful(self, hand: list[int], ties: Sequence[Tile], unseen: Sequence[int], now: int) -> list[int]:
        """受入 after each of the discards ``ties``: the unseen copies of the tiles that would
        lower shanten ``now``.

        A tie-break, so the added tile's own suit is read without the exposed melds' copy
        limits (the other suits keep them): with them, every meld shape would multiply the
        suit patterns the tables must learn, for a rare difference. A tile lowers it when its
        suit's vector with the tile added (``suit_adds``) shares more than ``target`` tiles
        with the other suits' (see ``_gain``); discards that leave their suit with the same
        vector share the work on the other suits.
        """
        if self.seven:
            return self._useful_seven(hand, ties, unseen, now)
        target = 13 - 3 * self.k - now  # the overlap to beat
        m = 2 * self.melds_needed + 1
        v = self.vecs
        codes = self.codes
        free = suit_codes(hand) if self.caps is not None else codes
        others = self._others()
        counted = [u if u > 0 else 0 for u in unseen]
        weighed: list[_Weighed | None] = [None, None, None, None]
        elsewhere: dict[tuple[int, Vector], int] = {}
        out = []
        for x in ties:
            s0 = _SUIT[x]
            r0 = x - 9 * s0
            seq0 = s0 < 3
            vx = suit_drops(codes[s0], seq0)[r0]
            assert vx is not None
            key = (s0, vx)
            total = elsewhere.get(key)
            if total is None:
                total = 0
                for s in range(4):
                    if s == s0:
                        continue
                    w = weighed[s]
                    if w is None:
                        w = weighed[s] = _weigh(suit_adds(free[s], s < 3), counted[9 * s : 9 * s + 9])
                    if w[3]:
                        a, b = (v[i] for i in range(4) if i != s and i != s0)
                        total += _gain(w, combine(combine(a, b), vx)[m::-1], target)
                elsewhere[key] = total
            mine = bytearray(free[s0])
            mine[r0] -= 1
            w = _weigh(suit_adds(bytes(mine), seq0), counted[9 * s0 : 9 * s0 + 9])
            if w[3]:
                total += _gain(w, others[s0][m::-1], target)
            out.append(total)
        return out

    def _useful_seven(self, hand: list[int], ties: Sequence[Tile], unseen: Sequence[int], now: int) -> list[int]:
        """``useful`` when seven pairs count: the tiles that improve either way, as a set."""
        target = 13 - 3 * self.k - now
        m = 2 * self.melds_needed + 1
        v = self.vecs
        codes = self.codes
        free = suit_codes(hand) if self.caps is not None else codes
        others = self._others()
        out = []
        for x in ties:
            s0 = _SUIT[x]
            r0 = x - 9 * s0
            vx = suit_drops(codes[s0], s0 < 3)[r0]
            assert vx is not None
            more: set[Tile] = set()
            for s in range(4):
                if s == s0:
                    rev = others[s0][m::-1]
                    mine = bytearray(free[s0])
                    mine[r0] -= 1
                    adds = suit_adds(bytes(mine), s0 < 3)
                else:
                    a, b = (v[i] for i in range(4) if i != s and i != s0)
                    rev = combine(combine(a, b), vx)[m::-1]
                    adds = suit_adds(free[s], s < 3)
                for vec, ranks, _ in adds[1]:
                    if max(map(add, vec, rev)) > target:
                        more.update(9 * s + r for r in ranks)
            hand[x] -= 1
            for t in range(NUM_KINDS):
                if hand[t] and hand[t] < 4:
                    hand[t] += 1
                    if seven_pairs_overlap(hand) > target:
                        more.add(t)
                    hand[t] -= 1
            hand[x] += 1
            out.append(sum(unseen[t] for t in more if unseen[t] > 0))
        return out


_Weighed = tuple[Vector, list[tuple[int, int]], list[tuple[Vector, int]], int]
"""A suit's ``suit_adds`` weighed by unseen copies: its vector, (mask, copies) of the groups
that raise entries by one, (vector, copies) of any others, and all those copies."""
_BITS: Final = tuple(1 << i for i in range(10))


def _weigh(adds: Adds, unseen: list[int]) -> _Weighed:
    """``adds`` of one suit with each group's unseen copies (``unseen`` per rank, none below 0);
    groups with none left out."""
    base, groups = adds
    regular: dict[int, int] = {}
    irregular: list[tuple[Vector, int]] = []
    everything = 0
    get = unseen.__getitem__
    for vec, ranks, mask in groups:
        w = sum(map(get, ranks))
        if w:
            everything += w
            if mask >= 0:
                regular[mask] = regular.get(mask, 0) + w
            else:
                irregular.append((vec, w))
    return base, list(regular.items()), irregular, everything


def _gain(weighed: _Weighed, rev: Vector, target: int) -> int:
    """The unseen copies of the suit's tiles that, added, make it share more than ``target``
    tiles with the rest (``rev``: the rest's vector reversed up to the hand's entry, so that
    ``max(map(add, vec, rev))`` is ``finish``).

    A group that raises some entries by one and leaves the others (``mask``) beats it exactly
    when the suit already does somewhere, or meets it at an entry the group raises.
    """
    base, regular, irregular, everything = weighed
    top = max(map(add, base, rev))
    if top > target:
        gain = everything - sum(w for _, w in irregular)
    elif top < target:
        gain = 0
    else:
        tight = sum(compress(_BITS, map(eq, map(add, base, rev), repeat(target))))
        gain = sum(w for mask, w in regular if mask & tight)
    for vec, w in irregular:
        if max(map(add, vec, rev)) > target:
            gain += w
    return gain


def _shanten_of(hand: Sequence[int], melds: Sequence[Sequence[Tile]], seven_pairs: bool) -> int:
    return _Eval(hand, melds, seven_pairs).shanten(hand)


@dataclass
class GreedyBot:
    """Lowest shanten first; see the module docstring."""

    rng: random.Random
    name: str = "greedy"

    def act(self, view: View) -> Event:
        hand, seat, seven = view.hand, view.seat, view.rules.seven_pairs
        melds = list(view.melds)
        if view.drawn and wins(hand, len(melds), seven):
            return Win(seat)
        discards, concealed, added = _own_turn_options(view)
        ev = _Eval(hand, melds, seven)
        after = ev.after_discard(hand, discards)
        best = min(after.values())
        for t in concealed:  # a concealed kong: four out of the hand, one more meld
            hand[t] -= 4
            try:
                if _shanten_of(hand, [*melds, (t, t, t, t)], seven) <= best:
                    return Kong(seat, "concealed", t)
            finally:
                hand[t] += 4
        for t in added:
            hand[t] -= 1
            try:
                grown = [m if m != (t, t, t) else (t, t, t, t) for m in melds]
                if _shanten_of(hand, grown, seven) <= best:
                    return Kong(seat, "added", t)
            finally:
                hand[t] += 1
        ties = [t for t in discards if after[t] == best]
        if len(ties) > 1:
            unseen = [4 - n for n in view.seen()]
            scored = list(zip(ev.useful(hand, ties, unseen, best), ties, strict=True))
            top = max(s for s, _ in scored)
            ties = [t for s, t in scored if s == top]
        return Discard(seat, ties[self.rng.randrange(len(ties))] if len(ties) > 1 else ties[0])

    def claim(self, view: View) -> Event | None:
        tile, seat, hand = view.claim_tile, view.seat, view.hand
        assert tile is not None and view.claim_from is not None
        if _wins_with(view, tile):
            return Claim(seat, "win")
        if view.claim_kind != "discard":
            return None
        n = hand[tile]
        chows = chow_options(hand, tile) if seat == (view.claim_from + 1) % SEATS else []
        if n < 2 and not chows:
            return None
        seven = view.rules.seven_pairs
        melds = list(view.melds)
        now = _shanten_of(hand, melds, seven)
        if n >= 3 and view.wall_remaining > 0:
            hand[tile] -= 3
            try:
                if _shanten_of(hand, [*melds, (tile,) * 4], seven) <= now:
                    return Claim(seat, "kong")
            finally:
                hand[tile] += 3
        options: list[tuple[int, int, Event]] = []
        if n >= 2:
            options.append((self._after_meld(hand, melds, (tile, tile), (tile,) * 3, seven), 0, Claim(seat, "pong")))
        for i, (a, b) in enumerate(chows):
            meld = tuple(sorted((a, b, tile)))
            options.append((self._after_meld(hand, melds, (a, b), meld, seven), i + 1, Claim(seat, "chow", (a, b))))
        if not options:
            return None
        score, _, claim = min(options, key=lambda o: (o[0], o[1]))
        return claim if score <= now else None

    @staticmethod
    def _after_meld(
        hand: list[int], melds: list[tuple[Tile, ...]], taken: tuple[Tile, Tile], meld: tuple[Tile, ...], seven: bool
    ) -> int:
        """The best shanten after claiming ``meld`` with ``taken`` from the hand, then discarding."""
        for t in taken:
            hand[t] -= 1
        try:
            grown = [*melds, meld]
            ev = _Eval(hand, grown, seven)
            held = [t for t in range(NUM_KINDS) if hand[t]]
            return min(ev.after_discard(hand, held).values()) if held else ev.shanten(hand)
        finally:
            for t in taken:
                hand[t] += 1
