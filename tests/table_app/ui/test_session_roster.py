"""The new-session screen with the roster (issue 28): names picked with one tap, a new name
typed once, a rename that keeps the record; starting again over an unplayed session replaces
it and moves on to seating (item 3); the base is whole points, anything else refused (item 4)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest

from tests.table_app.ui.conftest import UI

pytestmark = pytest.mark.kivy

EVENINGS = (["王小明", "Ana", "李雷", "Zoë"], ["欧阳诸葛司马东方", "Maximilianus", "张阿姨", "Bo"])


def _played(ui: UI) -> None:
    """Two sessions played before (the second ended): the roster has eight players."""
    for names in EVENINGS:
        assert ui.service.call({"type": "new_session", "players": names, "base": 2}, "touch", 10).ok
    assert ui.service.call({"type": "end_session"}, "touch", 10).ok
    ui.settled()
    ui.app.goto("session")
    ui.frames(3)


def _row(ui: UI, pid: int) -> Any:
    """The roster row of player ``pid``, scrolled into view."""
    row = ui.find(f"roster_{pid}")
    ui.screen.ids.roster_scroll.scroll_to(row, animate=False)
    ui.frames(2)
    return row


def _new_sessions(ui: UI) -> list[dict[str, Any]]:
    """The new_session events in effect, as the journal holds them."""
    j = ui.service.journal_reader()
    try:
        return [e for e in j.events(j.timeline().active) if e["type"] == "new_session"]
    finally:
        j.close()


def test_the_places_start_with_the_last_players_and_a_name_is_picked_with_one_tap(ui: UI) -> None:
    _played(ui)
    s = ui.screen
    assert s.names() == EVENINGS[1]  # the last session's four, where they sat
    roster = {p.name: p.id for p in ui.service.roster.players()}  # type: ignore[union-attr]
    assert list(roster)[:4] == ["Bo", "张阿姨", "Maximilianus", "欧阳诸葛司马东方"]  # the most recent first
    ui.tap(s.ids.name2)  # the top place
    assert s.chosen == 2 and s.ids.name2.selected
    ui.tap(_row(ui, roster["李雷"]))  # one tap: 李雷 sits at the top
    assert s.names() == ["欧阳诸葛司马东方", "Maximilianus", "李雷", "Bo"] and s.chosen == 3
    ui.tap(_row(ui, roster["Maximilianus"]))  # seated already: the two swap places
    assert s.names() == ["欧阳诸葛司马东方", "Bo", "李雷", "Maximilianus"]
    assert s.ids.name2.ids.badge.letter == "李"
    ui.tap(s.ids.start)
    ui.wait(lambda: ui.screen.name == "seating", "seating")
    event = _new_sessions(ui)[-1]
    assert event["players"] == ["欧阳诸葛司马东方", "Bo", "李雷", "Maximilianus"]
    assert event["player_ids"] == [roster[n] for n in event["players"]]  # the same people, by id


def test_a_new_name_is_typed_once_and_joins_the_roster(ui: UI) -> None:
    _played(ui)
    s = ui.screen
    ui.tap(s.ids.name1)
    ui.tap(s.ids.new_name)
    kb = ui.modal()  # the name keyboard (the screen in English: Latin letters; 中 for pinyin, then the 汉字 tapped)
    ui.tap(ui.find("mode", root=kb))
    for word, chars in (("ouyang", "欧阳"), ("zhuge", "诸葛")):
        for k in word:
            ui.tap(ui.find(f"key_{k}", root=kb))
        ui.tap(next(w for w in kb.bar.children if w.text == chars))
    ui.tap(ui.find("ok", root=kb))
    assert s.names()[1] == "欧阳诸葛" and s.ids.name1.ids.badge.colour == [0.45, 0.47, 0.5, 1]  # not in it yet
    ui.tap(s.ids.start)
    ui.wait(lambda: ui.screen.name == "seating", "seating")
    player = ui.service.roster.find("欧阳诸葛")  # type: ignore[union-attr]
    assert player is not None and player.first_played is not None
    assert _new_sessions(ui)[-1]["player_ids"][1] == player.id
    ui.app.goto("session")
    ui.frames(2)
    assert ui.find(f"roster_{player.id}").text == "欧阳诸葛"  # one tap next time


def test_a_rename_keeps_the_player_and_the_sessions_keep_the_old_name(ui: UI) -> None:
    _played(ui)
    s = ui.screen
    bo = ui.service.roster.find("Bo")  # type: ignore[union-attr]
    assert bo is not None
    ui.tap(ui.find(f"rename_{bo.id}"))
    kb = ui.modal()
    assert kb.entry.name == "Bo"
    ui.tap(ui.find("backspace", root=kb))
    ui.tap(ui.find("backspace", root=kb))
    for k in "ana":  # someone else's name, letters' case aside: refused
        ui.tap(ui.find(f"key_{k}", root=kb))
    ui.tap(ui.find("ok", root=kb))
    assert ui.app.message == "Someone is already called Ana" and ui.service.roster.get(bo.id).name == "Bo"  # type: ignore[union-attr]
    ui.tap(ui.find(f"rename_{bo.id}"))
    kb = ui.modal()
    for key in ("key_b", "space", "key_l", "key_i"):
        ui.tap(ui.find(key, root=kb))
    ui.tap(ui.find("ok", root=kb))
    assert ui.service.roster.get(bo.id).name == "Bob Li"  # type: ignore[union-attr]
    assert s.names()[3] == "Bob Li" and ui.app.message == "Bo is now Bob Li; their record stays"  # (Li: a capital)
    assert _new_sessions(ui)[-1]["players"][3] == "Bo"  # played as Bo: the journal says so
    ui.tap(s.ids.start)
    ui.wait(lambda: ui.screen.name == "seating", "seating")
    assert _new_sessions(ui)[-1]["player_ids"][3] == bo.id


def test_fixing_the_base_of_an_unplayed_session_replaces_it_and_goes_on_to_seating(ui: UI) -> None:
    """Item 3: back from seating to fix the base, 开始 again: one session, not three, and seating."""
    s = ui.screen
    ui.tap(s.ids.start)
    ui.wait(lambda: ui.screen.name == "seating", "seating")
    for base in ("5", "10"):
        ui.app.goto("session")
        ui.frames(2)
        assert ui.screen.ids.base.text in ("1", "5")  # the session's own base, to fix
        ui.screen.ids.base.text = base
        ui.tap(ui.screen.ids.start)
        ui.wait(lambda b=base: ui.screen.name == "seating" and ui.service.public["base"] == int(b), "seating")
        assert not ui.app.message
    assert [e["base"] for e in _new_sessions(ui)] == [10]  # the unplayed ones were undone, not piled up
    # seated and betting, still no hand: replaced the same way
    assert ui.service.call({"type": "seating", "method": "C", "east": 1}, "touch", 10).ok
    ui.settled()
    ui.app.goto("session")
    ui.frames(2)
    ui.screen.ids.base.text = "3"
    ui.tap(ui.screen.ids.start)
    ui.wait(lambda: ui.screen.name == "seating" and ui.service.public["base"] == 3, "seating")
    assert [e["base"] for e in _new_sessions(ui)] == [3]
    con = sqlite3.connect(ui.service._journal.path)
    sessions = con.execute("SELECT count(*) FROM sessions").fetchone()[0]
    events = [json.loads(e)["type"] for (e,) in con.execute("SELECT event FROM records WHERE kind = 'event'")]
    undone = con.execute("SELECT count(*) FROM records WHERE kind = 'undo'").fetchone()[0]
    con.close()
    assert sessions == 4 and events.count("new_session") == 4 and undone == 3  # the journal keeps the truth


def test_a_played_session_still_asks_first(ui: UI) -> None:
    s = ui.screen
    ui.tap(s.ids.start)
    ui.wait(lambda: ui.screen.name == "seating", "seating")
    for e in ({"type": "seating", "method": "C", "east": 0}, {"type": "bets", "bets": [0, 0, 0, 0]},
              {"type": "roll", "dice": [3, 4]}):
        assert ui.service.call(e, "touch", 10).ok
    ui.settled()
    ui.app.goto("session")
    ui.frames(2)
    seq = ui.service.seq
    ui.tap(ui.screen.ids.start)
    assert ui.modal().text.startswith("Leave the session being played") and ui.service.seq == seq


def _records(ui: UI) -> int:
    con = sqlite3.connect(ui.service._journal.path)
    try:
        return int(con.execute("SELECT count(*) FROM records").fetchone()[0])
    finally:
        con.close()


def test_one_name_at_two_seats_is_refused_in_words_and_nothing_is_journaled(ui: UI) -> None:
    """The engine's rule (one player, one seat; names trimmed and without case), asked before
    anything is sent: nothing journaled — and an unplayed session is not undone for it."""
    s = ui.screen
    for i, name in enumerate(["阿强", "Bo", " 阿强", "Di"]):
        s.ids[f"name{i}"].text = name
    ui.tap(s.ids.start)
    ui.frames(3)
    assert ui.app.message == "Two players have the same name: 阿强" and ui.screen.name == "session"
    assert ui.service.seq == 0 and _records(ui) == 0
    ui.app.set_lang("zh")
    ui.tap(s.ids.start)
    assert ui.app.message == "两位玩家同名：阿强" and _records(ui) == 0
    s.ids.name2.text = "Cy"
    ui.tap(s.ids.start)
    ui.wait(lambda: ui.screen.name == "seating", "seating")
    ui.app.goto("session")  # (the session is unplayed: a start would replace it)
    ui.frames(2)
    seq, records = ui.service.seq, _records(ui)
    ui.screen.ids.name3.text = "bo"
    ui.tap(ui.screen.ids.start)
    ui.frames(3)
    assert ui.app.message == "两位玩家同名：bo" and ui.screen.name == "session"
    assert ui.service.seq == seq and _records(ui) == records
    assert ui.service.public["players"] == ["阿强", "Bo", "Cy", "Di"]  # (the unplayed session stands)


@pytest.mark.parametrize("typed", ["1.5", "0.5", "abc", "0", "-2", "99999999999999"])
def test_the_base_is_whole_points_anything_else_is_refused_and_nothing_changes(ui: UI, typed: str) -> None:
    """Item 4: the field keeps what was typed ("1.5" never becomes 15) and the start refuses it."""
    base = ui.screen.ids.base
    base.text = ""
    base.insert_text(typed)
    assert base.text == typed
    seq = ui.service.seq
    ui.tap(ui.screen.ids.start)
    ui.frames(3)
    assert ui.app.message == f"The base is whole points, 1 to 1,000,000: not “{typed}”"
    assert ui.service.seq == seq and ui.service.public["phase"] == "idle" and ui.screen.name == "session"
    ui.app.set_lang("zh")
    ui.tap(ui.screen.ids.start)
    assert ui.app.message == f"基数要是整数分，1 到 1,000,000：“{typed}” 不行"
    base.text = "20"
    ui.tap(ui.screen.ids.start)
    ui.wait(lambda: ui.service.public["base"] == 20 and ui.screen.name == "seating", "base 20")


def test_the_base_is_stepped_without_a_keyboard(ui: UI) -> None:
    """The touchscreen alone: − and + beside the base (never under 1); a typed "1.5" is refused, not stepped."""
    base = ui.screen.ids.base
    up, down = ui.find("base_up"), ui.find("base_down")
    base.text = "1"
    ui.tap(down)
    assert base.text == "1"
    for _ in range(4):
        ui.tap(up)
    ui.tap(down)
    assert base.text == "4"
    base.text = "1.5"
    ui.tap(up)
    assert base.text == "1.5" and ui.app.message == "The base is whole points, 1 to 1,000,000: not “1.5”"
    base.text = "4"
    ui.tap(ui.screen.ids.start)
    ui.wait(lambda: ui.service.public["base"] == 4 and ui.screen.name == "seating", "base 4")
