"""The win decision and the undo put up (``table_app.present.forms.decide``), the one model the
phones and the touchscreen answer from: what each seat's answer becomes, as ``engine.authority``
rules it, and how an undo is worded."""

from __future__ import annotations

from dataclasses import dataclass

from engine.authority import Decision, Facts
from engine.event_base import Event
from engine.events import Discard, NextHand
from table_app.present.forms import decide
from table_app.present.forms.decide import Propose
from table_app.present.forms.refused import Refused

NAMES = ["Ann", "Bo", "Cy", "Di"]


@dataclass(frozen=True)
class Step:
    seat: int | None
    event: Event
    players: tuple[str, ...] = tuple(NAMES)
    east: int | None = 0


@dataclass(frozen=True)
class Proposal:
    kind: Decision
    seat: int
    what: dict[str, object] | None = None
    step: Step | None = None


@dataclass(frozen=True)
class Undone:
    steps: tuple[Step, ...]
    count: int
    by: tuple[int, ...] = ()
    source: str = "touch"


def test_only_the_winner_confirms_its_win_with_its_wait() -> None:
    facts = Facts(winner=2)
    assert decide.confirm_win(2, facts, NAMES, "closed") == {"type": "confirm_win", "wait": "closed"}
    assert decide.confirm_win(2, facts, NAMES) == {"type": "confirm_win"} == decide.confirmed()
    refused = decide.confirm_win(0, facts, NAMES, "closed")
    assert isinstance(refused, Refused) and (refused.code, refused.reason) == ("decide.winner_only", "not_yours")
    assert refused.words("en") != refused.words("zh") and "Cy" in refused.words("en")
    none = decide.confirm_win(2, Facts(), NAMES)
    assert isinstance(none, Refused) and (none.code, none.reason) == ("decide.no_win", "not_now")


def test_a_false_win_is_the_winners_to_take_back_or_two_seats() -> None:
    facts = Facts(winner=2)
    assert decide.reject_win(2, facts, NAMES) == {"type": "reject_win"} == decide.rejected()
    proposed = decide.reject_win(0, facts, NAMES)
    assert isinstance(proposed, Propose)
    assert (proposed.kind, proposed.command, proposed.what["en"]) == ("reject_win", {"type": "reject_win"},
                                                                      "False win: Cy's")
    assert decide.agreed("reject_win", 0, 3, facts) is None  # (any second seat)
    assert decide.false_win(0, facts) and not decide.false_win(2, facts) and not decide.false_win(0, Facts())
    assert isinstance(decide.reject_win(0, Facts(), NAMES), Refused)


def test_an_undo_is_a_held_turn_its_own_seat_or_a_second_makes_it_stand() -> None:
    step = Step(1, Discard(1))
    assert decide.undo(3) == {"type": "press", "seat": 3, "button": "TURN", "held": True}
    own, other = decide.undo_ask(1, step, NAMES), decide.undo_ask(3, step, NAMES)
    assert own["own"] and not other["own"]
    assert other["asks"] == {"zh": "Di要撤销：Bo 出牌", "en": "Di asks to undo: Bo discards"}
    assert other["waiting"]["en"] == "Bo's step: Bo or another player holds TURN too (or agrees on a phone)"
    unknown = decide.undo_ask(3, None, NAMES)
    assert unknown["asks"]["en"] == "Di asks to undo: the last step" and not unknown["own"]
    facts = Facts(last_seat=1)
    assert decide.agreed("undo", 3, 0, facts) is None and decide.agreed("undo", 3, 3, facts) is not None
    second = decide.agreed("undo", 3, 3, facts)
    assert second is not None and second.code == "decide.second"
    assert decide.no_proposal().code == "decide.none"


def test_proposals_are_shown_to_each_seat_with_who_decides() -> None:
    facts = Facts(winner=2, last_seat=1)
    undo = Proposal("undo", 3, step=Step(1, Discard(1)))
    view = decide.proposal_view(undo, 1, facts, NAMES, 9.7)
    assert view == {"kind": "undo", "by": 3, "what": {"zh": "撤销：Bo 出牌", "en": "Undo: Bo discards"},
                    "by_words": {"zh": "Di提议", "en": "Di proposes"}, "mine": False, "decides": True, "left": 9}
    assert not decide.proposal_view(undo, 3, facts, NAMES, -1)["decides"]  # (its proposer again: not a second)
    assert decide.proposal_view(undo, 3, facts, NAMES, -1)["left"] == 0
    own = Proposal("reject_win", 0, what={"zh": "诈胡：Cy的胡", "en": "False win: Cy's"})
    assert decide.proposal_view(own, 0, facts, NAMES, 5)["what"]["en"] == "False win: Cy's"


def test_what_an_undo_took_back_and_who_decided_it() -> None:
    assert decide.undone(None, NAMES) is None
    done = decide.undone(Undone((Step(1, Discard(1)),), 1, (3, 0), "phone 0"), NAMES)
    assert done is not None and done["en"] == "Undone: Bo discards (proposed by Di, agreed by Ann)"
    several = decide.undone(Undone((Step(None, NextHand()),), 3), NAMES)
    assert several is not None and several["zh"] == "撤销了3步（在触摸屏上）"
    assert decide.said(None) is None and decide.said(Step(1, Discard(1))) == {"zh": "Bo 出牌", "en": "Bo discards"}
