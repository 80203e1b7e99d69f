"""The touchscreen's look back (issue 29): past sessions after an evening of a few hands, a
session's ranking, settle-up and hands, a hand replayed step by step to its settlement — each
step's table checked against the archive's state at that record, an undone step marked — the
records and the leaderboard, the last screen's way to its session after a new one began, the
past screens let go when left, and every past screen laid out whole at 800×480 and 1280×720 in
both languages with the longest names."""

from __future__ import annotations

from typing import Any

import pytest

from table_app.archive import Archive
from table_app.present.history_view import (
    hand_line,
    leaderboard_lines,
    record_lines,
    session_line,
    step_caption,
    transfer_lines,
)
from table_app.present.seat import seat_lines
from table_app.present.table import status_line
from table_app.present.wall import wall_view
from tests.table_app.ui.conftest import UI
from tests.table_app.ui.test_layout import problems

pytestmark = pytest.mark.kivy

NAMES = ["欧阳诸葛司马东方", "Maximilianus", "阿强", "欧阳司马诸葛上官"]
PLAYED = [  # a hand played: bets, the dice, a discard taken back, a kong, a pong, a win on a discard
    {"type": "seating", "method": "C", "east": 0},
    {"type": "bets", "bets": [0, 1, 0, 2]},
    {"type": "roll", "dice": [4, 6]},
    {"type": "roll", "dice": [2, 3]},
    {"type": "discard", "seat": 0},
    {"type": "undo"},
    {"type": "discard", "seat": 0},
    {"type": "resolve"},
    {"type": "kong", "seat": 1, "kind": "concealed"},
    {"type": "discard", "seat": 1},
    {"type": "claim", "seat": 2, "call": "pong"},
    {"type": "resolve"},
    {"type": "discard", "seat": 2},
    {"type": "claim", "seat": 3, "call": "win"},
    {"type": "resolve"},
    {"type": "confirm_win", "wait": "closed"},
]
SCORED = [
    {"type": "next_hand"},
    {"type": "score_hand", "winner": 1, "how": "self_drawn", "wait": "single"},
    {"type": "next_hand"},
    {"type": "score_hand"},  # 荒牌
]


def given(ui: UI, events: list[dict[str, Any]]) -> None:
    for ev in events:
        answer = ui.service.call(ev, source="test")
        assert answer.ok, (ev, answer.error)
    ui.settled()


def evening(ui: UI, names: list[str] = NAMES) -> None:
    """A session of three hands (one played, two scored), ended; then a second one begun."""
    given(ui, [{"type": "new_session", "players": names, "base": 2}, *PLAYED, *SCORED, {"type": "end_session"}])
    given(ui, [{"type": "new_session", "players": names[::-1], "base": 1}])


def read(ui: UI) -> None:
    """The archive brought up to the journal (its first read, in a thread) and the screen drawn again."""
    from table_app.ui import past

    ui.wait(lambda: past.of(ui.app).warm, "the archive up to the journal")


def archive(ui: UI) -> Archive:
    return Archive(ui.app.journal, ui.service.roster)


def row_texts(screen: Any) -> list[str]:
    return [r.text for r in reversed(screen.ids.rows.children)]


