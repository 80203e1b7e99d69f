"""Real engine states for every phase (tracked mode, dealer seat 0, wall owner seat 2)."""

from __future__ import annotations

from engine import apply, new_table, replay

START = [
    {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
    {"type": "seating", "method": "C", "east": 0},
    {"type": "roll", "dice": [3, 4]},  # 7 from the dealer: seat 2 owns the wall
    {"type": "roll", "dice": [2, 3]},
]
PONG = [{"type": "discard", "seat": 0}, {"type": "claim", "seat": 2, "call": "pong"}, {"type": "resolve"}]
ROUND = [{"type": "discard", "seat": s} if i % 2 == 0 else {"type": "resolve"}
         for i, s in enumerate([2, 2, 3, 3, 0, 0, 1, 1])]


def states():
    """name -> (events, state): one table for each phase (and both kinds of claims)."""
    out = {"idle": ([], new_table())}
    scripts = {
        "seating": START[:1],
        "betting": START[:2],
        "rolling": START[:3],
        "turn": START,  # seat 0 to move, no pong
        "claims": [*START, {"type": "discard", "seat": 0}],
        "turn_with_pong": START + PONG + ROUND,  # seat 2 to move, has a pong
        "rob": START + PONG + ROUND + [{"type": "kong", "seat": 2, "kind": "added"}],
        "win_pending": [*START, {"type": "win", "seat": 0}],
        "hand_over": [*START, {"type": "win", "seat": 0}, {"type": "confirm_win", "wait": "plain"}],
        "ended": [*START, {"type": "end_session"}],
    }
    for name, events in scripts.items():
        out[name] = (events, replay(events))
    return out


def last_discard():
    """(state, seat): START played discard by discard (nobody claims) until nothing is left to
    draw — the claims open on ``seat``'s discard of the wall's last tile."""
    s = replay(START)
    while True:
        seat = s.turn
        assert seat is not None
        s = replay([{"type": "discard", "seat": seat}], s)
        if s.drawable == 0:
            return s, seat
        s = replay([{"type": "resolve"}], s)


def accepts(state, command) -> bool:
    try:
        apply(state, command)
    except ValueError:
        return False
    return True


def press_pin(pin, buttons, send, clock, hold: float = 0.05) -> list:
    """A finger on a MockFactory pin for ``hold`` seconds of the buttons' clock, then off; the
    answers to the presses the buttons saw, each sent as the input adapter sends it."""
    answers = []
    pin.drive_low()
    for _ in range(int(hold / 0.005)):
        clock.t += 0.005
        answers += [send(p).result(10) for p in buttons.poll()]
    pin.drive_high()
    for _ in range(10):
        clock.t += 0.005
        answers += [send(p).result(10) for p in buttons.poll()]
    return answers
