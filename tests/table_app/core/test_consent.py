"""Proposals a second seat agrees to (table_app/core/consent.py): one per kind, replaced by its
own proposer, gone when refused, lapsing after 60 s or when the table changes."""

from __future__ import annotations

from pathlib import Path

from table_app.core.consent import HELD_TTL_S, TTL_S, Consent
from table_app.core.notices import Proposal

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


def test_a_held_turn_through_the_service(tmp_path: Path) -> None:
    """Issue 28: a held TURN puts an undo up (a ``proposal`` notice, nothing journaled); its own
    seat's second hold undoes its step; it lapses after HELD_TTL_S; nothing in effect: refused."""
    from table_app.core.notices import Notice
    from table_app.core.service import ManualClock, TableService
    from table_app.journal.journal import Journal

    journal = Journal.open(tmp_path / "j.sqlite3")
    clock = ManualClock()
    service = TableService(journal, clock=clock).start()
    heard: list[Notice] = []
    service.subscribe(heard.append)
    held = {"type": "press", "seat": 2, "button": "TURN", "held": True}
    try:
        nothing = service.call(held, "gpio", timeout=10)
        assert (nothing.ok, nothing.code) == (False, "undo.nothing") and heard[-1].kind == "refused"
        assert service.call({"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}, "touch").ok
        assert service.call({"type": "name", "seat": 2, "name": "Cy"}, "phone 2 tap 0123456789abcdef").ok
        seq = service.seq
        first = service.call(held, "gpio", timeout=10)
        assert first.ok and first.to_json()["proposed"] == "undo" and service.seq == seq
        assert heard[-1].kind == "proposal" and heard[-1].proposal is first.proposal
        assert first.proposal is not None and first.proposal.step is not None and first.proposal.step.seat == 2
        clock.advance(HELD_TTL_S)  # nobody confirmed: it lapsed, and the next hold puts it up again
        assert service.call(held, "gpio", timeout=10).proposal is not None and service.seq == seq
        undone = service.call(held, "gpio", timeout=10)  # its own step (its phone named it): confirmed
        assert undone.ok and service.public["players"][2] == "C" and heard[-1].kind == "undo"
        assert heard[-1].by == (2,) and list(journal.records())[-1].source == "gpio press 2:TURN:held"
    finally:
        service.stop()
        journal.close()
