"""The engine's typed records: the words the table uses (``Literal`` types) and the records
it keeps and publishes — open claims, a pending win, a settlement, a transfer — as
``TypedDict``\\ s, so that every module reading them is checked against one definition.

They are the JSON of docs/design.md as it stands (``from`` is a key, so they are written in the
functional form): the state keeps them as they are published, and ``to_json`` copies them.

>>> old = {"result": "draw", "winner": None, "kind": None, "wait": None, "transfers": [], "deltas": [0, 0, 0, 0],
...        "dealer": 0, "hand": 1}
>>> list(settlement_from_json(old))
['result', 'winner', 'kind', 'wait', 'bonus', 'from', 'transfers', 'deltas', 'dealer', 'hand']
"""

from __future__ import annotations

from typing import Final, Literal, TypedDict, get_args

Phase = Literal["idle", "seating", "betting", "rolling", "turn", "claims", "win_pending", "hand_over", "ended"]
PHASES: Final[tuple[Phase, ...]] = get_args(Phase)
Call = Literal["win", "kong", "pong", "chow"]
CALLS: Final[tuple[Call, ...]] = get_args(Call)
"""The calls on a discard, in priority order (docs/rules.md §8: win > kong = pong > chow)."""
Answer = Literal["win", "kong", "pong", "chow", "pass"]
ClaimKind = Literal["discard", "rob"]
"""Claims on a discard, or on an added kong's tile (抢杠: a win only)."""
Drawn = Literal["deal", "head", "tail"]
"""How the player to move got to 14 tiles: the deal (the dealer's first turn), the head, or
the tail (a kong's replacement); ``None`` after a pong or chow."""
MeldKind = Literal["chow", "pong", "kong"]
KongKind = Literal["concealed", "exposed", "added"]
WinKind = Literal["self_drawn", "discard", "kong_bloom", "heavenly", "robbed_kong"]
WIN_KINDS: Final[tuple[WinKind, ...]] = get_args(WinKind)
WaitKind = Literal["closed", "single", "edge", "plain"]
WAIT_KINDS: Final[tuple[WaitKind, ...]] = get_args(WaitKind)
"""The wait kinds, most favourable first (docs/rules.md §13)."""
Reason = Literal["win", "kong", "bet"]
Wind = Literal["E", "S", "W", "N"]
Action = Literal["discard", "kong", "win", "claim:win", "claim:kong", "claim:pong", "claim:chow", "pass", "roll"]
ACTIONS: Final[tuple[Action, ...]] = get_args(Action)
"""Every action of the public state's ``actions``, in the order they are listed."""

Claims = TypedDict(
    "Claims",
    {
        "kind": ClaimKind,
        "from": int,  # the seat whose discard (or kong) it is
        "tile": int | None,  # None: not known (tracked mode)
        "answers": list[Answer | None],  # one per seat; the discarder's stays None
        "tiles": list[tuple[int, ...] | None],  # a chow's two tiles from the hand, where named
        "held": int | None,  # the discarder's 下家 that has drawn (its TURN) and waits for the others
    },
)
"""The open claims (phase ``claims``). ``held`` (issue 28, docs/rules.md §17): the 下家 whose
TURN said "I drew and discarded" while another seat could still claim — its answer is a pass,
and when the claims close with no claim its draw (and, tracked, its discard) is made then."""

PendingWin = TypedDict(
    "PendingWin",
    {
        "seat": int,
        "kind": WinKind,
        "tile": int | None,
        "from": int | None,  # the discarder or the robbed kong's declarer
        "prior": Literal["turn", "claims"],  # where a false win (reject_win) goes back to
    },
)
"""A declared win waiting for ``confirm_win`` or ``reject_win`` (phase ``win_pending``)."""

TransferJSON = TypedDict("TransferJSON", {"from": int, "to": int, "amount": int, "reason": Reason})
Payment = TypedDict("Payment", {"from": int, "to": int, "amount": int})
"""One payment of the settle-up at the end of a session (结账, docs/rules.md §17)."""

Settlement = TypedDict(
    "Settlement",
    {
        "result": Literal["win", "draw"],
        "winner": int | None,
        "kind": WinKind | None,
        "wait": WaitKind | None,
        "bonus": bool,  # the wait bonus was paid
        "from": int | None,  # who paid for a discard win (or a robbed kong)
        "transfers": list[TransferJSON],  # every payment of the hand, kongs included
        "deltas": list[int],  # per seat, the transfers' sums
        "dealer": int | None,
        "hand": int,
    },
)
"""How a hand ended and what it paid (``last_settlement``): one shape for wins and draws."""

HandResult = TypedDict(
    "HandResult",
    {
        "hand": int,
        "dealer": int | None,
        "result": Literal["win", "draw"],
        "winner": int | None,
        "kind": WinKind | None,
        "from": int | None,  # the discarder (or the robbed kong's declarer)
        "deltas": list[int],
    },
)
"""A settled hand as the session's results keep it (``TableState.results``): its settlement
without the transfers."""


def hand_result(s: Settlement) -> HandResult:
    """The session's record of a settled hand: part of its settlement."""
    return {"hand": s["hand"], "dealer": s["dealer"], "result": s["result"], "winner": s["winner"],
            "kind": s["kind"], "from": s["from"], "deltas": s["deltas"]}


SETTLEMENT_DEFAULTS: Final[dict[str, object]] = {"bonus": False, "from": None}


def settlement_from_json(d: dict[str, object]) -> Settlement:
    """A settlement read back from a snapshot. Snapshots written before issue 19 kept a drawn
    hand's settlement without ``bonus`` and ``from``: they read as no bonus and no payer."""
    return {key: d[key] if key in d else SETTLEMENT_DEFAULTS[key] for key in Settlement.__annotations__}  # type: ignore[return-value]
