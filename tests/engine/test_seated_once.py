"""One player, one seat (issue 40): the engine refuses a ``new_session`` or a ``name`` that puts
one name (trimmed, without case: the roster's comparison) or one roster id at two seats, with a
code and params a screen words; a journal written before the rule still replays."""

from __future__ import annotations

import pytest

from engine.errors import IllegalEventError
from engine.table import apply, new_table, replay

START = {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}


@pytest.mark.parametrize(("players", "seats", "player"), [
    (["阿强", "Bo", "阿强", "Di"], [0, 2], "阿强"),
    (["Ann", "Bo", "Cy", " ann "], [0, 3], "ann"),
    (["A", "Bo", "Cy", "BO"], [1, 3], "BO"),
])
def test_a_new_session_with_one_name_at_two_seats_is_refused(players: list[str], seats: list[int],
                                                              player: str) -> None:
    with pytest.raises(IllegalEventError) as e:
        apply(new_table(), {"type": "new_session", "players": players, "base": 1})
    assert e.value.code == "seat.same_name"
    assert e.value.params == {"seat": seats[1], "player": player, "seats": seats}
    assert f"is at seats {seats[0]} and {seats[1]}" in str(e.value)


def test_one_roster_id_at_two_seats_is_refused() -> None:
    with pytest.raises(IllegalEventError) as e:
        apply(new_table(), {**START, "player_ids": [7, 8, 7, None]})
    assert e.value.code == "seat.same_player"
    assert e.value.params == {"seat": 2, "player": "C", "seats": [0, 2], "player_id": 7}
    state, _ = apply(new_table(), {**START, "player_ids": [7, 8, None, None]})  # (names not in the roster: None)
    assert state.player_ids == [7, 8, None, None]


def test_a_name_that_another_seat_has_is_refused_its_own_is_not() -> None:
    s = replay([START, {"type": "seating", "method": "C", "east": 0}])
    with pytest.raises(IllegalEventError) as e:
        apply(s, {"type": "name", "seat": 1, "name": " c"})
    assert e.value.code == "seat.same_name" and e.value.params["seats"] == [1, 2]
    with pytest.raises(IllegalEventError) as e:
        apply(replay([{"type": "name", "seat": 0, "name": "Ann", "player_id": 5}], s),
              {"type": "name", "seat": 3, "name": "Di", "player_id": 5})
    assert e.value.code == "seat.same_player"
    renamed, _ = apply(s, {"type": "name", "seat": 1, "name": "b"})  # the seat's own name, written anew
    assert renamed.players == ["A", "b", "C", "D"]


def test_a_journal_from_before_the_rule_replays_as_written() -> None:
    old = replay([{"type": "new_session", "players": ["阿强", "B", "阿强", "D"], "base": 1, "player_ids": [1, 2, 1, 3]},
                  {"type": "seating", "method": "C", "east": 0}])
    assert old.players == ["阿强", "B", "阿强", "D"] and old.phase == "betting"
    named, _ = apply(old, {"type": "name", "seat": 1, "name": "Bo"})  # (a pair already there is the past)
    assert named.players[1] == "Bo"
