"""The scripted evening itself (``evening_app`` runs it and reads the memory): the real app,
service and journal; sessions of hands played by presses (by touch and from the wired
buttons) and hands scored only, every screen and dialog visited, the language switched."""

from __future__ import annotations

import random
import tracemalloc
from collections.abc import Callable

from engine.presses import PRESSED_WITH
from engine.public import PublicState
from table_app.bench.touch import Driver

JOIN = "http://192.168.178.120:8080/join/Xq3vT0bLk9mWc2ZpR8sYfA"  # a session's link, as the web pages give it
HOW = ("self_drawn", "discard")
REST_S = 2.0
DICE = random.Random(28)  # the dice entered by touch (the same evening every time)
NAMES = (["老王", "小李", "张阿姨", "Zhao"], ["欧阳诸葛司马东方", "Maximilianus", "阿强", "Christabella"],
         ["王小明", "李华", "Anna", "陈静"], ["Bo", "刘德华", "周杰伦", "Sam"])


def evening(db: str, *, sessions: int, hands: int, score_only: int, report: Callable[[str], None],
            trace: bool = False) -> list[tracemalloc.Snapshot]:
    """Open the app on the journal ``db`` and play the evening; ``report(at)`` at the start, after
    each session and at the end. With ``trace``, tracemalloc snapshots at each of them."""
    from kivy.base import EventLoop

    from table_app.core.clock import ManualClock
    from table_app.core.service import TableService
    from table_app.journal.journal import Journal
    from table_app.ui.app import TableApp

    rng = random.Random(28)
    journal = Journal.open(db)
    clock = ManualClock()
    service = TableService(journal, claim_window_s=3.0, clock=clock,
                           dice=lambda: (rng.randint(1, 6), rng.randint(1, 6))).start()
    app = TableApp(service, journal=journal, sim=True, lang="zh",
                   links={"hardware": "simulated", "mqtt": "offline", "journal": str(journal.path)})
    app._run_prepare()
    d = Driver(app, service, clock)
    snapshots: list[tracemalloc.Snapshot] = []

    def checkpoint(at: str) -> None:
        d.rest(REST_S)  # (a look at the screen: what the app does a moment after a change is done)
        report(at)
        if trace:
            snapshots.append(tracemalloc.take_snapshot())

    try:
        app.join_url = JOIN  # (the phones' pages on: the QR code is part of the evening)
        d.frames(5)
        checkpoint("start")
        for i in range(sessions):
            session(d, i, hands, score_only)
            checkpoint(f"session {i + 1}")
        checkpoint("end")
    finally:
        app.dispatch("on_stop")
        service.stop()
        journal.close()
        EventLoop.close()
    return snapshots


def session(d: Driver, i: int, hands: int, score_only: int) -> None:
    a = d.app
    for name in ("session", "rules", "settings"):
        d.visit(name)
    a.set_lang("en" if a.lang == "zh" else "zh")  # (Settings' language; the menu's switch is below)
    d.frames(2)
    d.visit("session")
    a.show_join()
    d.frames(2)
    d.tap(d.find("close", d.modal()))
    a.score_only = False
    d.send({"type": "new_session", "players": NAMES[i % len(NAMES)], "base": 1 + i % 3})
    d.wait(lambda: a.sm.current == "seating", "the seating screen")
    d.send({"type": "seating", "method": "C", "east": i % 4})
    d.wait(lambda: a.sm.current == "sithere", "please sit here")
    d.tap(d.find("seated"))
    for h in range(hands):
        play_hand(d, h, touch=h % 2 == 0)
        if h == 1:
            d.menu("lang")
    for h in range(score_only):
        score_hand(d, h)
    undo_and_redo(d)
    d.menu("end")
    d.yes()
    d.wait(lambda: a.sm.current == "final", "the final screen")
    d.visit("scores")
    d.visit("history")
    d.visit("final")
    d.tap(d.find("new_session"))
    d.frames(2)


def play_hand(d: Driver, h: int, touch: bool) -> None:
    """One hand by presses: the dice, then discards until a win (self-drawn or on a discard) or
    the wall runs out; a pong now and then, a kong asked on the screen."""
    a, service = d.app, d.service
    d.visit("table")
    while service.public["phase"] == "betting" or service.public["phase"] == "rolling":
        roll(d, touch)
    ending = h % 3  # 0: self-drawn win, 1: a win on a discard, 2: played out (by touch: a win after all)
    target = 6 + (h * 5) % 17
    n = 0
    while service.public["phase"] in ("turn", "claims"):
        pub = service.public
        if pub["phase"] == "turn":
            seat = pub["turn"]
            if seat is None:
                raise RuntimeError("the evening stopped: a turn without a seat to play")
            if (ending == 0 or (touch and ending == 2)) and n >= target and "win" in pub["actions"][seat]:
                act(d, seat, "win", touch)
                break
            if touch and n == 3 and "kong" in pub["actions"][seat]:
                kong_asked(d, seat)
                continue
            if n % 11 == 7:
                for name in ("wall", "scores", "history", "table"):
                    d.visit(name)
            act(d, seat, "discard", touch)
            n += 1
        else:
            claims(d, pub, touch, win=ending == 1 and n >= target, pong=n % 9 == 4)
    if service.public["pending_win"] is not None:
        d.wait(lambda: a.sm.current == "win", "the win screen")
        d.tap_and_settle(d.find("closed"))
    d.wait(lambda: a.sm.current == "settlement", "the settlement")
    d.tap(d.find("transfers"))
    d.tap(d.find("close", d.modal()))
    for name in ("scores", "history", "settlement"):
        d.visit(name)
    d.tap_and_settle(d.find("next_hand"))


