"""Hardware presses, refusals where the press happened, the kong question, the tile keyboard
and a false win, undo/redo, languages, seating by B and C, settings saved, the end of the
evening and score-only mode."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from tests.table_app.ui.conftest import UI

pytestmark = pytest.mark.kivy

SETUP = [
    {"type": "new_session", "players": ["Ann", "Bo", "Cy", "Di"], "base": 1},
    {"type": "seating", "method": "C", "east": 0},
]
DEAL = [{"type": "roll", "dice": [4, 6]}, {"type": "roll", "dice": [2, 3]}]


def given(ui: UI, events: list[dict[str, Any]]) -> None:
    for ev in events:
        answer = ui.service.call(ev, source="test")
        assert answer.ok, answer.error
    ui.settled()


def press_key(ui: UI, key: int, char: str) -> None:
    from kivy.core.window import Window

    before = ui.service.seq
    Window.dispatch("on_key_down", key, 0, char, [])
    ui.wait(lambda: ui.service.seq > before, f"the key {char!r} reached the service")
    ui.settled()


def test_hardware_presses_from_another_thread_update_the_screen(ui: UI) -> None:
    given(ui, SETUP)
    ui.app.goto("table")
    table = ui.screen
    assert "Ann rolls" in table.status

    # the dice button of the panel / GPIO: a press from another thread, as the adapters send it
    dice = {"type": "press", "seat": None, "button": "DICE", "dice": [4, 6]}
    t = threading.Thread(target=lambda: ui.service.call(dice, source="gpio"))
    t.start()
    t.join()
    ui.wait(lambda: "Bo rolls" in table.status, "the roll from the buttons")
    assert ui.button(1, "roll")

    # simulated hardware: space is the dice button (the table rolls 2+3), 1 is seat 0's TURN
    # button, e seat 1's PENG
    press_key(ui, 32, " ")
    assert ui.service.public["phase"] == "turn" and table.status == "Ann's turn"
    press_key(ui, ord("1"), "1")
    assert ui.service.public["phase"] == "claims" and table.status.startswith("Ann discarded")
    assert [table.panel(s).led for s in range(4)] == ["off", "blink", "blink", "blink"]  # the LEDs, on screen
    press_key(ui, ord("e"), "e")  # seat 1 PENG
    assert table.panel(1).prompt == "pong" and table.panel(1).lit and table.panel(1).lit_text == "pong"
    ui.clock.advance(3.0)  # the claim window closes: the service resolves, Bo pongs
    ui.wait(lambda: table.status == "Bo's turn", "the pong after the claim window")
    assert ui.service.public["turn"] == 1 and table.panel(1).led == "on"
    assert table.panel(1).actions == ["discard"]  # docs/rules.md §17: after a pong nothing was drawn: discard only


def test_the_six_buttons_keep_their_places_whatever_is_allowed(ui: UI) -> None:
    """胡 杠 碰 吃 过 (and 出牌) never move: a habitual tap where 过 was cannot chow."""
    given(ui, SETUP + DEAL)
    table = ui.app.screen("table")
    ui.app.goto("table")
    ui.frames(3)

    def places(seat: int) -> list[tuple[str, tuple[float, float], bool]]:
        return [(b.text, tuple(b.to_window(*b.center)), b.disabled) for b in table.panel(seat).slot_buttons]

    turn = places(1)  # Ann's turn: Bo may do nothing
    given(ui, [{"type": "discard", "seat": 0}])
    claims = places(1)  # Bo may chow, pong, kong, win or pass
    assert [(t, xy) for t, xy, _ in turn] == [(t, xy) for t, xy, _ in claims]
    assert [t for t, _, _ in claims] == ["Play", "Chow", "Pong", "Kong", "Win", "Pass"]
    assert all(off for _, _, off in turn) and [off for _, _, off in claims] == [True, False, False, False, False,
                                                                               False]


def test_a_refused_press_shows_why_on_the_seats_panel_and_nothing_moves(ui: UI) -> None:
    from kivy.core.window import Window

    given(ui, SETUP + DEAL)
    ui.app.goto("table")
    ui.frames(3)
    table = ui.screen
    where = {id(w): tuple(w.to_window(w.x, w.y)) for w in table.walk() if getattr(w, "action", "")}
    before = ui.service.seq
    Window.dispatch("on_key_down", ord("t"), 0, "t", [])  # seat 1's HU on seat 0's turn
    ui.wait(lambda: table.panel(1).lit, "the refusal on seat 1's panel")
    ui.frames(2)
    assert table.panel(1).refused and table.panel(1).state == "refused"
    assert table.panel(1).line.text == "Not Bo's turn: Ann plays"
    assert ui.app.message == "Not Bo's turn: Ann plays" and ui.service.seq == before
    assert {id(w): tuple(w.to_window(w.x, w.y)) for w in table.walk() if getattr(w, "action", "")} == where
    ui.app.toggle_lang()
    Window.dispatch("on_key_down", ord("t"), 0, "t", [])
    ui.wait(lambda: table.panel(1).lit_text == "还没轮到Bo：现在Ann出牌", "the refusal in Chinese")


def test_a_kong_the_engine_cannot_tell_is_asked_for(ui: UI) -> None:
    """Tracked mode, a seat with a pong and four tiles more: concealed or added? The GANG
    press is refused with that question and the screen asks it."""
    given(ui, SETUP + DEAL + [{"type": "discard", "seat": 0}, {"type": "claim", "seat": 2, "call": "pong"},
                              {"type": "resolve"}, {"type": "discard", "seat": 2}, {"type": "resolve"},
                              {"type": "discard", "seat": 3}, {"type": "resolve"}, {"type": "discard", "seat": 0},
                              {"type": "resolve"}, {"type": "discard", "seat": 1}, {"type": "resolve"}])
    ui.app.goto("table")
    assert ui.pub()["turn"] == 2 and ui.pub()["actions"][2] == ["discard", "kong", "win"]
    ui.tap(ui.button(2, "kong"))
    ui.wait(lambda: ui.app.message.startswith("Cy: which kong?"), "the question")
    dialog = ui.modal()
    added = next(w for w in dialog.walk() if getattr(w, "text", "") == "added kong")
    ui.send_and_settle(added)
    pub = ui.pub()
    assert pub["wall"]["kongs"] == 0 and pub["phase"] == "claims" and pub["claims"]["kind"] == "rob"


def tap_tiles(ui: UI, screen: Any, text: str) -> None:
    from engine.tiles import parse_tile

    keys = {b.tile: b for b in screen.ids.keyboard.children}
    for tile in [text[i:i + 2] for i in range(0, len(text), 2)]:
        ui.tap(keys[parse_tile(tile)])


def test_false_win_asks_first_and_a_hand_tapped_in_is_checked(ui: UI) -> None:
    given(ui, SETUP + DEAL)
    ui.app.goto("table")
    ui.send_and_settle(ui.button(0, "win"))
    assert ui.screen.name == "win" and ui.screen.ids.top.title == "Ann wins (heavenly): which wait?"
    ui.tap(ui.screen.ids.reject)
    dialog = ui.modal()
    assert dialog.text == "Ann's false win? It is taken back and play goes on." and ui.pub()["phase"] == "win_pending"
    ui.send_and_settle(dialog.ids.yes)
    assert ui.service.public["phase"] == "turn" and ui.screen.name == "table" and ui.screen.status == "Ann's turn"

    ui.send_and_settle(ui.button(0, "win"))
    win = ui.screen
    tap_tiles(ui, win, "1m2m3m1p3p4s5s6s7s8s9s1z1z")
    assert win.verdict == "13/14 tiles"
    assert [w.text for w in reversed(win.ids.strip.children)][:3] == ["一万", "二万", "三万"]  # tile pictures
    tap_tiles(ui, win, "2p")
    assert win.verdict == "wins: closed (bonus)"
    tap_tiles(ui, win, "7z")  # one more: not a hand any more
    assert win.verdict == "15/14 tiles"
    ui.tap(ui.find("backspace"))
    assert win.verdict == "wins: closed (bonus)"
    ui.send_and_settle(win.ids.confirm_hand)
    s = ui.service.public["last_settlement"]
    assert s["kind"] == "heavenly" and s["wait"] == "closed" and s["deltas"] == [27, -9, -9, -9]
    assert ui.screen.name == "settlement" and ui.screen.ids.top.title == "Ann wins (heavenly) · closed (bonus)"


def test_a_wrong_hand_is_refused_in_words(ui: UI) -> None:
    given(ui, SETUP + DEAL + [{"type": "win", "seat": 0}])
    win = ui.screen
    tap_tiles(ui, win, "1m2m3m1p3p4s5s6s7s8s9s1z2z2p")
    assert win.verdict == "not a winning hand"
    ui.send_and_settle(win.ids.confirm_hand)
    assert ui.app.message == "That hand does not win: a false win takes it back"
    assert ui.service.public["phase"] == "win_pending"


def rows(hist: Any) -> list[Any]:
    """The history's row widgets in sight, top first."""
    layout = hist.ids.events.children[0]
    return sorted(layout.children, key=lambda r: -r.y)


