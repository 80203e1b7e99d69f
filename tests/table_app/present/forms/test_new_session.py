"""A new session's form (``table_app.present.forms.new_session``), the one the touchscreen's
new-session screen and the phones' form render: the names it starts with, its refusals in both
languages (one player at two seats, a base not whole points, rules the engine refuses), the
command it builds, and how it begins now — at once, replacing an unplayed session (its undo
from the session's own history, then the new one: run here on a real service and journal), or
over a played one only after a yes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.fields import MAX_AMOUNT
from engine.public import PublicState, public_state
from engine.rules import XIAN
from engine.table import new_table, replay
from table_app.core.service import ManualClock, TableService
from table_app.journal.journal import Journal
from table_app.journal.session_history import SessionHistory
from table_app.present.forms import new_session as form
from table_app.present.forms.refused import Refused
from table_app.present.words import DEFAULT_NAMES

BEGUN = {"type": "new_session", "players": ["王小明", "Ana", "李雷", "Zoë"], "base": 2}
NEW = {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 5}


def idle() -> PublicState:
    return public_state(new_table())


def test_the_names_start_with_a_phones_name_then_the_last_players_then_the_roster_then_defaults() -> None:
    ended = public_state(replay([BEGUN, {"type": "end_session"}]))
    assert form.start_names(ended, ["Bo", "Cy"]) == BEGUN["players"]  # the last session's, where they sat
    assert form.start_names(ended, [], given=[None, None, "Eve", None]) == ["王小明", "Ana", "Eve", "Zoë"]
    assert form.start_names(idle(), ["Bo", "Cy", "Di", "Eve", "Fay"]) == ["Bo", "Cy", "Di", "Eve"]  # most recent
    assert form.start_names(idle(), ["Bo"], given=[None, "bo", None, "Cy"]) == ["阿明", "bo", "阿华", "Cy"]  # (once)
    assert form.start_names(idle(), ["阿明"]) == ["阿明", "阿华", "阿强", "阿芳"]  # (a default in the roster: once)
    assert form.start_names(idle(), []) == list(DEFAULT_NAMES)
    assert form.start_base(idle()) == 1 and form.start_base(ended) == 2


def test_the_offer_for_a_phone_says_how_it_begins_and_none_over_a_played_session() -> None:
    offer = form.offer(idle(), ["Bo", "Cy"])
    assert offer is not None and offer["way"] == "start" and offer["base_max"] == MAX_AMOUNT
    assert offer["names"] == ["Bo", "Cy", "阿明", "阿华"] and offer["seated"] == ["Bo", "Cy"]
    assert len(offer["rules"]) == len(XIAN.to_json())
    seating = public_state(replay([BEGUN]))
    replace = form.offer(seating, [])
    assert replace is not None and replace["way"] == "replace" and replace["names"] == BEGUN["players"]
    played = public_state(replay([BEGUN, {"type": "seating", "method": "C", "east": 0},
                                  {"type": "score_hand", "winner": 1, "how": "self_drawn"}]))
    assert form.offer(played, []) is None
    assert form.offer(idle(), [f"P{i}" for i in range(40)])["roster"] == [f"P{i}" for i in range(24)]  # type: ignore[index]


def test_one_name_at_two_seats_is_refused_with_the_engines_code_in_both_languages() -> None:
    refused = form.command(["阿强", "Bo", " 阿强", "Di"], "1")
    assert isinstance(refused, Refused) and refused.code == "seat.same_name" and refused.reason == "malformed"
    assert refused.both() == {"zh": "两位玩家同名：阿强", "en": "Two players have the same name: 阿强"}
    assert form.command(["Ann", "Bo", "Cy", "ANN "], 1).words("en") == "Two players have the same name: ANN"  # type: ignore[union-attr]
    for names, code in ((["A", "B", "C"], "invalid"), ("ABCD", "invalid"), (["A", "B", "C", 4], "invalid"),
                        (["A", "", "C", "D"], "invalid.name"),
                        (["A", "B", "欧阳司马诸葛上官令狐", "D"], "invalid.name")):
        refused = form.command(names, 1)
        assert isinstance(refused, Refused) and refused.code == code, names
    assert form.command(["A", "", "C", "D"], 1).words("zh") == "请给右方的玩家起个名字"  # type: ignore[union-attr]


@pytest.mark.parametrize("typed", ["1.5", "0", "0.5", "abc", "-2", "", "1000001", "99999999999999", "١٢"])
def test_a_base_not_whole_points_is_refused_and_quoted_back(typed: str) -> None:
    refused = form.check_base(typed)
    assert isinstance(refused, Refused) and refused.code == "invalid.base"
    assert refused.words("en") == f"The base is whole points, 1 to 1,000,000: not “{typed}”"
    assert refused.words("zh") == f"基数要是整数分，1 到 1,000,000：“{typed}” 不行"
    assert form.command(["A", "B", "C", "D"], typed) == refused


def test_a_base_typed_in_full_width_digits_is_taken() -> None:
    assert form.check_base("１２") == 12 and form.check_base(" 20 ") == 20 and form.check_base("1000000") == MAX_AMOUNT
    assert form.check_base("1,000") == 1000  # (thousands commas, as every amount a form reads)
    assert form.command(["A", "B", "C", "D"], "１２") == {"type": "new_session", "players": ["A", "B", "C", "D"],
                                                         "base": 12}
    for sent in (0, -1, MAX_AMOUNT + 1, True, 1.5, None):  # a phone's number: no text to quote
        assert form.check_base(sent).words("en") == "The base is a whole number, 1 to 1000000", sent  # type: ignore[arg-type, union-attr]


def test_the_rules_keep_only_what_changed_and_bad_ones_are_refused() -> None:
    made = form.command([" A", "B ", "C", "D"], 3, {"seven_pairs": True, "added_kong": True}, {"mode": "hand"})
    assert made == {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 3, "rules": {"seven_pairs": True},
                    "fee": {"mode": "hand"}}
    for rules in ({"sevenpairs": True}, {"seven_pairs": "yes"}, ["seven_pairs"], "x"):
        refused = form.command(["A", "B", "C", "D"], 3, rules)
        assert isinstance(refused, Refused) and refused.code == "invalid.rules", rules
        assert refused.words("en").startswith("The rules are not right: ")


def test_a_phones_json_leaves_out_what_the_form_starts_with_and_takes_numbers_only() -> None:
    ended = public_state(replay([{**BEGUN, "rules": {"seven_pairs": True}}, {"type": "end_session"}]))
    made = form.from_json({"type": "new_session", "confirm": True}, ended, ["W", "X", "Y", "Z"])
    assert made == {"type": "new_session", "players": ["W", "X", "Y", "Z"], "base": 2, "rules": {"seven_pairs": True}}
    for data, code in (({"base": "5"}, "invalid.base"), ({"colour": 1}, "invalid"),
                       ({"players": ["A", "A", "B", "C"]}, "seat.same_name")):
        refused = form.from_json({"type": "new_session", **data}, ended, ["W", "X", "Y", "Z"])
        assert isinstance(refused, Refused) and refused.code == code, data


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TableService]:
    journal = Journal.open(tmp_path / "j.sqlite3")
    service = TableService(journal, claim_window_s=3.0, clock=ManualClock()).start()
    yield service
    service.stop()
    journal.close()


def _history(service: TableService) -> SessionHistory:
    return SessionHistory(service.journal_reader())


def test_between_sessions_it_begins_at_once(service: TableService) -> None:
    assert form.steps(service.public, NEW, lambda: pytest.fail("no history read to start")) == [NEW]


def test_an_unplayed_session_is_replaced_undone_to_before_it_then_the_new_one(service: TableService) -> None:
    for command in (BEGUN, {"type": "end_session"}, BEGUN, {"type": "seating", "method": "C", "east": 1}):
        assert service.call(command, "touch", 10).ok
    before_it = 2  # (the first session's end)
    history = _history(service)
    steps = form.steps(service.public, NEW, history.read)
    assert steps == [{"type": "undo", "to": before_it, "last": service.seq}, NEW]
    assert service.submit_in_turn(steps, "touch").result(10).ok
    assert service.public["players"] == NEW["players"] and service.public["base"] == 5
    in_effect = history.read().in_effect
    assert [e.event.TYPE for e in in_effect] == ["new_session"] and history.read().before == before_it
    history.close()


def test_a_replacement_read_before_the_table_moved_on_is_refused_whole(service: TableService) -> None:
    assert service.call(BEGUN, "touch", 10).ok
    history = _history(service)
    steps = form.steps(service.public, NEW, history.read)
    history.close()
    assert service.call({"type": "seating", "method": "C", "east": 1}, "touch", 10).ok  # (meanwhile)
    answer = service.submit_in_turn(steps, "touch").result(10)  # type: ignore[arg-type]
    assert not answer.ok and answer.code == "undo.moved" and service.public["players"] == BEGUN["players"]


def test_over_a_played_session_only_after_a_yes(service: TableService) -> None:
    for command in (BEGUN, {"type": "seating", "method": "C", "east": 1},
                    {"type": "score_hand", "winner": 1, "how": "self_drawn"}):
        assert service.call(command, "touch", 10).ok
    refused = form.steps(service.public, NEW, lambda: pytest.fail("a played session: nothing to undo"))
    assert isinstance(refused, Refused) and refused.code == "phone.session_on" and refused.reason == "not_now"
    assert form.steps(service.public, NEW, lambda: None, over=True) == [NEW]
    seating = public_state(replay([BEGUN]))
    assert isinstance(form.steps(seating, NEW, lambda: None), Refused)  # (no history to undo by: not replaced blind)


def test_the_roster_is_read_only_when_the_form_is_offered() -> None:
    """Every phone's view of every change asks for the form: mid-hand it is not offered, and the
    roster (a query of its database) is not read."""
    reads: list[int] = []

    def recent() -> list[str]:
        reads.append(1)
        return ["Bo", "Cy"]

    played = public_state(replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
                                  {"type": "seating", "method": "C", "east": 0},
                                  {"type": "bets", "bets": [0, 0, 0, 0]}, {"type": "roll", "dice": [3, 4]}]))
    assert form.offer(played, recent) is None and reads == []
    offered = form.offer(public_state(new_table()), recent)
    assert offered is not None and offered["roster"] == ["Bo", "Cy"] and reads == [1]
