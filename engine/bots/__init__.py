"""Bots for full-tile self-play: they see what a player sees and answer with table events.

A bot gets a :class:`~engine.bots.view.View` — its own concealed tiles, every seat's melds
and discards on the table, the wall counters, the open claim — made by
:func:`~engine.bots.view.view_of` from the table state and nothing else, and returns an
:mod:`engine.events` event (or ``None`` for a pass). What it may do is the engine's answer
(``View.moves``: :mod:`engine.legal`, the same function the table's buttons ask); a bot only
chooses among those moves. The events go through the table like anyone's; a bot has no
other way in.

Two strengths, both deterministic given a seeded ``random.Random``:

- ``random`` (:mod:`engine.bots.random_bot`): a uniformly random legal choice (any discard,
  kong or claim, or a pass) — but it always takes a win;
- ``greedy`` (:mod:`engine.bots.greedy_bot`, its arithmetic in :mod:`engine.bots.evaluation`):
  always takes a win; kongs and claims that do not raise its shanten; discards to the lowest
  shanten, ties broken by the most unseen tiles that would lower it (受入), then by the RNG.

>>> import random
>>> from engine.tiles import parse_tiles, to_counts
>>> v = View(seat=0, phase="turn", hand=to_counts(parse_tiles("123m456p789s1122z5z")), drawn=True)
>>> make_bot("greedy", random.Random(1)).act(v).to_json()
{'type': 'discard', 'seat': 0, 'tile': '5z'}
"""

from __future__ import annotations

import random
from typing import Final, Protocol

from engine.bots.greedy_bot import GreedyBot
from engine.bots.random_bot import RandomBot
from engine.bots.view import Table, View, table_of, view_of
from engine.events import Event

STRENGTHS: Final = ("random", "greedy")


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


__all__ = ["STRENGTHS", "Bot", "GreedyBot", "RandomBot", "Table", "View", "make_bot", "table_of", "view_of"]
