"""The parlour's web pages over real HTTP (the table's own server): owner-only with the key
(a refusal in both languages without it; the key once, then a cookie), the floor's tiles as
the fold has them, its stream sending only the tiles that changed, a table's page (the table
page's own HTML under the table's prefix, its view the table page's view of the fold), and
the floor plan (``tables place``) with the grid in table order for the rest."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from parlour.db import Database
from parlour.floor import layout
from parlour.floor_routes import FloorServer
from parlour.live import Live
from parlour.owner_site import owner_key
from table_app.cli import main
from table_app.present.table_page import table_view
from tests.parlour.helpers import get
from tests.parlour.test_live import Table
from tests.support.mqtt import HAND


@pytest.fixture
def floor(tmp_path: Path) -> Iterator[tuple[Database, Table, FloorServer]]:
    db = Database.open(tmp_path / "parlour.sqlite3")
    for t in ("t1", "t2", "t3"):
        db.add_table(t, f"table-{t}")
    live = Live(lambda: db).load()
    table = Table(tmp_path, db, live)
    plan_db = Database.open(tmp_path / "parlour.sqlite3", migrate=False)
    web = FloorServer(live, plan_db.floor, owner_key(db), ("127.0.0.1", 0)).start()
    web.feed.refresh_s = 0.2  # (the plan read again quickly)
    yield db, table, web
    web.stop()
    table.close()
    plan_db.close()
    db.close()


def first_frames(web: FloorServer, cookie: str, n: int) -> list[dict[str, object]]:
    conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=10)
    conn.request("GET", "/parlour/events", headers={"Cookie": cookie})
    r = conn.getresponse()
    assert r.status == 200
    frames = []
    while len(frames) < n:
        line = r.fp.readline()
        if line.startswith(b"data: "):
            frames.append(json.loads(line[6:]))
    conn.close()
    return frames


def test_owner_only_then_tiles_then_a_table_page(floor: tuple[Database, Table, FloorServer]) -> None:
    _, table, web = floor
    key = web.site.key
    wrong = key[:-1] + ("y" if key.endswith("x") else "x")
    for path in ("/parlour", "/parlour.json", "/parlour/events", "/parlour/t/t1", "/parlour/t/t1/table.json",
                 "/parlour/takings", "/parlour/takings.csv", f"/parlour?key={wrong}"):
        status, _, body = get(web, path)
        assert status == 403 and "店主专用" in body.decode() and "owner only" in body.decode(), path
    status, headers, _ = get(web, f"/parlour?key={key}&lang=en")
    assert status == 303 and headers["Location"] == "/parlour?lang=en"
    cookie = headers["Set-Cookie"].split(";")[0]
    assert cookie == f"xian_owner={key}" and "HttpOnly" in headers["Set-Cookie"]
    assert "; Path=/;" in headers["Set-Cookie"]  # (Path=/parlour would not cover /parlour.json in a browser)
    status, _, page = get(web, "/parlour", cookie)
    assert status == 200 and b"const WORDS = {" in page and "牌桌一览".encode() in page

    table.step(*HAND[:6])
    status, _, body = get(web, "/parlour.json", cookie)
    tiles = {t["id"]: t for t in json.loads(body)["tiles"]}
    assert set(tiles) == {"t1", "t2", "t3"}
    assert tiles["t1"]["phase"] == "claims" and tiles["t1"]["players"] == HAND[0]["players"]
    assert tiles["t1"]["seq"] == table.service.seq and tiles["t2"]["phase"] == "idle"

    status, _, page = get(web, "/parlour/t/t1", cookie)  # the table page itself, under the table's prefix
    assert status == 200 and b'const BASE = "/parlour/t/t1";' in page and b"function render(v)" in page
    for lang in ("zh", "en"):
        status, _, body = get(web, f"/parlour/t/t1/table.json?lang={lang}", cookie)
        assert json.loads(body) == json.loads(json.dumps(
            table_view(table.service.public, lang, None, None, table.service.seq), ensure_ascii=False))
    assert get(web, "/parlour/t/nope", cookie)[0] == 404
    status, _, body = get(web, "/parlour/takings.csv?bom=0", cookie)  # the takings' routes, mounted
    assert status == 200 and body.startswith(b"period,table,sessions")


def test_the_stream_sends_only_what_changed_and_the_plan(floor: tuple[Database, Table, FloorServer],
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    db, table, web = floor
    cookie = f"xian_owner={web.site.key}"
    first = first_frames(web, cookie, 1)[0]
    assert first["full"] is True and {t["id"] for t in first["tiles"]} == {"t1", "t2", "t3"}  # type: ignore[union-attr]
    sent: dict[str, bytes] = {}
    assert web.feed.diff(sent) is not None and web.feed.diff(sent) is None  # nothing new: nothing sent
    table.step(HAND[0])
    frame = web.feed.diff(sent)
    assert frame is not None
    changed = json.loads(frame.split(b"data: ", 1)[1])
    assert [t["id"] for t in changed["tiles"]] == ["t1"] and changed["full"] is False

    assert main(["parlour", "tables", "place", "t3", "1", "1", "--db", str(db.where)]) == 0
    assert "column 1, row 1" in capsys.readouterr().out
    def placed() -> dict[str, tuple[int, int]]:
        return {t: (json.loads(raw)["col"], json.loads(raw)["row"]) for t, raw in sent.items()}

    # the feed reads the plan again every REFRESH_S (5 s): wait for it, with a hang guard (a
    # loaded machine may read it late, and another tile's change may come first)
    deadline = time.monotonic() + 30
    while placed().get("t3") != (1, 1) and time.monotonic() < deadline:
        web.feed.diff(sent)
        time.sleep(0.05)
    assert placed() == {"t3": (1, 1), "t1": (2, 1), "t2": (3, 1)}  # the rest fill the grid in table order
    assert main(["parlour", "tables", "place", "t9", "1", "1", "--db", str(db.where)]) == 1
    assert layout(["a", "b"], {"b": (3, 2)}) == ({"b": (3, 2), "a": (1, 1)}, 3, 2)
    places = layout(["a", "b", "c"], {"b": (1, 1), "c": (1, 1)})[0]  # (one spot, two tables: both shown)
    assert places["b"] == (1, 1) and len(set(places.values())) == 3
