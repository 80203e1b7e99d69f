"""A tiny sd_notify client: tell systemd the table is up, alive, and what it is doing.

A ``Type=notify`` unit with ``WatchdogSec=`` gives the process ``NOTIFY_SOCKET`` (a
datagram socket path; ``@name`` is Linux's abstract namespace) and ``WATCHDOG_USEC``. The
process sends ``READY=1`` once it serves, then ``WATCHDOG=1`` more often than every
``WATCHDOG_USEC``; if the pings stop, systemd kills and restarts it (``Restart=on-failure``).
Outside systemd every call here does nothing and returns False.

The pings must prove that the work is being done, not only that the process exists, so a
:class:`Watchdog` pings only while every *source* it watches keeps beating: the service
loop (``"service"``, fed by :class:`~table_app.core.service.TableService`), in the touchscreen
app the Kivy clock (``"ui"``, through :func:`ui_tick`), and every part that is switched on
— the MQTT bridge (``"mqtt"``), the phones' web pages (``"web"``), the serial panel's link
(``"panel"``) — each from its own thread (:func:`part_heartbeat`). A part whose thread dies
or hangs stops beating, the pings stop and systemd restarts the unit. There is no
background thread that could ping on behalf of a stalled loop. ``READY=1`` goes out the
first time every source has beaten, which is when the table really serves.

>>> Notifier(None).send("READY=1")
False
>>> dog = Watchdog(Notifier(None), interval_s=None, sources=("service", "ui"))
>>> dog.beat("service"); dog.ready_sent
False
>>> dog.beat("ui"); dog.ready_sent
True
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable, Mapping

log = logging.getLogger(__name__)

# Which sources must beat for the pings to continue: the app unit sets "service,ui".
SOURCES_ENV = "XIAN_TABLE_WATCHDOG_SOURCES"
DEFAULT_SOURCES = ("service",)


def socket_address(value: str | None) -> str | bytes | None:
    """The address for ``sendto``: a path, or ``\\0name`` bytes for an abstract socket.

    >>> socket_address("@xian/notify")
    b'\\x00xian/notify'
    >>> socket_address("/run/systemd/notify"), socket_address(""), socket_address("relative")
    ('/run/systemd/notify', None, None)
    """
    if not value:
        return None
    if value.startswith("@"):
        return b"\0" + value[1:].encode()
    if value.startswith("/"):
        return value
    return None  # systemd also knows vsock:…; the table never runs inside a VM's manager


class Notifier:
    """Sends sd_notify datagrams to one socket; ``Notifier(None)`` is silent."""

    def __init__(self, address: str | bytes | None) -> None:
        self.address = address
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Notifier:
        env = os.environ if env is None else env
        return cls(socket_address(env.get("NOTIFY_SOCKET")))

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, *assignments: str) -> bool:
        """Send ``KEY=value`` lines in one datagram; False if there is no socket or it failed."""
        if self.address is None:
            return False
        data = "\n".join(assignments).encode()
        with self._lock:
            try:
                if self._sock is None:
                    self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
                self._sock.sendto(data, self.address)
            except OSError as e:  # systemd gone or restarting: the table goes on regardless
                log.debug("sd_notify %r failed: %s", assignments, e)
                return False
        return True

    def ready(self, status: str | None = None) -> bool:
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def close(self) -> None:
        with self._lock:
            if self._sock is not None:
                self._sock.close()
                self._sock = None


def watchdog_interval(env: Mapping[str, str] | None = None, pid: int | None = None) -> float | None:
    """``WATCHDOG_USEC`` in seconds, or None when no watchdog is asked of this process.

    Like ``sd_watchdog_enabled``: ``WATCHDOG_PID``, when set, must be this process.

    >>> watchdog_interval({"WATCHDOG_USEC": "30000000"})
    30.0
    >>> watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}, pid=2) is None
    True
    """
    env = os.environ if env is None else env
    pid = os.getpid() if pid is None else pid
    owner = env.get("WATCHDOG_PID")
    if owner and owner.strip() != str(pid):
        return None
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    return usec / 1e6 if usec > 0 else None


class Watchdog:
    """Pings systemd's watchdog only while every source keeps beating.

    :meth:`beat` records that a source did a round of its work. When every source has
    beaten since the last ping, and at least a quarter of the interval has passed (so a
    busy loop does not flood systemd), it sends ``WATCHDOG=1``. The first time every
    source has beaten it sends ``READY=1`` instead of waiting: the table serves from then.
    """

    def __init__(self, notifier: Notifier, interval_s: float | None, sources: Iterable[str] = DEFAULT_SOURCES,
                 *, clock: Callable[[], float] = time.monotonic, ready_status: str = "table service running") -> None:
        self.notifier = notifier
        self.interval_s = interval_s
        self.sources: frozenset[str] = frozenset(sources)
        if not self.sources:
            raise ValueError("a watchdog needs at least one source")
        self.clock = clock
        self.ready_status = ready_status
        self.ready_sent = False
        self.pings = 0
        self._beaten: set[str] = set()
        self._last_ping: float | None = None
        self._lock = threading.Lock()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Watchdog:
        env = os.environ if env is None else env
        names = [s.strip() for s in env.get(SOURCES_ENV, "").split(",") if s.strip()]
        return cls(Notifier.from_env(env), watchdog_interval(env), names or DEFAULT_SOURCES)

    @property
    def min_gap_s(self) -> float:
        return self.interval_s / 4 if self.interval_s else 0.0

    @property
    def active(self) -> bool:
        """True when beats can send anything (under systemd with a notify socket)."""
        return self.notifier.enabled

    def beat(self, source: str = "service") -> None:
        if source not in self.sources:
            return  # e.g. the service loop's beat in a test process that watches only "ui"
        with self._lock:
            self._beaten.add(source)
            if self._beaten != self.sources:
                return
            now = self.clock()
            if not self.ready_sent:
                self.ready_sent = True
                self.notifier.ready(self.ready_status)
            elif self.interval_s is None or (self._last_ping is not None and now - self._last_ping < self.min_gap_s):
                return  # no watchdog asked for, or pinged a moment ago
            if self.interval_s is not None and self.notifier.watchdog():
                self.pings += 1
            self._last_ping = now
            self._beaten.clear()

    def heartbeat(self, source: str = "service") -> Callable[[], None]:
        """A no-argument callable that beats ``source`` (what the service loop calls)."""
        return lambda: self.beat(source)

    def watch(self, source: str) -> None:
        """From now on the pings need ``source``'s beats too (a part that was switched on)."""
        with self._lock:
            self.sources = self.sources | {source}

    def unwatch(self, source: str) -> None:
        """A part was switched off: its beats are no longer needed."""
        with self._lock:
            if source in self.sources and len(self.sources) > 1:
                self.sources = self.sources - {source}
                self._beaten.discard(source)


