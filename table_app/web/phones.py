"""Phones at the table (issue 18): the join token, each seat's binding, and who may try to join.

A session has one **join token** (128 random bits, new with each ``new_session``): the QR
code on the table screen carries it (``/join/<token>``). Joining binds the phone to a seat
with its own **secret** (128 bits more, kept in an HttpOnly cookie): from then on the phone's
presses count for that seat only. A second phone joining the same seat takes it over (the
first is told it was replaced); leaving frees the seat. A new session forgets every binding.

Join attempts are rate-limited per client address (and wrong tokens in all), so a stranger on
the Wi-Fi cannot guess a token by trying, nor lock the right one out. Nothing here does I/O; the web server asks it.

>>> p = Phones(clock=lambda: 100.0)
>>> secret, replaced = p.bind(2)
>>> p.seat_of(secret), replaced
(2, False)
>>> p.bind(2)[1]   # a second phone on seat 2: the first is replaced
True
>>> p.seat_of(secret) is None
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.seats import SEATS

TOKEN_BYTES = 16  # 128 bits
JOINS_PER_CLIENT = 10  # join attempts per client address …
JOINS_IN_ALL = 60  # … and wrong tokens from everyone together …
JOIN_WINDOW_S = 60.0  # … within a minute
MAX_CLIENTS_TRACKED = 1024


def _digest(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


@dataclass
class _Binding:
    digest: bytes  # the secret's hash: the secret itself lives only in the phone's cookie
    since: float


@dataclass
class Phones:
    clock: Callable[[], float] = time.monotonic
    token: str = field(default_factory=lambda: secrets.token_urlsafe(TOKEN_BYTES))
    _bindings: dict[int, _Binding] = field(default_factory=dict)
    _replaced: set[bytes] = field(default_factory=set)  # digests of phones that were taken over
    _attempts: dict[str, deque[float]] = field(default_factory=dict)
    _all: deque[float] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    version: int = 0  # +1 on every change of the bindings (the pages show who has joined)

    # -- the session --------------------------------------------------------------------

    def new_session(self, keep_bindings: bool = False) -> None:
        """A new session: a new token (old QR codes stop working) and no bindings — unless the
        bound phones started it themselves (the same players stay at their seats)."""
        with self._lock:
            self.token = secrets.token_urlsafe(TOKEN_BYTES)
            if not keep_bindings:
                self._bindings.clear()
                self._replaced.clear()
            self.version += 1

    def token_ok(self, token: str) -> bool:
        with self._lock:
            return hmac.compare_digest(token.encode(), self.token.encode())

    # -- joining --------------------------------------------------------------------------

    def may_try(self, client: str) -> bool:
        """Count a join attempt from ``client``; False when it tried too often lately (its
        own attempts, the right token's too: an address that guessed is made to wait)."""
        now = self.clock()
        with self._lock:
            self._forget_old(now)
            mine = self._attempts.get(client)
            if mine is None:
                if len(self._attempts) >= MAX_CLIENTS_TRACKED:  # forget the address that tried longest
                    # ago rather than refuse a new one: strangers trying from many addresses never lock a
                    # phone out (the wrong tokens they send still count in all, below)
                    del self._attempts[min(self._attempts, key=lambda c: self._attempts[c][-1])]
                mine = self._attempts[client] = deque()
            if len(mine) >= JOINS_PER_CLIENT:
                return False
            mine.append(now)
            return True

    def wrong_token(self) -> bool:
        """Count a wrong token (from anyone); False once everyone together tried too many lately.
        Only wrong tokens count here, so that strangers guessing from many addresses never lock
        the right token out (issue 27: 60 wrong tries from 6 addresses did, for a minute)."""
        now = self.clock()
        with self._lock:
            self._forget_old(now)
            if len(self._all) >= JOINS_IN_ALL:
                return False
            self._all.append(now)
            return True

    def _forget_old(self, now: float) -> None:
        for q in (self._all, *self._attempts.values()):
            while q and now - q[0] > JOIN_WINDOW_S:
                q.popleft()
        self._attempts = {c: q for c, q in self._attempts.items() if q}

    def bind(self, seat: int) -> tuple[str, bool]:
        """Bind a new phone to ``seat``: its secret, and whether another phone was replaced."""
        if type(seat) is not int or not 0 <= seat < SEATS:
            raise ValueError(f"seat must be 0-3, got {seat!r}")
        secret = secrets.token_urlsafe(TOKEN_BYTES)
        with self._lock:
            old = self._bindings.get(seat)
            if old is not None:
                self._replaced.add(old.digest)
            self._bindings[seat] = _Binding(_digest(secret), self.clock())
            self.version += 1
        return secret, old is not None

    def seat_of(self, secret: str | None) -> int | None:
        """The seat this phone is bound to, or None."""
        if not secret:
            return None
        d = _digest(secret)
        with self._lock:
            for seat, b in self._bindings.items():
                if hmac.compare_digest(b.digest, d):
                    return seat
        return None

    def was_replaced(self, secret: str | None) -> bool:
        """Whether this phone lost its seat to another phone (so its page can say so)."""
        if not secret:
            return False
        with self._lock:
            return _digest(secret) in self._replaced

    def leave(self, secret: str | None) -> int | None:
        """Unbind this phone; the seat it had, or None."""
        seat = self.seat_of(secret)
        if seat is not None:
            with self._lock:
                self._bindings.pop(seat, None)
                self.version += 1
        return seat

    def taken(self) -> list[bool]:
        """Which seats have a phone."""
        with self._lock:
            return [s in self._bindings for s in range(SEATS)]
