"""The random bot: a uniformly random legal choice, but it always takes a win (otherwise
wins, and so settlement, would hardly ever be exercised)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.bots.view import View
from engine.events import Claim, Event, Win


@dataclass
class RandomBot:
    """Any discard, concealed or added kong, or claim (or a pass), each as likely; always a win."""

    rng: random.Random
    name: str = "random"

    def act(self, view: View) -> Event:
        moves = view.moves
        if isinstance(moves[-1], Win):  # (the engine lists a win last)
            return moves[-1]
        return moves[int(self.rng.random() * len(moves))]  # a discard or a kong (randrange: 10x slower)

    def claim(self, view: View) -> Event | None:
        moves = view.moves
        if isinstance(moves[0], Claim) and moves[0].call == "win":  # (the engine lists a win first)
            return moves[0]
        options = moves[:-1]  # the last is the pass
        if not options:
            return None
        i = int(self.rng.random() * len(moves))  # the last choice: pass
        return options[i] if i < len(options) else None
