"""Journals of varied sessions for the export/import tests: full-tile sessions played by the
simulator's bots (kongs, claims, wins, draws, bets, other reserves), tracked-mode sessions
walked at random through the engine's legal moves (false wins taken back, names between
hands, score-only hands, concealed and added kongs), and in both: events undone and made
again, a wrong event undone, a whole session undone. Written into a real journal with the
real ``Journal`` (undo records included), a few transactions per session."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from engine import new_table, push
from engine.errors import RuleError
from engine.legal import legal_moves
from engine.presses import Press, Pressed, apply_press
from engine.records import WAIT_KINDS
from engine.simulate import SimConfig, simulate
from engine.state import TableState
from engine.table import replay
from table_app.journal.journal import Journal

Event = dict[str, Any]
NAMES = ["老王", "Li", "张阿姨", "=Zhao", "欧阳诸葛司马东方", "Ann", "阿强", "-Bo"]


def full_session(rng: random.Random, hands: int) -> list[Event]:
    """A full-tile session: the simulator's bots, seeded, sometimes with bets or another reserve."""
    events: list[Event] = []
    bots = tuple(rng.choice(("random", "random", "greedy")) for _ in range(4))
    rules = rng.choice([None, None, {"kong_reserve": [4, 2, 3, 4]}, {"seven_pairs": True}])
    simulate(SimConfig(hands=hands, seed=rng.randrange(10**6), bots=bots, rules=rules, bets=rng.random() < 0.5),
             journal=events.append)
    return events


def _pick(s: TableState, rng: random.Random) -> Event:
    """A legal event of a tracked-mode hand, weighted so that hands reach the wall's end."""
    if s.phase == "win_pending":
        return {"type": "reject_win"} if rng.random() < 0.4 else {"type": "confirm_win",
                                                                   "wait": rng.choice(WAIT_KINDS)}
    weighted: list[tuple[float, Event]] = []
    if s.phase == "claims":
        weighted.append((3, {"type": "resolve"}))
    for seat in range(4):
        for m in legal_moves(s, seat):
            kind = m.TYPE if m.TYPE != "claim" else m.to_json()["call"]
            w = {"discard": 40, "pass": 6, "kong": 0.6, "win": 0.25, "pong": 0.4, "chow": 0.4}.get(str(kind), 0.1)
            weighted.append((w, m.to_json()))
    return rng.choices([e for _, e in weighted], [w for w, _ in weighted])[0]


def _quick_xiajia(s: TableState) -> list[Event]:
    """The discarder's 下家 presses TURN during the claims (docs/rules.md §17), if it may: its events, applied."""
    assert s.claims is not None
    try:
        pressed = apply_press(s, Press((s.claims["from"] + 1) % 4, "TURN"))
    except RuleError:
        return []
    assert isinstance(pressed, Pressed)
    made = [step.event.to_json() for step in pressed.steps]
    for e in made:
        push(s, e)
    return made


def tracked_session(rng: random.Random, hands: int) -> list[Event]:
    """A tracked-mode session walked at random; names between hands, now and then a hand scored only."""
    players = rng.sample(NAMES, 4)
    base = rng.choice((1, 2, 5))
    events: list[Event] = [{"type": "new_session", "players": players, "base": base},
                           {"type": "seating", "method": "C", "east": rng.randrange(4)}]
    if base == 5:  # a fee from the start (issue 31); the random draws stay those of the sessions before it
        events[0]["fee"] = {"mode": "hand", "rate": 3, "min": 0, "cap": None, "payer": "winners", "tea": 1}
    s = replay(events)
    for h in range(hands):
        hand: list[Event] = []
        if h:
            hand.append({"type": "next_hand"})
        if h == 1 and base == 2:  # a fee set during the session
            hand.append({"type": "fee", "fee": {"mode": "hour", "rate": 30, "min": 20, "cap": None,
                                                "payer": "big_winner", "tea": 0}})
        if rng.random() < 0.2:
            seat, name = rng.randrange(4), rng.choice(NAMES)
            if not any(name == other for i, other in enumerate(s.players) if i != seat):  # (one player, one seat)
                hand.append({"type": "name", "seat": seat, "name": name})
        if rng.random() < 0.2:  # a hand scored only (只记分): a self-drawn win, or a drawn hand
            winner = rng.randrange(4)
            hand.append(rng.choice([{"type": "score_hand"}, {"type": "score_hand", "winner": winner,
                                                            "how": "self_drawn", "wait": "closed"}]))
        else:
            hand += [{"type": "bets", "bets": [rng.choice((0, 0, 1, 2)) for _ in range(4)]},
                     {"type": "roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]},
                     {"type": "roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]}]
        for e in hand:
            push(s, e)
        events += hand
        while s.phase != "hand_over":
            if s.phase == "claims" and rng.random() < 0.3 and (made := _quick_xiajia(s)):
                events += made  # the 下家's TURN during the claims: its draw held, or resolve + discard
                continue
            e = _pick(s, rng)
            push(s, e)
            events.append(e)
    if rng.random() < 0.5:
        events.append({"type": "end_session", "seconds": 1000 * hands + 7} if base > 1 else {"type": "end_session"})
    return events


def _other_move(events: list[Event], j: int, rng: random.Random) -> Event | None:
    """A legal event after ``events[:j]`` other than ``events[j]`` (a press the table then undid)."""
    s = replay(events[:j])
    moves = [m.to_json() for seat in range(4) for m in legal_moves(s, seat)]
    moves = [m for m in moves if m != events[j]]
    return rng.choice(moves) if moves else None


def write_journal(path: Path, sessions: list[list[Event]], rng: random.Random) -> None:
    """The sessions into a real journal; in some, events undone (then made again), a wrong event
    undone, or a whole session undone before the real one."""
    with Journal.open(path) as j:
        session: int | None = None
        last = 0  # the last event's seq in effect

        def write(events: list[Event], new: bool = False) -> None:
            nonlocal session, last
            seqs, session = j.append_events(events, session, source="test", new_session=new)
            last = seqs[-1]

        for events in sessions:
            if rng.random() < 0.1:  # a session started by mistake, undone
                before = last
                write([{"type": "new_session", "players": ["W", "X", "Y", "Z"], "base": 3}], new=True)
                j.append_undo(before, session, source="test")
                last = before
            cut = rng.randrange(4, len(events)) if len(events) > 5 and rng.random() < 0.6 else len(events)
            write(events[:1], new=True)
            if cut > 1:
                write(events[1:cut])
            if cut < len(events):
                target = last
                other = _other_move(events, cut, rng) if rng.random() < 0.5 else None
                if other is not None:
                    write([other])
                else:  # events made, undone, and made again
                    again = events[cut:cut + rng.randint(1, 5)]
                    write(again)
                j.append_undo(target, session, source="test")
                last = target
                write(events[cut:])


def check_replays(sessions: list[list[Event]]) -> None:
    """Each generated session replays through the engine (a broken generator fails here, not later)."""
    for events in sessions:
        s = new_table()
        for e in events:
            try:
                push(s, e)
            except RuleError as err:  # pragma: no cover (the generator's own bug)
                raise AssertionError(f"generated event refused: {e}: {err}") from None
