"""Phones at the table (issues 18, 27): the join token, each seat's binding, who may try to
join, and a second phone's takeover of a seat.

A table has one **join token** (128 random bits): the QR code carries it (``/join/<token>``).
It changes with a new session started at the table (not one the phones start: they stay at
their seats) and on demand (:meth:`Phones.new_code`). Joining binds the phone to a seat with
its own **secret** (128 bits more, kept in an HttpOnly cookie): from then on the phone's
presses count for that seat only. Leaving frees the seat; a new session started at the table
forgets every binding. The **display key** (128 bits) opens the table page that shows the QR
code anywhere (``/table?key=…``).

A second phone joining a taken seat takes it over only with consent (issue 27): the phone at
the seat is asked (:meth:`Phones.join` answers ``asking``), or the takeover goes through when
that phone has been gone for :data:`GONE_S` (no open event stream: :meth:`Phones.seen`).
Every screen then says the seat changed phone, for :data:`CHANGED_SHOWN_S`.

With a :class:`table_app.web.phone_store.PhoneStore` the token, the key and the bindings
(the secrets' digests, never the secrets) are written at each change and read back at start,
so that a restart keeps every phone at its seat.

Join attempts are rate-limited per client address (and wrong tokens in all), so a stranger on
the Wi-Fi cannot guess a token by trying, nor lock the right one out. Nothing here does I/O
but the store's writes; the web server asks it.

>>> t = [100.0]
>>> p = Phones(clock=lambda: t[0])
>>> first = p.join(2)
>>> first.outcome, p.seat_of(first.secret)
('bound', 2)
>>> p.join(2).outcome   # a second phone while the first is here: the first is asked
'asking'
>>> t[0] += GONE_S      # the first phone gone for a minute: the seat is taken over
>>> p.join(2).outcome, p.seat_of(first.secret), p.was_replaced(first.secret)
('bound', None, True)
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from engine.seats import SEATS
from table_app.web.phone_store import PhoneStore, Saved

log = logging.getLogger(__name__)

TOKEN_BYTES = 16  # 128 bits
JOINS_PER_CLIENT = 10  # join attempts per client address …
JOINS_IN_ALL = 60  # … and wrong tokens from everyone together …
JOIN_WINDOW_S = 60.0  # … within a minute
MAX_CLIENTS_TRACKED = 1024
GONE_S = 60.0  # a seat's phone without an open event stream this long may be taken over unasked
ASK_S = 120.0  # a takeover's question waits this long for the answer
MAX_ASKS = 16
CHANGED_SHOWN_S = 60.0  # "seat 2 changed phone" stays on every screen this long


def _digest(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


def _new_code() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass
class _Binding:
    digest: bytes  # the secret's hash: the secret itself lives only in the phone's cookie
    since: float  # wall-clock time (kept in the store)


@dataclass
class _Ask:
    seat: int
    at: float
    number: int  # (the seat's phone's view names the question by it: a second one is a new question)
    allowed: bool | None = None  # None: not answered yet


@dataclass(frozen=True)
class Joined:
    """What a join came to: ``bound`` (the new phone's ``secret``; ``replaced``: another phone
    had the seat), ``asking`` (the seat's phone is asked: ask again with ``ask``), ``refused``."""

    outcome: Literal["bound", "asking", "refused"]
    secret: str = ""
    replaced: bool = False
    ask: str = ""


@dataclass
class Phones:
    clock: Callable[[], float] = time.monotonic
    wall: Callable[[], float] = time.time
    token: str = field(default_factory=_new_code)
    key: str = field(default_factory=_new_code)  # the display key: the table page that shows the QR code
    store: PhoneStore | None = None
    _bindings: dict[int, _Binding] = field(default_factory=dict)
    _replaced: set[bytes] = field(default_factory=set)  # digests of phones that were taken over
    _seen: dict[int, float] = field(default_factory=dict)  # seat → when its phone's stream was last open
    _asks: dict[str, _Ask] = field(default_factory=dict)
    _changed: dict[int, float] = field(default_factory=dict)  # seat → when it changed phone
    _attempts: dict[str, deque[float]] = field(default_factory=dict)
    _all: deque[float] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _save_lock: threading.Lock = field(default_factory=threading.Lock)
    version: int = 0  # +1 on every change of the bindings (the pages show who has joined)
    _asked: int = 0  # questions asked so far

    @classmethod
    def kept(cls, store: PhoneStore, *, new_code: bool = False,
             clock: Callable[[], float] = time.monotonic) -> Phones:
        """The phones as ``store`` keeps them (a fresh token and key when it holds none, or
        with ``new_code``: a new token and key, the seats kept); written back at once."""
        saved = store.load()
        phones = cls(clock=clock, store=store)
        if saved is not None:
            now = phones.clock()
            phones.token, phones.key = saved.token, saved.key
            for seat, (digest, since) in saved.seats.items():
                phones._bindings[seat] = _Binding(bytes.fromhex(digest), since)
                phones._seen[seat] = now  # (each phone has GONE_S to come back before its seat may go)
        if new_code:
            phones.token, phones.key = _new_code(), _new_code()
        if saved is None or new_code:
            phones._save()
        return phones

    def _save(self) -> None:
        """Write the state as it is now (the latest write is the latest state: one at a time)."""
        if self.store is None:
            return
        with self._save_lock:
            with self._lock:
                saved = Saved(self.token, self.key, {s: (b.digest.hex(), b.since) for s, b in self._bindings.items()})
            try:
                self.store.save(saved)
            except OSError as e:  # (a full or read-only disk: the phones play on; a restart forgets them)
                log.warning("phones: cannot write %s (%s): the seats are not kept through a restart",
                            self.store.path, e.strerror)

    # -- the session and the codes ---------------------------------------------------------

    def new_session(self, keep_bindings: bool = False) -> None:
        """A new session: a new token (old QR codes stop working) and no bindings — unless the
        bound phones started it themselves (the same players stay at their seats, by the same code)."""
        if keep_bindings:
            return
        with self._lock:
            self.token = _new_code()
            self._bindings.clear()
            self._replaced.clear()
            self._asks.clear()
            self._changed.clear()
            self.version += 1
        self._save()

    def new_code(self) -> None:
        """A new join token on demand (an old QR code, photographed, stops working); the seats stay."""
        with self._lock:
            self.token = _new_code()
            self._asks.clear()
            self.version += 1
        self._save()

    def token_ok(self, token: str) -> bool:
        with self._lock:
            return hmac.compare_digest(token.encode(), self.token.encode())

    def key_ok(self, key: str) -> bool:
        with self._lock:
            return bool(key) and hmac.compare_digest(key.encode(), self.key.encode())

    def code_tag(self) -> str:
        """A short tag of the join token (not the token): a page sees the code change by it."""
        with self._lock:
            return hashlib.sha256(self.token.encode()).hexdigest()[:12]

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
        self._asks = {a: ask for a, ask in self._asks.items() if now - ask.at < ASK_S}

    def join(self, seat: int, ask: str = "") -> Joined:
        """A phone joins ``seat``: bound at once when the seat is free or its phone is gone
        (:data:`GONE_S`); else that phone is asked (``asking``, and the same ``ask`` again
        later is told what it answered)."""
        if type(seat) is not int or not 0 <= seat < SEATS:
            raise ValueError(f"seat must be 0-3, got {seat!r}")
        now = self.clock()
        with self._lock:
            self._forget_old(now)
            held = seat in self._bindings
            gone = now - self._seen.get(seat, now) >= GONE_S
            asked = self._asks.get(ask) if ask else None
            if asked is not None and asked.seat == seat and asked.allowed is False:
                del self._asks[ask]
                return Joined("refused")
            if held and not gone and not (asked is not None and asked.seat == seat and asked.allowed):
                if asked is None or asked.seat != seat:
                    if len(self._asks) >= MAX_ASKS:
                        return Joined("refused")
                    ask = secrets.token_hex(16)
                    self._asked += 1
                    self._asks[ask] = _Ask(seat, now, self._asked)
                return Joined("asking", ask=ask)
            self._asks.pop(ask, None)
            secret = secrets.token_urlsafe(TOKEN_BYTES)
            if held:
                self._replaced.add(self._bindings[seat].digest)
                self._changed[seat] = now
                for other in [a for a, x in self._asks.items() if x.seat == seat]:
                    self._asks[other].allowed = False  # (the others asking for it: the seat is gone)
            self._bindings[seat] = _Binding(_digest(secret), self.wall())
            self._seen[seat] = now
            self.version += 1
        self._save()
        return Joined("bound", secret, held)

    def ask_known(self, ask: str) -> bool:
        """Whether ``ask`` is a takeover's question still open or answered (not yet taken up)."""
        with self._lock:
            self._forget_old(self.clock())
            return ask in self._asks

    def answer(self, seat: int, allow: bool) -> bool:
        """The seat's phone answers the takeover asked of it; False when nothing was asked."""
        with self._lock:
            self._forget_old(self.clock())
            waiting = [ask for ask in self._asks.values() if ask.seat == seat and ask.allowed is None]
            for ask in waiting:
                ask.allowed = allow
        return bool(waiting)

    def asked(self, seat: int) -> int | None:
        """The number of the question another phone asks for ``seat`` now (its phone's page shows
        it), or None."""
        now = self.clock()
        with self._lock:
            waiting = [a.number for a in self._asks.values()
                       if a.seat == seat and a.allowed is None and now - a.at < ASK_S]
        return max(waiting, default=None)

    def seen(self, seat: int) -> None:
        """The seat's phone has its event stream open now."""
        with self._lock:
            self._seen[seat] = self.clock()

    def changed(self) -> list[int]:
        """The seats that changed phone lately (every screen says so for a while)."""
        now = self.clock()
        with self._lock:
            return sorted(s for s, at in self._changed.items() if now - at < CHANGED_SHOWN_S)

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
            self._save()
        return seat

    def taken(self) -> list[bool]:
        """Which seats have a phone."""
        with self._lock:
            return [s in self._bindings for s in range(SEATS)]
