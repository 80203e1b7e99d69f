"""Each seat's buttons as every screen shows them: their places, what each is labelled, whether
it is enabled now and what a tap sends — read from the engine's ``actions`` and its one table of
which button makes which action (``engine.presses.PRESSED_WITH``); nothing here decides a rule.

Every seat's panel has the same six buttons in the same places (:data:`PLAY_SLOTS`: 出牌 吃
碰 杠 胡 过, the panel's TURN CHI PENG GANG HU and a pass), each enabled only when ``actions``
has its action; before the deal the same places hold 掷骰, 注 − and 注 +. The phones show the
same buttons, labelled and enabled as this module says (:func:`phone_buttons`).

>>> from engine.table import replay
>>> from engine.public import public_state
>>> pub = public_state(replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
...     {"type": "seating", "method": "C", "east": 0}, {"type": "roll", "dice": [4, 6]},
...     {"type": "roll", "dice": [2, 3]}, {"type": "discard", "seat": 0}]))
>>> [s.action for s in slots(pub, 2)]
[None, None, 'claim_pong', 'claim_kong', 'claim_win', 'pass']
>>> command("claim_pong", 2)
{'type': 'press', 'seat': 2, 'button': 'PENG', 'held': False}
>>> [b["button"] for b in phone_buttons(pub, 1) if b["enabled"]]
['HU', 'GANG', 'PENG', 'CHI', 'pass', 'TURN']
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple, TypedDict

from engine.presses import PRESSED_WITH, due_to_roll
from engine.public import PublicState
from engine.records import ACTIONS, Action
from engine.table import accepts
from table_app.present.forms import bets
from table_app.present.vocab_link import LINK
from table_app.present.vocab_page import PAGE
from table_app.present.words import tr

PLAY_SLOTS: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    ("discard", ("discard",)),
    ("chow", ("claim_chow",)),
    ("pong", ("claim_pong",)),
    ("kong", ("kong", "claim_kong")),
    ("win", ("win", "claim_win")),
    ("pass", ("pass",)),
)
"""The six places of a seat's buttons and the actions each one sends (never another)."""
BET_SLOTS: Final = ("roll", "bet_down", "bet_up")
STYLE: Final = {"discard": "go", "roll": "go", "chow": "claim", "pong": "claim", "kong": "claim", "win": "win",
                "pass": "pass", "bet_down": "plain", "bet_up": "plain"}
_ACTION_OF: Final[dict[str, Action]] = {a.replace(":", "_"): a for a in ACTIONS}
"""A button's id on a screen (``claim_pong``) → the engine's action (``claim:pong``)."""


class Slot(NamedTuple):
    """One of a panel's button places: ``key`` names the place (and its word, ``slot_<key>``),
    ``action`` is what a tap sends now (None: disabled), ``style`` its colour."""

    key: str
    action: str | None
    style: str
    shown: bool = True


class Command(TypedDict, total=False):
    type: str
    seat: int | None
    button: str
    held: bool
    dice: list[int]
"""What a tap sends the service: a press (as a wired button would), or the ``pass`` event."""


def buttons(pub: PublicState, seat: int) -> list[str]:
    """The actions seat ``seat`` is offered now, as button ids (``claim:pong`` is ``claim_pong``)."""
    return [a.replace(":", "_") for a in pub["actions"][seat]]


def roller(pub: PublicState) -> int | None:
    """The seat due to roll (the engine's reading of ``actions``)."""
    return due_to_roll(pub["actions"])


def slots(pub: PublicState, seat: int) -> list[Slot]:
    """The six places of seat ``seat``'s buttons, each with what a tap sends now."""
    acts = buttons(pub, seat)
    if pub["phase"] in ("betting", "rolling"):
        open_ = bets.open_now(pub)  # (− and + while the bets form is open)
        out = [Slot("roll", "roll" if "roll" in acts else None, "go"),
               Slot("bet_down", "bet_down" if open_ else None, "plain"),
               Slot("bet_up", "bet_up" if open_ else None, "plain")]
        return out + [Slot(f"none{i}", None, "off", shown=False) for i in range(3)]
    return [Slot(key, next((a for a in sends if a in acts), None), STYLE[key]) for key, sends in PLAY_SLOTS]


