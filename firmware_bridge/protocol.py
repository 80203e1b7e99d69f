"""The serial panel protocol (docs/design.md "Serial panel protocol"): a sans-I/O codec.

The frames and their one-line codec (``<seq>,<TYPE>[,<field>…]*<crc>\\n``, CRC-16/CCITT-FALSE,
at most 128 bytes a line) are in :mod:`firmware_bridge.frames`; this module is the link that
numbers, acknowledges and repeats them, and names the whole protocol (the frames' names are
importable from here too). ``PROTOCOL.md`` beside this file has the whole story and example frames.

A :class:`Connection` does no I/O, in the manner of h11: bytes in with
:meth:`~Connection.receive_data`, events out with :meth:`~Connection.next_event`; frames in
with :meth:`~Connection.send`, bytes out (the encoded frame); ACKs for received frames
wait in :meth:`~Connection.data_to_send`; :meth:`~Connection.tick` returns the
retransmissions and heartbeats that are due. Time comes from an injectable clock.

>>> host = Connection(HOST, clock=lambda: 0.0, first_seq=0)
>>> panel = Connection(PANEL, clock=lambda: 0.0, first_seq=7)
>>> wire = panel.send(Hello("1.0.0", 4))
>>> wire
b'7,HELLO,1.0.0,4*5ECE\\n'
>>> host.receive_data(wire + panel.send(Button(2, "PENG")))
>>> host.next_event(), host.next_event(), host.next_event()
(Hello(version='1.0.0', seats=4), Button(seat=2, button='PENG', long=False), None)
>>> acks = host.data_to_send()
>>> acks
b'0,ACK,7*30B2\\n0,ACK,8*C15D\\n'
>>> panel.receive_data(acks)
>>> panel.next_event()
Delivered(seq=7, frame=Hello(version='1.0.0', seats=4))
"""

from __future__ import annotations

import os
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_bridge.frames import (
    BUTTONS,
    FRAME_TYPES,
    HOST,
    LED_STATES,
    LONG,
    MAX_LINE,
    PANEL,
    Ack,
    BadCrc,
    Button,
    Buzz,
    Dice,
    Frame,
    Heartbeat,
    Hello,
    Led,
    ProtocolError,
    Role,
    Roll,
    crc16,
    decode,
    encode,
)

__all__ = [
    "ACTED_KEPT",
    "BUTTONS",
    "FIRMWARE_VERSION",
    "FRAME_TYPES",
    "HEARTBEAT_S",
    "HOST",
    "LED_STATES",
    "LONG",
    "MAX_LINE",
    "MAX_RETRIES",
    "PANEL",
    "PEER_TIMEOUT_S",
    "PROTOCOL_MAJOR",
    "REPEAT_WINDOW_S",
    "RETRY_S",
    "SEQ_REUSE_S",
    "Ack",
    "BadCrc",
    "Button",
    "Buzz",
    "Connection",
    "Delivered",
    "Dice",
    "Event",
    "Frame",
    "Heartbeat",
    "Hello",
    "Led",
    "ProtocolError",
    "Role",
    "Roll",
    "Stats",
    "Undeliverable",
    "VersionMismatch",
    "crc16",
    "decode",
    "encode",
]

RETRY_S = 0.2  # an unanswered frame is sent again after this long …
MAX_RETRIES = 5  # … this many times, then given up (Undeliverable)
HEARTBEAT_S = 1.0  # the panel sends HB after this long without sending anything
PEER_TIMEOUT_S = 3.0  # nothing heard for this long: the peer is silent
# A repeat of a frame can be sent at most RETRY_S * MAX_RETRIES after the first copy, but it
# may be *read* much later (the host's thread was busy with a slow commit): so a repeat is
# told by its seq, not by the time it arrives. A sender goes through its 256 seqs in order
# and reuses one only after SEQ_REUSE_S, so a frame whose seq and body match one of the peer's
# last ACTED_KEPT frames (since its last HELLO) is a repeat.
REPEAT_WINDOW_S = 1.5
ACTED_KEPT = 128
_EPS = 1e-9  # clocks are floats: 100.4 - 100.2 must count as 200 ms
# A sender reuses a seq only after twice the window, so a late first copy cannot shadow it.
SEQ_REUSE_S = 2 * REPEAT_WINDOW_S

