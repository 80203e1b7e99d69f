"""Rosters into the parlour: bounded and checked (a refusal logged and kept, nothing linked),
linked by name with letters' case aside, a link kept when a player is renamed at a table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parlour.db import Database
from parlour.derived import Derived
from parlour.ingest import Ingest
from parlour.players import MAX_BYTES, Links, RosterRefused, parse_roster
from table_app.mqtt.messages import Outgoing


def roster(*players: tuple[int, str, bool]) -> bytes:
    return json.dumps({"players": [{"id": i, "name": n, "listed": shown} for i, n, shown in players]}).encode()


@pytest.mark.parametrize(("payload", "why"), [
    (b"not json", "JSON"),
    (b'{"players": [], "more": 1}', '{"players"'),
    (json.dumps({"players": [{"id": i, "name": f"p{i}", "listed": True} for i in range(1, 1002)]}).encode(),
     "at most 1,000"),
    (b'{"players": [{"id": 1, "name": "Ann"}]}', "exactly the keys"),
    (b'{"players": [{"id": 1, "name": "Ann", "listed": 1}]}', "true or false"),
    (b'{"players": [{"id": 1, "name": "\\u0007bell", "listed": true}]}', "printable"),
    (b'{"players": [{"id": 1, "name": "' + b"x" * 13 + b'", "listed": true}]}', "1-12"),
    (roster((1, "Ann", True), (1, "Bo", True)), "each id once"),
    (b" " * (MAX_BYTES + 1), "at most 65,536 bytes"),
])
def test_a_roster_that_is_not_one_is_refused(payload: bytes, why: str) -> None:
    with pytest.raises(RosterRefused, match=why):
        parse_roster(payload)


def test_rosters_are_linked_by_name_kept_through_a_rename_and_refusals_are_logged(tmp_path: Path) -> None:
    sent: list[Outgoing] = []
    with Database.open(tmp_path / "p.sqlite3") as db:
        d = Derived(db, sent.append, refuse=Ingest(db).refuse)
        with db.transaction():
            d.roster("den", roster((1, "Ann", True), (2, "Bo", False)))
            d.roster("hall", roster((7, "ANN", True), (8, "Cy", True)))
            d.roster("hall", b'{"players": 3}')
        links = Links.load(db)
        ann = links.by_roster[("den", 1)]
        assert links.by_roster[("hall", 7)] == ann and links.names[ann] == "Ann"  # (the name first heard)
        assert links.hidden == {links.by_roster[("den", 2)]} and d.linked == 4
        [(_, table, _, _, reason)] = db.refusals()
        assert table == "hall" and reason.startswith("not a roster: ")
        with db.transaction():
            d.roster("den", roster((1, "Annie", True), (2, "Bo", True)))  # renamed, and Bo shown again
        again = Links.load(db)
        assert again.by_roster[("den", 1)] == ann and not again.hidden and d.linked == 4
    assert sent == []  # (nothing published while not connected)
