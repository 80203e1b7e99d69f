"""The greedy bot: lowest shanten first (``engine.shanten``, read through
``engine.bots.evaluation``).

- It always takes a win.
- It declares a concealed or added kong, and claims a pong, chow or exposed kong, when that
  does not raise its shanten (after the discard a pong or chow calls for).
- It discards to the lowest shanten; ties go to the most unseen tiles that would lower it
  (受入), then to its seeded RNG.

>>> import random
>>> from engine.bots.view import View
>>> from engine.tiles import parse_tiles, to_counts
>>> v = View(seat=0, phase="turn", hand=to_counts(parse_tiles("123m456p789s1122z5z")), drawn=True, last_drawn=31)
>>> GreedyBot(random.Random(1)).act(v).to_json()
{'type': 'discard', 'seat': 0, 'tile': '5z'}
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from dataclasses import dataclass

from engine.bots.evaluation import Evaluation, shanten_of
from engine.bots.view import View
from engine.events import Claim, Discard, Event, Kong, Win
from engine.tiles import ALL_TILES, COPIES, Tile


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
        ev = Evaluation(hand, melds, seven)
        after = ev.after_discard(hand, discards)
        best = min(after.values())
        for t in concealed:  # a concealed kong: four out of the hand, one more meld
            hand[t] -= 4
            try:
                if shanten_of(hand, [*melds, (t, t, t, t)], seven) <= best:
                    return Kong(seat, "concealed", t)
            finally:
                hand[t] += 4
        for t in added:
            hand[t] -= 1
            try:
                grown = [m if m != (t, t, t) else (t, t, t, t) for m in melds]
                if shanten_of(hand, grown, seven) <= best:
                    return Kong(seat, "added", t)
            finally:
                hand[t] += 1
        ties = [t for t in discards if after[t] == best]
        if len(ties) > 1:
            unseen = [COPIES - n for n in view.seen()]
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
        now = shanten_of(hand, melds, seven)
        if "kong" in calls:
            hand[tile] -= 3
            try:
                if shanten_of(hand, [*melds, (tile,) * 4], seven) <= now:
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
            ev = Evaluation(hand, grown, seven)
            held = [t for t in ALL_TILES if hand[t]]
            return min(ev.after_discard(hand, held).values()) if held else ev.shanten(hand)
        finally:
            for t in taken:
                hand[t] += 1
