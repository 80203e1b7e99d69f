"""The host's end of the panel: the codec on a serial transport, with link state.

:class:`PanelBridge` feeds the transport's bytes to a host :class:`~firmware_bridge.protocol.Connection`,
writes the ACKs at once, then calls ``on_frame`` for each new :class:`~firmware_bridge.protocol.Button`
or :class:`~firmware_bridge.protocol.Dice` in the transport thread. ``on_frame`` must return
at once (``table_app.inputs.panel`` queues the press and never waits for its commit): the
transport reads nothing while it runs, so a frame sent meanwhile would be answered late, and
after 200 ms the panel repeats it, after a second gives it up. Acknowledging on receipt and
not waiting means a slow commit (an SD card holding up fsync, a busy table) never makes the
panel repeat a press or give it up; and a repeat that arrives anyway — however late it is
read — is told by its seq and never acts again (the codec outlives reconnections and
remembers the panel's recent seqs until its next HELLO). A press is lost only if the host
dies between the ACK and the table's commit.

Link state goes to listeners as a :class:`LinkState`: ``reconnecting`` (no device),
``waiting`` (device open, no HELLO yet, or the panel fell silent), ``connected`` and
``version_mismatch``.
"""

from __future__ import annotations

import enum
import logging
import threading
import time
from collections.abc import Callable

from firmware_bridge.protocol import (
    HOST,
    Button,
    Buzz,
    Connection,
    Dice,
    Frame,
    Hello,
    Led,
    Roll,
    Undeliverable,
    VersionMismatch,
)
from firmware_bridge.transport import SerialTransport

log = logging.getLogger(__name__)


class LinkState(enum.Enum):
    RECONNECTING = "reconnecting"
    WAITING = "waiting"
    CONNECTED = "connected"
    VERSION_MISMATCH = "version_mismatch"


StateListener = Callable[[LinkState, str], None]


class PanelBridge:
    """Owns the codec; the transport only moves bytes. Thread-safe senders: led, buzz, roll."""

    def __init__(self, url: str, on_frame: Callable[[Button | Dice], None], *,
                 clock: Callable[[], float] = time.monotonic, transport: SerialTransport | None = None,
                 heartbeat: Callable[[], None] | None = None, **transport_options: float) -> None:
        self.url = url
        self.on_frame = on_frame
        self.clock = clock
        self.heartbeat = heartbeat  # systemd's watchdog: beaten by the transport thread's every round
        self.conn = Connection(HOST, clock=clock)
        self._lock = threading.RLock()  # the codec is touched by the transport thread and senders
        self._listeners: list[StateListener] = []
        self.state = LinkState.RECONNECTING
        self.detail = f"waiting for {url}"
        self.leds: dict[int, str] = {}  # the LED states the table wants (re-sent after a HELLO)
        self.transport = transport or SerialTransport(
            url, self._on_data, on_open=self._on_open, on_close=self._on_close, on_idle=self._on_idle,
            **transport_options)  # type: ignore[arg-type]

    # -- life --------------------------------------------------------------------------------

    def start(self) -> PanelBridge:
        self.transport.start()
        return self

    def stop(self) -> None:
        self.transport.stop()

    def add_listener(self, fn: StateListener) -> None:
        self._listeners.append(fn)
        fn(self.state, self.detail)

    def _set_state(self, state: LinkState, detail: str) -> None:
        if state == self.state and detail == self.detail:
            return
        self.state, self.detail = state, detail
        log.info("panel link %s: %s", state.value, detail)
        for fn in list(self._listeners):
            try:
                fn(state, detail)
            except Exception:
                log.exception("link state listener %r failed", fn)

    # -- to the panel --------------------------------------------------------------------------

    def led(self, seat: int, state: str) -> None:
        frame = Led(seat, state)
        with self._lock:
            self.leds[seat] = state
            self._send(frame)

    # the seat lights of table_app.inputs.lights.Lights: the panel's LEDs and buzzer

    def set(self, seat: int, mode: str) -> None:
        self.led(seat, mode)

    def error(self, seat: int | None) -> None:
        """A refused press: that seat's LED blinks for a second, two short beeps."""
        if seat is not None:
            want = self.leds.get(seat, "off")
            self._send(Led(seat, "blink"))
            timer = threading.Timer(1.0, lambda: self._send(Led(seat, self.leds.get(seat, want))))
            timer.daemon = True
            timer.start()
        self.buzz(120)

    def beep(self, seconds: float = 0.15) -> None:
        self.buzz(max(1, min(10000, int(seconds * 1000))))

    def buzz(self, ms: int) -> None:
        self._send(Buzz(ms))

    def roll(self) -> None:
        self._send(Roll())

    def _send(self, frame: Frame) -> None:
        with self._lock:
            if self.state not in (LinkState.CONNECTED, LinkState.WAITING):
                return  # no panel: nothing queues up for a device that is not there
            self.transport.write(self.conn.send(frame))

    # -- from the transport thread ---------------------------------------------------------------

    def _on_open(self) -> None:
        with self._lock:
            self._set_state(LinkState.WAITING, f"{self.url} open, waiting for the panel's HELLO")
            # a panel that kept running while the cable was out answers frames but will not
            # say HELLO again until one of its frames goes unanswered; restore its LEDs anyway
            if self.conn.version_ok:
                self._restore_leds()

    def _on_close(self, reason: str) -> None:
        self._set_state(LinkState.RECONNECTING, f"{self.url}: {reason}; reconnecting")

    def _on_data(self, data: bytes) -> None:
        with self._lock:
            self.conn.receive_data(data)
            events = self.conn.events()
            self.transport.write(self.conn.data_to_send())  # the ACKs at once: the panel need not repeat
        for ev in events:
            self._event(ev)

    def _event(self, ev: object) -> None:
        if isinstance(ev, Hello):
            self._set_state(LinkState.CONNECTED, f"panel firmware {ev.version}, {ev.seats} seats on {self.url}")
            with self._lock:
                self._restore_leds()
        elif isinstance(ev, VersionMismatch):
            self._set_state(LinkState.VERSION_MISMATCH,
                            f"panel firmware {ev.hello.version} is not {ev.expected_major}.x: flash the firmware "
                            "that came with this version of xian-table (docs/panel.md)")
        elif isinstance(ev, (Button, Dice)):
            if self.state is not LinkState.CONNECTED:
                self._set_state(LinkState.CONNECTED, f"panel on {self.url}")
            try:
                self.on_frame(ev)
            except Exception:  # the press is answered anyway: the panel must not repeat it forever
                log.exception("handling %r failed", ev)
        elif isinstance(ev, Undeliverable):
            log.warning("panel did not answer %r", ev.frame)

    def _restore_leds(self) -> None:
        for seat, state in sorted(self.leds.items()):
            self.transport.write(self.conn.send(Led(seat, state)))

    def _on_idle(self) -> None:
        if self.heartbeat is not None:
            self.heartbeat()
        with self._lock:
            out = self.conn.tick()
            self.transport.write(out)
            self.conn.events()  # Undeliverable LED frames: the state is re-sent on the next HELLO
            alive = self.conn.peer_alive()
        if self.state is LinkState.CONNECTED and not alive:
            self._set_state(LinkState.WAITING, f"the panel on {self.url} is silent (no heartbeat for 3 s)")
        elif self.state is LinkState.WAITING and alive and self.conn.version_ok:
            self._set_state(LinkState.CONNECTED, f"panel on {self.url}")
