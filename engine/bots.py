"""Bots for full-tile self-play: they see what a player sees and answer with table events.

A bot gets a :class:`View` — its own concealed tiles, every seat's melds and discards on
the table, the wall counters, the open claim — built by :func:`view_of` from the table state
and nothing else, and returns an :mod:`engine.events` event (or ``None`` for a pass). What
it may do is the engine's answer (``View.moves``: :mod:`engine.legal`, the same function the
table's buttons ask); a bot only chooses among those moves. The events go through
``engine.apply`` like anyone's; a bot has no other way in.

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
>>> [e.to_json()["tile"] for e in v.moves if e.TYPE == "discard"]
['1m', '2m', '3m', '4p', '5p', '6p', '7s', '8s', '9s', '1z', '2z', '5z']
>>> GreedyBot(random.Random(1)).act(v).to_json()
{'type': 'discard', 'seat': 0, 'tile': '5z'}
"""

from __future__ import annotations

import random
from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass
from functools import reduce
from itertools import compress
from operator import add, or_
from typing import Final, Protocol

from engine.events import Claim, Discard, Event, Kong, Win
from engine.legal import claim_moves, turn_moves
from engine.records import ClaimKind
from engine.rules import XIAN, Rules
from engine.shanten import (
    Masks,
    Profile,
    Vector,
    caps_of,
    combine,
    finish,
    seven_pairs_overlap,
    suit_codes,
    suit_profile,
)
from engine.state import TableState
from engine.tiles import NUM_KINDS, Tile
from engine.wall import TILES

