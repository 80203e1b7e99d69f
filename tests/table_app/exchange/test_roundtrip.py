"""Export → import → the same table (issue 29): 100 sessions of both modes, with kongs, claims,
draws, false wins, score-only hands, names and undone events, exported with ``xian-table
export --format mjai`` and imported with ``xian-table import`` into empty journals; each
session's public state, the journal's state as the service loads it, and the hands and totals
are the same. Every CSV hand adds up to zero."""

from __future__ import annotations

import csv
import io
import itertools
import json
import random
from pathlib import Path

import pytest

from engine.public import public_state
from table_app.cli import main
from table_app.cli.export import SessionLedger, ledgers
from table_app.journal.journal import Journal
from table_app.journal.state import state_after
from tests.table_app.exchange.sessions import check_replays, full_session, tracked_session, write_journal

JOURNALS = 10
SESSIONS_EACH = 10  # 100 sessions in all


def _sessions_states(path: Path) -> list[tuple[int, dict[str, object]]]:
    """Each session in effect: its number of events in effect and its public state at its end,
    as the service loads a journal (``state_after`` over the events in effect)."""
    out = []
    with Journal.open(path, readonly=True) as j:
        active = j.timeline().active
        firsts = [first for _, first, _, _ in j.sessions() if first in set(active)]
        bounds = [active.index(f) for f in firsts] + [len(active)]
        for start, end in itertools.pairwise(bounds):
            state, _ = state_after(j, active[:end])
            out.append((end - start, dict(public_state(state))))
    return out


def _hands(path: Path) -> list[tuple[list[str], list[tuple[object, ...]], list[int]]]:
    with Journal.open(path, readonly=True) as j:
        found: list[SessionLedger] = [s for s in ledgers(j) if s.in_effect]
    return [(s.players, [(h.hand, h.result, h.winner, h.kind, h.deltas, h.totals) for h in s.hands], s.totals)
            for s in found]


def _journal(tmp_path: Path, k: int) -> tuple[Path, list[list[dict[str, object]]]]:
    rng = random.Random(2900 + k)
    sessions = [full_session(rng, rng.randint(1, 3)) if i % 2 else tracked_session(rng, rng.randint(1, 4))
                for i in range(SESSIONS_EACH)]
    check_replays(sessions)
    path = tmp_path / f"j{k}.sqlite3"
    write_journal(path, sessions, rng)
    return path, sessions


@pytest.fixture(scope="module")
def journals(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    tmp = tmp_path_factory.mktemp("exchange")
    return [_journal(tmp, k)[0] for k in range(JOURNALS)]


def test_export_then_import_gives_the_same_table_for_100_sessions(journals: list[Path], tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    seen = {"full": 0, "tracked": 0, "kongs": 0, "draws": 0, "false_wins": 0, "undone": 0, "score_only": 0,
            "fees": 0, "house": 0}
    sessions = 0
    for k, path in enumerate(journals):
        out, db = tmp_path / f"e{k}.jsonl", tmp_path / f"i{k}.sqlite3"
        assert main(["export", "--db", str(path), "--format", "mjai", "--out", str(out)]) == 0
        assert main(["import", str(out), "--db", str(db)]) == 0
        assert "imported" in capsys.readouterr().out
        want, got = _sessions_states(path), _sessions_states(db)
        assert got == want  # every session: as many events in effect, the same public state at its end
        assert _hands(db) == _hands(path)
        with Journal.open(path, readonly=True) as a, Journal.open(db, readonly=True) as b:
            whole_a, _ = state_after(a, a.timeline().active)
            whole_b, _ = state_after(b, b.timeline().active)
            assert public_state(whole_b) == public_state(whole_a)  # the table as the service would load it
            assert [r.at for r in b.records()] == [r.at for r in a.records() if r.seq in set(a.timeline().active)]
        sessions += len(want)
        _count(out, seen)
    assert sessions == JOURNALS * SESSIONS_EACH
    assert all(seen.values()), seen  # every kind of session and event was in the round trip


def _count(export: Path, seen: dict[str, int]) -> None:
    records = [json.loads(line) for line in export.read_text(encoding="utf-8").splitlines()]
    for r in records:
        ev = r.get("xian", {})
        if ev.get("type") == "new_session":
            seen["full" if "wall_seed" in ev else "tracked"] += 1
        seen["kongs"] += r["type"] in ("ankan", "kakan", "daiminkan")
        seen["draws"] += r["type"] == "ryukyoku"
        seen["false_wins"] += ev.get("type") == "reject_win"
        seen["score_only"] += ev.get("type") == "score_hand"
        seen["fees"] += ev.get("type") == "fee" or "fee" in ev
        seen["house"] += "xian_house" in r
    seen["undone"] += records[-1]["undone_left_out"]


def test_every_csv_hand_adds_up_to_zero(journals: list[Path], tmp_path: Path) -> None:
    hands = quoted = billed = 0
    for k, path in enumerate(journals[:4]):
        out = tmp_path / f"{k}.csv"
        assert main(["export", "--db", str(path), "--format", "csv", "--out", str(out)]) == 0
        data = out.read_bytes()
        assert data.startswith(b"\xef\xbb\xbf")  # the BOM: Excel reads the names as UTF-8
        rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
        totals: dict[str, list[int]] = {}
        for r in rows:
            deltas = [int(r[f"delta_{s}"]) for s in range(4)]
            assert sum(deltas) == 0, r
            before = totals.get(r["session"], [0, 0, 0, 0])
            totals[r["session"]] = [int(r[f"total_{s}"]) for s in range(4)]
            assert totals[r["session"]] == [b + d for b, d in zip(before, deltas, strict=True)]
            assert not any(r[f"player_{s}"].startswith(("=", "-", "+", "@")) for s in range(4))  # no formula
            quoted += sum(r[f"player_{s}"] in ("'=Zhao", "'-Bo") for s in range(4))  # shown as text
        hands += len(rows)
        assert [s[1] for s in _hands(path)] and len(rows) == sum(len(s[1]) for s in _hands(path))
        with Journal.open(path, readonly=True) as j:  # the house's bill (issue 31) on a session's last row
            house = {str(s.session): s.house for s in ledgers(j) if s.in_effect and s.hands}
        billed_rows = [r for r in rows if r.get("house_0")]
        for r in billed_rows:
            bill = house[r["session"]]
            assert bill is not None and r is [x for x in rows if x["session"] == r["session"]][-1]
            assert [int(r[f"house_{s}"]) for s in range(4)] == [a + b for a, b in zip(bill["table"], bill["tea"],
                                                                                    strict=True)]
        assert len(billed_rows) == sum(b is not None for b in house.values())
        billed += len(billed_rows)
    assert hands > 40 and quoted and billed



@pytest.mark.soak
@pytest.mark.parametrize("k", range(100, 200))
def test_soak_export_then_import_1000_more_sessions(k: int, tmp_path: Path) -> None:
    """The round trip again, 10 sessions a run, 100 runs (``-m soak``)."""
    path, _ = _journal(tmp_path, k)
    out, db = tmp_path / "e.jsonl", tmp_path / "i.sqlite3"
    assert main(["export", "--db", str(path), "--format", "mjai", "--out", str(out)]) == 0
    assert main(["import", str(out), "--db", str(db)]) == 0
    assert _sessions_states(db) == _sessions_states(path)
    assert _hands(db) == _hands(path)
