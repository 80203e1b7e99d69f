"""The serial panel protocol (DESIGN.md "Serial panel protocol"): a sans-I/O codec.

One ASCII line per frame, ``<seq>,<TYPE>[,<field>…]*<crc>\\n``. ``seq`` is 0–255 in
canonical decimal, ``crc`` is CRC-16/CCITT-FALSE (``binascii.crc_hqx(body, 0xFFFF)``) of
everything before ``*`` as four upper-case hex digits. A line is at most 128 bytes with
its newline. ``PROTOCOL.md`` beside this file has the whole story and example frames.

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

import binascii
import os
import re
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar, Literal

MAX_LINE = 128  # bytes, the newline included
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

BUTTONS = ("TURN", "CHI", "PENG", "GANG", "HU")
LED_STATES = ("off", "on", "blink")
LONG = "LONG"

Role = Literal["host", "panel"]
HOST: Role = "host"
PANEL: Role = "panel"

_VERSION = re.compile(r"(0|[1-9][0-9]{0,2})\.(0|[1-9][0-9]{0,2})(\.(0|[1-9][0-9]{0,2}))?")
_HEX4 = re.compile(rb"[0-9A-F]{4}")


class ProtocolError(ValueError):
    """A frame that cannot be built or sent (a bad field, the wrong direction)."""


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor).

    >>> f"{crc16(b'123456789'):04X}"
    '29B1'
    """
    return binascii.crc_hqx(data, 0xFFFF)


def _num(text: str, lo: int, hi: int, what: str) -> int:
    """A canonical decimal (no sign, no leading zero) in lo..hi, else ProtocolError."""
    if not (text.isascii() and text.isdigit()) or (len(text) > 1 and text[0] == "0") or len(text) > 5:
        raise ProtocolError(f"{what} must be a whole number {lo}..{hi}, got {text!r}")
    value = int(text)
    if not lo <= value <= hi:
        raise ProtocolError(f"{what} must be {lo}..{hi}, got {value}")
    return value


def _int_field(value: object, lo: int, hi: int, what: str) -> None:
    if type(value) is not int or not lo <= value <= hi:
        raise ProtocolError(f"{what} must be an int {lo}..{hi}, got {value!r}")


# --- frames: frozen values that check themselves -------------------------------------------


@dataclass(frozen=True)
class Frame:
    """A protocol frame without its sequence number (the connection numbers it)."""

    TYPE: ClassVar[str] = ""
    SENDERS: ClassVar[tuple[Role, ...]] = ()
    NEEDS_ACK: ClassVar[bool] = True

    def fields(self) -> tuple[str, ...]:
        return ()

    @classmethod
    def parse(cls, fields: list[str]) -> Frame:
        if fields:
            raise ProtocolError(f"{cls.TYPE} takes no fields, got {fields!r}")
        return cls()


@dataclass(frozen=True)
class Hello(Frame):
    """Panel → host at start-up: its firmware version and how many seats it serves."""

    TYPE: ClassVar[str] = "HELLO"
    SENDERS: ClassVar[tuple[Role, ...]] = (PANEL,)
    version: str
    seats: int

    def __post_init__(self) -> None:
        if not isinstance(self.version, str) or not _VERSION.fullmatch(self.version):
            raise ProtocolError(f"HELLO version must look like 1.2 or 1.2.3, got {self.version!r}")
        _int_field(self.seats, 1, 4, "HELLO seats")

    def fields(self) -> tuple[str, ...]:
        return (self.version, str(self.seats))

    @classmethod
    def parse(cls, fields: list[str]) -> Hello:
        if len(fields) != 2:
            raise ProtocolError(f"HELLO takes version and seats, got {fields!r}")
        return cls(fields[0], _num(fields[1], 1, 4, "HELLO seats"))

    @property
    def major(self) -> int:
        return int(self.version.split(".")[0])


@dataclass(frozen=True)
class Button(Frame):
    """Panel → host: a seat's button was pressed (``long``: TURN held, written ``,LONG``)."""

    TYPE: ClassVar[str] = "BTN"
    SENDERS: ClassVar[tuple[Role, ...]] = (PANEL,)
    seat: int
    button: str
    long: bool = False

    def __post_init__(self) -> None:
        _int_field(self.seat, 0, 3, "BTN seat")
        if self.button not in BUTTONS:
            raise ProtocolError(f"BTN button must be one of {', '.join(BUTTONS)}, got {self.button!r}")
        if type(self.long) is not bool or (self.long and self.button != "TURN"):
            raise ProtocolError(f"only TURN has a long press, got {self.button!r} long={self.long!r}")

    def fields(self) -> tuple[str, ...]:
        return (str(self.seat), self.button, LONG) if self.long else (str(self.seat), self.button)

    @classmethod
    def parse(cls, fields: list[str]) -> Button:
        if len(fields) == 3 and fields[2] == LONG:
            return cls(_num(fields[0], 0, 3, "BTN seat"), fields[1], True)
        if len(fields) != 2:
            raise ProtocolError(f"BTN takes seat and button (and LONG), got {fields!r}")
        return cls(_num(fields[0], 0, 3, "BTN seat"), fields[1])