def test_undo_and_redo_ask_first_and_the_history_speaks_in_sentences(ui: UI) -> None:
    given(ui, SETUP + DEAL + [{"type": "discard", "seat": 0}, {"type": "claim", "seat": 2, "call": "pong"}])
    seq = ui.service.seq
    ui.app.goto("history")
    ui.frames(2)
    hist = ui.screen
    texts = [r["text"] for r in hist.ids.events.data]  # newest on top
    assert texts == ["Cy: pong Ann's tile", "Ann discards", "roll 2+3 (the break point)", "roll 4+6 (whose wall)",
                     "seating: Ann drew East",
                     "new session: Ann, Bo, Cy, Di, base 1"]
    assert hist.ids.events.data[0]["source"] == "test"
    shown = rows(hist)  # the RecycleView's row widgets, each showing one of the rows
    assert [r.text for r in shown] == texts[:len(shown)] and len(shown) >= 4
    assert [w.text for w in shown[0].children[::-1][:2]] == [texts[0], "test"]
    ui.tap(hist.ids.undo)
    dialog = ui.modal()
    assert dialog.text == "Undo: Cy: pong Ann's tile?"
    ui.send_and_settle(dialog.ids.yes)
    assert ui.service.public["phase"] == "claims" and ui.service.seq == seq + 1
    assert len(hist.ids.events.data) == 5 and not hist.ids.redo.disabled
    ui.tap(hist.ids.redo)
    ui.send_and_settle(ui.modal().ids.yes)
    assert len(hist.ids.events.data) == 6
    # back to just after the seating: the table is waiting for the first roll again
    hist.ids.events.scroll_y = 0  # (the oldest rows at the bottom)
    ui.frames(3)
    row = next(r for r in rows(hist) if r.seq == 2)
    ui.tap(row.children[0])
    dialog = ui.modal()
    assert dialog.text == "Go back to just after: seating: Ann drew East?"
    ui.send_and_settle(dialog.ids.yes)
    assert ui.service.public["phase"] == "betting" and ui.service.public["dice"]["dealer"] is None
    ui.app.load_history()  # as after a restart: the history from the journal, with where each event came from
    hist.refresh()
    assert [r["source"] for r in hist.ids.events.data] == ["test", "test"]


