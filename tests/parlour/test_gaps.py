"""The replay requests for a gap, on a real ingest and SQLite: bounded spans, one request
outstanding a table, paced, asked again after the timeout (waiting longer each time), none
to an offline table, ``journal.other`` naming the journal to ask for next; a journal of over
2,000 records; a table that comes online probed for what follows the tip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parlour.db import Database
from parlour.gaps import MAX_SPAN, Replayer
from parlour.ingest import Ingest
from tests.parlour.helpers import make_journal, records


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture(scope="module")
def recs(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, object]]:
    return records(make_journal(tmp_path_factory.mktemp("j") / "journal.sqlite3", hands=260))


def test_a_long_gap_is_asked_for_in_bounded_paced_requests_until_the_copy_is_whole(
        tmp_path: Path, recs: list[dict[str, object]]) -> None:
    assert len(recs) > 2 * MAX_SPAN
    with Database.open(tmp_path / "p.sqlite3") as db:
        ing = Ingest(db)
        sent: list[tuple[str, dict[str, object]]] = []
        clock = Clock()
        rep = Replayer(lambda topic, payload: sent.append((topic, json.loads(payload))), clock=clock, pace=0.05,
                       timeout=10.0)
        with db.transaction():
            ing.live("den", recs[0])
            ing.live("den", recs[-1])  # the table is far ahead: everything between is missing
            ing.live("hall", recs[0])
            ing.live("hall", recs[5])
        assert rep.tick(ing) == 1 and rep.tick(ing) == 0  # paced: one request a pace
        clock.t += 0.1
        assert rep.tick(ing) == 1
        (t1, den), (t2, hall) = sent
        assert (t1, den["type"], den["from"], den["to"]) == ("xian/den/cmd", "journal_replay", 2, 2 + MAX_SPAN)
        assert (t2, hall["from"], hall["to"]) == ("xian/hall/cmd", 2, 5)  # up to the held record
        clock.t += 5
        assert rep.tick(ing) == 0  # one outstanding a table
        clock.t += 5
        assert rep.tick(ing) == 1 and sent[-1][1]["from"] == 2 and sent[-1][1]["request"] != den["request"]
        rep.status("hall", online=False)
        clock.t += 20.1
        assert rep.tick(ing) == 1 and sent[-1][0] == "xian/den/cmd"  # waited twice as long; hall is offline
        asked = 0
        while ing.tip(("den", str(recs[0]["journal"]))) < len(recs) and asked < 10:
            req = rep.outstanding["den"]
            chunk = [r for r in recs if req.first <= r["seq"] <= req.last]  # type: ignore[operator]
            with db.transaction():
                answer = ing.replay("den", {"journal": recs[0]["journal"], "request": req.id, "records": chunk,
                                            "last": len(recs), "done": True})
            assert answer is not None
            rep.answered(answer)
            clock.t += 0.1
            asked += rep.tick(ing)
        assert [r.seq for r in db.records("den", str(recs[0]["journal"]))] == list(range(1, len(recs) + 1))
        assert all(m["to"] - m["from"] < 2000 for _, m in sent)  # type: ignore[operator]
        assert "den" not in rep.outstanding and rep.gap(ing, "den") is None


def test_journal_other_ends_the_request_and_the_journal_it_names_is_asked_for(
        tmp_path: Path, recs: list[dict[str, object]]) -> None:
    with Database.open(tmp_path / "p.sqlite3") as db:
        ing = Ingest(db)
        sent: list[dict[str, object]] = []
        clock = Clock()
        rep = Replayer(lambda topic, payload: sent.append(json.loads(payload)), clock=clock)
        with db.transaction():
            ing.live("den", recs[0])
            ing.live("den", recs[9])
        assert rep.tick(ing) == 1
        assert rep.result("den", {"status": "error", "code": "journal.other", "params": {"journal": "f" * 32},
                                  "transaction": "someone else's"}, ing) is None
        assert rep.result("den", {"status": "error", "code": "journal.other", "params": {"journal": "f" * 32},
                                  "transaction": sent[0]["request"]}, ing) == "journal.other"
        clock.t += 100
        assert rep.tick(ing) == 1  # the journal the table named, from its start
        assert (sent[-1]["journal"], sent[-1]["from"]) == ("f" * 32, 1)
        assert all(m["journal"] != recs[0]["journal"] for m in sent[1:])


def test_a_table_that_comes_online_is_probed_for_what_follows_the_tip(
        tmp_path: Path, recs: list[dict[str, object]]) -> None:
    with Database.open(tmp_path / "p.sqlite3") as db:
        ing = Ingest(db)
        sent: list[dict[str, object]] = []
        clock = Clock()
        rep = Replayer(lambda topic, payload: sent.append(json.loads(payload)), clock=clock)
        rep.status("den", online=True)  # nothing heard from den yet: which journal?
        assert rep.tick(ing) == 1 and (sent[0]["journal"], sent[0]["from"], sent[0]["to"]) == ("0" * 32, 1, 1)
        rep.result("den", {"status": "error", "code": "journal.other", "transaction": sent[0]["request"],
                           "params": {"journal": recs[0]["journal"], "request": sent[0]["request"]}}, ing)
        clock.t += 0.1
        assert rep.tick(ing) == 1 and (sent[1]["journal"], sent[1]["from"]) == (recs[0]["journal"], 1)
        with db.transaction():  # its whole journal, as the table answers (records 1 … last)
            answer = ing.replay("den", {"journal": recs[0]["journal"], "request": sent[1]["request"],
                                        "records": recs[:40], "last": 40, "done": True})
        assert answer is not None
        rep.answered(answer)
        clock.t += 100
        assert rep.tick(ing) == 0  # whole, and not asked again until it comes online again
        rep.status("den", online=True)
        assert rep.tick(ing) == 1 and (sent[2]["from"], sent[2]["to"]) == (41, 41 + MAX_SPAN)