_process: Watchdog | None = None
_process_lock = threading.Lock()


def process_watchdog() -> Watchdog:
    """The watchdog of this process, built once from the environment systemd gave it."""
    global _process
    with _process_lock:
        if _process is None:
            _process = Watchdog.from_env()
        return _process


def process_heartbeat(source: str = "service") -> Callable[[], None] | None:
    """The service loop's beat for the process watchdog, or None outside a notify unit."""
    dog = process_watchdog()
    return dog.heartbeat(source) if dog.active else None


def part_heartbeat(source: str) -> Callable[[], None] | None:
    """A part switched on (``mqtt``, ``web``, ``panel``): under a notify unit the pings need its
    beats from now on, and this is its beat; None outside systemd. :func:`part_stopped` undoes it.

    >>> part_heartbeat("mqtt") is None  # (not under systemd here)
    True
    """
    dog = process_watchdog()
    if not dog.active:
        return None
    dog.watch(source)
    return dog.heartbeat(source)


def part_stopped(source: str) -> None:
    """The part was switched off on purpose: the pings no longer wait for it."""
    process_watchdog().unwatch(source)


def ui_tick(dt: float = 0.0) -> None:
    """The touchscreen app's beat: schedule it on the Kivy clock, e.g. every second.

    ``Clock.schedule_interval(sdnotify.ui_tick, 1.0)`` — a frozen UI stops beating, the
    pings stop, and systemd restarts the app (its unit sets ``XIAN_TABLE_WATCHDOG_SOURCES=service,ui``).
    """
    process_watchdog().beat("ui")


# The one-shot calls, for code that needs no Watchdog (e.g. STATUS lines, STOPPING=1).
def ready(status: str | None = None) -> bool:
    return process_watchdog().notifier.ready(status)


def watchdog() -> bool:
    return process_watchdog().notifier.watchdog()


def status(text: str) -> bool:
    return process_watchdog().notifier.status(text)


def stopping() -> bool:
    return process_watchdog().notifier.stopping()


def _reset_for_tests() -> None:
    global _process
    with _process_lock:
        if _process is not None:
            with contextlib.suppress(OSError):
                _process.notifier.close()
        _process = None