def test_past_sessions_a_session_and_a_hand_replayed_to_its_settlement(ui: UI) -> None:
    evening(ui)
    ui.app.lang = "en"
    ui.app.goto("table")
    ui.tap(ui.screen.ids.menu)
    ui.tap(ui.modal().items["past"])
    assert ui.screen.name == "past"
    read(ui)
    ar = archive(ui)
    sessions = ar.sessions(0, 20).items
    assert len(sessions) == 2 and not sessions[0].finished and sessions[1].finished
    assert row_texts(ui.screen) == [session_line(s, "en") for s in sessions]

    ui.tap(ui.find(f"session_{sessions[1].number}"))
    assert ui.screen.name == "past_session"
    s = sessions[1]
    summary = ui.screen.ids.summary.text
    assert "#1 " in summary and "Settle up" in summary
    for p in s.settle_up:  # the engine's settle-up, kept after the new session began
        assert f"{s.players[p['from']]} pays {s.players[p['to']]}\u00a0{p['amount']}" in summary
    hands = ar.hands(s.number)
    assert [h.hand for h in hands] == [1, 2, 3]
    assert row_texts(ui.screen) == [hand_line(h, "en") for h in hands]
    ui.tap(ui.find("details"))  # (明细: every transfer of each hand)
    assert row_texts(ui.screen) == ["\n".join([hand_line(h, "en"), *transfer_lines(h, "en")]) for h in hands]
    assert any(h.result == "drawn" for h in hands) and any("drawn" in t for t in row_texts(ui.screen))
    ui.tap(ui.find("details"))

    ui.tap(ui.find("hand_1"))
    assert ui.screen.name == "replay"
    replay = ar.replay(s.number, 1)
    screen = ui.screen
    board = screen.ids.board
    undone = 0
    widgets = len(list(screen.walk()))  # (one table of widgets whatever the step)
    for i, step in enumerate(replay.steps):
        assert len(list(screen.walk())) == widgets
        state = replay.state_at(i)
        assert screen.ids.counter.text == f"{i + 1}/{len(replay.steps)}"
        assert screen.ids.caption.text.endswith(step_caption(step, state, "en"))
        for seat, panel in enumerate(board.panels):
            lines = seat_lines(state, seat, "en")
            assert (panel.name, panel.score, panel.detail, panel.prompt) == (
                lines["name"], lines["score"], lines["detail"], lines["prompt"]), (i, seat)
        assert board.wall.view == wall_view(state), i
        assert board.status.text == status_line(state, "en")
        if step.undone:
            undone += 1
            assert tuple(screen.ids.caption.color) != tuple(board.status.color)  # (marked in another colour)
        if i < len(replay.steps) - 1:
            ui.tap(screen.ids.next)
    assert undone == 1
    assert screen.ids.next.disabled and state["phase"] == "hand_over"
    assert state["last_settlement"]["winner"] == 3 and "欧阳司马诸葛上官" in board.status.text
    ui.tap(screen.ids.first)
    assert screen.ids.counter.text == f"1/{len(replay.steps)}" and screen.ids.prev.disabled
    screen.ids.slider.value = 5  # (a drag: drawn on the next frame)
    ui.frames(3)
    assert screen.ids.counter.text == f"6/{len(replay.steps)}"
    assert board.wall.view == wall_view(replay.state_at(5))
    ui.tap(screen.ids.last)
    assert screen.ids.counter.text == f"{len(replay.steps)}/{len(replay.steps)}"
    ui.tap(screen.ids.back)
    assert ui.screen.name == "past_session"


def test_records_and_the_leaderboard(ui: UI) -> None:
    evening(ui)
    ui.app.lang = "en"
    ui.app.goto("past")
    read(ui)
    ui.tap(ui.find("records"))
    assert ui.screen.name == "records"
    ar = archive(ui)
    board = ar.leaderboard(None)
    assert row_texts(ui.screen) == leaderboard_lines(board, "en")
    assert board[0].net >= board[-1].net and sum(r.net for r in board) == 0
    best = board[0]
    ui.tap(ui.find("record_0"))
    assert ui.screen.ids.top.title == f"Record · {best.name}"
    assert row_texts(ui.screen) == record_lines(ar.record(best.player_id, None), "en")[1:]  # (the name: the title)
    ui.tap(ui.find("period_day"))
    assert row_texts(ui.screen) == record_lines(ar.record(best.player_id, "day"), "en")[1:]
    listed = ui.screen.ids.listed  # the player's choice: on the parlour's leaderboards or not
    assert listed.text == "Parlour boards: Shown" and not listed.disabled
    ui.tap(listed)
    roster = ui.app.service.roster
    assert listed.text == "Parlour boards: Hidden" and roster.get(best.player_id).listed is False
    ui.tap(ui.screen.ids.back)
    assert ui.screen.ids.listed.disabled and ui.screen.ids.listed.opacity == 0  # (none on the leaderboard)
    assert ui.screen.ids.top.title.startswith("Records · leaderboard")
    assert row_texts(ui.screen) == leaderboard_lines(ar.leaderboard("day"), "en")