PROTOCOL_MAJOR = 1  # firmware versions "1.x[.y]" speak this protocol
FIRMWARE_VERSION = "1.0.0"  # the version firmware/ ships (checked by a test)


# --- events a connection reports besides the frames it receives -----------------------------


@dataclass(frozen=True)
class Delivered:
    """The peer acknowledged our frame."""

    seq: int
    frame: Frame


@dataclass(frozen=True)
class Undeliverable:
    """Our frame was sent 1 + MAX_RETRIES times without an ACK and is given up."""

    seq: int
    frame: Frame


@dataclass(frozen=True)
class VersionMismatch:
    """(host) The panel's HELLO named firmware this host cannot talk to."""

    hello: Hello
    expected_major: int


Event = Frame | Delivered | Undeliverable | VersionMismatch


@dataclass
class Stats:
    """What was dropped and why (docs/design.md §10: bad lines are counted and dropped)."""

    frames_in: int = 0
    bad_crc: int = 0
    too_long: int = 0
    unparseable: int = 0
    unexpected: int = 0  # a frame type this side never receives
    duplicates: int = 0  # repeats of a frame already acted on (answered, not acted on)
    refused: int = 0  # (host) frames before a good HELLO: not answered, so the panel handshakes again
    retransmits: int = 0
    given_up: int = 0

    @property
    def dropped(self) -> int:
        return self.bad_crc + self.too_long + self.unparseable + self.unexpected


@dataclass
class _Pending:
    frame: Frame
    data: bytes
    first_sent: float
    last_sent: float
    tries: int = 0


