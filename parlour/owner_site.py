"""The owner's site on the parlour's web server: the owner's key, made once and kept in the
parlour database, checked in the query (``?key=``, once) or the cookie that replaces it;
:func:`owner_only`, which guards every owner page; and :class:`FloorSite`, what the floor's and
the reports' answers read (:mod:`parlour.floor_routes`, :mod:`parlour.report_routes`).
"""

from __future__ import annotations

import hmac
import re
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookies import CookieError, SimpleCookie
from typing import TYPE_CHECKING
from urllib.parse import quote

from parlour.floor import FloorFeed
from parlour.live import Live
from table_app.http_kit.server import Answer, Reply, Request, query_value, sse_view
from table_app.present.table_page import table_view
from table_app.present.words import tr

if TYPE_CHECKING:
    from parlour.db import Database

__all__ = ["COOKIE", "KEY_SETTING", "FloorSite", "cookie_key", "owner_key", "owner_only", "refused"]

COOKIE = "xian_owner"
KEY_SETTING = "owner_key"
TEXT = "text/plain; charset=utf-8"
_KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")


def owner_key(db: Database) -> str:
    """The owner's key, made at the first ``serve --http`` and kept in the parlour database."""
    key = db.setting(KEY_SETTING)
    if key is None or not _KEY.fullmatch(key):
        key = secrets.token_urlsafe(18)
        db.set_setting(KEY_SETTING, key)
    return key


def cookie_key(header: str | None) -> str | None:
    if not header or len(header) > 4096:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header)
    except CookieError:
        return None
    morsel = jar.get(COOKIE)
    return None if morsel is None else morsel.value


@dataclass
class FloorSite:
    """What the answers read: the fold, the feed, the owner's key; the table pages' views, built
    once per change of a table and language."""

    live: Live
    feed: FloorFeed
    key: str
    _views: dict[tuple[str, str], tuple[int, bytes]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def owner(self, request: Request) -> bool:
        return self.key_ok(query_value(request.query, "key")) or self.key_ok(cookie_key(request.cookie))

    def key_ok(self, given: str | None) -> bool:
        return bool(given) and hmac.compare_digest(str(given).encode(), self.key.encode())

    def trusted(self, target: str, cookie: str | None) -> bool:
        """The owner's requests (the key in the query or the cookie) take the server's reserve."""
        return self.key_ok(query_value(target.partition("?")[2], "key")) or self.key_ok(cookie_key(cookie))

    def table_frame(self, table: str, lang: str) -> tuple[int, bytes] | None:
        version, pub, seq = self.live.public(table)
        if pub is None:
            return None
        with self._lock:
            cached = self._views.get((table, lang))
            if cached is not None and cached[0] == version:
                return cached
        fee = pub.get("fee")
        seconds = self.live.seconds(table) if fee is not None and fee.get("mode") == "hour" else None
        made = (version, sse_view(table_view(pub, lang, None, None, seq, seconds=seconds)))
        with self._lock:
            self._views[(table, lang)] = made
        return made


def refused(key: str, status: int = 403) -> Reply:
    return Reply(status, TEXT, f"{tr(key, 'zh')} · {tr(key, 'en')}\n".encode())


def owner_only(answer: Callable[[FloorSite, Request], Answer], page: Callable[[Request], str] | None = None
               ) -> Callable[[FloorSite, Request], Answer]:
    """The answer for the owner; a refusal for anyone else. A ``page`` (its path) opened with
    ``?key=`` is sent on to itself without it, the key kept in a cookie (not in the address bar)."""

    def guarded(site: FloorSite, request: Request) -> Answer:
        if not site.owner(request):
            return refused("fl_owner_only")
        if page is not None and query_value(request.query, "key"):
            rest = "&".join(p for p in request.query.split("&") if not p.startswith("key="))
            cookie = f"{COOKIE}={site.key}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000"
            return Reply(303, TEXT, b"", (("Location", quote(page(request)) + ("?" + rest if rest else "")),
                                          ("Set-Cookie", cookie), ("Cache-Control", "no-store")))
        return answer(site, request)

    return guarded
