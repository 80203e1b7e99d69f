"""Proposals a second seat agrees to (table_app/consent.py): one per kind, replaced by its
own proposer, gone when refused, lapsing after 60 s or when the table changes."""

from __future__ import annotations

from table_app.consent import TTL_S, Consent, Proposal

WHAT = {"zh": "撤销", "en": "undo"}


def test_a_proposal_lapses_after_its_time_or_when_the_table_changes() -> None:
    now = [100.0]
    c = Consent(clock=lambda: now[0])
    assert isinstance(c.propose("undo", 1, {"type": "undo"}, WHAT, seq=5), Proposal)
    now[0] += TTL_S - 1
    assert [p.kind for p in c.open(5)] == ["undo"]
    now[0] += 1
    assert c.open(5) == [] and c.take("undo", 5, lambda p: None) == "dc_none"
    assert isinstance(c.propose("undo", 1, {"type": "undo"}, WHAT, seq=5), Proposal)
    assert c.open(6) == [] and c.take("undo", 5, lambda p: None) == "dc_none"  # (the table moved on: gone)


def test_one_proposal_of_a_kind_its_own_seat_may_replace_and_anyone_may_drop() -> None:
    c = Consent(clock=lambda: 0.0)
    assert isinstance(c.propose("score_hand", 0, {"winner": 1}, WHAT, seq=3), Proposal)
    assert c.propose("score_hand", 2, {"winner": 2}, WHAT, seq=3) == "dc_open"
    assert isinstance(c.propose("reject_win", 2, {"type": "reject_win"}, WHAT, seq=3), Proposal)  # (another kind)
    replaced = c.propose("score_hand", 0, {"winner": 3}, WHAT, seq=3)
    assert isinstance(replaced, Proposal) and c.open(3)[0].command == {"winner": 3}
    assert c.take("score_hand", 3, lambda p: "dc_second") == "dc_second" and len(c.open(3)) == 2  # (still open)
    assert c.drop("reject_win", 3, seat=1) is not None and [p.kind for p in c.open(3)] == ["score_hand"]
    taken = c.take("score_hand", 3, lambda p: None)
    assert isinstance(taken, Proposal) and taken.seat == 0 and c.open(3) == []