@dataclass
class Connection:
    """One end of the link: ``role`` is :data:`HOST` (the Pi) or :data:`PANEL` (the Pico).

    ``first_seq`` defaults to a random number so that a restarted side does not reuse the
    seqs its peer has just acted on. The host refuses (leaves unanswered) every frame but
    HELLO until a HELLO with protocol major ``expected_major`` has arrived.
    """

    role: Role
    clock: Callable[[], float] = time.monotonic
    first_seq: int | None = None
    heartbeat_s: float | None = None  # default: PANEL sends heartbeats, HOST does not
    expected_major: int = PROTOCOL_MAJOR
    stats: Stats = field(default_factory=Stats)

    def __post_init__(self) -> None:
        if self.role not in (HOST, PANEL):
            raise ProtocolError(f"role must be 'host' or 'panel', got {self.role!r}")
        self._next = os.urandom(1)[0] if self.first_seq is None else self.first_seq % 256
        if self.heartbeat_s is None and self.role == PANEL:
            self.heartbeat_s = HEARTBEAT_S
        self._buf = bytearray()
        self._discarding = False  # inside an overlong line: drop up to the next newline
        self._events: deque[Event] = deque()
        self._out = bytearray()  # ACKs waiting for data_to_send()
        self._pending: dict[int, _Pending] = {}
        self._held: deque[Frame] = deque()  # frames waiting for a reusable seq
        self._used: dict[int, float] = {}  # seq -> when we first sent a frame with it
        self._acted: OrderedDict[int, bytes] = OrderedDict()  # the peer's last ACTED_KEPT seqs -> line
        self._last_sent = float("-inf")
        self.last_heard = float("-inf")
        self.hello: Hello | None = None  # (host) the panel's last HELLO
        self.version_ok: bool | None = None  # (host) None until a HELLO arrives

    # -- sending ---------------------------------------------------------------------------

    def send(self, frame: Frame) -> bytes:
        """Number and encode a frame; the bytes to write (b"" if it must wait for a free seq)."""
        if self.role not in frame.SENDERS:
            raise ProtocolError(f"the {self.role} does not send {frame.TYPE} frames")
        if not frame.NEEDS_ACK:
            return self._unnumbered(frame)
        now = self.clock()
        self._held.append(frame)
        return self._release(now)

    def _unnumbered(self, frame: Frame) -> bytes:
        self._last_sent = self.clock()
        return encode(self._next, frame)

    def _release(self, now: float) -> bytes:
        out = bytearray()
        while self._held:
            seq = self._next
            used = self._used.get(seq)
            if seq in self._pending or (used is not None and now - used < SEQ_REUSE_S):
                break
            frame = self._held.popleft()
            data = encode(seq, frame)
            self._pending[seq] = _Pending(frame, data, now, now)
            self._used[seq] = now
            self._next = (seq + 1) % 256
            out += data
        if out:
            self._last_sent = now
        return bytes(out)

    def tick(self, now: float | None = None) -> bytes:
        """Retransmissions, held frames and a heartbeat that are due now."""
        now = self.clock() if now is None else now
        out = bytearray()
        for seq, p in list(self._pending.items()):
            if now - p.last_sent < RETRY_S - _EPS:
                continue
            if p.tries >= MAX_RETRIES:
                del self._pending[seq]
                self.stats.given_up += 1
                self._events.append(Undeliverable(seq, p.frame))
                continue
            p.tries += 1
            p.last_sent = now
            self.stats.retransmits += 1
            out += p.data
        out += self._release(now)
        if out:
            self._last_sent = now
        elif self.heartbeat_s is not None and now - self._last_sent >= self.heartbeat_s - _EPS:
            out += self._unnumbered(Heartbeat())
            self._last_sent = now
        return bytes(out)

    @property
    def unacknowledged(self) -> list[tuple[int, Frame]]:
        """Frames sent and not yet answered (oldest first), and those held for a seq."""
        return [(s, p.frame) for s, p in self._pending.items()]

    def data_to_send(self) -> bytes:
        """The ACKs owed for frames received so far."""
        out = bytes(self._out)
        self._out.clear()
        if out:
            self._last_sent = self.clock()
        return out

    def peer_alive(self, now: float | None = None) -> bool:
        now = self.clock() if now is None else now
        return now - self.last_heard < PEER_TIMEOUT_S

    # -- receiving -------------------------------------------------------------------------

    def receive_data(self, data: bytes) -> None:
        """Take bytes from the wire; complete lines become events (never raises on bad input)."""
        data = bytes(data)
        buf = self._buf
        start = 0
        while True:
            nl = data.find(b"\n", start)
            if nl < 0:
                rest = data[start:]
                if self._discarding:
                    return
                buf += rest
                if len(buf) > MAX_LINE - 1:  # the newline would make it longer than MAX_LINE
                    self.stats.too_long += 1
                    buf.clear()
                    self._discarding = True
                return
            piece = data[start:nl]
            start = nl + 1
            if self._discarding:
                self._discarding = False
                continue
            buf += piece
            line = bytes(buf)
            buf.clear()
            if len(line) > MAX_LINE - 1:
                self.stats.too_long += 1
                continue
            if line:
                self._line(line)

    def _line(self, line: bytes) -> None:
        try:
            seq, frame = decode(line)
        except BadCrc:
            self.stats.bad_crc += 1
            return
        except ProtocolError:
            self.stats.unparseable += 1
            return
        if self.role in frame.SENDERS and not isinstance(frame, Ack):
            self.stats.unexpected += 1
            return
        now = self.clock()
        self.last_heard = now
        self.stats.frames_in += 1
        if isinstance(frame, Ack):
            p = self._pending.pop(frame.seq, None)
            if p is not None:
                self._events.append(Delivered(frame.seq, p.frame))
            return
        if not frame.NEEDS_ACK:  # a heartbeat: heard, nothing else
            return
        seen = None if isinstance(frame, Hello) else self._acted.get(seq)
        if seen is not None and seen == line:
            self.stats.duplicates += 1
            self._ack(seq)
            return
        if self.role == HOST:
            if isinstance(frame, Hello):
                self._acted.clear()  # a new panel session: its old seqs mean nothing now
                self.hello = frame
                self.version_ok = frame.major == self.expected_major
                if not self.version_ok:
                    self._remember(seq, line)
                    self._ack(seq)
                    self._events.append(VersionMismatch(frame, self.expected_major))
                    return
            elif not self.version_ok:
                self.stats.refused += 1
                return
        self._remember(seq, line)
        self._ack(seq)
        self._events.append(frame)

    def _remember(self, seq: int, line: bytes) -> None:
        self._acted.pop(seq, None)
        self._acted[seq] = line
        if len(self._acted) > ACTED_KEPT:
            self._acted.popitem(last=False)

    def _ack(self, seq: int) -> None:
        self._out += encode(self._next, Ack(seq))

    def next_event(self) -> Event | None:
        """The next received frame or link event, or None when there is none yet."""
        return self._events.popleft() if self._events else None

    def events(self) -> list[Event]:
        """All events waiting now."""
        out = list(self._events)
        self._events.clear()
        return out
