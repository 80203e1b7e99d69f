"""Shared by the reliability tests: a real ``xian-table serve`` child, file fingerprints."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SIDECARS = ("", "-wal", "-shm")
SESSION = {"type": "new_session", "players": ["Ann", "Bo", "Cy", "Di"], "base": 1}


def child_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONUTF8="1", HOME=str(tmp_path / "home"))
    env.pop("XDG_DATA_HOME", None)
    env.pop("XDG_CONFIG_HOME", None)
    env.update(extra)
    return env


def serve(tmp_path: Path, *args: str, input: bytes = b"", timeout: float = 120,
          **kw: Any) -> subprocess.CompletedProcess[bytes]:
    """``xian-table serve ARGS`` as a child, fed ``input``; bytes out (a reply may be anything)."""
    return subprocess.run([sys.executable, "-m", "table_app.cli", "serve", *args], input=input,
                          capture_output=True, cwd=ROOT, env=child_env(tmp_path), timeout=timeout, **kw)


def lines(*cmds: Any) -> bytes:
    return b"".join((c if isinstance(c, bytes) else
                     (c.encode() if isinstance(c, str) else json.dumps(c).encode())) + b"\n" for c in cmds)


def answers(out: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.decode().splitlines()]


def fingerprint(db: Path) -> dict[str, str | None]:
    """The journal and its -wal/-shm: sha256 of each, None where the file does not exist."""
    out: dict[str, str | None] = {}
    for suffix in SIDECARS:
        p = db.with_name(db.name + suffix)
        out[p.name] = hashlib.sha256(p.read_bytes()).hexdigest() if p.exists() else None
    return out


def folder_listing(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


def records_leaf_pages(path: Path) -> tuple[bytes, int, list[tuple[int, int]]]:
    """The journal file's bytes, its page size and, for each leaf page of its records table,
    ``(base, header)``: where the page starts and where its b-tree header is (SQLite's ``dbstat``)."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    try:
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = [p for (p,) in conn.execute("SELECT pageno FROM dbstat WHERE name = 'records' AND pagetype = 'leaf'")]
    finally:
        conn.close()
    return path.read_bytes(), size, [((p - 1) * size, (p - 1) * size + (100 if p == 1 else 0)) for p in pages]
