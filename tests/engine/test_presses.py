"""The one button mapping (docs/design.md "Presses"), row by row, on the real engine's states; and
every button of every seat in every phase either becomes events the table accepts or is
refused with the seat named and the state untouched."""

from __future__ import annotations

import json

import pytest

from engine.errors import IllegalEventError, InvalidEventError, RuleError
from engine.events import Claim, Discard, Kong, Pass, Resolve, Roll, Win
from engine.presses import BUTTONS, UNDO, Press, parse_press, press_events
from engine.table import TableState, apply, replay
from tests.hardware.tables import PONG, ROUND, START, last_discard, states

STATES = states()
DICE = (3, 5)


def ev_json(events: object) -> object:
    return events if events is UNDO else [e.to_json() for e in events]  # type: ignore[attr-defined]


def refused(state: TableState, press: Press) -> IllegalEventError:
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalEventError) as e:
        press_events(state, press, DICE)
    assert json.dumps(state.to_json()) == before  # a refusal changes nothing
    return e.value


# --- the rows of the table --------------------------------------------------------------------


def test_turn_by_the_player_to_move_discards() -> None:
    s = STATES["turn"][1]
    assert press_events(s, Press(0, "TURN")) == [Discard(0)]


def test_turn_with_every_tile_known_asks_for_the_tile() -> None:
    s = replay([{**START[0], "wall_seed": 3}, *START[1:]])
    e = refused(s, Press(0, "TURN"))
    assert e.code == "press.needs_tile" and "seat 0" in str(e) and "name the tile" in str(e)


def test_turn_during_claims_passes() -> None:
    s = STATES["claims"][1]  # seat 0 discarded
    assert press_events(s, Press(2, "TURN")) == [Pass(2)]
    assert press_events(s, Press(3, "TURN")) == [Pass(3)]
    rob = STATES["rob"][1]  # seat 2's added kong: everyone else may only pass or rob
    assert [press_events(rob, Press(x, "TURN")) for x in (3, 0, 1)] == [[Pass(3)], [Pass(0)], [Pass(1)]]


def test_the_quick_next_seat_draws_and_discards_in_one_press() -> None:
    """The discarder's 下家's TURN is "I drew and discarded": one press per discard. While a seat
    that has not answered may still claim (tracked mode: any seat may say it wins), the press
    is its answer, held until the claims close (issue 28, docs/rules.md §17); once nobody else
    may claim it closes the window at once (resolve: it draws) and discards."""
    s = STATES["claims"][1]
    assert press_events(s, Press(1, "TURN")) == [Pass(1, drew=True)]
    passed = replay([{"type": "pass", "seat": 2}], s)  # passes are not claims: seat 3 may still claim
    assert press_events(passed, Press(1, "TURN")) == [Pass(1, drew=True)]
    both = replay([{"type": "pass", "seat": 3}], passed)
    assert press_events(both, Press(1, "TURN")) == [Resolve(), Discard(1)]
    after = replay([e.to_json() for e in press_events(both, Press(1, "TURN"))], both)
    assert after.phase == "claims" and after.claims is not None and after.claims["from"] == 1
    held = replay([e.to_json() for e in press_events(passed, Press(1, "TURN"))], passed)
    assert held.phase == "claims" and held.claims is not None and held.claims["held"] == 1
    closed = replay([{"type": "pass", "seat": 3}], held)  # the last answer: its draw and its discard
    assert closed.phase == "claims" and closed.claims is not None and closed.claims["from"] == 1


def test_the_next_seat_waits_for_a_pending_claim() -> None:
    s = replay([{"type": "claim", "seat": 3, "call": "pong"}], STATES["claims"][1])
    e = refused(s, Press(1, "TURN"))
    assert str(e) == "claims: seat 1 cannot take its turn: seat 3's pong (碰) is pending"
    assert e.code == "press.claim_pending" and e.params["claimant"] == 3 and e.params["call"] == "pong"
    # the highest claim is the one named: a win over a pong
    s2 = replay([{"type": "claim", "seat": 2, "call": "win"}], s)
    assert "seat 2's win (胡)" in str(refused(s2, Press(1, "TURN")))
    own = replay([{"type": "claim", "seat": 1, "call": "chow"}], STATES["claims"][1])
    assert "its own chow (吃) is pending" in str(refused(own, Press(1, "TURN")))


