"""Every button of every seat in every phase, on the real engine's states: the right command or
a refusal (and the commands are ones the engine accepts)."""

from __future__ import annotations

import pytest

from hardware.commands import BUTTONS, DICE, Press, Refusal, command_for, event_seat, fair_dice
from tests.hardware.tables import accepts, states

STATES = states()
DICE_ROLL = [3, 5]


def discard(s):
    return {"type": "discard", "seat": s}


def claim(s, call):
    return {"type": "claim", "seat": s, "call": call}


# (state, seat, button) -> command; everything not listed must be refused.
EXPECTED = {
    ("turn", 0, "TURN"): discard(0),
    ("turn", 0, "HU"): {"type": "win", "seat": 0},
    ("turn", 0, "GANG"): {"type": "kong", "seat": 0, "kind": "concealed"},
    ("turn_with_pong", 2, "TURN"): discard(2),
    ("turn_with_pong", 2, "HU"): {"type": "win", "seat": 2},
    ("turn_with_pong", 2, "GANG"): {"type": "kong", "seat": 2, "kind": "added"},
    ("claims", 1, "CHI"): claim(1, "chow"),
    **{("claims", s, "PENG"): claim(s, "pong") for s in (1, 2, 3)},
    **{("claims", s, "GANG"): claim(s, "kong") for s in (1, 2, 3)},
    **{("claims", s, "HU"): claim(s, "win") for s in (1, 2, 3)},
    **{("rob", s, "HU"): claim(s, "win") for s in (0, 1, 3)},
    ("betting", None, DICE): {"type": "roll", "dice": DICE_ROLL},
    ("rolling", None, DICE): {"type": "roll", "dice": DICE_ROLL},
}

CASES = [(name, seat, b) for name in STATES for seat in range(4) for b in BUTTONS] + [
    (name, None, DICE) for name in STATES]


@pytest.mark.parametrize(("name", "seat", "button"), CASES)
def test_every_button_in_every_phase(name, seat, button):
    _events, state = STATES[name]
    public = state.public()
    got = command_for(Press(seat, button), public, last_event_seat=None, dice=lambda: list(DICE_ROLL))
    want = EXPECTED.get((name, seat, button))
    if want is None:
        assert isinstance(got, Refusal), got
        assert got.reason.startswith(f"{public['phase']}: ")
        if seat is not None:
            assert f"seat {seat}" in got.reason
    else:
        assert got == want
        assert accepts(state, got), f"the engine refused {got} in {name}"


@pytest.mark.parametrize("name", list(STATES))
@pytest.mark.parametrize("seat", range(4))
def test_a_held_turn_undoes_only_the_seats_own_last_event(name, seat):
    events, state = STATES[name]
    last = event_seat(events[-1]) if events else None
    got = command_for(Press(seat, "TURN", long=True), state.public(), last_event_seat=last)
    if last == seat:
        assert got == {"type": "undo"}
    else:
        assert isinstance(got, Refusal) and "cannot undo" in got.reason


def test_the_last_events_seat():
    assert event_seat({"type": "discard", "seat": 2}) == 2
    assert event_seat({"type": "resolve"}) is None and event_seat(None) is None


def test_chi_names_the_seat_that_may_chow():
    _, state = STATES["claims"]
    got = command_for(Press(3, "CHI"), state.public())
    assert isinstance(got, Refusal) and "only seat 1" in got.reason


def test_the_dice_are_fair_and_from_secrets():
    counts = [0] * 6
    for _ in range(6000):
        a, b = fair_dice()
        counts[a - 1] += 1
        counts[b - 1] += 1
    assert all(1700 < c < 2300 for c in counts)  # 12000 throws; 2000 expected each, > 6 sigma margin


@pytest.mark.parametrize("bad", [
    lambda: Press(4, "TURN"), lambda: Press(0, "NOPE"), lambda: Press(0, "HU", long=True),
    lambda: Press(1, DICE), lambda: Press(None, "TURN"),
])
def test_presses_check_themselves(bad):
    with pytest.raises(ValueError):
        bad()
