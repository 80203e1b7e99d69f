"""Real journals for the parlour's tests: made with table_app.journal.journal, read as a table
publishes them (the contract's record: the seven chain columns, the journal id, the hash)."""

from __future__ import annotations

import http.client
import sqlite3
from pathlib import Path

from parlour.floor_routes import FloorServer
from table_app.journal.journal import Journal
from tests.support.mqtt import HAND


def make_journal(path: Path, hands: int = 1) -> Path:
    """A journal of ``hands`` scripted hands (one session), with an undo and a redo in the first."""
    with Journal.open(path) as j:
        session = None
        for h in range(hands):
            for i, event in enumerate(HAND):
                if h and event["type"] in ("new_session", "seating"):
                    continue
                _, session = j.append_event(event, session, source="test", new_session=event["type"] == "new_session")
                if h == 0 and i == 5:
                    seq = j.last_seq()
                    j.append_undo(seq - 1, session, source="test")
                    j.append_redo(seq, session, source="test")
    return path


def records(path: Path) -> list[dict[str, object]]:
    """Every record of the journal file as ``xian/T/journal`` carries it."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT seq, at, kind, session, source, event, target, hash FROM records "
                            "ORDER BY seq").fetchall()
    finally:
        conn.close()
    journal = bytes(rows[0][7]).hex()
    return [{"journal": journal, "seq": s, "at": a, "kind": k, "session": se, "source": so, "event": e,
             "target": t, "hash": bytes(h).hex()} for s, a, k, se, so, e, t, h in rows]


def get(web: FloorServer, path: str, cookie: str = "") -> tuple[int, dict[str, str], bytes]:
    """One GET to the parlour's owner pages: status, headers, body."""
    conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=10)
    try:
        conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        r = conn.getresponse()
        return r.status, dict(r.getheaders()), r.read()
    finally:
        conn.close()