def roll(d: Driver, touch: bool) -> None:
    pub = d.service.public
    if not touch:
        d.press(None, "DICE")
        return
    table = d.app.screen("table")
    seat = next(s for s in range(4) if "roll" in pub["actions"][s])
    if pub["dice"]["dealer"] is None:  # the bets go with the dealer's roll
        d.tap(table.panel((seat + 1) % 4).button("bet_up"))
    d.tap(table.panel(seat).button("roll"))
    pad = d.modal()
    for row in (pad.ids.row_a, pad.ids.row_b):
        value = DICE.randint(1, 6)
        d.tap(next(w for w in row.children if getattr(w, "value", None) == value))
    d.tap_and_settle(pad.ids.ok)


def act(d: Driver, seat: int, action: str, touch: bool) -> None:
    """Seat ``seat`` does ``action`` (one of the engine's ``actions``): by touch on its panel, or
    with its wired button (a pass: TURN; the 下家's TURN draws and discards)."""
    if touch:
        if d.app.sm.current != "table":
            d.visit("table")
        button = d.app.screen("table").panel(seat).button(action.replace(":", "_"))
        if button is None:
            raise RuntimeError(f"the evening stopped: seat {seat} has no {action!r} button")
        d.tap_and_settle(button)
    else:
        d.press(seat, PRESSED_WITH[action])  # type: ignore[index]


def claims(d: Driver, pub: PublicState, touch: bool, win: bool, pong: bool) -> None:
    """Every seat answers the discard: a win or a pong by the first who may, the others pass,
    the discarder's 下家 last; the window is then closed by the clock if it is still open."""
    c = pub["claims"]
    if c is None:
        return
    seq = d.service.seq
    waiting = [s for s in range(4) if pub["actions"][s] and c["answers"][s] is None]
    call = "claim:win" if win else "claim:pong" if pong else None
    claimer = next((s for s in waiting if call in pub["actions"][s]), None) if call else None
    order = [s for s in waiting if s != c["next"]] + [s for s in waiting if s == c["next"]]
    for s in order:
        if d.service.public["phase"] != "claims":
            break
        if s == claimer:
            act(d, s, call or "", touch)
        elif touch or s != c["next"] or claimer is not None:
            act(d, s, "pass", True) if touch else d.service.call({"type": "pass", "seat": s}, source="gpio")
        else:
            act(d, s, "pass", False)  # the 下家's TURN: nobody claimed, it draws and discards
    d.settled()
    if d.service.public["phase"] == "claims" and d.service.seq == seq:
        d.clock.advance(3.5)
        d.wait(lambda: d.service.public["phase"] != "claims" or d.service.seq > seq, "the claim window closed")
        d.settled()


def kong_asked(d: Driver, seat: int) -> None:
    """GANG on one's own turn: where the engine cannot tell which kong, the screen asks."""
    before = d.service.seq
    d.tap(d.app.screen("table").panel(seat).button("kong"))
    d.wait(lambda: _dialog_open() or d.service.seq > before or bool(d.app.message), "the kong or its question")
    if _dialog_open():
        choice = d.modal()
        buttons = [w for w in choice.walk() if getattr(w, "style", "") == "go" and not w.disabled]
        d.tap(buttons[0])
        d.wait(lambda: d.service.seq > before or bool(d.app.message), "the kong")
    d.settled()


def _dialog_open() -> bool:
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    return any(isinstance(w, ModalView) for w in Window.children)


def score_hand(d: Driver, h: int) -> None:
    """A hand's result entered on the entry screen (reached by the menu), then the next hand."""
    a, pub = d.app, d.service.public
    d.menu("entry")
    d.wait(lambda: a.sm.current == "entry", "the entry screen")
    winner = h % 4
    if h % 4 == 3:
        event: dict[str, object] = {"type": "score_hand", "winner": None, "how": None}
    else:
        how = HOW[h % 2]
        event = {"type": "score_hand", "winner": winner, "how": how, "wait": "single"}
        if how == "discard":
            event["discarder"] = (winner + 1) % 4
    del pub
    d.send(event)
    d.wait(lambda: a.sm.current == "settlement", "the settlement of a scored hand")
    d.visit("scores")
    d.visit("settlement")
    d.tap_and_settle(d.find("next_hand"))


def undo_and_redo(d: Driver) -> None:
    """History: the last event undone after a yes, then redone after a yes."""
    d.menu("history")
    d.tap(d.find("undo"))
    d.yes()
    d.tap(d.find("redo"))
    d.yes()
