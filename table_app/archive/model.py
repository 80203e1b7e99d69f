"""What the archive answers (docs/archive.md): plain frozen values, the same for every front end.

The names are the contract of issue 29 (/work/archive-api.md): the touchscreen, the table page
and the phones read these and word them with ``table_app/present/history_view.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from engine.records import Payment, TransferJSON

T = TypeVar("T")

HAND_RESULTS = ("win", "drawn", "unfinished")
"""A hand's ``result``: won, drawn (荒牌), or still being played (the session's open hand)."""


@dataclass(frozen=True)
class Page(Generic[T]):
    items: list[T]
    page: int
    pages: int  # at least 1 (an empty first page)
    total: int


@dataclass(frozen=True)
class SessionSummary:
    number: int  # as ``xian-table history`` numbers sessions (the journal's session id)
    started: str  # ISO times of the journal's records (UTC)
    ended: str | None  # the last record of a finished session (结束牌局); None while it goes on
    players: list[str]  # by seat, as the session was started (a ``name`` between hands: the last names)
    player_ids: list[int | None]
    base: int
    hands: int  # settled hands
    finished: bool
    totals: list[int]  # by seat
    ranking: list[int]  # seats, best first (equal totals: the lower seat first)
    settle_up: list[Payment]  # engine.scoring.settle_up of the totals
    first_seq: int = 0
    last_seq: int = 0  # the session's last record in effect
    in_effect: bool = True  # False: its new_session was undone (sessions() leaves it out)
    phase: str = ""  # the engine's phase after its last event in effect (ended, hand_over, turn …)


@dataclass(frozen=True)
class HandSummary:
    hand: int
    round: int
    dealer: int | None
    result: str  # "win" | "drawn" (荒牌) | "unfinished" (the hand being played now)
    winner: int | None
    kind: str | None  # the engine's win kind (self_drawn, discard, kong_bloom, heavenly, robbed_kong)
    self_drawn: bool
    transfers: list[TransferJSON]
    deltas: list[int]
    totals: list[int]  # the session's totals after the hand
    first_seq: int  # the hand's first record (its session's new_session for hand 1, else its next_hand)
    last_seq: int  # the record that settled it (the last in effect for an unfinished hand)
    discarder: int | None = None  # who paid for a discard win (or a robbed kong)
    players: list[str] = field(default_factory=list)  # by seat during the hand
    kongs: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # by seat


@dataclass(frozen=True)
class Step:
    seq: int
    event: dict[str, object]
    source: str
    undone: bool  # an undone event is shown, marked, and changes nothing


@dataclass(frozen=True)
class RecordRow:
    player_id: int
    name: str
    period: str | None  # "2026-12-03", "2026-W49", "2026-12"; None: all time
    sessions: int
    hands: int
    wins: int
    self_draws: int
    kongs: int
    net: int


@dataclass(frozen=True)
class PlayerRecord:
    player_id: int
    name: str
    periods: list[RecordRow]  # newest period first (one row if period None)
