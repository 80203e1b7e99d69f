"""Issue 28, item 13 (docs/rules.md §17, the quick 下家): the discarder's 下家's one press "I drew
and discarded" is held while a seat that has not answered may still claim — the others keep
their chance — and made when the claims close with no claim; a higher claim beats it; where
nobody else may claim it applies at once. On the real engine, both modes."""

from __future__ import annotations

import json

import pytest

from engine.errors import IllegalEventError
from engine.events import Claim, Discard, Pass, Resolve
from engine.legal import actions, may_still_claim
from engine.presses import UNDO, Press, Pressed, apply_press, press_events
from engine.public import public_state
from engine.table import TableState, apply, replay
from tests.hardware.tables import START, last_discard, states

CLAIMS = states()["claims"][1]  # tracked mode: seat 0 (the dealer) discarded; seat 1 is its 下家
HELD = {"type": "pass", "seat": 1, "drew": True}


def pressed(s: TableState, *presses: Press) -> TableState:
    for p in presses:
        result = apply_press(s, p)
        assert isinstance(result, Pressed)
        s = result.state
    return s


def full_claims(discard: str, seed: int = 1) -> TableState:
    """Full-tile mode, seed 1: the dealer (seat 0) has discarded ``discard``."""
    return replay([{**START[0], "wall_seed": seed}, *START[1:], {"type": "discard", "seat": 0, "tile": discard}])


def test_the_press_is_held_while_others_may_claim() -> None:
    s = pressed(CLAIMS, Press(1, "TURN"))
    assert s.phase == "claims" and s.claims is not None
    assert s.claims["held"] == 1 and s.claims["answers"] == [None, "pass", None, None]
    assert s.seats[1].count == 13 and s.wall.head_taken == CLAIMS.wall.head_taken  # nothing drawn yet
    pub = public_state(s)
    assert pub["claims"] is not None
    assert pub["claims"]["held"] == 1 and pub["claims"]["next"] is None and pub["claims"]["waiting"] == [2, 3]
    assert pub["actions"][1] == [] and "claim:pong" in pub["actions"][2] and "claim:win" in pub["actions"][3]


def test_held_then_another_seat_pongs_the_pong_takes_the_tile() -> None:
    s = pressed(CLAIMS, Press(1, "TURN"), Press(3, "PENG"), Press(2, "TURN"))  # the last answer closes them
    assert s.phase == "turn" and s.turn == 3 and s.seats[3].melds[-1].kind == "pong"
    assert s.seats[1].count == 13 and s.seats[1].discards == []  # the 下家's tile goes back: it drew nothing
    assert s.wall.head_taken == CLAIMS.wall.head_taken


def test_held_then_a_win_beats_it_and_a_false_win_brings_the_held_draw_back() -> None:
    s = pressed(CLAIMS, Press(1, "TURN"), Press(2, "HU"))
    s = replay([{"type": "pass", "seat": 3}], s)  # all have answered: seat 2's win is declared
    assert s.phase == "win_pending" and s.pending is not None and s.pending["seat"] == 2
    back = replay([{"type": "reject_win"}], s)  # a false claim counts as a pass: the held draw is made
    assert back.phase == "claims" and back.claims is not None and back.claims["from"] == 1
    assert back.seats[1].count == 13 and len(back.seats[1].discards) == 1


def test_held_then_all_others_pass_the_draw_and_discard_are_made() -> None:
    s = pressed(CLAIMS, Press(1, "TURN"), Press(2, "TURN"))
    assert s.phase == "claims" and s.claims is not None and s.claims["from"] == 0  # still waiting for seat 3
    closed = apply_press(s, Press(3, "TURN"))
    assert isinstance(closed, Pressed)
    assert [step.event for step in closed.steps] == [Pass(3)]  # one press, one event: the engine does the rest
    after = closed.state
    assert after.phase == "claims" and after.claims is not None and after.claims["from"] == 1  # its discard
    assert after.claims["held"] is None and after.seats[1].count == 13 and after.seats[1].discards == [None]
    assert after.wall.head_taken == CLAIMS.wall.head_taken + 1
    whats = [e.what for e in closed.steps[0].effects]
    assert whats == ["drew", "claims_open"]  # (the service opens the next window on claims_open)


def test_the_window_closing_makes_the_held_draw() -> None:
    """The service's ``resolve`` at the deadline: the same as every seat answering."""
    s = pressed(CLAIMS, Press(1, "TURN"))
    after, effects = apply(s, Resolve())
    assert [e.what for e in effects] == ["drew", "claims_open"]
    assert after.phase == "claims" and after.claims is not None and after.claims["from"] == 1
    assert after.to_json() == pressed(CLAIMS, Press(1, "TURN"), Press(2, "TURN"), Press(3, "TURN")).to_json()


def test_nobody_else_may_claim_the_press_applies_at_once() -> None:
    # tracked mode: the others have answered
    answered = replay([{"type": "pass", "seat": 2}, {"type": "pass", "seat": 3}], CLAIMS)
    assert may_still_claim(answered, 1) == []
    assert press_events(answered, Press(1, "TURN")) == [Resolve(), Discard(1)]
    # full-tile mode: nobody holds a pair of 5m or wins with it — the quick table stays quick
    quick = full_claims("5m")
    assert may_still_claim(quick, 1) == [] and actions(quick)[2] == actions(quick)[3] == ["pass"]
    assert press_events(quick, Press(1, "TURN")) == [Resolve()]  # (it names its discard on the screen)
    after = pressed(quick, Press(1, "TURN"))
    assert after.phase == "turn" and after.turn == 1 and after.drawn == "head"


