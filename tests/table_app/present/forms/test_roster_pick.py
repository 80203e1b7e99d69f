"""Picking a new session's players from the roster (``table_app.present.forms.roster_pick``):
a tapped name sits at the chosen place, one seated elsewhere swaps with it, the next place is
chosen; which roster players are seated, the places' badges; a phone's tap checked and bounded."""

from __future__ import annotations

import pytest

from table_app.present.forms.refused import Refused
from table_app.present.forms.roster_pick import TEXT_MAX, answer, badges, from_json, pick, seated


def test_a_name_sits_at_the_chosen_place_and_the_next_place_is_chosen() -> None:
    assert pick(["欧阳诸葛司马东方", "Maximilianus", "张阿姨", "Bo"], 2, "李雷") == \
        {"names": ["欧阳诸葛司马东方", "Maximilianus", "李雷", "Bo"], "place": 3}
    assert pick(["A", "B", "C", "D"], 3, "E")["place"] == 0  # (after the last place: the first)


def test_a_name_seated_elsewhere_swaps_with_the_chosen_places_player() -> None:
    assert pick(["欧阳诸葛司马东方", "Maximilianus", "李雷", "Bo"], 3, "Maximilianus") == \
        {"names": ["欧阳诸葛司马东方", "Bo", "李雷", "Maximilianus"], "place": 0}
    assert pick(["Ann", " bo ", "Cy", "Di"], 0, "Bo")["names"] == ["Bo", "Ann", "Cy", "Di"]  # (one player to the table)
    assert pick(["Ann", "Bo", "Cy", "Di"], 1, "Bo") == {"names": ["Ann", "Bo", "Cy", "Di"], "place": 2}  # (sat there)


def test_which_roster_players_are_seated_and_each_places_badge() -> None:
    assert seated(["Ann", "BO", "", "Di"], ["Eve", "bo", "Ann", "Cy"]) == ["bo", "Ann"]
    assert badges(["ann", "Zed", "李雷", ""], [(3, "Ann"), (12, "李雷")]) == [("A", 3), ("Z", -1), ("李", 4), ("", -1)]


def test_a_phones_tap_is_answered_with_the_names_the_next_place_and_the_seated() -> None:
    got = answer({"names": ["Ann", "Bo", "Cy", "Di"], "place": 3, "name": "Bo"}, ["Bo", "Eve", "Di"])
    assert got == {"names": ["Ann", "Di", "Cy", "Bo"], "place": 0, "seated": ["Bo", "Di"]}


@pytest.mark.parametrize("data", [
    {}, {"names": ["A", "B", "C", "D"], "place": 0}, {"names": ["A", "B", "C", "D"], "place": 4, "name": "E"},
    {"names": ["A", "B", "C", "D"], "place": -1, "name": "E"},
    {"names": ["A", "B", "C", "D"], "place": True, "name": "E"},
    {"names": ["A", "B", "C", "D"], "place": "0", "name": "E"}, {"names": ["A", "B", "C"], "place": 0, "name": "E"},
    {"names": ["A", "B", "C", "D", "E"], "place": 0, "name": "E"}, {"names": "ABCD", "place": 0, "name": "E"},
    {"names": ["A", "B", "C", None], "place": 0, "name": "E"}, {"names": ["A", "B", "C", "D"], "place": 0, "name": " "},
    {"names": ["A", "B", "C", "D"], "place": 0, "name": 7},
    {"names": ["A", "B", "C", "D"], "place": 0, "name": "E" * (TEXT_MAX + 1)},
    {"names": ["A", "B", "C", "x" * (TEXT_MAX + 1)], "place": 0, "name": "E"},
    {"names": ["A", "B", "C", "D"], "place": 0, "name": "E", "tap": "0123456789"},
])
def test_anything_else_from_a_phone_is_refused_short_and_clear(data: dict[str, object]) -> None:
    refused = from_json(data)
    assert isinstance(refused, Refused) and refused.code == "invalid" and refused.reason == "malformed"
    assert refused.both() == {"zh": "没看懂点的名字：什么也没变",
                              "en": "The name tapped was not understood: nothing changed"}
    assert answer(data, ["E"]) == refused
