"""The table service and its journal (issue 6): acknowledged events per second with real
fsync, and start-up time for a journal of 1,000 hands.

It also holds :func:`scripted_session`, the seeded tracked-mode sessions (the physical
table: tiles counted, not known) that the benchmark and the service tests replay.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from engine.public import PublicState, public_state
from engine.records import WAIT_KINDS
from table_app.bench import Result, result

NAME = "service"
DESCRIPTION = "TableService + SQLite journal: acknowledged events/s (WAL, synchronous=FULL, real fsync); " \
              "start-up (check + replay) of a 1,000-hand journal"

STARTUP_TARGET_MS = 1000.0
PLAYERS = ["东 Dong", "南 Nan", "西 Xi", "北 Bei"]
WAITS = ("plain", *(w for w in WAIT_KINDS if w != "plain"))  # (plain first, as the scripted sessions were made)


def scripted_session(hands: int, seed: int = 0, *, variety: bool = True, players: list[str] | None = None,
                     end: bool = False) -> list[dict[str, object]]:
    """A legal tracked-mode session of ``hands`` hands, found by driving the engine with a seeded
    random player: mostly discards and passes to the exhaustive draw, and (``variety``) now and
    then a pong, a chow, a concealed kong, a self-drawn win or a win on a discard."""
    from engine import RuleError, apply, new_table

    rng = random.Random(seed)
    out: list[dict[str, object]] = []
    state = new_table()

    def push(event: dict[str, object]) -> bool:
        nonlocal state
        try:
            state, _ = apply(state, event)
        except RuleError:
            return False
        out.append(event)
        return True

    push({"type": "new_session", "players": list(players or PLAYERS), "base": 1})
    push({"type": "seating", "method": "C", "east": rng.randrange(4)})
    for h in range(hands):
        if h:
            push({"type": "next_hand"})
        push({"type": "bets", "bets": [rng.choice((0, 0, 0, 1, 2)) for _ in range(4)]})
        push({"type": "roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]})
        push({"type": "roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]})
        while state.phase != "hand_over":
            phase = state.phase
            if phase == "turn":
                seat = state.turn
                r = rng.random() if variety else 1.0
                if r < 0.004 and push({"type": "win", "seat": seat}):
                    continue
                if r < 0.015 and push({"type": "kong", "seat": seat, "kind": "concealed"}):
                    continue
                push({"type": "discard", "seat": seat})
            elif phase == "claims":
                c = public_state(state)["claims"]
                for s in list(c["waiting"] if c is not None else []):
                    if state.phase != "claims":
                        break
                    r = rng.random() if variety else 1.0
                    if r < 0.003 and push({"type": "claim", "seat": s, "call": "win"}):
                        continue
                    if r < 0.02 and push({"type": "claim", "seat": s, "call": "pong"}):
                        continue
                    if r < 0.04 and push({"type": "claim", "seat": s, "call": "chow"}):
                        continue
                    push({"type": "pass", "seat": s})
            elif phase == "win_pending":
                if not push({"type": "confirm_win", "wait": rng.choice(WAITS)}):
                    push({"type": "reject_win"})
            else:
                raise RuntimeError(f"scripted_session: stuck in phase {phase!r}")
    if end:
        push({"type": "end_session"})
    return out


def _write_journal(path: Path, events: list[dict[str, object]]) -> None:
    """A journal holding ``events`` (written in one transaction: this is set-up, not the measurement),
    each record linked into the hash chain as the journal itself would."""
    import json

    from table_app.journal import chain
    from table_app.journal.journal import Journal

    with Journal.open(path) as j:
        c = j._conn
        c.execute("PRAGMA synchronous = OFF")
        c.execute("BEGIN")
        session = 0
        prev = chain.ZERO
        for seq, ev in enumerate(events, 1):
            if ev["type"] == "new_session":
                session += 1
                c.execute("INSERT INTO sessions (id, first_seq, started_at, players) VALUES (?, ?, '', ?)",
                          (session, seq, json.dumps(ev["players"])))
            text = json.dumps(ev, separators=(",", ":"))
            prev = chain.link(prev, chain.canonical(seq, "", "event", session, "bench", text, None))
            c.execute("INSERT INTO records (seq, at, kind, session, source, event, hash) VALUES (?, '', 'event', ?, "
                      "'bench', ?, ?)", (seq, session, text, prev))
        chain.seal_blocks(c)
        c.execute("COMMIT")


def _startup(path: Path, snapshot_every: int) -> tuple[float, PublicState]:
    """Milliseconds from opening the journal (with its checks) to a restored service, and its state."""
    from table_app.core.service import TableService
    from table_app.journal.journal import Journal

    start = time.perf_counter()
    journal = Journal.open(path)
    service = TableService(journal, snapshot_every=snapshot_every)
    elapsed = (time.perf_counter() - start) * 1000
    public = service.public
    journal.close()
    return elapsed, public


def run(runs: int, progress: Callable[[str], None]) -> list[Result]:
    from engine import replay
    from table_app.core.service import TableService
    from table_app.journal.journal import Journal

    out: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="xian-bench-") as tmp:
        d = Path(tmp)
        progress("scripting 1,000 tracked-mode hands")
        session = scripted_session(1000, seed=6)
        expected = public_state(replay(session))
        progress(f"acknowledged events/s: {min(len(session), 2000)} events through the service, each fsynced")
        rates = []
        for i in range(runs):
            with Journal.open(d / f"ack{i}.sqlite3") as j:
                service = TableService(j, claim_window_s=0).start()
                acked = session[:2000]
                t0 = time.perf_counter()
                for ev in acked:
                    if not service.call(ev).ok:
                        raise RuntimeError(f"the scripted event {ev} was refused")
                rates.append(len(acked) / (time.perf_counter() - t0))
                service.stop()
        out.append(result(NAME, "acknowledged events (fsync each)", rates, "events/s",
                          note="one at a time, answered after the durable commit (like serve --stdin)"))

        long_journal = d / "long.sqlite3"
        progress(f"writing a journal of 1,000 hands in one session ({len(session):,} events)")
        _write_journal(long_journal, session)
        # the first start replays everything and leaves snapshots for the later ones
        t_first, public = _startup(long_journal, snapshot_every=2000)
        if public != expected:
            raise RuntimeError("start-up did not restore the state of the 1,000-hand journal")
        progress("start-up with snapshots (the service keeps one every 2,000 events)")
        times = []
        for _ in range(runs):
            t, public = _startup(long_journal, snapshot_every=2000)
            if public != expected:
                raise RuntimeError("start-up from a snapshot did not restore the state")
            times.append(t)
        out.append(result(NAME, "start-up, 1,000 hands (snapshots)", times, "ms", target_max=STARTUP_TARGET_MS,
                          note=f"{len(session):,} events in one session; check, timeline, snapshot, replay"))
        out.append(result(NAME, "start-up, 1,000 hands (no snapshot)", [t_first], "ms",
                          note="the first start: a full replay, then the snapshots are written"))

        many = d / "many.sqlite3"
        progress("writing a journal of 1,000 hands as 50 sessions of 20")
        events: list[dict[str, object]] = []
        for k in range(50):
            events += scripted_session(20, seed=100 + k)
        _write_journal(many, events)
        times = [_startup(many, snapshot_every=0)[0] for _ in range(runs)]
        out.append(result(NAME, "start-up, 50 sessions × 20 hands", times, "ms", target_max=STARTUP_TARGET_MS,
                          note="no snapshots: only the last session is replayed"))
    return out