def test_full_tile_mode_held_while_a_seat_may_pong() -> None:
    s = full_claims("3p")
    assert may_still_claim(s, 1) == [2] and "claim:pong" in actions(s)[2]
    held = pressed(s, Press(1, "TURN"))
    assert held.phase == "claims" and held.claims is not None and held.claims["held"] == 1
    ponged = pressed(held, Press(2, "PENG"))
    assert ponged.phase == "claims"  # seat 3 has not answered yet
    ponged = replay([{"type": "resolve"}], ponged)
    assert ponged.turn == 2 and ponged.seats[2].melds[-1].kind == "pong"
    drawn = replay([{"type": "resolve"}], held)  # nobody claimed: its draw; in full-tile mode it discards by name
    assert drawn.phase == "turn" and drawn.turn == 1 and drawn.drawn == "head"


@pytest.mark.parametrize("button", ["TURN", "CHI", "PENG", "GANG", "HU"])
def test_the_held_next_seat_keeps_its_answer(button: str) -> None:
    """It has seen the wall's next tile: no chow, pong or win on the discard after it, and its TURN
    again is refused (not a second answer); an undo (a held TURN) takes the answer back."""
    s = pressed(CLAIMS, Press(1, "TURN"))
    before = json.dumps(s.to_json())
    with pytest.raises(IllegalEventError) as e:
        press_events(s, Press(1, button))
    assert e.value.code == "press.held" and e.value.params["seat"] == 1
    assert json.dumps(s.to_json()) == before
    assert press_events(s, Press(1, "TURN", held=True)) is UNDO  # (the service undoes the last event)


def test_the_held_answer_as_events() -> None:
    s = replay([HELD], CLAIMS)
    for ev in ({"type": "claim", "seat": 1, "call": "chow"}, {"type": "pass", "seat": 1}, HELD):
        with pytest.raises(IllegalEventError) as e:
            apply(s, ev)
        assert e.value.code == "claim.drew"
    with pytest.raises(IllegalEventError) as e:
        apply(CLAIMS, {"type": "pass", "seat": 2, "drew": True})  # only the 下家 draws
    assert e.value.code == "pass.not_next" and e.value.params["next"] == 1
    pending = replay([{"type": "claim", "seat": 3, "call": "pong"}], CLAIMS)
    with pytest.raises(IllegalEventError) as e:
        apply(pending, HELD)
    assert e.value.code == "pass.claim_pending" and e.value.params["claimant"] == 3
    rob = states()["rob"][1]
    nxt = (rob.claims["from"] + 1) % 4 if rob.claims is not None else 0
    with pytest.raises(IllegalEventError) as e:
        apply(rob, {"type": "pass", "seat": nxt, "drew": True})
    assert e.value.code == "pass.not_next"


def test_undo_and_replay_from_the_journal() -> None:
    """The held answer is an event: replayed from its JSON (a restart) it holds again; without it
    (an undo) the claims are as before the press; a snapshot keeps it."""
    events = [*states()["claims"][0], HELD]
    again = replay(json.loads(json.dumps(events)))
    assert again.to_json() == pressed(CLAIMS, Press(1, "TURN")).to_json()
    assert replay(events[:-1]).to_json() == CLAIMS.to_json()  # undo: the press never was
    snap = TableState.from_json(json.loads(json.dumps(again.to_json())))
    assert snap.claims is not None and snap.claims["held"] == 1 and snap.to_json() == again.to_json()
    old = again.to_json()
    del old["claims"]["held"]  # type: ignore[index]  (a snapshot written before issue 28)
    assert TableState.from_json(old).claims["held"] is None  # type: ignore[index]
    assert Pass(1, drew=True).to_json() == HELD and Claim(1, "chow").to_json()["call"] == "chow"


def test_the_end_of_the_wall_held_then_the_hand_is_drawn() -> None:
    s, seat = last_discard()
    nxt = (seat + 1) % 4
    held = pressed(s, Press(nxt, "TURN"))
    assert held.phase == "claims" and held.claims is not None and held.claims["held"] == nxt
    assert replay([{"type": "resolve"}], held).phase == "hand_over"


@pytest.mark.parametrize("full", [False, True])
def test_every_legal_move_of_a_held_state_is_accepted(full: bool) -> None:
    """What ``legal_moves`` offers while the draw is held is what the handlers accept (the
    property test of test_legal.py walks no held states): the others' answers, none of the 下家."""
    from engine.legal import legal_moves

    s = pressed(full_claims("3p") if full else CLAIMS, Press(1, "TURN"))
    assert s.claims is not None and s.claims["held"] == 1
    assert legal_moves(s, 1) == [] and legal_moves(s, 0) == []
    for seat in (2, 3):
        moves = legal_moves(s, seat)
        assert Pass(seat) in moves
        for move in moves:
            apply(s, move)  # (raises if refused)
