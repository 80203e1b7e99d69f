"""``xian-table run --demo``: the simulator's bots play through the service at a watchable speed.

The bots (``engine.bots``) see what a player sees of a full-tile table; this driver keeps
that table by applying every event the service commits (it subscribes like any output),
asks the bot to move and submits its event with source ``demo``, as a seat's buttons would.
No Kivy here: the app shows the notices like anyone else's.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from typing import Any

from engine import apply, new_table
from engine.bots import make_bot, view_of

log = logging.getLogger(__name__)
SOURCE = "demo"


class Demo:
    def __init__(self, service: Any, *, delay: float = 0.8, hands: int = 0, seed: int | None = None,
                 on_done: Callable[[int], None] | None = None) -> None:
        self.service = service
        self.delay = delay
        self.hands = hands  # 0: until stopped
        self.rng = random.Random(seed)
        self.bots = [make_bot("greedy", random.Random(self.rng.getrandbits(64))) for _ in range(4)]
        self.state = new_table()
        self.lock = threading.Lock()
        self.played = 0
        self.out_of_step = False
        self.on_done = on_done
        self.stop = threading.Event()

    def notice(self, n: Any) -> None:
        with self.lock:
            if n.kind == "undo":
                self.out_of_step = True  # someone took events back: the bots stop rather than guess
            elif n.event is not None:
                self.state, _ = apply(self.state, n.event)

    def send(self, event: dict[str, Any]) -> bool:
        # claims are answered quickly so that the service's claim window does not close first
        pause = min(self.delay, 0.25) if event["type"] in ("claim", "pass") else self.delay
        if self.stop.wait(pause):
            return False
        answer = self.service.call(event, source=SOURCE)
        if not answer.ok:
            log.warning("demo: %s was refused: %s", event, answer.error)
        return bool(answer.ok)

    def dice(self) -> list[int]:
        return [self.rng.randint(1, 6), self.rng.randint(1, 6)]

    def run(self) -> None:
        unsubscribe = self.service.subscribe(self.notice)
        try:
            self._play()
        except Exception:
            log.exception("demo stopped")
        finally:
            unsubscribe()
            if self.on_done is not None:
                self.on_done(self.played)

    def _play(self) -> None:
        names = ["Bot1", "Bot2", "Bot3", "Bot4"]
        self.send({"type": "new_session", "players": names, "base": 1, "wall_seed": self.rng.getrandbits(32)})
        self.send({"type": "seating", "method": "A", "roller": self.rng.randrange(4), "dice": self.dice()})
        while not self.stop.is_set() and not self.out_of_step:
            with self.lock:
                s = self.state
            ev = self.next_event(s)
            if ev is None:
                return
            if not self.send(ev) and self.stop.is_set():
                return

    def next_event(self, s: Any) -> dict[str, Any] | None:
        phase = s.phase
        if phase == "betting":
            if self.hands and self.played >= self.hands:
                return None
            return {"type": "bets", "bets": [self.rng.choice((0, 0, 0, 1, 2)) for _ in range(4)]}
        if phase == "rolling":
            first = s.dice_dealer is None
            seat = s.dealer if first else (s.dealer + sum(s.dice_dealer) - 1) % 4
            return {"type": "roll", "dice": self.dice(), "seat": seat}
        if phase == "turn":
            return dict(self.bots[s.turn].act(view_of(s, s.turn)).to_json())
        if phase == "claims":
            c = s.claims
            for i in (1, 2, 3):
                seat = (c["from"] + i) % 4
                if c["answers"][seat] is None:
                    answer = self.bots[seat].claim(view_of(s, seat))
                    return dict(answer.to_json()) if answer is not None else {"type": "pass", "seat": seat}
            return {"type": "resolve"}
        if phase == "win_pending":
            return {"type": "confirm_win"}
        if phase == "hand_over":
            self.played += 1
            return {"type": "next_hand"}
        return None


def run_demo(service: Any, stop: threading.Event, *, delay: float = 0.8, hands: int = 0,
             on_done: Callable[[int], None] | None = None) -> None:
    d = Demo(service, delay=delay, hands=hands, on_done=on_done)
    d.stop = stop
    d.run()
