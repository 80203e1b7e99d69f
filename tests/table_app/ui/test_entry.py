"""The score-only entry form asks the engine (``engine.scored``): which special wins it offers
(``offered``) and the event it sends (``entry_event``). Pure functions: no window needed; the
screen itself is driven in ``test_screens.py``."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import InvalidEventError
from engine.scored import ScoredKong, extras, score_hand
from table_app.ui.screens.entry import blank, entry_event, offered, ready

pytestmark = pytest.mark.kivy


def form(**fields: Any) -> dict[str, Any]:
    e = blank()
    e.update(fields)
    return e


@pytest.mark.parametrize("dealer", [0, 1, 3])
def test_the_form_offers_what_the_engine_allows(dealer: int) -> None:
    """Issue 28, item 10: 天胡 only to the dealer, 杠后开花 only with a kong of the winner's."""
    for winner in range(4):
        for how, fed in (("self_drawn", None), ("discard", (winner + 1) % 4)):
            for kongs in ([[0, 0]] * 4, [[1, 0] if s == winner else [0, 0] for s in range(4)],
                          [[0, 1] if s != winner else [0, 0] for s in range(4)]):
                e = form(winner=winner, how=how, discarder=fed, kongs=kongs)
                seats = [s for s in range(4) if any(kongs[s])]
                assert offered(e, dealer) == extras(winner, how, seats, dealer)
    assert offered(form(winner=1, how="self_drawn"), dealer=0) == ()
    assert offered(form(winner=0, how="self_drawn"), dealer=0) == ("heavenly",)
    assert offered(form(winner=2, how="self_drawn", kongs=[[0, 0], [0, 0], [0, 1], [0, 0]]), dealer=0) == \
        ("kong_bloom",)
    assert offered(form(winner=2, how="discard", discarder=1), dealer=0) == ("robbed_kong",)
    assert offered(form(winner=2), dealer=0) == offered(form(winner="nobody"), dealer=0) == ()


def test_the_event_is_the_engines() -> None:
    kongs = [[0, 0], [2, 0], [0, 1], [0, 0]]
    e = form(winner=1, how="self_drawn", wait="closed", extra="kong_bloom", kongs=kongs, bets=[0, 1, 0, 2])
    assert entry_event(e) == score_hand(1, "self_drawn", wait="closed", extra="kong_bloom", bets=[0, 1, 0, 2],
                                        kongs=[ScoredKong(1, "concealed"), ScoredKong(1, "concealed"),
                                               ScoredKong(2, "exposed")])
    e = form(winner=3, how="discard", discarder=0, extra="robbed_kong", kongs=kongs, frm={2: 3})
    ev = entry_event(e)
    assert ev is not None and ev.to_json() == {
        "type": "score_hand", "winner": 3, "how": "robbed_kong", "discarder": 0,
        "kongs": [{"seat": 1, "kind": "concealed"}, {"seat": 1, "kind": "concealed"},
                  {"seat": 2, "kind": "exposed", "discarder": 3}]}
    # nobody won: only the kongs and the bets (what was chosen before for a winner is not sent)
    e = form(winner="nobody", how="self_drawn", wait="edge", extra="heavenly", kongs=kongs)
    assert entry_event(e) == score_hand(None, kongs=[ScoredKong(1, "concealed")] * 2 + [ScoredKong(2, "exposed")])
    # no bets entered: the table's bets (the event carries none)
    assert entry_event(form(winner=2, how="self_drawn")) == score_hand(2, "self_drawn")


def test_incomplete_and_refused_entries() -> None:
    assert entry_event(blank()) is None and not ready(blank())
    assert entry_event(form(winner=2)) is None and not ready(form(winner=2))
    # what the engine refuses is said when 记分 is tapped (the button is not greyed without a reason)
    for e, why in [(form(winner=1, how="self_drawn", extra="heavenly", kongs=[[0, 0], [1, 0], [0, 0], [0, 0]]),
                    "天胡 (heavenly) is won on the dealt tiles"),
                   (form(winner=1, how="discard", discarder=2, extra="kong_bloom"), "is a self-drawn win"),
                   (form(winner=0, how="self_drawn", kongs=[[4, 1], [0, 0], [0, 0], [0, 0]]),
                    "seat 0 has more than 4 kongs")]:
        assert ready(e)
        with pytest.raises(InvalidEventError) as err:
            entry_event(e)
        assert why in str(err.value) and err.value.code == "invalid"
