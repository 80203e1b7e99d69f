"""A claim is said once (docs/rules.md §17, issue 27 item 6): the same seat's same call again in
the same claims is refused with a reason — a double tap on 碰 is recorded once —, while a
changed answer is still taken and a journal that holds a repeated claim still replays."""

from __future__ import annotations

import pytest

from engine.errors import IllegalEventError
from engine.events import Claim
from engine.legal import actions, claimants, legal_moves
from engine.presses import Press, Pressed, apply_press
from engine.state import TableState
from engine.table import apply, replay
from engine.tiles import tile_text
from tests.hardware.tables import START

DISCARD = [*START, {"type": "discard", "seat": 0}]


def test_the_same_claim_again_is_refused_with_a_reason() -> None:
    s = replay([*DISCARD, {"type": "claim", "seat": 2, "call": "pong"}])
    with pytest.raises(IllegalEventError) as e:
        apply(s, {"type": "claim", "seat": 2, "call": "pong"})
    assert e.value.code == "claim.again" and e.value.params == {"seat": 2, "phase": "claims", "call": "pong"}
    assert str(e.value) == "claims: seat 2 has already claimed pong on this tile: once is enough"


def test_a_changed_answer_is_taken_and_another_seat_may_make_the_same_call() -> None:
    s = replay([*DISCARD, {"type": "claim", "seat": 2, "call": "pong"}])
    s2, _ = apply(s, {"type": "claim", "seat": 2, "call": "win"})  # (a change of mind, §8)
    assert s2.claims is not None and s2.claims["answers"][2] == "win"
    s3, _ = apply(s, {"type": "claim", "seat": 3, "call": "pong"})
    assert s3.claims is not None and s3.claims["answers"][3] == "pong"
    s4, _ = apply(s2, {"type": "claim", "seat": 2, "call": "pong"})  # (back to pong: a change again)
    assert s4.claims is not None and s4.claims["answers"][2] == "pong"


def test_a_repeated_peng_press_is_refused_and_the_button_is_no_longer_offered() -> None:
    s = replay(DISCARD)
    pressed = apply_press(s, Press(2, "PENG"))
    assert isinstance(pressed, Pressed) and [st.event for st in pressed.steps] == [Claim(2, "pong")]
    after = pressed.state
    assert "claim:pong" not in actions(after)[2] and "claim:win" in actions(after)[2]
    with pytest.raises(IllegalEventError) as e:
        apply_press(after, Press(2, "PENG"))
    assert e.value.code == "press.again" and e.value.params["call"] == "pong"
    assert claimants(after) == claimants(s)  # (the seats that may claim: the same)


def test_a_chow_is_said_once_too() -> None:
    s = replay([*DISCARD, {"type": "claim", "seat": 1, "call": "chow"}])  # tracked: no tiles named
    for again in ({"type": "claim", "seat": 1, "call": "chow"}, {"type": "claim", "seat": 1, "call": "chow",
                                                                 "tiles": "34m"}):
        with pytest.raises(IllegalEventError) as e:
            apply(s, again)
        assert e.value.code == "claim.again"
    assert not any(isinstance(m, Claim) and m.call == "chow" for m in legal_moves(s, 1))


def test_with_every_tile_known_another_chow_is_a_changed_answer() -> None:
    after, chows = _two_chows()
    first, second = chows[0], chows[1]
    s1, _ = apply(after, first)
    with pytest.raises(IllegalEventError):
        apply(s1, first)
    s2, _ = apply(s1, second)
    assert s2.claims is not None and s2.claims["tiles"][1] == second.tiles
    assert [m for m in legal_moves(s1, 1) if isinstance(m, Claim) and m.call == "chow"] == chows[1:]


def _two_chows() -> tuple[TableState, list[Claim]]:
    """A dealt table (every tile known) where the dealer's first discard gives its 下家 two chows."""
    for seed in range(200):
        s = replay([{**START[0], "wall_seed": seed}, *START[1:]])
        conc = s.seats[0].concealed
        assert conc is not None
        for t in (t for t in range(34) if conc[t]):
            after, _ = apply(s, {"type": "discard", "seat": 0, "tile": tile_text(t)})
            chows = [m for m in legal_moves(after, 1) if isinstance(m, Claim) and m.call == "chow"]
            if len(chows) >= 2:
                return after, chows
    raise AssertionError("no seed below 200 gives the 下家 two chows on the dealer's first discard")


def test_a_journal_with_a_repeated_claim_still_replays() -> None:
    s = replay([*DISCARD, *[{"type": "claim", "seat": 2, "call": "pong"}] * 3, {"type": "resolve"}])
    assert s.phase == "turn" and s.turn == 2 and [m.kind for m in s.seats[2].melds] == ["pong"]