def test_chinese_and_english(ui: UI) -> None:
    given(ui, SETUP)
    ui.app.goto("table")
    table = ui.screen
    assert table.panel(0).wind == "E"
    ui.tap(table.ids.menu)
    ui.tap(ui.modal().items["lang"])
    assert ui.app.lang == "zh"
    assert table.panel(0).wind == "东" and table.panel(0).mark == "庄"
    assert table.status == "可以下注，然后 Ann 掷骰"
    assert ui.button(0, "roll").text == "掷骰"
    assert ui.app.font_path and ui.app.font_path.endswith((".ttc", ".ttf", ".otf"))


def _toggle(screen: Any, value: tuple[Any, ...]) -> Any:
    found = [w for w in screen.walk() if getattr(w, "value", None) == value]
    assert found, f"no toggle {value!r} on the screen"
    return found[0]


def test_seating_by_everyone_rolling_refuses_ties_then_by_wind_tiles(ui: UI) -> None:
    given(ui, SETUP[:1])
    seating = ui.screen
    assert seating.name == "seating"
    ui.tap(seating.ids.method_B)
    assert seating.ids.confirm.disabled and seating.ids.missing.text == "dice still missing: Ann, Bo, Cy, Di"
    rolls = [(6, 5), (3, 3), (3, 3), (1, 2)]  # Bo and Cy tie on 6
    for seat, (a, b) in enumerate(rolls):
        ui.tap(ui.find(f"roll_{seat}"))
        pad = ui.modal()
        ui.tap(next(w for w in pad.ids.row_a.children if getattr(w, "value", None) == a))
        ui.tap(next(w for w in pad.ids.row_b.children if getattr(w, "value", None) == b))
        ui.tap(pad.ids.ok)
    assert ui.find("roll_1").text == "3+3 = 6"
    ui.send_and_settle(seating.ids.confirm)
    assert ui.app.message == "Bo, Cy rolled the same: they roll again" and ui.service.public["phase"] == "seating"
    ui.tap(seating.ids.method_C)
    assert seating.ids.confirm.disabled  # nobody has said which wind they drew yet
    for seat, wind in enumerate(["S", "W", "N", "E"]):  # (in the seats' order: nobody moves)
        ui.tap(_toggle(seating, ("drew", seat, wind)))
    ui.send_and_settle(seating.ids.confirm)
    pub = ui.service.public
    assert pub["phase"] == "betting" and pub["dealer"] == 3 and pub["winds"] == ["S", "W", "N", "E"]
    assert pub["players"] == ["Ann", "Bo", "Cy", "Di"]
    assert ui.screen.name == "sithere"


