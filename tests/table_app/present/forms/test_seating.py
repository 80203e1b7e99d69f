"""The seating form (``table_app.present.forms.seating``), the one the touchscreen's seating screen
draws and a phone's "I drew East" comes from: what each method needs, who is missing by name,
the ``seating`` command the engine takes, and a tie's seats rolling again."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import RuleError
from engine.public import public_state
from engine.table import replay
from table_app.present.forms import seating
from table_app.present.forms.seating import SeatingForm

NAMES = ["欧阳诸葛司马东方", "Maximilianus", "Cy", "Di"]
NEW = {"type": "new_session", "players": NAMES, "base": 1}


def form(method: seating.Method, **fields: Any) -> SeatingForm:
    f = seating.blank()
    f["method"] = method
    f.update(fields)  # type: ignore[typeddict-item]
    return f


def seated(command: dict[str, object] | None) -> Any:
    assert command is not None
    return public_state(replay([NEW, command]))


def test_the_form_starts_with_method_a_its_roller_preselected_and_nothing_rolled() -> None:
    f = seating.blank()
    assert (f["method"], f["roller"]) == ("A", 0) and seating.command(f) is None
    assert seating.missing(f, NAMES) == [] and seating.missing_line(f, NAMES, "zh") == ""
    assert seating.open_now(public_state(replay([NEW]))) and not seating.open_now(seated(seating.drew_east(0)))


def test_method_a_needs_the_roller_and_both_dice_and_the_engine_takes_its_command() -> None:
    assert seating.command(form("A", dice=[3, 0])) is None
    assert seating.command(form("A", roller=None, dice=[3, 4])) is None
    command = seating.command(form("A", roller=1, dice=[3, 4]))
    assert command == {"type": "seating", "method": "A", "roller": 1, "dice": [3, 4]}
    assert seated(command)["phase"] == "betting"


def test_method_b_names_who_still_rolls_and_says_how_many_where_the_names_do_not_fit() -> None:
    f = form("B")
    f["rolls"][1] = [6, 6]
    assert seating.command(f) is None and seating.missing(f, NAMES) == ["欧阳诸葛司马东方", "Cy", "Di"]
    assert seating.missing_line(f, NAMES, "zh") == "还差骰子：欧阳诸葛司马东方、Cy、Di"
    assert seating.missing_line(f, NAMES, "en") == "dice still missing: 欧阳诸葛司马东方, Cy, Di"
    assert seating.missing_line(f, NAMES, "en", fits=lambda line: False) == "3 still to roll"
    assert seating.missing_line(f, NAMES, "zh", fits=lambda line: False) == "还有 3 人没掷"
    f["rolls"] = [[2, 3], [6, 6], [1, 2], [4, 5]]
    assert seating.missing_line(f, NAMES, "en") == ""
    assert seated(seating.command(f))["players"] == ["Cy", "Maximilianus", "Di", "欧阳诸葛司马东方"]


def test_a_tie_the_engine_refuses_sends_only_the_tied_seats_to_roll_again() -> None:
    f = form("B", rolls=[[6, 5], [3, 3], [3, 3], [1, 2]])  # Maximilianus and Cy tie on 6
    with pytest.raises(RuleError) as refused:
        seated(seating.command(f))
    assert refused.value.code == "seating.ties"
    assert seating.roll_again(f, refused.value.code, refused.value.params)
    assert f["rolls"] == [[6, 5], [0, 0], [0, 0], [1, 2]] and seating.missing(f, NAMES) == ["Maximilianus", "Cy"]
    assert not seating.roll_again(f, "phase", {"tied": [0]}) and f["rolls"][0] == [6, 5]  # another refusal: kept
    assert not seating.roll_again(f, "seating.ties", {"tied": "0"})  # (malformed params: nothing cleared)


def test_method_c_takes_each_wind_once_fills_the_last_and_counts_who_still_picks() -> None:
    f = form("C")
    f["drew"] = seating.drawn(f["drew"], 0, "N")
    f["drew"] = seating.drawn(f["drew"], 1, "W")
    assert seating.command(f) is None and seating.missing(f, NAMES) == ["Cy", "Di"]
    assert seating.missing_line(f, NAMES, "en") == "2 still to pick a wind"
    f["drew"] = seating.drawn(f["drew"], 2, "E")  # Di's is the last wind, South
    assert f["drew"] == ["N", "W", "E", "S"]
    assert seating.drawn(f["drew"], 3, "W") == ["N", "S", "E", "W"]  # a wind is drawn once: the last one follows
    pub = seated(seating.command(f))
    assert pub["winds"] == ["W", "N", "E", "S"] and pub["dealer"] == 2


def test_a_phones_player_drew_east() -> None:
    command = seating.drew_east(2)
    assert command == {"type": "seating", "method": "C", "east": 2}
    pub = seated(command)
    assert pub["dealer"] == 2 and pub["players"] == NAMES  # (nobody moves: the others keep their order)