def command(action: str, seat: int, dice: tuple[int, int] | list[int] | None = None) -> Command:
    """What a seat panel's button sends: the press of the button that makes the action (the
    engine's table); 过 is the ``pass`` event (on the screen a seat passes one tile — the TURN
    button of the discarder's 下家 would also take its turn); a roll by touch is the dice
    button with the dice entered."""
    if action == "pass":
        return {"type": "pass", "seat": seat}
    if action == "roll":
        if dice is None:
            raise ValueError("a roll by touch carries the dice entered")
        return {"type": "press", "seat": None, "button": "DICE", "held": False, "dice": list(dice)}
    if action not in _ACTION_OF:
        raise ValueError(f"unknown action {action!r} for seat {seat}")
    return {"type": "press", "seat": seat, "button": PRESSED_WITH[_ACTION_OF[action]], "held": False}


def forward(pub: PublicState, score_only: bool = False) -> list[tuple[int | None, str]]:
    """What moves the table on now, as (seat, action) for a seat's button or (None, step) for
    the table's own button in the middle: never empty (the layout test checks that each is on
    the screen, enabled). The table's own step is the engine's (``step``); a session that has
    ended offers its results."""
    if pub["phase"] == "ended":
        return [(None, "final")]
    if pub["step"] is not None:
        return [(None, pub["step"])]
    if score_only and "score_hand" in accepts(pub["phase"]):  # (before the hand's first roll or bets)
        return [(None, "score_hand")]
    moves: list[tuple[int | None, str]] = [(seat, s.action) for seat in range(len(pub["actions"]))
                                           for s in slots(pub, seat)
                                           if s.action is not None and s.action not in ("bet_down", "bet_up")]
    return moves or [(None, "menu")]


PhoneButton = Literal["TURN", "CHI", "PENG", "GANG", "HU", "pass"]
PHONE_BUTTONS: Final[tuple[tuple[PhoneButton, str], ...]] = (
    ("HU", "slot_win"), ("GANG", "slot_kong"), ("PENG", "slot_pong"), ("CHI", "slot_chow"), ("pass", "slot_pass"),
    ("TURN", "slot_discard"))


class PhoneKey(TypedDict):
    """One of a phone's buttons: the press it sends (``pass``: the pass event), its label, and
    whether it does something now."""

    button: PhoneButton
    send: str  # the button a tap presses (TURN's is DICE while the seat is due to roll), or "pass"
    zh: str
    en: str
    enabled: bool


def phone_buttons(pub: PublicState, seat: int) -> list[PhoneKey]:
    """A phone's six buttons, as the seat's wired ones: each enabled when an action of the seat
    is made with it (``PRESSED_WITH``); TURN rolls for the seat due to roll, and is the
    quick 下家's "drew and discarded" while claims on the discard before it are open."""
    acts = pub["actions"][seat]
    claims = pub["claims"]
    quick = claims is not None and claims["next"] == seat and "pass" in acts
    made = {PRESSED_WITH[a] for a in acts if a != "pass"}
    out: list[PhoneKey] = []
    for button, word in PHONE_BUTTONS:
        if button == "pass":
            enabled = "pass" in acts
        elif button == "TURN":
            enabled = "TURN" in made or "DICE" in made or quick
            word = "slot_roll" if "roll" in acts else "slot_quick" if quick else word
        else:
            enabled = button in made
        send = "DICE" if button == "TURN" and "roll" in acts else button
        out.append({"button": button, "send": send, "zh": tr(word, "zh"), "en": tr(word, "en"), "enabled": enabled})
    return out


PHONE_WORDS: Final = ("ph_dealer", "ph_rank", "ph_seat", "ph_no_wind", "ph_last", "ph_score", "ph_reconnecting",
                      "ph_hand", "ph_won", "ph_last_hand", "ph_session", "settle_up", "ph_live",
                      "ph_connecting", "ph_offline", "ph_leave", "ph_refused", "ph_saving", "ph_tap_again",
                      "ph_east_taps", "ph_i_drew_east", "ph_how_waited", "ph_false_win", "ph_winner_confirms",
                      "go_new_session", "go_confirm_win", "go_next_hand", "end_session", "kong_concealed", "kong_added",
                      "fe_house", *(word for _button, word in PHONE_BUTTONS), *PAGE, *LINK)
"""The words a phone's page shows beside its view's own lines (served with the view)."""