def test_the_dice_button_fills_the_seating_form(ui: UI) -> None:
    """The panel's (or GPIO) dice during seating, pressed on an input thread, fill the form:
    method A takes them as the roll, method B as the next seat's roll. Nothing is journaled."""
    given(ui, SETUP[:1])
    ui.app.goto("table")
    seq = ui.service.seq

    def press(dice: list[int]) -> None:
        press = {"type": "press", "seat": None, "button": "DICE", "dice": dice}
        t = threading.Thread(target=lambda: ui.service.call(press, source="panel"))
        t.start()
        t.join()

    press([2, 3])
    ui.wait(lambda: ui.app.sm.current == "seating", "the seating screen after the dice")
    seating = ui.screen
    ui.wait(lambda: seating.choice["dice"] == [2, 3], "the dice in the method A form")
    assert not seating.ids.confirm.disabled
    ui.tap(seating.ids.method_B)
    for n, roll in enumerate(([6, 6], [1, 2])):
        press(roll)
        ui.wait(lambda n=n, r=roll: seating.choice["rolls"][n] == r, f"seat {n}'s roll from the dice button")
    assert 0 in seating.choice["rolls"][2] and ui.service.public["phase"] == "seating"
    assert ui.service.seq == seq


def test_a_new_session_over_a_running_one_asks_first_and_names_are_checked(ui: UI) -> None:
    given(ui, SETUP + DEAL)
    ui.app.goto("session")
    ui.frames(2)
    ids = ui.screen.ids
    ids.name0.text = "Bartholomew Smith"  # too long for the table screen
    ui.tap(ids.start)
    assert ui.app.message.startswith("A name has at most 8 Chinese characters or 12 letters")
    ids.name0.text = "Eve"
    seq = ui.service.seq
    ui.tap(ids.start)
    dialog = ui.modal()
    assert dialog.text.startswith("Leave the session being played") and ui.service.seq == seq
    ui.send_and_settle(dialog.ids.yes)
    assert ui.service.public["phase"] == "seating" and ui.service.public["players"][0] == "Eve"
    assert ui.screen.name == "seating"


