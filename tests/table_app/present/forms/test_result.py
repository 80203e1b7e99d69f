"""The score-only result form (``table_app.present.forms.result``), the one both the touchscreen
and the phones fill in: what it offers is what the engine allows, the touchscreen's taps and a
phone's JSON make the same form and the same ``score_hand`` command through the same checks, and
its refusals are named."""

from __future__ import annotations

from typing import Any

import pytest

from engine.public import PublicState, public_state
from engine.scored import ScoredKong, extras, score_hand
from engine.scoring import WinHow
from engine.table import replay
from table_app.present.forms import result
from table_app.present.forms.refused import Refused
from table_app.present.forms.result import ResultForm, blank, check, command, from_json, offered, pick, ready

START = [{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
         {"type": "seating", "method": "C", "east": 0}]


def public(*more: dict[str, Any], rules: dict[str, object] | None = None) -> PublicState:
    first = dict(START[0], **({"rules": rules} if rules else {}))
    return public_state(replay([first, START[1], *more]))


def form(kongs: list[ScoredKong] | None = None, **fields: Any) -> ResultForm:
    f = blank()
    f.update(fields)  # type: ignore[typeddict-item]
    f["kongs"] = kongs or []
    return f


@pytest.mark.parametrize("dealer", [0, 1, 3])
def test_the_form_offers_what_the_engine_allows(dealer: int) -> None:
    """Issue 28, item 10: 天胡 only to the dealer, 杠后开花 only with a kong of the winner's."""
    for winner in range(4):
        ways: list[tuple[WinHow, int | None]] = [("self_drawn", None), ("discard", (winner + 1) % 4)]
        for how, fed in ways:
            for kongs in ([], [ScoredKong(winner, "concealed")], [ScoredKong((winner + 1) % 4, "exposed")]):
                f = form(winner=winner, how=how, discarder=fed, kongs=kongs)
                assert offered(f, dealer) == extras(winner, how, [k.seat for k in kongs], dealer)
    assert offered(form(winner=1, how="self_drawn"), dealer=0) == ()
    assert offered(form(winner=0, how="self_drawn"), dealer=0) == ("heavenly",)
    assert offered(form(winner=2, how="discard", discarder=1), dealer=0) == ("robbed_kong",)
    assert offered(form(winner=2), dealer=0) == offered(form(winner="nobody"), dealer=0) == ()


def test_the_phones_offer_is_the_forms_answers_for_every_winner_way_and_kongs() -> None:
    pub = public()
    o = result.offer(pub, [1, 2, 3, 4])
    assert o is not None and o["bets"] == [1, 2, 3, 4] and o["waits"] == ["closed", "single", "edge", "plain"]
    assert not o["kong_discarder"]
    for winner in range(4):
        for how in ("self_drawn", "discard"):
            own = form(winner=winner, how=how, kongs=[ScoredKong(winner, "exposed")])
            assert o["extras"][f"{winner}:{how}:own"] == list(offered(own, pub["dealer"]))
            assert o["why"][f"{winner}:{how}:own"] == {str(x): b for x, b in
                                                        result.why_not(own, pub["dealer"], pub["players"]).items()}
    assert result.offer(public(rules={"exposed_kong_payers": "discarder"}))["kong_discarder"]  # type: ignore[index]
    assert result.offer(public({"type": "score_hand", "winner": 1, "how": "self_drawn"})) is None  # (hand over)


def test_taps_and_a_phones_json_make_the_same_command() -> None:
    pub = public()
    f = blank()
    pick(f, "winner", 3)
    pick(f, "fed", 0)
    pick(f, "extra", "robbed_kong")
    pick(f, "wait", "closed")
    assert result.count_kong(f, 1, "concealed") == 1 and result.count_kong(f, 1, "concealed") == 2
    assert result.count_kong(f, 2, "exposed") == 1
    result.kong_from(f, 2, 3)
    assert result.count_bet(f, 1, [0, 0, 0, 2]) == 1
    sent = {"type": "score_hand", "winner": 3, "how": "discard", "discarder": 0, "extra": "robbed_kong",
            "wait": "closed", "kongs": [{"seat": 1, "kind": "concealed"}, {"seat": 1, "kind": "concealed"},
                                        {"seat": 2, "kind": "exposed", "discarder": 3}], "bets": [0, 1, 0, 2]}
    assert from_json(sent) == f
    expected = score_hand(3, "discard", 0, "closed", "robbed_kong",
                          [ScoredKong(1, "concealed")] * 2 + [ScoredKong(2, "exposed", 3)], [0, 1, 0, 2])
    assert command(f, pub) == command(from_json(sent), pub) == expected.to_json()


def test_the_taps_keep_the_form_whole() -> None:
    f = form(winner=1, how="discard", discarder=2)
    pick(f, "winner", 2)  # the seat that fed it won: the way goes
    assert (f["how"], f["discarder"]) == (None, None) and not ready(f)
    pick(f, "how", "self_drawn")
    pick(f, "extra", "heavenly")
    pick(f, "extra", "heavenly")  # tapped again: none
    assert f["extra"] is None and ready(f)
    f = form(winner=0, how="self_drawn", extra="heavenly")
    result.count_kong(f, 0, "concealed")
    result.fit(f, dealer=0)  # 天胡 went with the kong
    assert f["extra"] is None
    assert [result.count_bet(f, 2, [0, 0, 3, 0]) for _ in range(3)] == [4, 0, 1]
    assert result.shown_bets(blank(), [5, 0, 0, 0]) == [5, 0, 0, 0]


def test_nobody_won_sends_only_the_kongs_and_no_bets_entered_leaves_the_tables() -> None:
    pub = public()
    f = form(winner="nobody", how="self_drawn", wait="edge", extra="heavenly", kongs=[ScoredKong(1, "concealed")])
    assert command(f, pub) == score_hand(None, kongs=[ScoredKong(1, "concealed")]).to_json()
    assert command(from_json({"type": "score_hand", "winner": None, "kongs": [{"seat": 1, "kind": "concealed"}]}),
                   pub) == command(f, pub)
    assert command(form(winner=2, how="self_drawn"), pub) == {"type": "score_hand", "winner": 2, "how": "self_drawn"}


@pytest.mark.parametrize(("entered", "key", "code", "bad", "why"), [
    (form(), "entry_pick", "decide.bad_entry", True, None),
    (form(winner=1, how="self_drawn", extra="heavenly", kongs=[ScoredKong(1, "concealed")]), "dc_bad_entry",
     "decide.bad_entry", True, "天胡 (heavenly) is won on the dealt tiles"),
    (form(winner=1, how="discard", discarder=2, extra="kong_bloom"), "dc_bad_entry", "decide.bad_entry", True,
     "is a self-drawn win"),
    (form(winner=0, how="self_drawn", kongs=[ScoredKong(0, "concealed")] * 5), "dc_bad_entry", "decide.bad_entry",
     True, "seat 0 has more than 4 kongs"),
    (form(winner=1, how="self_drawn", extra="heavenly"), "dc_bad_entry", "decide.bad_entry", True,
     "the dealer is seat 0"),  # (the table's dealer: engine.scored.check_scored)
    (form(winner=1, how="self_drawn", bets=[1, -1, 0, 0]), "dc_bad_bets", "decide.bad_bets", True, None),
    (form(winner=1, how="self_drawn", bets=[1, 0, 0]), "dc_bad_bets", "decide.bad_bets", True, None),
])
def test_refusals_are_named(entered: ResultForm, key: str, code: str, bad: bool, why: str | None) -> None:
    refused = check(entered, public())
    assert isinstance(refused, Refused)
    assert (refused.key, refused.code, refused.reason == "malformed") == (key, code, bad)
    if why is not None:
        assert why in str(refused.fields["why"]) and refused.rule is not None
    assert refused.words("zh") != refused.words("en")


def test_an_exposed_kong_names_its_discarder_where_the_rules_ask() -> None:
    pub = public(rules={"exposed_kong_payers": "discarder"})
    f = form(winner=1, how="self_drawn")
    result.count_kong(f, 2, "exposed")
    refused = command(f, pub)
    assert isinstance(refused, Refused) and refused.rule is not None and refused.rule.code == "score.kong_discarder"
    result.kong_from(f, 2, 0)
    assert result.count_kong(f, 2, "exposed") == 2  # (a second one from the same discard's seat)
    assert command(f, pub) == score_hand(1, "self_drawn", kongs=[ScoredKong(2, "exposed", 0)] * 2).to_json()


def test_a_phones_malformed_form_is_refused_and_nothing_is_entered_when_not_now() -> None:
    cases: list[tuple[dict[str, object], str]] = [({"type": "score_hand", "colour": 1}, "unknown fields ['colour']"),
                      ({"type": "score_hand", "kongs": "many"}, "'kongs' is a list of at most 16"),
                      ({"type": "score_hand", "extra": "lucky"}, "'extra' is one of kong_bloom, heavenly, robbed_kong"),
                      ({"type": "score_hand", "kongs": [{"seat": 9}]}, "kongs: seat")]
    for data, why in cases:
        refused = from_json(data)
        assert isinstance(refused, Refused) and refused.code == "decide.bad_entry" and why in str(refused.fields["why"])
    over = public({"type": "score_hand", "winner": 1, "how": "self_drawn"})
    for entered in (form(winner=1, how="self_drawn"), from_json({"type": "score_hand", "colour": 1})):
        later = command(entered, over)
        assert isinstance(later, Refused) and (later.code, later.reason) == ("decide.not_now", "not_now")
