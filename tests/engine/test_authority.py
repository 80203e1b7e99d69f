"""Who decides (engine/authority.py), over every seat: a win is confirmed by its winner only;
诈胡 and undo stand with their own seat or two seats; a result entered whole needs two."""

from __future__ import annotations

from itertools import combinations

from engine.authority import DECISIONS, Facts, own_seat, ruling, stands

FACTS = [Facts(winner=w, last_seat=last) for w in (None, 0, 2) for last in (None, 1, 2)]


def test_one_seat_decides_only_its_own() -> None:
    for facts in FACTS:
        for kind in DECISIONS:
            for seat in range(4):
                own = own_seat(kind, facts)
                want = "decide" if own == seat else "refuse" if kind == "confirm_win" else "propose"
                assert ruling(kind, seat, facts) == want, (kind, seat, facts)


def test_two_seats_decide_all_but_a_win_s_confirmation() -> None:
    for facts in FACTS:
        for pair in combinations(range(4), 2):
            assert stands("reject_win", pair, facts) and stands("undo", pair, facts)
            assert stands("score_hand", pair, facts)
            assert stands("confirm_win", pair, facts) == (facts.winner in pair)
        assert not any(stands("score_hand", (seat,), facts) for seat in range(4))
