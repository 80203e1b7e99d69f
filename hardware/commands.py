"""What a button press means now: press + the table's public state → a command, or a refusal.

Pure: no pins, no service. The seat buttons are TURN (I have discarded), CHI, PENG, GANG and
HU; the dice button belongs to no seat. By phase:

========  ==========================================================================
TURN      ``turn``, the seat to move: ``discard``. Held (long): ``undo``, only when that
          seat made the last event (any phase).
CHI       ``claims`` on a discard, the discarder's 下家: ``claim`` chow.
PENG      ``claims`` on a discard, not the discarder: ``claim`` pong.
GANG      ``claims`` on a discard, not the discarder: ``claim`` kong; ``turn``, the seat to
          move: ``kong`` — ``added`` if it has an exposed pong, else ``concealed`` (a
          concealed kong by a seat that also has a pong is entered on the touchscreen).
HU        ``claims`` (a discard, or an added kong to rob), not its owner: ``claim`` win;
          ``turn``, the seat to move: ``win`` (self-drawn).
dice      ``betting`` / ``rolling``: ``roll`` with two dice from ``secrets``.
========  ==========================================================================

Anything else is a :class:`Refusal` naming the phase, the seat and the button; the caller
shows it on that seat (LED flash, beep) and nothing changes. The engine still checks every
command it gets (a pong without two matching tiles is refused there).

>>> command_for(Press(1, "PENG"), {"phase": "claims", "claims": {"kind": "discard", "from": 0, "waiting": [1, 2, 3]}})
{'type': 'claim', 'seat': 1, 'call': 'pong'}
>>> command_for(Press(0, "PENG"), {"phase": "claims", "claims": {"kind": "discard", "from": 0, "waiting": [1, 2, 3]}})
Refusal(seat=0, button='PENG', reason='claims: seat 0 cannot PENG its own discard')
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

BUTTONS = ("TURN", "CHI", "PENG", "GANG", "HU")
DICE = "DICE"


@dataclass(frozen=True)
class Press:
    """A settled press: a seat's button (``long``: TURN held), or the dice button (seat None)."""

    seat: int | None
    button: str
    long: bool = False

    def __post_init__(self) -> None:
        if self.button == DICE:
            if self.seat is not None or self.long:
                raise ValueError(f"the dice button has no seat and no long press: {self!r}")
            return
        if self.button not in BUTTONS:
            raise ValueError(f"unknown button {self.button!r} (known: {', '.join((*BUTTONS, DICE))})")
        if type(self.seat) is not int or not 0 <= self.seat <= 3:
            raise ValueError(f"a seat button needs a seat 0..3, got {self.seat!r}")
        if self.long and self.button != "TURN":
            raise ValueError(f"only TURN has a long press, got {self.button}")


@dataclass(frozen=True)
class Refusal:
    """A press that makes no sense now; nothing is sent to the table."""

    seat: int | None
    button: str
    reason: str


def fair_dice() -> list[int]:
    return [secrets.randbelow(6) + 1, secrets.randbelow(6) + 1]


Command = dict[str, Any]


def command_for(press: Press, public: Mapping[str, Any], *, last_event_seat: int | None = None,
                dice: Callable[[], list[int]] = fair_dice) -> Command | Refusal:
    phase = public.get("phase")
    seat, button = press.seat, press.button
    name = "TURN (held)" if press.long else button

    def no(why: str) -> Refusal:
        who = f"seat {seat} " if seat is not None else ""
        return Refusal(seat, button, f"{phase}: {who}{why}")

    if button == DICE:
        if phase in ("betting", "rolling"):
            return {"type": "roll", "dice": dice()}
        return no("cannot roll the dice now (only before the deal: betting, rolling)")
    assert seat is not None
    if press.long:
        if last_event_seat is not None and last_event_seat == seat:
            return {"type": "undo"}
        last = "no seat" if last_event_seat is None else f"seat {last_event_seat}"
        return no(f"cannot undo: the last event was made by {last}")
    turn = public.get("turn") if phase == "turn" else None
    claims = public.get("claims") if phase == "claims" else None
    if phase == "turn":
        if seat != turn:
            return no(f"cannot {name}: it is seat {turn}'s turn")
        if button == "TURN":
            return {"type": "discard", "seat": seat}
        if button == "HU":
            return {"type": "win", "seat": seat}
        if button == "GANG":
            return {"type": "kong", "seat": seat, "kind": "added" if _has_pong(public, seat) else "concealed"}
        return no(f"cannot {name} on its own turn (it discards, kongs or wins)")
    if claims is not None:
        frm = claims.get("from")
        if seat == frm:
            what = "its own discard" if claims.get("kind") == "discard" else "its own kong"
            return no(f"cannot {name} {what}")
        if claims.get("kind") == "rob" and button != "HU":
            return no(f"cannot {name}: an added kong's tile may only be robbed with HU (抢杠)")
        if button == "HU":
            return {"type": "claim", "seat": seat, "call": "win"}
        if button == "GANG":
            return {"type": "claim", "seat": seat, "call": "kong"}
        if button == "PENG":
            return {"type": "claim", "seat": seat, "call": "pong"}
        if button == "CHI":
            nxt = (frm + 1) % 4 if isinstance(frm, int) else None
            if seat != nxt:
                return no(f"cannot CHI: only seat {nxt}, the discarder's 下家, may chow")
            return {"type": "claim", "seat": seat, "call": "chow"}
        return no("cannot TURN during the claims (CHI, PENG, GANG or HU claim; the window closes by itself)")
    return no(f"cannot {name} now")


def _has_pong(public: Mapping[str, Any], seat: int) -> bool:
    seats = public.get("seats") or []
    if seat >= len(seats) or not seats[seat]:
        return False
    return any(m.get("kind") == "pong" for m in seats[seat].get("melds", []))


def event_seat(event: Mapping[str, Any] | None) -> int | None:
    """The seat that made an event (its ``seat`` field), for the long-TURN undo rule."""
    if not event:
        return None
    seat = event.get("seat")
    return seat if isinstance(seat, int) else None
