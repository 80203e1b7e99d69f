"""The serial panel's frames and their one-line codec (docs/design.md "Serial panel protocol").

One ASCII line per frame, ``<seq>,<TYPE>[,<field>…]*<crc>\\n``. ``seq`` is 0–255 in
canonical decimal, ``crc`` is CRC-16/CCITT-FALSE (``binascii.crc_hqx(body, 0xFFFF)``) of
everything before ``*`` as four upper-case hex digits. A line is at most 128 bytes with
its newline. ``PROTOCOL.md`` beside this file has the whole story and example frames.

Frames are frozen values that check themselves; :func:`encode` and :func:`decode` turn them
into lines and back (only the canonical spelling decodes). The link that numbers, answers
and repeats them is :class:`firmware_bridge.protocol.Connection`.
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass
from typing import ClassVar, Literal

from engine.presses import SEAT_BUTTONS

MAX_LINE = 128  # bytes, the newline included
BUTTONS = SEAT_BUTTONS  # a seat's buttons: the engine's presses (TURN CHI PENG GANG HU)
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