def test_the_claim_named_pending_is_the_one_that_would_take_the_tile() -> None:
    """Kong and pong rank alike (docs/rules.md §8, §17): a nearer pong takes the tile before a farther
    kong (tracked mode, where both can be claimed), and the refusal names the pong. (Until
    issue 19 the button mapping kept its own order, kong before pong, and named the kong.)"""
    s = replay([{"type": "claim", "seat": 3, "call": "kong"}, {"type": "claim", "seat": 2, "call": "pong"}],
               STATES["claims"][1])  # seat 0 discarded: seat 2 is nearer than seat 3
    e = refused(s, Press(1, "TURN"))
    assert e.params["claimant"] == 2 and e.params["call"] == "pong"
    taken = replay([{"type": "resolve"}], s)
    assert taken.turn == 2 and taken.seats[2].melds[-1].kind == "pong"


def test_the_next_seat_at_the_end_of_the_wall_closes_the_window_only() -> None:
    """Nothing is left to draw: its TURN closes the claims and the hand is drawn (荒牌)."""
    s, seat = last_discard()
    nxt = (seat + 1) % 4
    others = [x for x in range(4) if x not in (seat, nxt)]
    # the others may still win on the last tile (tracked mode): the press waits for them (§17)
    assert press_events(s, Press(nxt, "TURN")) == [Pass(nxt, drew=True)]
    held = replay([{"type": "pass", "seat": nxt, "drew": True}], s)
    assert replay([{"type": "pass", "seat": x} for x in others], held).phase == "hand_over"
    assert replay([{"type": "resolve"}], held).phase == "hand_over"  # (or the window closes)
    answered = replay([{"type": "pass", "seat": x} for x in others], s)
    assert press_events(answered, Press(nxt, "TURN")) == [Resolve()]
    assert replay([{"type": "resolve"}], answered).phase == "hand_over"


@pytest.mark.parametrize(("button", "call"), [("CHI", "chow"), ("PENG", "pong"), ("GANG", "kong"), ("HU", "win")])
def test_claim_buttons_claim(button: str, call: str) -> None:
    s = STATES["claims"][1]
    assert press_events(s, Press(1, button)) == [Claim(1, call)]


def test_only_the_next_seat_may_chow_and_a_robbed_kong_only_wins() -> None:
    e = refused(STATES["claims"][1], Press(3, "CHI"))
    assert e.code == "press.cannot"
    assert str(e) == "claims: seat 3 cannot chow: only seat 1, the discarder's 下家, may chow"
    rob = STATES["rob"][1]
    assert press_events(rob, Press(0, "HU")) == [Claim(0, "win")]
    assert "may only be robbed with a win" in str(refused(rob, Press(0, "PENG")))
    assert refused(rob, Press(2, "HU")).code == "press.own_discard"


def test_the_discarder_cannot_answer_its_own_tile() -> None:
    for button in ("TURN", "PENG", "HU"):
        e = refused(STATES["claims"][1], Press(0, button))
        assert e.code == "press.own_discard" and "seat 0 discarded this tile" in str(e)


def test_gang_on_its_own_turn_is_the_kong_the_engine_can_tell() -> None:
    assert press_events(STATES["turn"][1], Press(0, "GANG")) == [Kong(0, "concealed")]
    # a seat with a pong (tracked mode): concealed and added are both possible: the screen asks
    e = refused(STATES["turn_with_pong"][1], Press(2, "GANG"))
    assert e.code == "press.kong_which" and "choose it on the screen" in str(e)


def test_gang_with_every_tile_known() -> None:
    from tests.engine.test_legal import bot_states

    asked = 0
    for s in bot_states(60, seed=5):
        if s.phase != "turn" or s.turn is None or s.drawn is None:
            continue
        kongs = [m for m in _moves(s) if isinstance(m, Kong)]
        if len(kongs) == 1:
            assert press_events(s, Press(s.turn, "GANG")) == kongs
            asked += 1
        elif len(kongs) > 1:
            assert refused(s, Press(s.turn, "GANG")).code == "press.kong_which"
    assert asked >= 5


def _moves(s: TableState) -> list[object]:
    from engine.legal import legal_moves

    assert s.turn is not None
    return list(legal_moves(s, s.turn))


def test_hu_on_its_own_turn_wins_but_not_after_a_pong() -> None:
    assert press_events(STATES["turn"][1], Press(0, "HU")) == [Win(0)]
    after_pong = replay(START + PONG)
    assert after_pong.turn == 2 and after_pong.drawn is None
    e = refused(after_pong, Press(2, "HU"))
    assert e.code == "press.cannot" and "drew nothing" in str(e)
    e = refused(after_pong, Press(2, "GANG"))  # docs/rules.md §17: no kong right after a pong either
    assert e.code == "press.cannot" and "drew nothing" in str(e)
    assert press_events(after_pong, Press(2, "TURN")) == [Discard(2)]


