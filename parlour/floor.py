"""The floor view's feed: every table's tile, the floor plan, and the pace-maker whose ticks
move the owner's event streams (the web server's :class:`~table_app.http_kit.server.Pacer`).

A tile is what :meth:`parlour.live.Live.tile` says of a table, with its place on
the plan, as JSON built once per change of the table (and again every ``REFRESH_S`` for a
session whose fee grows with time). A stream sends its browser only the tiles that changed
since its last frame (:meth:`FloorFeed.diff`). The streams move together on the pace-maker's
ticks, as the table's own pages do (:mod:`table_app.web.live`): a change at once, a burst at
most every ``FLOOR_INTERVAL_S``.

The plan: where the owner placed tables (``xian-table parlour tables place T COL ROW``, read
from the database every ``REFRESH_S``); the rest fill the free places of a grid in table order
(:func:`layout`).
"""

from __future__ import annotations

import json
import logging
import math
import threading
import time
from collections.abc import Callable, Mapping

from parlour.live import Live

log = logging.getLogger("xian.parlour")

FLOOR_INTERVAL_S = 0.1  # the streams' fastest pace in a burst (40 tables pressing: 10 frames a second at most)
REFRESH_S = 5.0  # the plan read again, and the fee of a session billed by the hour, this often
KEEPALIVE_S = 15.0

Plan = Mapping[str, tuple[int, int]]


def layout(tables: list[str], placed: Plan) -> tuple[dict[str, tuple[int, int]], int, int]:
    """Each table's (column, row) from 1, and the grid's columns and rows: the placed tables
    where the owner put them, the others in table order in the free places of a grid about
    16:9 wide (a TV), row by row.

    >>> layout(["t1", "t2", "t3"], {"t3": (1, 1)})
    ({'t3': (1, 1), 't1': (2, 1), 't2': (3, 1)}, 3, 1)
    >>> layout([f"t{i:02d}" for i in range(40)], {})[1:]
    (9, 5)

    Two tables placed on one spot (``tables place`` allows it, with a warning): the first in
    table order has it, the other a free place — never one tile hidden under another.

    >>> layout(["t1", "t2", "t3"], {"t2": (1, 1), "t3": (1, 1)})
    ({'t2': (1, 1), 't1': (2, 1), 't3': (3, 1)}, 3, 1)
    """
    cols = max([c for c, _ in placed.values()] + [math.ceil(math.sqrt(len(tables) * 16 / 9)), 1])
    out: dict[str, tuple[int, int]] = {}
    for t in tables:
        if t in placed and placed[t] not in out.values():
            out[t] = placed[t]
    taken = set(out.values())
    free = ((c, r) for r in range(1, 10_000) for c in range(1, cols + 1) if (c, r) not in taken)
    for t in tables:
        if t not in out:
            out[t] = next(free)
    rows = max([r for _, r in out.values()] + [1])
    return out, max([c for c, _ in out.values()] + [cols]), rows


class FloorFeed:
    """``FloorFeed(live, plan).start()``; the tiles; the streams' ticks and count; ``.stop()``."""

    def __init__(self, live: Live, plan: Callable[[], Plan], *, interval_s: float = FLOOR_INTERVAL_S,
                 refresh_s: float = REFRESH_S) -> None:
        self.live = live
        self._plan_source = plan
        self._plan: Plan = {}
        self.interval_s, self.refresh_s = interval_s, refresh_s
        # table → (its version, place, and the time's bucket when its fee grows with time; its JSON)
        self._tiles: dict[str, tuple[tuple[int, tuple[int, int], int | None], bytes]] = {}
        self._grid = (1, 1)
        self._lock = threading.Lock()
        self._tick = 0
        self._tick_cond = threading.Condition()
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None
        self.streams = 0
        self.ticks = 0

    def start(self) -> FloorFeed:
        self._read_plan()
        self._thread = threading.Thread(target=self._pace, name="floor-pacer", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._closed.set()
        with self._tick_cond:
            self._tick_cond.notify_all()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None

    def _read_plan(self) -> None:
        try:
            plan = dict(self._plan_source())
        except Exception as e:  # (the database away: the plan as it was)
            log.warning("the floor plan could not be read: %s", e)
            return
        with self._lock:
            self._plan = plan

    # -- the tiles

    def tiles(self) -> tuple[dict[str, bytes], tuple[int, int]]:
        """Every table's tile as JSON now, and the grid's (columns, rows)."""
        tables = self.live.tables()
        versions = self.live.versions()
        bucket = int(time.time() // self.refresh_s)
        with self._lock:
            places, cols, rows = layout(tables, self._plan)
            out = {}
            for t in tables:
                cached = self._tiles.get(t)
                if cached is None or cached[0][:2] != (versions.get(t, 0), places[t]) or cached[0][2] not in (
                        None, bucket):
                    tile = self.live.tile(t)
                    tile["col"], tile["row"] = places[t]
                    timed = tile["fee"] is not None and tile["phase"] != "ended"
                    cached = ((versions.get(t, 0), places[t], bucket if timed else None),
                              json.dumps(tile, ensure_ascii=False).encode())
                    self._tiles[t] = cached
                out[t] = cached[1]
            for gone in set(self._tiles) - set(tables):
                del self._tiles[gone]
            self._grid = (cols, rows)
        return out, (cols, rows)

    def diff(self, sent: dict[str, bytes]) -> bytes | None:
        """The SSE frame of the tiles that changed since ``sent`` (which it updates; empty: all
        of them), None when none did."""
        tiles, (cols, rows) = self.tiles()
        changed = [raw for t, raw in tiles.items() if sent.get(t) != raw]
        gone = [t for t in sent if t not in tiles]
        if not changed and not gone and sent:
            return None
        full = not sent
        for t in gone:
            del sent[t]
        sent.update(tiles)
        head = json.dumps({"now": round(time.time() * 1000), "cols": cols, "rows": rows, "full": full, "gone": gone})
        data = head[:-1].encode() + b', "tiles": [' + b", ".join(changed) + b"]}"
        return b"event: tiles\ndata: " + data + b"\n\n"

    # -- the pace-maker (the web server's Pacer)

    def _pace(self) -> None:
        version = -1
        next_refresh = time.monotonic() + self.refresh_s
        while not self._closed.is_set():
            newer = self.live.wait(version, min(self.refresh_s, max(0.0, next_refresh - time.monotonic())))
            if self._closed.is_set():
                return
            if time.monotonic() >= next_refresh:
                self._read_plan()
                next_refresh = time.monotonic() + self.refresh_s
                newer = self.live.version
                version = -2  # (a tick: the plan, the fees by the hour)
            if newer != version:
                version = newer
                with self._tick_cond:
                    self._tick += 1
                    self.ticks += 1
                    self._tick_cond.notify_all()
            if self._closed.wait(self.interval_s):
                return

    def wait_tick(self, seen: int, timeout: float) -> tuple[bool, int]:
        with self._tick_cond:
            self._tick_cond.wait_for(lambda: self._tick != seen or self._closed.is_set(), timeout)
            return self._closed.is_set(), self._tick

    def open_stream(self) -> None:
        with self._tick_cond:
            self.streams += 1

    def close_stream(self) -> None:
        with self._tick_cond:
            self.streams -= 1