def test_rules_are_chosen_in_words_before_the_session(ui: UI) -> None:
    ui.app.goto("rules")
    ui.frames(2)
    b = ui.find("rule_seven_pairs")
    assert b.text == "do not win (default)"
    ui.screen.ids.scroll.scroll_to(b, animate=False)
    ui.tap(b)
    assert ui.find("rule_seven_pairs").text == "win" and ui.app.rule_overrides == {"seven_pairs": True}
    ui.tap(ui.find("done"))
    assert ui.screen.name == "session" and ui.screen.ids.rules.text == "Rules: 1 changed"
    ui.send_and_settle(ui.screen.ids.start)
    assert ui.service.public["rules"] == {"seven_pairs": True}


def test_settings_are_changed_on_screen_and_saved_to_the_config(ui: UI, tmp_path: Path) -> None:
    from table_app.config.file import load_config

    ui.app.config_path = tmp_path / "config.toml"
    ui.app.config_path.write_text("# the den's table\n[table]\nid = \"den\"\n")
    ui.app.links["table_id"] = "den"
    ui.app.goto("settings")
    ui.frames(2)
    s = ui.screen
    assert "buttons: simulated (keyboard)" in s.ids.links.text and "MQTT: offline" in s.ids.links.text
    assert "Phone pages: off (set the phone pages' address in the config)" in s.ids.links.text
    assert "journal: journal.sqlite3" in s.ids.links.text
    ui.app.join_url = "http://192.168.1.20:8080/join/abc"
    s.refresh()
    assert "Phone pages: http://192.168.1.20:8080" in s.ids.links.text and "/join/" not in s.ids.links.text
    ui.tap(s.ids.lang_zh)
    ui.tap(s.ids.facing)
    ui.tap(ui.find("claim_up"))
    assert ui.app.lang == "zh" and ui.app.layout == "facing" and ui.service.claim_window_s == 4.0
    ui.tap(s.ids.save)
    cfg = load_config(ui.app.config_path)
    assert (cfg.ui_lang, cfg.ui_layout, cfg.claim_window_s, cfg.table_id) == ("zh", "facing", 4.0, "den")
    assert s.ids.claim.text == "4 秒"
    assert ui.app.config_path.read_text().startswith("# the den's table\n")
    assert ui.app.message.startswith("已保存到 ")


def test_the_end_of_the_evening(ui: UI) -> None:
    """结束牌局 asks first; the last screen ranks the players (equal scores share a place) and
    shows the engine's settle-up; the end can be undone."""
    given(ui, SETUP + DEAL + [{"type": "win", "seat": 0}])
    given(ui, [{"type": "reject_win"}, {"type": "discard", "seat": 0}, {"type": "claim", "seat": 2, "call": "win"},
               {"type": "pass", "seat": 1}, {"type": "pass", "seat": 3}, {"type": "confirm_win", "wait": "plain"}])
    assert ui.screen.name == "settlement"
    seq = ui.service.seq
    ui.tap(ui.screen.ids.end_session)
    dialog = ui.modal()
    assert dialog.text.startswith("End tonight's session and settle up?") and ui.service.seq == seq
    ui.send_and_settle(dialog.ids.yes)
    assert ui.service.public["phase"] == "ended" and ui.screen.name == "final"
    final = ui.screen
    ranks = [w.text for w in reversed(final.ids.ranking.children)]
    assert ranks == ["#1", "Cy", "+1", "#2", "Bo", "0", "#2", "Di", "0", "#4", "Ann", "-1"]
    assert final.ids.settle.text == "Ann pays Cy\u00a01"  # (the amount held to the name)
    ui.send_and_settle(final.ids.resume)
    assert ui.service.public["phase"] == "hand_over"