@dataclass(frozen=True)
class Dice(Frame):
    """Panel → host: the electronic dice showed a and b."""

    TYPE: ClassVar[str] = "DICE"
    SENDERS: ClassVar[tuple[Role, ...]] = (PANEL,)
    a: int
    b: int

    def __post_init__(self) -> None:
        _int_field(self.a, 1, 6, "DICE a")
        _int_field(self.b, 1, 6, "DICE b")

    def fields(self) -> tuple[str, ...]:
        return (str(self.a), str(self.b))

    @classmethod
    def parse(cls, fields: list[str]) -> Dice:
        if len(fields) != 2:
            raise ProtocolError(f"DICE takes two dice, got {fields!r}")
        return cls(_num(fields[0], 1, 6, "DICE a"), _num(fields[1], 1, 6, "DICE b"))


@dataclass(frozen=True)
class Heartbeat(Frame):
    """Panel → host when it has sent nothing for a second; never acknowledged."""

    TYPE: ClassVar[str] = "HB"
    SENDERS: ClassVar[tuple[Role, ...]] = (PANEL,)
    NEEDS_ACK: ClassVar[bool] = False


@dataclass(frozen=True)
class Ack(Frame):
    """Either way: the frame numbered ``seq`` arrived."""

    TYPE: ClassVar[str] = "ACK"
    SENDERS: ClassVar[tuple[Role, ...]] = (HOST, PANEL)
    NEEDS_ACK: ClassVar[bool] = False
    seq: int

    def __post_init__(self) -> None:
        _int_field(self.seq, 0, 255, "ACK seq")

    def fields(self) -> tuple[str, ...]:
        return (str(self.seq),)

    @classmethod
    def parse(cls, fields: list[str]) -> Ack:
        if len(fields) != 1:
            raise ProtocolError(f"ACK takes one seq, got {fields!r}")
        return cls(_num(fields[0], 0, 255, "ACK seq"))


@dataclass(frozen=True)
class Led(Frame):
    """Host → panel: a seat's LED off, on or blinking."""

    TYPE: ClassVar[str] = "LED"
    SENDERS: ClassVar[tuple[Role, ...]] = (HOST,)
    seat: int
    state: str

    def __post_init__(self) -> None:
        _int_field(self.seat, 0, 3, "LED seat")
        if self.state not in LED_STATES:
            raise ProtocolError(f"LED state must be one of {', '.join(LED_STATES)}, got {self.state!r}")

    def fields(self) -> tuple[str, ...]:
        return (str(self.seat), self.state)

    @classmethod
    def parse(cls, fields: list[str]) -> Led:
        if len(fields) != 2:
            raise ProtocolError(f"LED takes seat and state, got {fields!r}")
        return cls(_num(fields[0], 0, 3, "LED seat"), fields[1])


@dataclass(frozen=True)
class Buzz(Frame):
    """Host → panel: sound the buzzer for ``ms`` milliseconds (1–10000)."""

    TYPE: ClassVar[str] = "BUZZ"
    SENDERS: ClassVar[tuple[Role, ...]] = (HOST,)
    ms: int

    def __post_init__(self) -> None:
        _int_field(self.ms, 1, 10000, "BUZZ ms")

    def fields(self) -> tuple[str, ...]:
        return (str(self.ms),)

    @classmethod
    def parse(cls, fields: list[str]) -> Buzz:
        if len(fields) != 1:
            raise ProtocolError(f"BUZZ takes ms, got {fields!r}")
        return cls(_num(fields[0], 1, 10000, "BUZZ ms"))


@dataclass(frozen=True)
class Roll(Frame):
    """Host → panel: roll the electronic dice (the panel answers with DICE)."""

    TYPE: ClassVar[str] = "ROLL"
    SENDERS: ClassVar[tuple[Role, ...]] = (HOST,)


FRAME_TYPES: dict[str, type[Frame]] = {c.TYPE: c for c in (Hello, Button, Dice, Heartbeat, Ack, Led, Buzz, Roll)}


def encode(seq: int, frame: Frame) -> bytes:
    """The line for one frame, newline included.

    >>> encode(3, Led(1, "blink"))
    b'3,LED,1,blink*6E9C\\n'
    """
    _int_field(seq, 0, 255, "seq")
    body = ",".join((str(seq), frame.TYPE, *frame.fields())).encode("ascii")
    return b"%s*%04X\n" % (body, crc16(body))


class BadCrc(ProtocolError):
    """The line has the frame shape but its CRC does not match."""


def decode(line: bytes) -> tuple[int, Frame]:
    """One line (without its newline) → (seq, frame); :class:`BadCrc` or :class:`ProtocolError`.

    Only the canonical spelling is accepted: the frame must encode back to the same bytes.

    >>> decode(b"3,LED,1,blink*6E9C")
    (3, Led(seat=1, state='blink'))
    """
    body, star, crc_text = line.rpartition(b"*")
    if not star or not _HEX4.fullmatch(crc_text):
        raise ProtocolError(f"not a frame (no *XXXX check): {line[:40]!r}")
    if crc16(body) != int(crc_text, 16):
        raise BadCrc(f"CRC mismatch in {line[:40]!r}")
    try:
        text = body.decode("ascii")
    except UnicodeDecodeError:
        raise ProtocolError(f"not ASCII: {line[:40]!r}") from None
    parts = text.split(",")
    if len(parts) < 2:
        raise ProtocolError(f"a frame needs seq and type: {text!r}")
    seq = _num(parts[0], 0, 255, "seq")
    cls = FRAME_TYPES.get(parts[1])
    if cls is None:
        raise ProtocolError(f"unknown frame type {parts[1]!r} in {text!r}")
    frame = cls.parse(parts[2:])
    if encode(seq, frame) != line + b"\n":
        raise ProtocolError(f"not in canonical form: {text!r}")
    return seq, frame


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
    """What was dropped and why (DESIGN: bad lines are counted and dropped)."""

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
