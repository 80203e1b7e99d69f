"""``xian-table run --demo``: the simulator's bots play through the service at a watchable speed.

The engine's own self-play (:func:`engine.simulate.simulate`: the bots, the dice, the table
around them) plays the hands; every event it applies is submitted to the service with the
source ``demo``, as a seat's buttons would, after a pause a person can follow. The demo stops
when a person steps in (any change it did not make: an undo, a press), when the service
refuses one of its events, or when it is told to. No Kivy here: the app shows the notices like
anyone else's.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable, Mapping

from engine.simulate import InvariantViolation, SimConfig, simulate
from table_app.core.notices import Notice
from table_app.core.service import SERVICE_SOURCE, TableService

log = logging.getLogger(__name__)
SOURCE = "demo"
FOREVER = 1_000_000  # hands when no number is given: until stopped
QUICK = ("claim", "pass", "resolve")  # answered quickly: the service's claim window must not close first


class Stopped(Exception):
    """The demo ends: told to, a person stepped in, or the service refused an event."""


def run_demo(service: TableService, stop: threading.Event, *, delay: float = 0.8, hands: int = 0,
             seed: int | None = None, on_done: Callable[[int], None] | None = None) -> None:
    """Play ``hands`` hands (0: until ``stop`` is set) through ``service``; ``on_done(played)`` at the end."""
    played = 0
    stepped_in = threading.Event()

    def watch(n: Notice) -> None:
        if n.changed and n.source not in (SOURCE, SERVICE_SOURCE):
            stepped_in.set()  # someone else changed the table: the bots stop rather than guess

    def send(event: Mapping[str, object]) -> None:
        if stop.wait(min(delay, 0.25) if event.get("type") in QUICK else delay) or stepped_in.is_set():
            raise Stopped
        answer = service.call(event, source=SOURCE)
        if not answer.ok:
            log.warning("demo: %s was refused: %s", event, answer.error)
            raise Stopped

    def hand_over(n: int, _settled: object) -> None:
        nonlocal played
        played = n

    unsubscribe = service.subscribe(watch)
    try:
        simulate(SimConfig(hands=hands or FOREVER, seed=random.Random(seed).getrandbits(32), bets=True),
                 journal=send, on_hand=hand_over)
    except Stopped:
        pass
    except InvariantViolation as e:  # (the engine refused its own bots: a bug, shown in the log)
        log.error("demo stopped: %s", e)
    finally:
        unsubscribe()
        if on_done is not None:
            on_done(played)
