"""The one button mapping (docs/design.md "Presses"): a press and the table's state → the events it
becomes, or a refusal naming the seat and what stands in the way.

Every input sends presses — GPIO buttons, the serial panel, the keyboard in ``--sim``, the
touchscreen's seat buttons, phones, ``play`` files — and the table service turns each into
events here, in its own thread, against the state the events will change. Nothing else
keeps a mapping. The buttons are each seat's TURN, CHI 吃, PENG 碰, GANG 杠 and HU 胡, and
the dice button (no seat):

=========================  =========================================================
TURN, the player to move   ``discard`` (tracked mode; with every tile known the tile
                           must be named, on the touchscreen)
TURN, claims open          ``pass`` — but the discarder's 下家, when nobody has
                           claimed, has drawn and discarded: while another seat that
                           has not answered may claim, its answer (``pass`` that
                           ``drew``), held until the claims close — then its draw and
                           discard are made with the closing event; when nobody else
                           may claim, at once: ``resolve``, then its ``discard``. One
                           press per discard is always enough.
TURN, the 下家, a claim    refused, naming the pending claim
is pending
any, the 下家 whose draw   refused: it has drawn and waits for the others (an undo
is held                    takes the answer back)
CHI PENG GANG HU, claims   ``claim`` with that call
GANG, own turn             ``kong`` of the kind the engine can tell (where both are
                           possible, the touchscreen asks)
HU, own turn               ``win``
DICE, betting or rolling   ``roll`` for the seat due to roll
DICE, seating              no event: the dice are for the seating form
any, held                  as pressed; a held TURN is undo of the last event
=========================  =========================================================

>>> from engine.table import replay
>>> s = replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
...             {"type": "seating", "method": "C", "east": 0},
...             {"type": "roll", "dice": [4, 6]}, {"type": "roll", "dice": [2, 3]},
...             {"type": "discard", "seat": 0}])
>>> [e.to_json() for e in press_events(s, Press(1, "TURN"))]   # the quick 下家: the others may still claim
[{'type': 'pass', 'seat': 1, 'drew': True}]
>>> passed = replay([{"type": "pass", "seat": 2}, {"type": "pass", "seat": 3}], s)
>>> [e.to_json() for e in press_events(passed, Press(1, "TURN"))]   # nobody else may claim: at once
[{'type': 'resolve'}, {'type': 'discard', 'seat': 1}]
>>> press_events(replay([{"type": "claim", "seat": 3, "call": "pong"}], s), Press(1, "TURN"))
Traceback (most recent call last):
...
engine.errors.IllegalEventError: claims: seat 1 cannot take its turn: seat 3's pong (碰) is pending
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal

from engine.claims import prevailing_claim, restates
from engine.errors import IllegalEventError, InvalidEventError, RuleError
from engine.events import Claim, Discard, Event, Kong, Pass, Resolve, Roll, Win
from engine.fields import check_dice
from engine.legal import action_of, legal_moves, may_still_claim, roller
from engine.moves import Effect
from engine.public import PublicState, public_state
from engine.records import Action, Call
from engine.seats import OTHERS
from engine.state import TableState
from engine.table import apply, check_new_event, push

SEAT_BUTTONS: Final = ("TURN", "CHI", "PENG", "GANG", "HU")
BUTTONS: Final = (*SEAT_BUTTONS, "DICE")
CALLS: Final[dict[str, Call]] = {"CHI": "chow", "PENG": "pong", "GANG": "kong", "HU": "win"}
CALL_NAMES: Final = {"win": "win (胡)", "kong": "kong (杠)", "pong": "pong (碰)", "chow": "chow (吃)"}
Button = Literal["TURN", "CHI", "PENG", "GANG", "HU", "DICE"]
PRESSED_WITH: Final[dict[Action, Button]] = {
    "discard": "TURN", "pass": "TURN", "roll": "DICE", "kong": "GANG", "win": "HU",
    "claim:win": "HU", "claim:kong": "GANG", "claim:pong": "PENG", "claim:chow": "CHI",
}
"""The button that makes each action of ``actions`` (the table above, read the other way): every
input and display that shows a seat's buttons asks it. A seat that may pass presses TURN — but
the discarder's 下家's TURN is "I drew and discarded" (the public state's ``claims.next``), so
a screen offers 过 as the ``pass`` event itself."""


@dataclass(frozen=True)
class Press:
    """A button pressed: a seat's (``seat`` 0..3) or the dice button (``seat`` None).
    ``held``: pressed long. ``dice``: what an electronic dice showed (the panel's ``DICE``);
    without it the table rolls.

    >>> Press(2, "PENG").to_json()
    {'type': 'press', 'seat': 2, 'button': 'PENG', 'held': False}
    >>> Press(None, "PENG")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidEventError: press: PENG is a seat's button: 'seat' must be a seat 0..3, got None
    """

    TYPE: ClassVar[str] = "press"
    seat: int | None
    button: str
    held: bool = False
    dice: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if self.button not in BUTTONS:
            raise InvalidEventError(f"press: 'button' must be one of {', '.join(BUTTONS)}, got {self.button!r}")
        if self.button == "DICE":
            if self.seat is not None:
                raise InvalidEventError(f"press: the dice button belongs to no seat, got seat {self.seat!r}")
        elif type(self.seat) is not int or not 0 <= self.seat <= 3:
            raise InvalidEventError(f"press: {self.button} is a seat's button: 'seat' must be a seat 0..3, "
                                    f"got {self.seat!r}")
        if type(self.held) is not bool:
            raise InvalidEventError(f"press: 'held' must be true or false, got {self.held!r}")
        if self.dice is not None:
            if self.button != "DICE":
                raise InvalidEventError(f"press: only the dice button carries 'dice', not {self.button}")
            object.__setattr__(self, "dice", check_dice(self.dice, "dice", "press"))

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.TYPE, "seat": self.seat, "button": self.button, "held": self.held}
        if self.dice is not None:
            d["dice"] = list(self.dice)
        return d

    def label(self) -> str:
        """A short name for logs and the journal's source column: ``2:PENG``, ``DICE``, ``0:TURN:held``."""
        who = "" if self.seat is None else f"{self.seat}:"
        return f"{who}{self.button}{':held' if self.held else ''}"


_FIELDS: Final = ("type", "seat", "button", "held", "dice")


def parse_press(obj: object) -> Press:
    """A press from its JSON object; :class:`InvalidEventError` quoting it if malformed.

    >>> parse_press({"type": "press", "seat": 1, "button": "TURN"})
    Press(seat=1, button='TURN', held=False, dice=None)
    """
    if isinstance(obj, Press):
        return obj
    if not isinstance(obj, Mapping) or obj.get("type") != "press":
        raise InvalidEventError(f"a press is an object with type 'press', got {obj!r}")
    extra = [k for k in obj if k not in _FIELDS]
    if extra:
        raise InvalidEventError(f"press: unknown field {extra[0]!r} (fields: seat, button, held, dice)"
                                f" in {dict(obj)!r}")
    if "button" not in obj:
        raise InvalidEventError(f"press: missing field 'button' in {dict(obj)!r}")
    dice = obj.get("dice")
    return Press(obj.get("seat"), obj["button"], obj.get("held", False), None if dice is None else dice)


def due_to_roll(actions: Sequence[Sequence[str]]) -> int | None:
    """The seat due to roll, read from the public state's ``actions`` (the one that holds
    ``roll``: :func:`engine.legal.roller`), or None.

    >>> due_to_roll([[], [], ["roll"], []]), due_to_roll([["discard"], [], [], []])
    (2, None)
    """
    return next((s for s, acts in enumerate(actions) if "roll" in acts), None)


def seat_press(seat: int, button: str, held: bool, actions: Sequence[Sequence[str]]) -> Press:
    """The press a seat's own device makes (a phone's button): the seat's buttons as pressed;
    the dice button, which belongs to no seat, only from the seat due to roll (``roll`` among
    its ``actions``, the public state's: :func:`engine.legal.roller`) — from any other seat it
    is refused (``press.not_roller``, with the seat that is due, if any).

    >>> seat_press(2, "PENG", False, [[], [], [], []])
    Press(seat=2, button='PENG', held=False, dice=None)
    >>> seat_press(0, "DICE", False, [["roll"], [], [], []])
    Press(seat=None, button='DICE', held=False, dice=None)
    >>> seat_press(1, "DICE", False, [["roll"], [], [], []])
    Traceback (most recent call last):
    ...
    engine.errors.IllegalEventError: seat 1 cannot roll: the dice are seat 0's to roll now
    """
    if button != "DICE":
        return Press(seat, button, held)
    due = due_to_roll(actions)
    if due != seat:
        whose = "nobody's" if due is None else f"seat {due}'s"
        raise IllegalEventError(f"seat {seat} cannot roll: the dice are {whose} to roll now", "press.not_roller",
                                seat=seat, button=button, roller=due)
    return Press(None, "DICE")


@dataclass(frozen=True)
class Undo:
    """What a held TURN becomes: undo of the last event (the service's ``{"type": "undo"}``)."""


UNDO: Final = Undo()


Dice = tuple[int, int] | Callable[[], tuple[int, int]]


@dataclass(frozen=True)
class Step:
    """One event a press became, applied: what the engine says happened, and the public state after it."""

    event: Event
    effects: tuple[Effect, ...]
    public: PublicState


@dataclass(frozen=True)
class Pressed:
    """A press applied in one step: the state after all its events (a new one: the state
    pressed on is not changed) and each event with its effects and public state. No steps: the
    dice button during seating (the dice are for the seating form)."""

    state: TableState
    steps: tuple[Step, ...]


def apply_press(s: TableState, press: Press, dice: Dice | None = None) -> Pressed | Undo:
    """Check and apply what ``press`` means in ``s``, all of it or nothing: :data:`UNDO`, or
    the events applied to one copy of ``s``; a :class:`RuleError` says why not. ``dice``: the
    roll for a DICE press that carries none — two dice, or the service's random source, asked
    only when a roll is made.

    >>> from engine.table import replay
    >>> s = replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
    ...             {"type": "seating", "method": "C", "east": 0},
    ...             {"type": "roll", "dice": [4, 6]}, {"type": "roll", "dice": [2, 3]},
    ...             {"type": "discard", "seat": 0}])
    >>> pressed = apply_press(replay([{"type": "pass", "seat": 2}, {"type": "pass", "seat": 3}], s), Press(1, "TURN"))
    >>> [step.event.TYPE for step in pressed.steps], pressed.state.turn, s.phase
    (['resolve', 'discard'], None, 'claims')
    """
    if press.held and press.button == "TURN":
        return UNDO
    after = s.copy()
    steps = [_step(s, after, press, ev) for ev in _meaning(s, press, dice)]
    seat = press.seat
    if seat is not None and _quick_next(s, press) and after.phase == "turn" and after.turn == seat and not after.full:
        # the 下家 drew (nobody claimed) and discarded: its discard, in the same press
        steps.append(_step(s, after, press, Discard(seat)))
    return Pressed(after, tuple(steps))


def press_events(s: TableState, press: Press, dice: Dice | None = None) -> list[Event] | Undo:
    """The events ``press`` becomes in state ``s`` (checked: ``s`` would accept them in turn),
    :data:`UNDO`, or a :class:`RuleError` saying why not. ``s`` is not changed."""
    pressed = apply_press(s, press, dice)
    return pressed if isinstance(pressed, Undo) else [step.event for step in pressed.steps]


def _step(s: TableState, after: TableState, press: Press, ev: Event) -> Step:
    """Push one of the press's events onto ``after``; a refusal names the press."""
    try:
        check_new_event(after, ev)
        effects = push(after, ev)
    except RuleError as e:
        raise _refuse(s, press, _reason(e), "cannot", action=action_of(ev)) from None
    return Step(ev, tuple(effects), public_state(after))


def _quick_next(s: TableState, press: Press) -> bool:
    """The discarder's 下家's TURN while claims on a discard are open: it has drawn and discarded."""
    c = s.claims
    return (s.phase == "claims" and press.button == "TURN" and c is not None and c["kind"] == "discard"
            and press.seat == OTHERS[c["from"]][0])


def _refuse(s: TableState, press: Press, why: str, code: str, **params: Any) -> IllegalEventError:
    who = f"seat {press.seat} " if press.seat is not None else ""
    return IllegalEventError(f"{s.phase}: {who}{why}", f"press.{code}", seat=press.seat, button=press.button,
                             phase=s.phase, **params)


def _meaning(s: TableState, press: Press, dice: Dice | None) -> list[Event]:
    phase, seat, button = s.phase, press.seat, press.button
    if button == "DICE":
        if phase == "seating":
            return []  # the seating form takes the dice (method A's roll, B's next seat)
        due = roller(s)
        if due is None:
            raise _refuse(s, press, "cannot roll the dice now: they are rolled only before the deal", "phase")
        roll = press.dice or (dice() if callable(dice) else dice)
        if roll is None:
            raise InvalidEventError("press: a DICE press needs its dice (the panel's, or the table's roll)")
        return [Roll(roll, due)]
    assert seat is not None
    if phase == "turn":
        return _own_turn(s, press, seat)
    if phase == "claims":
        return _claims(s, press, seat)
    before_deal = "press the dice button to roll" if button == "TURN" else "there is no discard to claim yet"
    why = {
        "idle": "no session yet: start one on the screen",
        "seating": "the seats are being chosen on the screen",
        "betting": before_deal,
        "rolling": before_deal,
        "win_pending": "the declared win is being checked on the screen",
        "hand_over": "the hand is over: the next hand starts on the screen",
        "ended": "the session is over",
    }[phase]
    raise _refuse(s, press, f"cannot {button} now: {why}", "phase")


def _own_turn(s: TableState, press: Press, seat: int) -> list[Event]:
    if seat != s.turn:
        raise _refuse(s, press, f"cannot {press.button}: it is seat {s.turn}'s turn", "not_turn", turn=s.turn)
    moves = legal_moves(s, seat)
    if press.button == "TURN":
        if s.full:
            raise _refuse(s, press, "must name the tile to discard (every tile is known): discard on the screen",
                          "needs_tile")
        return [m for m in moves if isinstance(m, Discard)]
    if press.button == "HU":
        return _one_of(s, press, [m for m in moves if isinstance(m, Win)], "win", Win(seat))
    if press.button == "GANG":
        kongs = [m for m in moves if isinstance(m, Kong)]
        if len(kongs) > 1:
            kinds = " or ".join(sorted({k.kind for k in kongs}))
            raise _refuse(s, press, f"may declare more than one kong ({kinds}): choose it on the screen",
                          "kong_which")
        return _one_of(s, press, kongs, "kong", None if s.full else Kong(seat, "concealed"))
    raise _refuse(s, press, f"cannot {CALL_NAMES[CALLS[press.button]]} on its own turn: it discards, kongs or wins",
                  "own_turn", action=f"claim:{CALLS[press.button]}")


def _claims(s: TableState, press: Press, seat: int) -> list[Event]:
    c = s.claims
    assert c is not None
    if seat == c["from"]:
        what = "discarded this tile" if c["kind"] == "discard" else "declared this kong"
        raise _refuse(s, press, f"{what}: the others answer", "own_discard")
    if c["held"] == seat:
        raise _refuse(s, press, "has drawn and discarded: it waits for the others to answer", "held")
    if press.button == "TURN":
        if c["kind"] == "discard" and seat == OTHERS[c["from"]][0]:
            return _next_seat_turn(s, press, seat)
        return [Pass(seat)]
    call = CALLS[press.button]
    if c["answers"][seat] == call and (call != "chow" or restates(s, Claim(seat, call))):
        raise _refuse(s, press, f"has already claimed {CALL_NAMES[call]}: once is enough", "again", call=call)
    moves = [m for m in legal_moves(s, seat) if isinstance(m, Claim) and m.call == call]
    if len(moves) > 1:
        raise _refuse(s, press, f"may chow in {len(moves)} ways: choose the tiles on the screen", "chow_which")
    return _one_of(s, press, moves, f"claim:{call}", Claim(seat, call))


def _next_seat_turn(s: TableState, press: Press, seat: int) -> list[Event]:
    """The 下家's TURN during claims on a discard: it has drawn and discarded (nobody claimed).
    While another seat that has not answered may claim (docs/rules.md §17), that is its answer,
    held until the claims close (``pass`` that ``drew``: the engine draws and discards for it
    then, if nobody claimed); else the claims resolve now (its discard follows in
    :func:`apply_press`, unless the hand ended drawn or every tile is known: then its discard
    names one)."""
    c = s.claims
    assert c is not None
    pending = prevailing_claim(c)
    if pending is not None:
        who, call = pending
        mine = "its own" if who == seat else f"seat {who}'s"
        raise _refuse(s, press, f"cannot take its turn: {mine} {CALL_NAMES[call]} is pending", "claim_pending",
                      claimant=who, call=call)
    if may_still_claim(s, seat):
        return [Pass(seat, drew=True)]
    return [Resolve()]


def _one_of(
    s: TableState, press: Press, moves: Sequence[Event], action: str, tried: Event | None = None
) -> list[Event]:
    if moves:
        return [moves[0]]
    detail = ""
    if tried is not None:  # not legal now: the engine's own refusal says why
        try:
            apply(s, tried)
        except RuleError as e:
            detail = _reason(e)
    generic = {"win": "cannot win: its hand does not win", "kong": "cannot kong: it has no kong to declare now"}
    raise _refuse(s, press, detail or generic.get(action, f"cannot {action} now"), "cannot", action=action)


_PREFIX: Final = re.compile(r"^\w+: (seat \d )?")


def _reason(e: RuleError) -> str:
    """An engine refusal without its ``phase: seat n`` head (the press's refusal adds its own)."""
    return _PREFIX.sub("", str(e), count=1)


__all__ = ["BUTTONS", "CALLS", "PRESSED_WITH", "SEAT_BUTTONS", "UNDO", "Button", "Press", "Pressed", "Step", "Undo",
           "apply_press", "due_to_roll", "parse_press", "press_events", "seat_press"]