def test_dice_roll_for_the_seat_due_to_roll() -> None:
    assert press_events(STATES["betting"][1], Press(None, "DICE"), DICE) == [Roll(DICE, 0)]
    assert press_events(STATES["rolling"][1], Press(None, "DICE"), DICE) == [Roll(DICE, 2)]  # 7 from seat 0
    assert press_events(STATES["rolling"][1], Press(None, "DICE", dice=(6, 6)), DICE) == [Roll((6, 6), 2)]


def test_dice_while_seats_are_chosen_make_no_event() -> None:
    assert press_events(STATES["seating"][1], Press(None, "DICE"), DICE) == []


def test_held_turn_is_undo_and_other_held_buttons_press() -> None:
    for name in ("turn", "claims", "hand_over", "idle"):
        assert press_events(STATES[name][1], Press(1, "TURN", held=True)) is UNDO
    assert press_events(STATES["claims"][1], Press(2, "PENG", held=True)) == [Claim(2, "pong")]


def test_turn_out_of_turn_names_whose_turn_it_is() -> None:
    e = refused(STATES["turn"][1], Press(2, "TURN"))
    assert str(e) == "turn: seat 2 cannot TURN: it is seat 0's turn" and e.params["turn"] == 0


# --- every button, every seat, every phase -------------------------------------------------------

CASES = [(name, seat, b) for name in STATES for seat in range(4) for b in BUTTONS if b != "DICE"] + [
    (name, None, "DICE") for name in STATES]


@pytest.mark.parametrize(("name", "seat", "button"), CASES)
def test_every_press_becomes_accepted_events_or_a_refusal_naming_the_seat(name: str, seat: int | None,
                                                                          button: str) -> None:
    _events, state = STATES[name]
    try:
        meant = press_events(state, Press(seat, button), DICE)
    except RuleError as e:
        assert e.code.startswith("press."), e
        if seat is not None:
            assert f"seat {seat} " in str(e)
        assert str(e).startswith(f"{state.phase}: ")
        return
    assert meant is not UNDO
    s = state
    for ev in meant:  # type: ignore[union-attr]
        s, _ = apply(s, ev)


# --- the press itself ---------------------------------------------------------------------------


def test_a_press_reads_and_writes_json() -> None:
    p = parse_press({"type": "press", "seat": 1, "button": "TURN", "held": True})
    assert p == Press(1, "TURN", held=True) and parse_press(p.to_json()) == p
    d = parse_press({"type": "press", "seat": None, "button": "DICE", "dice": [2, 6]})
    assert d.dice == (2, 6) and d.label() == "DICE" and p.label() == "1:TURN:held"


@pytest.mark.parametrize("bad", [
    {"type": "press", "seat": 1},
    {"type": "press", "seat": 1, "button": "KAN"},
    {"type": "press", "seat": 4, "button": "TURN"},
    {"type": "press", "seat": "1", "button": "TURN"},
    {"type": "press", "button": "TURN"},
    {"type": "press", "seat": 2, "button": "DICE"},
    {"type": "press", "button": "DICE", "dice": [0, 7]},
    {"type": "press", "seat": 1, "button": "PENG", "dice": [1, 2]},
    {"type": "press", "seat": 1, "button": "PENG", "held": "yes"},
    {"type": "press", "seat": 1, "button": "PENG", "why": 1},
    {"type": "discard", "seat": 1},
    [1, 2],
])
def test_malformed_presses_are_refused(bad: object) -> None:
    with pytest.raises(InvalidEventError):
        parse_press(bad)


def test_a_dice_press_needs_its_dice() -> None:
    with pytest.raises(InvalidEventError, match="needs its dice"):
        press_events(STATES["betting"][1], Press(None, "DICE"))


def test_the_round_script_is_still_legal() -> None:
    # (the tables the presses are tried on are real: the scripted round replays)
    assert replay(START + PONG + ROUND).turn == 2


def test_every_refusal_code_in_the_engine_is_listed() -> None:
    """Screens word refusals by their code: the engine uses only the codes it lists."""
    import re
    from pathlib import Path

    from engine.errors import CODES

    used = set()
    for path in Path("engine").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'"((?:press|claim|chow|kong|win|confirm|roll|bets|seating|discard|pass|tile)'
                               r'\.[a-z_]+)"', text))
        used |= {f"press.{c}" for c in re.findall(r'_refuse\([^"]*"[^"]*",\s*"([a-z_]+)"', text, re.S)}
    assert used - set(CODES) == set(), used - set(CODES)
    assert {"press.not_turn", "press.claim_pending", "kong.nothing_drawn", "chow.not_next"} <= used
