"""What the web server lets each client take at once: its limits and the places counted.

A request is read whole — its line, headers and body — without a thread (the intake,
:mod:`table_app.http_kit.intake`); only then is it given a thread, from the places its
kind may take. A **bound phone's** request (known only from its headers: the server is told by
a predicate, ``trusted(target, cookie)``) takes from its own reserve first, then from everyone
else's; anyone else's takes from everyone else's only, at most ``requests_per_client`` at
once per address. Event streams likewise: a bound phone's stream has its reserve, anyone
else's count against ``streams`` and ``streams_per_client``. So no load without a phone's
secret — half-open connections, slow bodies, floods of complete requests or of streams, from
one address or many — can take the places a bound phone's press or stream needs.

Nothing here does I/O; the counts are shared by the intake's thread and the answering ones.

>>> places = Places(Limits(requests=1, requests_per_client=1, trusted_requests=1))
>>> places.take_request("10.0.0.9", trusted=False), places.take_request("10.0.0.9", trusted=False)
('open', None)
>>> places.take_request("10.0.0.2", trusted=True), places.take_request("10.0.0.2", trusted=True)
('reserve', None)
"""

from __future__ import annotations

import ipaddress
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

Pool = Literal["reserve", "open"]  # a bound phone's reserve, or everyone's


@dataclass(frozen=True)
class Limits:
    """The web server's limits (the numbers are documented in docs/phones.md)."""

    request_timeout_s: float = 10.0  # a request whole (line, headers, body), from the first byte waited for
    write_timeout_s: float = 10.0  # a client that stops reading an answer is let go after this
    waiting: int = 512  # connections whose request is being read (no thread each), in all …
    waiting_per_client: int = 128  # … and from one address (beyond: its oldest is answered 503)
    requests: int = 48  # requests being answered at once (a thread each), everyone's but bound phones' …
    requests_per_client: int = 4  # … and one address's (ten addresses together never take them all)
    trusted_requests: int = 16  # bound phones' own reserve
    streams: int = 64  # event streams (a thread each), everyone's but bound phones' …
    streams_per_client: int = 4  # … and one address's
    trusted_streams: int = 16  # bound phones' streams' own reserve

    def __post_init__(self) -> None:
        counts = (self.waiting, self.waiting_per_client, self.requests, self.requests_per_client,
                  self.trusted_requests, self.streams, self.streams_per_client, self.trusted_streams)
        if min(counts) < 0 or min(self.waiting, self.waiting_per_client) < 1 or self.request_timeout_s <= 0:
            raise ValueError(f"web limits must be positive: {self}")

    @property
    def threads(self) -> int:
        """The most threads the answers take at once (systemd's TasksMax leaves room for them)."""
        return self.requests + self.trusted_requests + self.streams + self.trusted_streams


def client_key(address: str) -> str:
    """Whom the per-address limits count: the address, an IPv6 one by its /64 (one device can
    take any address in its network's /64), an IPv4-mapped one as IPv4.

    >>> client_key("192.168.1.20"), client_key("::ffff:192.168.1.20"), client_key("2001:db8:1:2:aa::7")
    ('192.168.1.20', '192.168.1.20', '2001:db8:1:2::/64')
    """
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass
class Places:
    """The places for requests and streams being answered, per pool and per address."""

    limits: Limits
    refused_requests: int = 0  # answered 503: no place for the request …
    refused_streams: int = 0  # … or for the stream
    _used: Counter[str] = field(default_factory=Counter)  # "reserve"/"open" requests, "reserve-s"/"open-s" streams
    _per_client: Counter[tuple[str, str]] = field(default_factory=Counter)  # (kind, client) of anyone's
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def take_request(self, client: str, trusted: bool) -> Pool | None:
        """A place to answer a request from ``client`` (None: none, answer 503)."""
        return self._take("", client, trusted, self.limits.trusted_requests, self.limits.requests,
                          self.limits.requests_per_client)

    def take_stream(self, client: str, trusted: bool) -> Pool | None:
        """A place for an event stream from ``client`` (None: none, answer 503)."""
        return self._take("-s", client, trusted, self.limits.trusted_streams, self.limits.streams,
                          self.limits.streams_per_client)

    def give_request(self, pool: Pool, client: str) -> None:
        self._give(pool, "", client)

    def give_stream(self, pool: Pool, client: str) -> None:
        self._give(pool, "-s", client)

    def used(self, pool: Pool, streams: bool = False) -> int:
        with self._lock:
            return self._used[pool + ("-s" if streams else "")]

    def _take(self, kind: str, client: str, trusted: bool, reserve: int, open_: int, per_client: int) -> Pool | None:
        with self._lock:
            if trusted and self._used["reserve" + kind] < reserve:
                self._used["reserve" + kind] += 1
                return "reserve"
            # a bound phone beyond its reserve takes from everyone's, without the address's cap
            mine = self._per_client[kind, client]
            if self._used["open" + kind] < open_ and (trusted or mine < per_client):
                self._used["open" + kind] += 1
                self._per_client[kind, client] = mine + 1
                return "open"
            if kind:
                self.refused_streams += 1
            else:
                self.refused_requests += 1
            return None

    def _give(self, pool: Pool, kind: str, client: str) -> None:
        with self._lock:
            self._used[pool + kind] -= 1
            if pool == "open":
                self._per_client[kind, client] -= 1
                if self._per_client[kind, client] <= 0:
                    del self._per_client[kind, client]
