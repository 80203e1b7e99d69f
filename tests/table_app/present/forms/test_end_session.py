"""The end of the session's form (``table_app.present.forms.end_session``), the one the touchscreen's
menu and settlement and the phones' steps ask: offered only between hands of a session being
played (the engine would take it mid-hand), refused otherwise with its words in both languages,
the confirmation it needs first and its command."""

from __future__ import annotations

from typing import Any

import pytest

from engine.authority import BETWEEN_HANDS
from engine.public import public_state
from engine.records import PHASES
from engine.table import accepts, replay
from table_app.present.forms import end_session
from table_app.present.forms.refused import Refused

SETUP: list[dict[str, Any]] = [{"type": "new_session", "players": ["Ann", "Bo", "Cy", "Di"], "base": 1},
                               {"type": "seating", "method": "C", "east": 0}]
DEAL = [{"type": "roll", "dice": [4, 6]}, {"type": "roll", "dice": [2, 3]}]
WON = [{"type": "win", "seat": 0}, {"type": "confirm_win", "wait": "plain"}]


def test_every_phase_between_hands_is_one_the_engine_takes_the_end_in() -> None:
    """Why one check of the form's is not the other's again: between hands is always in a session."""
    assert all("end_session" in accepts(p) for p in BETWEEN_HANDS)
    assert [p for p in PHASES if end_session.offered({"phase": p})] == sorted(BETWEEN_HANDS, key=PHASES.index)


@pytest.mark.parametrize(("events", "offered"), [
    (SETUP, True),  # betting: before the hand's first roll
    (SETUP + DEAL, False),  # a hand is on
    (SETUP + DEAL + WON, True),  # the hand is over
])
def test_the_session_may_end_between_hands_only(events: list[dict[str, Any]], offered: bool) -> None:
    pub = public_state(replay(events))
    assert "end_session" in accepts(pub["phase"])  # (the engine would take it in every one)
    assert end_session.offered(pub) is offered
    assert (end_session.command(pub) == {"type": "end_session"}) is offered


def test_mid_hand_the_end_is_refused_with_its_words_in_both_languages() -> None:
    refused = end_session.command(public_state(replay(SETUP + DEAL)))
    assert isinstance(refused, Refused) and (refused.code, refused.reason) == ("phone.mid_hand", "not_now")
    assert refused.both() == {"zh": "一局打完再结束", "en": "End the session between hands"}


@pytest.mark.parametrize("events", [[], SETUP + DEAL + WON + [{"type": "end_session"}]])
def test_without_a_session_being_played_there_is_nothing_to_end(events: list[dict[str, Any]]) -> None:
    refused = end_session.why_not(public_state(replay(events)))
    assert isinstance(refused, Refused) and refused.code == "phone.no_session"
    assert refused.both() == {"zh": "现在没有在打的牌局", "en": "No session is being played"}


def test_the_end_asks_first_in_both_languages() -> None:
    assert end_session.confirmation("en") == ("End tonight's session and settle up? (it can be undone)", "End session")
    assert end_session.confirmation("zh") == ("结束今晚的牌局并结账？（之后还可以撤销）", "结束牌局")