def test_the_session_ends_between_hands_only(ui: UI) -> None:
    """The menu and the settlement offer 结束牌局 between hands only, as the phones do (the
    engine would take it mid-hand: the touchscreen once offered it); asked anyway, it says why."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    from table_app.ui.dialogs import ask_end_session

    given(ui, SETUP + DEAL)  # a hand is on
    ui.tap(ui.find("menu"))
    assert ui.modal().items["end"].disabled
    ui.modal().dismiss()
    ui.frames(3)
    ui.app.goto("settlement")
    ui.frames(2)
    assert ui.screen.ids.end_session.disabled
    seq = ui.service.seq
    ask_end_session()  # (a button left enabled would come here)
    ui.frames(2)
    assert ui.app.message == "End the session between hands" and ui.service.seq == seq
    ui.app.lang = "zh"
    ask_end_session()
    assert ui.app.message == "一局打完再结束"
    assert not [w for w in Window.children if isinstance(w, ModalView)]  # nothing asked
    given(ui, [{"type": "win", "seat": 0}, {"type": "confirm_win", "wait": "plain"}])  # the hand is over
    ui.app.goto("settlement")
    ui.frames(2)
    assert not ui.screen.ids.end_session.disabled
    ui.tap(ui.find("menu"))
    ui.tap(ui.modal().items["end"])
    ui.send_and_settle(ui.modal().ids.yes)
    assert ui.service.public["phase"] == "ended"


def test_score_only_a_plain_hand_in_three_taps(ui: UI) -> None:
    """Score-only mode: winner, how, 记分 — scored by the engine into the same journal."""
    given(ui, SETUP)
    ui.app.score_only = True
    ui.app.goto(ui.app.home())
    entry = ui.screen
    assert entry.name == "entry" and entry.ids.score_it.disabled
    ui.tap(_toggle(entry, ("winner", 2)))
    ui.tap(_toggle(entry, ("fed", 0)))
    ui.send_and_settle(entry.ids.score_it)
    pub = ui.service.public
    assert pub["phase"] == "hand_over" and pub["scores"] == [-1, 0, 1, 0]
    assert ui.service._journal.event(ui.service.seq) == {"type": "score_hand", "winner": 2, "how": "discard",
                                                          "discarder": 0}
    assert ui.screen.name == "settlement"
    ui.send_and_settle(ui.screen.ids.next_hand)
    assert ui.screen.name == "entry"  # the next hand is entered the same way
    ui.tap(_toggle(ui.screen, ("winner", 1)))
    ui.tap(_toggle(ui.screen, ("how", "self_drawn")))
    ui.tap(_toggle(ui.screen, ("wait", "closed")))
    ui.send_and_settle(ui.screen.ids.score_it)  # four taps with a wait
    assert ui.service.public["scores"] == [-4, 9, -2, -3]


def test_score_only_offers_the_special_wins_the_engine_allows(ui: UI) -> None:
    """天胡 is offered to the dealer alone, 杠后开花 only with a kong of the winner's, 抢杠 only on
    a discard (issue 28, item 10: they were offered to anyone, refused after 记分); the event
    sent is the engine's (``engine.scored.score_hand``)."""
    from engine.scored import EXTRAS, ScoredKong, score_hand
    from table_app.present.forms.result import check

    def entry_event(e: Any) -> Any:
        return check(e, ui.service.public)  # (the form's event, as 记分 sends it)

    given(ui, SETUP)  # Ann (seat 0) deals
    ui.app.score_only = True
    ui.app.goto(ui.app.home())
    entry = ui.screen

    def enabled() -> list[str]:
        return [x for x in EXTRAS if not _toggle(entry, ("extra", x)).disabled]

    assert enabled() == []
    assert entry.ids.extras_why.text == ""
    ui.tap(_toggle(entry, ("winner", 1)))
    assert enabled() == []  # no way chosen yet
    assert entry.ids.extras_why.text == "say how it was won first"
    ui.tap(_toggle(entry, ("how", "self_drawn")))
    assert enabled() == []  # Bo is not the dealer and declared no kong: why, beside them (the engine's bars)
    assert entry.ids.extras_why.text == ("kong bloom: needs a kong of Bo's own · heavenly: only the dealer, Ann"
                                         " · robbed kong: won on another's added kong, not self-drawn")
    ui.tap(_toggle(entry, ("winner", 0)))
    assert enabled() == ["heavenly"]
    ui.tap(_toggle(entry, ("extra", "heavenly")))
    assert entry_event(entry.e) == score_hand(0, "self_drawn", extra="heavenly")

    ui.tap(entry.ids.page)  # Ann's concealed kong, on the second page
    ui.tap(ui.find("kong_0_0"))
    ui.tap(entry.ids.page)
    assert enabled() == ["kong_bloom"] and entry.e["extra"] is None  # 天胡 went with the kong
    assert entry.ids.extras_why.text.startswith("heavenly: won on the dealt tiles: not after a kong")
    assert _toggle(entry, ("extra", "heavenly")).state == "normal"
    ui.tap(_toggle(entry, ("fed", 2)))
    assert enabled() == ["robbed_kong"]
    ui.tap(_toggle(entry, ("extra", "robbed_kong")))
    assert entry_event(entry.e) == score_hand(0, "robbed_kong", 2, kongs=[ScoredKong(0, "concealed")])

    ui.tap(_toggle(entry, ("how", "self_drawn")))
    assert enabled() == ["kong_bloom"] and entry.e["extra"] is None
    ui.tap(_toggle(entry, ("extra", "kong_bloom")))
    ui.tap(_toggle(entry, ("wait", "closed")))
    sent = score_hand(0, "self_drawn", wait="closed", extra="kong_bloom", kongs=[ScoredKong(0, "concealed")])
    assert entry_event(entry.e) == sent
    ui.send_and_settle(entry.ids.score_it)
    assert ui.service._journal.event(ui.service.seq) == sent.to_json()
    assert ui.service.public["scores"] == [24, -8, -8, -8]  # the kong 3 × 2, 杠后开花 with a closed wait 3 × 6


