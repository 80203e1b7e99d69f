"""The archive in words (present/history_view, zh and en) and ``xian-table records``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.events import parse_event
from table_app.archive import Archive
from table_app.present.history import describe
from table_app.present.history_view import (
    hand_line,
    leaderboard_lines,
    record_lines,
    session_line,
    settle_lines,
    step_caption,
    step_captions,
)
from tests.table_app.archive.conftest import Table, evening


def test_sessions_hands_and_steps_in_words(table: Table) -> None:
    events = evening(3, seed=7)
    last = table.play(events[:60])
    table.undo(last - 2)
    table.play(events[58:])
    with Archive(table.journal, table.roster) as a:
        s = a.session(1)
        zh, en = session_line(s, "zh"), session_line(s, "en")
        best = s.players[s.ranking[0]]
        assert zh.index(best) < zh.index(s.players[s.ranking[-1]]) and "基数1" in zh and f"{s.hands}局" in zh
        assert f"{s.hands} hands" in en and "(in play)" not in en
        assert len(settle_lines(s, "zh")) == max(1, len(s.settle_up))
        hands = a.hands(1)
        for h in hands:
            line = hand_line(h, "zh")
            assert line.startswith(f"第{h.hand}局") and ("荒牌" in line) == (h.result == "drawn")
            if h.winner is not None:
                assert h.players[h.winner] in line and f"+{h.deltas[h.winner]}" in line
        hand = next(h for h in hands if h.first_seq <= last <= h.last_seq)
        r = a.replay(1, hand.hand)
        final = r.final()
        for lang, mark in (("zh", "（已撤销）"), ("en", " (undone)")):
            words = step_captions(r.steps, final, lang)
            assert len(words) == len(r.steps)
            assert [w.endswith(mark) for w in words] == [s.undone for s in r.steps]
            kept = describe([parse_event(s.event) for s in r.steps if not s.undone], final["players"], lang,
                            final["winds"].index("E"))
            assert [w for w, s in zip(words, r.steps, strict=True) if not s.undone] == kept  # one wording
        i = next(i for i, s in enumerate(r.steps) if s.event["type"] == "discard")
        assert step_caption(r.steps[i], r.state_at(i), "zh").startswith(final["players"][r.steps[i].event["seat"]])


def test_records_in_words(table: Table) -> None:
    table.play(evening(2, seed=1))
    with Archive(table.journal, table.roster) as a:
        board = a.leaderboard()
        zh = leaderboard_lines(board, "zh")
        assert len(zh) == 4 and zh[0].startswith(f"1. {board[0].name}")
        ming = table.roster.find("阿明")
        assert ming is not None
        lines = record_lines(a.record(ming.id, "day"), "en")
        assert lines[0] == "阿明" and "2 hands" in lines[1]
        assert record_lines(a.record(999), "zh") == ["", "还没有战绩"]


def test_xian_table_records(table: Table, cli: Any) -> None:
    table.play(evening(2, seed=1))
    with Archive(table.journal, table.roster) as a:
        board = a.leaderboard()
    table.close()
    db = str(table.path)
    out = json.loads(cli("records", "--db", db, "--json", check=True).stdout)
    assert [r["net"] for r in out["leaderboard"]] == [r.net for r in board] and sum(r.net for r in board) == 0
    text = cli("records", "--db", db, "--lang", "zh", check=True).stdout.splitlines()
    assert text == leaderboard_lines(board, "zh")
    pid = board[0].player_id
    one = json.loads(cli("records", "--db", db, "--player", str(pid), "--period", "month", "--json", check=True).stdout)
    assert one["player_id"] == pid and one["periods"][0]["net"] == board[0].net
    assert cli("records", "--db", db, "--player", "999").returncode == 2
    assert cli("records", "--db", str(Path(db).with_name("none.sqlite3"))).returncode == 4
    table.__init__(table.path)  # (the fixture closes it again)
