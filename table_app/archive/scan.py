"""One pass over the events in effect, in order: each session's summary and each settled
hand, as ``xian-table history`` tells them (a ``new_session`` starts the table over).

The scan is resumable: :meth:`Scan.cursor` is everything it holds (the engine's state
included) as JSON, and :meth:`Scan.resume` carries on from it when more events land.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field

from engine import TableState, new_table, push
from engine.scoring import ranking, settle_up
from engine.seats import SEATS
from table_app.archive.model import HandSummary, SessionSummary

PLAYING = ("turn", "claims", "win_pending")
"""The phases of a hand being played (dealt, not yet settled)."""


@dataclass
class SessionAcc:
    """A session as the scan has seen it so far."""

    number: int
    first_seq: int
    started: str
    players: list[str]
    player_ids: list[int | None]
    base: int = 1
    hands: int = 0
    finished: bool = False
    totals: list[int] = field(default_factory=lambda: [0] * SEATS)
    last_seq: int = 0
    last_at: str = ""
    hand_start: int = 0  # the first record of the hand now being dealt or played
    phase: str = ""
    stats: dict[str, list[int]] = field(default_factory=dict)
    """By ``[seat, player_id, name]`` (JSON): hands, wins, self-draws, kongs, net points of the
    session's settled hands (a seat's player may change between hands: a ``name``)."""

    def count(self, h: HandSummary, player_ids: list[int | None]) -> None:
        """A settled hand in each seat's record."""
        for seat in range(SEATS):
            key = json.dumps([seat, player_ids[seat], h.players[seat]], ensure_ascii=False)
            row = self.stats.setdefault(key, [0, 0, 0, 0, 0])
            won = h.winner == seat
            row[0] += 1
            row[1] += won
            row[2] += won and h.self_drawn
            row[3] += h.kongs[seat]
            row[4] += h.deltas[seat]

    def plays(self) -> set[tuple[int | None, str]]:
        """Who played the session (its seats now, and whoever played a hand in it)."""
        out = {(pid, name) for pid, name in zip(self.player_ids, self.players, strict=True)}
        for key in self.stats:
            _, pid, name = json.loads(key)
            out.add((pid, name))
        return out

    def summary(self) -> SessionSummary:
        best_first = [seat for _, seat in ranking(self.totals)]  # (ties: the engine's rule)
        return SessionSummary(
            number=self.number, started=self.started, ended=self.last_at if self.finished else None,
            players=list(self.players), player_ids=list(self.player_ids), base=self.base, hands=self.hands,
            finished=self.finished, totals=list(self.totals), ranking=best_first, settle_up=settle_up(self.totals),
            first_seq=self.first_seq, last_seq=self.last_seq, phase=self.phase)


def hand_of(state: TableState, first_seq: int, last_seq: int) -> HandSummary:
    """The hand the state is in (settled, or being played) as a summary."""
    st = state.last_settlement if state.phase == "hand_over" else None
    kongs = [sum(1 for m in seat.melds if m.kong is not None) for seat in state.seats]
    common = {"hand": state.hand, "round": state.round, "dealer": state.dealer, "first_seq": first_seq,
              "last_seq": last_seq, "players": list(state.players), "kongs": kongs, "totals": list(state.scores)}
    if st is None:
        return HandSummary(result="unfinished", winner=None, kind=None, self_drawn=False, discarder=None,
                           transfers=[], deltas=[0] * SEATS, **common)  # type: ignore[arg-type]
    won = st["winner"] is not None
    return HandSummary(result="win" if won else "drawn", winner=st["winner"], kind=st["kind"],
                       self_drawn=won and st["from"] is None, discarder=st["from"], transfers=list(st["transfers"]),
                       deltas=list(st["deltas"]), **common)  # type: ignore[arg-type]


class Scan:
    """Feed it the events in effect in order (:meth:`feed`); it collects the settled hands and
    the sessions they belong to."""

    def __init__(self, starts: Mapping[int, tuple[int, str]]) -> None:
        self.starts = starts  # first_seq → (session number, started_at) of every session
        self.state = new_table()
        self.session: SessionAcc | None = None
        self.hands: list[tuple[int, HandSummary]] = []  # (session, hand) settled since the scan began
        self.sessions: dict[int, SessionAcc] = {}  # the sessions the scan touched

    def feed(self, seq: int, at: str, event: dict[str, object]) -> None:
        start = self.starts.get(seq)
        if start is not None and event.get("type") == "new_session":
            self.state = new_table()
            push(self.state, event)
            s = self.state
            self.session = SessionAcc(start[0], seq, start[1], list(s.players), list(s.player_ids), s.base,
                                      hand_start=seq)
            self.sessions[start[0]] = self.session
        else:
            before = self.state.phase
            push(self.state, event)
            if self.session is None:
                return
            if event.get("type") == "next_hand":
                self.session.hand_start = seq
            if self.state.phase == "hand_over" and before != "hand_over":
                hand = hand_of(self.state, self.session.hand_start, seq)
                self.session.hands += 1
                self.session.count(hand, list(self.state.player_ids))
                self.hands.append((self.session.number, hand))
        acc = self.session
        if acc is not None:
            s = self.state
            acc.last_seq, acc.last_at, acc.finished, acc.phase = seq, at, s.phase == "ended", s.phase
            acc.totals, acc.players, acc.player_ids = list(s.scores), list(s.players), list(s.player_ids)

    def open_hand(self) -> tuple[int, HandSummary] | None:
        """The hand being played now (dealt, not settled), if any."""
        acc = self.session
        if acc is None or self.state.phase not in PLAYING:
            return None
        return acc.number, hand_of(self.state, acc.hand_start, acc.last_seq)

    def cursor(self) -> dict[str, object]:
        return {"state": self.state.to_json(), "session": None if self.session is None else asdict(self.session)}

    @classmethod
    def resume(cls, starts: Mapping[int, tuple[int, str]], cursor: Mapping[str, object]) -> Scan:
        scan = cls(starts)
        state = cursor.get("state")
        session = cursor.get("session")
        if isinstance(state, dict):
            scan.state = TableState.from_json(state)
        if isinstance(session, dict):
            scan.session = SessionAcc(**session)
            scan.sessions[scan.session.number] = scan.session
        return scan