def test_the_phones_join_code_is_shown_on_demand_and_reads_as_the_sessions_link(ui: UI, tmp_path: Path) -> None:
    """The session screen, seating and the menu open the join QR code while the phones' pages
    are on; zbarimg (as a phone's camera) reads the session's link from the screen's pixels."""
    import shutil
    import subprocess

    from table_app.ui.dialogs import JoinDialog

    link = "http://192.168.1.20:8080/join/kq0Yc3Vb9TzLwR2mXa7NfQ"
    assert ui.screen.name == "session"
    assert ui.screen.ids.join.disabled and ui.screen.ids.join.opacity == 0  # the pages are off: no join button
    ui.tap(ui.find("menu"))
    assert ui.modal().items["join"].disabled
    ui.modal().dismiss()
    ui.frames(3)

    ui.app.join_url = link  # (the web pages listening: the link state ``phones join <link>``)
    ui.frames(2)
    ui.tap(ui.screen.ids.join)
    dialog = ui.modal()
    assert isinstance(dialog, JoinDialog) and dialog.code.url == link
    ui.frames(4)
    shot = ui.app.save_screenshot(str(tmp_path / "join.png"))
    zbarimg = shutil.which("zbarimg")
    assert zbarimg, "zbarimg (Debian: zbar-tools) reads the code as a phone would; scripts/setup.sh test installs it"
    read = subprocess.run([zbarimg, "--raw", "-q", shot], capture_output=True, text=True, timeout=30)
    assert read.stdout.strip() == link
    dialog.dismiss()
    ui.frames(3)

    given(ui, SETUP[:1])  # seating: the same code from its own button, and again from the menu
    ui.app.goto("seating")
    ui.tap(ui.screen.ids.join)
    assert isinstance(ui.modal(), JoinDialog)
    ui.modal().dismiss()
    ui.frames(3)
    ui.tap(ui.find("menu"))
    ui.tap(ui.modal().items["join"])
    assert isinstance(ui.modal(), JoinDialog) and ui.modal().code.url == link


def test_a_tap_right_after_a_dialog_closes_is_not_lost(ui: UI) -> None:
    """A dialog is gone the moment it closes: Kivy's fading one took every touch for 0.1 s,
    and the next seat's roll, tapped at once, was lost (seen under load in the evening test)."""
    from table_app.ui.dialogs import DicePad

    given(ui, SETUP[:1])
    seating = ui.screen
    ui.tap(seating.ids.method_B)
    ui.tap(ui.find("roll_0"))
    first = ui.modal()
    first.dismiss()
    ui.tap(ui.find("roll_1"))  # (within a frame of the first closing)
    second = ui.modal()
    assert isinstance(second, DicePad) and second is not first and second.text == "Bo"