def test_the_last_screen_opens_its_session_after_a_new_one_began(ui: UI) -> None:
    given(ui, [{"type": "new_session", "players": NAMES, "base": 2}, *PLAYED, {"type": "end_session"}])
    assert ui.screen.name == "final"
    ui.tap(ui.screen.ids.past)
    assert ui.screen.name == "past_session"
    read(ui)
    assert ui.screen.ids.summary.text.count("\n") >= 6 and len(ui.screen.ids.rows.children) == 1


def test_the_past_screens_are_let_go_when_left(ui: UI) -> None:
    from table_app.ui import past

    evening(ui)
    part = past.of(ui.app)
    part.session, part.hand = 1, 1
    for name in ("past", "past_session", "replay", "records"):
        ui.app.goto(name)
        read(ui)
    assert part._archive is not None
    ui.app.goto("table")
    ui.app.goto("scores")
    ui.frames(2)
    assert part._archive is None and part._replay is None and not part.warm
    assert not any(ui.app.made(n) for n in past.PAST_SCREENS)


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_past_screens_fit(ui: UI, size: tuple[int, int]) -> None:
    from kivy.core.window import Window

    from table_app.ui import past

    Window.size = size
    ui.frames(3)
    evening(ui)
    given(ui, [*PLAYED[:5]])  # (the new session's hand under way: an unfinished session and hand)
    part = past.of(ui.app)
    found: list[str] = []
    for lang in ("zh", "en"):
        ui.app.set_lang(lang)
        part.session, part.hand, part.player = 1, 1, None
        for name in ("past", "past_session", "records"):
            ui.app.goto(name)
            read(ui)
            found += problems(ui, f"{size} {lang} {name}")
        part.details = True
        ui.app.goto("past_session")
        ui.frames(2)
        found += problems(ui, f"{size} {lang} past_session details")
        part.details = False
        part.player = archive(ui).leaderboard(None)[0].player_id
        ui.app.goto("records")
        ui.frames(2)
        found += problems(ui, f"{size} {lang} record")
        ui.app.goto("replay")
        for step in range(len(part.replay().steps)):
            part.step = step
            ui.screen.refresh()
            ui.frames(1)
            found += problems(ui, f"{size} {lang} replay step {step}")
    assert not found, "\n".join(found)


def test_sessions_and_hands_are_paged_with_big_buttons(ui: UI) -> None:
    """Twelve sessions (the last with seven hands): a page holds what the screen's height does,
    only the page's rows made; 下一页 / 上一页 turn the page, disabled at the ends."""
    from table_app.ui.past import rows_per_page

    for n in range(12):
        given(ui, [{"type": "new_session", "players": NAMES, "base": 1}, PLAYED[0],
                   {"type": "score_hand", "winner": n % 4, "how": "self_drawn"}, {"type": "end_session"}])
    given(ui, [{"type": "new_session", "players": NAMES, "base": 1}, PLAYED[0],
               *[e for _ in range(6) for e in ({"type": "score_hand"}, {"type": "next_hand"})], {"type": "score_hand"}])
    ui.app.lang = "en"
    ui.app.goto("past")
    read(ui)
    per = rows_per_page()
    ar = archive(ui)
    pages = ar.sessions(0, per).pages
    assert per == 5 and pages == 3  # (13 sessions, 5 a page at 800×480)
    pager = ui.screen.ids.pager
    assert pager.ids.prev.disabled and not pager.ids.next.disabled
    for page in range(pages):
        assert row_texts(ui.screen) == [session_line(s, "en") for s in ar.sessions(page, per).items]
        assert ui.screen.ids.top.title == f"Past sessions · page {page + 1}/{pages}"
        if page < pages - 1:
            ui.tap(pager.ids.next)
    assert pager.ids.next.disabled
    ui.tap(pager.ids.prev)
    assert row_texts(ui.screen) == [session_line(s, "en") for s in ar.sessions(1, per).items]
    newest = ar.sessions(0, 1).items[0]
    ui.app.goto("past")  # (the page is kept while the screens are left and built again)
    assert ui.screen.ids.top.title == f"Past sessions · page 2/{pages}"
    from table_app.ui import past

    past.of(ui.app).open_session(newest.number)
    hands = ar.hands(newest.number)
    assert len(hands) == 7 and len(ui.screen.ids.rows.children) == per
    ui.tap(ui.screen.ids.pager.ids.next)
    assert row_texts(ui.screen) == [hand_line(h, "en") for h in hands[per:]]