SEATS: Final = 4
STRENGTHS: Final = ("random", "greedy")
_KINDS: Final = range(NUM_KINDS)
_SUIT: Final = tuple(t // 9 for t in range(NUM_KINDS))


Table = tuple[tuple[tuple[tuple[Tile, ...], ...], ...], tuple[tuple[Tile | None, ...], ...]]
"""What lies open on the table: every seat's melds (tiles) and every seat's discards."""

_EMPTY_TABLE: Final[Table] = (((), (), (), ()), ((), (), (), ()))


class View:
    """What seat ``seat`` can see. ``hand`` is its own concealed count vector (from
    :func:`view_of`, a copy of the table's ``bytearray``: the bot may change it); ``melds`` its own
    melds (tiles, a kong as four; concealed kongs included), ``meld_count`` how many; ``pongs``
    the tiles of its pongs;
    ``drawn``: it is its turn and it began with a draw (so it may win by itself or kong).
    ``table_melds`` and ``discards`` are every seat's, as on the table. ``claim_*`` describe
    the open claim (phase ``claims``): kind ``discard``/``rob``, the seat it is from, the tile.
    ``moves``: what it may do now (:mod:`engine.legal`, asked with these facts).

    A view made by :func:`view_of` reads its melds, the open table and ``drawable`` from the
    state only when asked: it describes the table as it is when the bot answers, before the
    answer.
    """

    __slots__ = (
        "_drawable",
        "_melds",
        "_moves",
        "_pongs",
        "_source",
        "_table",
        "_table_of",
        "claim_from",
        "claim_kind",
        "claim_tile",
        "drawn",
        "hand",
        "last_drawn",
        "meld_count",
        "phase",
        "rules",
        "seat",
        "wall_remaining",
    )

    def __init__(
        self,
        seat: int,
        phase: str,
        hand: MutableSequence[int],
        melds: tuple[tuple[Tile, ...], ...],
        pongs: tuple[Tile, ...] = (),
        drawn: bool = False,
        last_drawn: Tile | None = None,
        claim_kind: ClaimKind | None = None,
        claim_from: int | None = None,
        claim_tile: Tile | None = None,
        table: Table | Callable[[], Table] = _EMPTY_TABLE,
        wall_remaining: int = 136,
        drawable: int = 0,
        rules: Rules = XIAN,
    ) -> None:
        self.seat, self.phase, self.hand = seat, phase, hand
        self._melds: tuple[tuple[Tile, ...], ...] | None = melds
        self._pongs: tuple[Tile, ...] | None = pongs
        self.meld_count = len(melds)
        self.drawn, self.last_drawn = drawn, last_drawn
        self.claim_kind, self.claim_from, self.claim_tile = claim_kind, claim_from, claim_tile
        self._table: Table | None = None if callable(table) else table
        self._table_of: Callable[[], Table] | None = table if callable(table) else None
        self._source: TableState | None = None
        self._drawable: int | None = drawable
        self._moves: list[Event] | None = None
        self.wall_remaining, self.rules = wall_remaining, rules

    def _open(self) -> Table:
        if self._table is None:
            if self._table_of is not None:
                self._table = self._table_of()
            else:
                assert self._source is not None
                self._table = table_of(self._source)
        return self._table

    @property
    def moves(self) -> list[Event]:
        """Every event this seat may make now: the engine's legal moves, from what it sees."""
        if self._moves is None:
            hand, seat = self.hand, self.seat
            if self.phase == "turn":
                self._moves = turn_moves(seat, hand, sum(hand), self.meld_count, self.pongs, self.drawn,
                                         self.wall_remaining, self.rules)
            elif self.phase == "claims" and self.claim_kind is not None and self.claim_from is not None:
                self._moves = claim_moves(seat, hand, sum(hand), self.meld_count, self.claim_kind, self.claim_from,
                                          self.claim_tile, self.wall_remaining, self.rules)
            else:
                self._moves = []
        return self._moves

    @property
    def melds(self) -> tuple[tuple[Tile, ...], ...]:
        """Its own melds' tiles (a kong as four), as they lie on the table."""
        if self._melds is None:
            assert self._source is not None
            melds = self._source.seats[self.seat].melds
            self._melds = tuple([m.tiles for m in melds if m.tiles is not None])
        return self._melds

    @property
    def pongs(self) -> tuple[Tile, ...]:
        """The tiles of its pongs (what an added kong may extend)."""
        if self._pongs is None:
            assert self._source is not None
            melds = self._source.seats[self.seat].melds
            self._pongs = tuple([m.tiles[0] for m in melds if m.kind == "pong" and m.tiles is not None])
        return self._pongs

    @property
    def drawable(self) -> int:
        """Tiles the head may still give (``TableState.drawable``)."""
        if self._drawable is None:
            assert self._source is not None
            self._drawable = self._source.drawable
        return self._drawable

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
    hand = me.concealed
    if hand is None:
        raise ValueError("bots play in full-tile mode only (new_session with a wall_seed)")
    v = View.__new__(View)  # every slot set below: cheaper than __init__'s checks
    v.seat = seat
    v.phase = phase = state.phase
    v.hand = hand[:]
    v.meld_count = n = len(me.melds)
    v._melds = v._pongs = None if n else ()  # read from the state when asked
    v.rules = state.rules
    if phase == "claims":
        c = state.claims
        assert c is not None
        v.claim_kind, v.claim_from, v.claim_tile = c["kind"], c["from"], c["tile"]
    else:
        v.claim_kind = v.claim_from = v.claim_tile = None
    if state.turn == seat:  # (also while others may rob its added kong)
        v.drawn, v.last_drawn = state.drawn is not None, state.last_drawn
    else:
        v.drawn, v.last_drawn = False, None
    v._table = v._drawable = v._moves = None
    v._table_of = table
    v._source = state
    w = state.wall
    v.wall_remaining = TILES - w.head_taken - w.tail_taken
    return v


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


# --- the bots ------------------------------------------------------------------------------


@dataclass
class RandomBot:
    """A uniformly random legal choice; it always takes a win."""

    rng: random.Random
    name: str = "random"

    def act(self, view: View) -> Event:
        moves = view.moves
        if isinstance(moves[-1], Win):  # (the engine lists a win last)
            return moves[-1]
        return moves[int(self.rng.random() * len(moves))]  # a discard or a kong (randrange: 10x slower)

    def claim(self, view: View) -> Event | None:
        moves = view.moves
        if isinstance(moves[0], Claim) and moves[0].call == "win":
            return moves[0]
        options = moves[:-1]  # the last is the pass
        if not options:
            return None
        i = int(self.rng.random() * len(moves))  # the last choice: pass
        return options[i] if i < len(options) else None


_OTHERS: Final[dict[tuple[Vector, Vector, Vector, Vector], tuple[Vector, Vector, Vector, Vector]]] = {}
OTHERS_LIMIT: Final = 20_000


class _Eval:
    """Shanten of one hand and of the hands one tile away, from the suits' profiles
    (``engine.shanten.suit_profile``: each suit's vector, and which tiles added or taken away
    move which of its entries)."""

    __slots__ = ("caps", "codes", "k", "melds_needed", "others", "profiles", "seven", "vecs")

    def __init__(self, hand: Sequence[int], melds: Sequence[Sequence[Tile]], seven_pairs: bool) -> None:
        self.k = len(melds)
        self.melds_needed = 4 - self.k
        self.caps = caps_of(melds)
        self.codes = codes = suit_codes(hand, self.caps)
        self.profiles = p = (
            suit_profile(codes[0]),
            suit_profile(codes[1]),
            suit_profile(codes[2]),
            suit_profile(codes[3], False),
        )
        self.vecs = (p[0][0], p[1][0], p[2][0], p[3][0])
        self.seven = seven_pairs and self.k == 0
        self.others: tuple[Vector, Vector, Vector, Vector] | None = None

    def _others(self) -> tuple[Vector, Vector, Vector, Vector]:
        """Per suit, the other three suits combined (combining is associative and commutative)."""
        o = self.others
        if o is None:
            o = _OTHERS.get(self.vecs)
            if o is None:
                v0, v1, v2, v3 = self.vecs
                low, high = combine(v0, v1), combine(v2, v3)
                o = (combine(v1, high), combine(v0, high), combine(low, v3), combine(low, v2))
                if len(_OTHERS) > OTHERS_LIMIT:
                    _OTHERS.clear()
                _OTHERS[self.vecs] = o
            self.others = o
        return o

    def shanten(self, hand: Sequence[int]) -> int:
        v = self.vecs
        best = finish(combine(v[0], v[1]), combine(v[2], v[3]), self.melds_needed)
        if self.seven:
            best = max(best, seven_pairs_overlap(hand))
        return 13 - 3 * self.k - best

    def after_discard(self, hand: MutableSequence[int], tiles: Sequence[Tile]) -> dict[Tile, int]:
        """The shanten after discarding each of ``tiles`` (held).

        Per suit, the most the hand shares is ``top``, at some entries; a discard from the
        suit keeps it if the tile is spare at one of them and loses one otherwise."""
        out: dict[Tile, int] = {}
        m = 2 * self.melds_needed + 1
        others = self._others()
        base = 13 - 3 * self.k
        seven = self.seven
        keep: list[tuple[int, int] | None] = [None, None, None, None]
        for t in tiles:
            s = _SUIT[t]
            r = t - 9 * s
            ks = keep[s]
            if ks is None:
                vec, _, spare, _, _ = self.profiles[s]
                rev = others[s][m::-1]  # finish(a, b) is max(map(add, a, b[m::-1]))
                top = max(map(add, vec, rev))
                if top >= 0:
                    ks = keep[s] = (top, _union(spare, vec, rev, top))
            if ks is not None:
                best = ks[0] if ks[1] >> r & 1 else ks[0] - 1
            else:  # nothing fits (not in play): the vector less the tile, as it is
                best = max(map(add, _less(self.profiles[s], r), others[s][m::-1]))
            if seven:
                hand[t] -= 1
                best = max(best, seven_pairs_overlap(hand))
                hand[t] += 1
            out[t] = base - best
        return out

    def _improving(self, x: Tile, target: int, free: tuple[bytes, bytes, bytes, bytes]) -> list[int]:
        """Per suit, the ranks (bits) whose tile, added after discarding ``x``, makes the hand
        share more than ``target`` tiles (as ``useful`` reads it)."""
        m = 2 * self.melds_needed + 1
        v = self.vecs
        s0 = _SUIT[x]
        r0 = x - 9 * s0
        vx = _less(self.profiles[s0], r0)
        out = [0, 0, 0, 0]
        for s in range(4):
            if s == s0:
                mine = bytearray(free[s0])
                mine[r0] -= 1
                p = suit_profile(bytes(mine), s0 < 3)
                rev = self._others()[s0][m::-1]
            else:
                p = suit_profile(free[s], s < 3)
                a, b = (v[i] for i in range(4) if i != s and i != s0)
                rev = combine(combine(a, b), vx)[m::-1]
            out[s] = _raising(p, rev, target)
        return out

    def useful(self, hand: MutableSequence[int], ties: Sequence[Tile], unseen: Sequence[int], now: int) -> list[int]:
        """受入 after each of the discards ``ties``: the unseen copies of the tiles that would
        lower shanten ``now``.

        A tie-break, so the added tile's own suit is read without the exposed melds' copy
        limits (the other suits keep them): with them, every meld shape would multiply the
        suit patterns the tables must learn, for a rare difference. Discards that leave their
        suit with the same vector share the work on the other suits.
        """
        target = 13 - 3 * self.k - now  # the overlap to beat
        m = 2 * self.melds_needed + 1
        v = self.vecs
        codes = self.codes
        free = suit_codes(hand) if self.caps is not None else codes
        counted = [u if u > 0 else 0 for u in unseen]
        out = []
        if self.seven:
            for x in ties:
                improving = self._improving(x, target, free)
                more = {9 * s + r for s in range(4) for r in range(9) if improving[s] >> r & 1}
                hand[x] -= 1
                for t in range(NUM_KINDS):
                    if hand[t] and hand[t] < 4:
                        hand[t] += 1
                        if seven_pairs_overlap(hand) > target:
                            more.add(t)
                        hand[t] -= 1
                hand[x] += 1
                out.append(sum(counted[t] for t in more))
            return out
        profiles = self.profiles
        frees = profiles if free is codes else [suit_profile(free[s], s < 3) for s in range(4)]
        rests = [o[m::-1] for o in self._others()]  # finish(a, b) is max(map(add, a, b[m::-1]))
        weights = [counted[0:9], counted[9:18], counted[18:27], counted[27:34]]
        pairs: dict[tuple[int, ...], Vector] = {}
        elsewhere: dict[tuple[int, int], int] = {}
        for x in ties:
            s0 = _SUIT[x]
            r0 = x - 9 * s0
            p0 = profiles[s0]
            key = (s0, p0[4][r0])  # the entries the discard lowers: they make its suit's vector
            total = elsewhere.get(key)
            if total is None:
                total = 0
                vx = _less(p0, r0)
                for s in _REST[s0]:
                    vec, want, _, room, _ = frees[s]
                    ab = _REST2[s][s0]
                    pair = pairs.get(ab)
                    if pair is None:
                        pair = pairs[ab] = combine(v[ab[0]], v[ab[1]])
                    total += _lifting(list(map(add, vec, combine(pair, vx)[m::-1])), want, room, target, weights[s])
                elsewhere[key] = total
            mine = bytearray(free[s0])
            mine[r0] -= 1
            vec, want, _, room, _ = suit_profile(bytes(mine), s0 < 3)
            out.append(total + _lifting(list(map(add, vec, rests[s0])), want, room, target, weights[s0]))
        return out


def _lifting(sums: list[int], want: Masks, room: int, target: int, weights: list[int]) -> int:
    """The unseen copies of one suit's tiles that, drawn, lift the hand past ``target``: ``sums``
    are the hand's best overlaps through each entry of the suit's profile (``want``, ``room``)."""
    top = max(sums)
    if top > target:  # already past it: any tile with a copy left
        ranks = room
    elif top == target:  # the ranks some best entry wants one more of
        ranks = reduce(or_, compress(want, map(target.__eq__, sums)), 0)
    else:
        return 0
    return sum(compress(weights, _BITS_OF[ranks])) if ranks else 0


_BITS_OF: Final = tuple(tuple(m >> r & 1 for r in range(9)) for m in range(512))
_REST: Final = tuple(tuple(i for i in range(4) if i != s) for s in range(4))
_REST2: Final = tuple(tuple(tuple(i for i in range(4) if i not in (s, s0)) for s0 in range(4)) for s in range(4))


_LESS: Final[dict[tuple[Vector, int], Vector]] = {}
LESS_LIMIT: Final = 50_000


def _less(p: Profile, r: int) -> Vector:
    """A suit's vector less one tile of rank ``r`` (held): one less wherever it is not spare."""
    vec, _, _, _, drops = p
    key = (vec, drops[r])
    found = _LESS.get(key)
    if found is None:
        lower = drops[r]
        found = tuple(x - (lower >> i & 1) for i, x in enumerate(vec))
        if len(_LESS) > LESS_LIMIT:
            _LESS.clear()
        _LESS[key] = found
    return found


def _union(masks: Masks, vec: Vector, rev: Vector, top: int) -> int:
    """The union of ``masks`` over the entries where ``vec`` meets the rest (``rev``) at ``top``."""
    return reduce(or_, compress(masks, map(top.__eq__, map(add, vec, rev))), 0)


def _raising(p: Profile, rev: Vector, target: int) -> int:
    """The ranks (bits) of the suit whose tile, added, makes it share more than ``target`` with
    the rest (``rev``): any with a copy left if it already does, else those wanted at an entry
    where it meets ``target``."""
    vec, want, _, room, _ = p
    top = max(map(add, vec, rev))
    if top > target:
        return room
    if top < target:
        return 0
    return _union(want, vec, rev, target)


def _shanten_of(hand: Sequence[int], melds: Sequence[Sequence[Tile]], seven_pairs: bool) -> int:
    return _Eval(hand, melds, seven_pairs).shanten(hand)


@dataclass
class GreedyBot:
    """Lowest shanten first; see the module docstring."""

    rng: random.Random
    name: str = "greedy"

    def act(self, view: View) -> Event:
        hand, seat, seven = view.hand, view.seat, view.rules.seven_pairs
        moves = view.moves
        if isinstance(moves[-1], Win):  # (the engine lists a win last)
            return moves[-1]
        discards = [m.tile for m in moves if isinstance(m, Discard) and m.tile is not None]
        concealed = [m.tile for m in moves if isinstance(m, Kong) and m.kind == "concealed" and m.tile is not None]
        added = [m.tile for m in moves if isinstance(m, Kong) and m.kind == "added" and m.tile is not None]
        melds = list(view.melds)
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
        assert tile is not None
        claims = [m for m in view.moves if isinstance(m, Claim)]
        calls = {m.call for m in claims}
        if "win" in calls:
            return Claim(seat, "win")
        chows = [m.tiles for m in claims if m.call == "chow" and m.tiles is not None]
        if "pong" not in calls and not chows:
            return None
        seven = view.rules.seven_pairs
        melds = list(view.melds)
        now = _shanten_of(hand, melds, seven)
        if "kong" in calls:
            hand[tile] -= 3
            try:
                if _shanten_of(hand, [*melds, (tile,) * 4], seven) <= now:
                    return Claim(seat, "kong")
            finally:
                hand[tile] += 3
        options: list[tuple[int, int, Event]] = []
        if "pong" in calls:
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
        hand: MutableSequence[int],
        melds: list[tuple[Tile, ...]],
        taken: tuple[Tile, Tile],
        meld: tuple[Tile, ...],
        seven: bool,
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
