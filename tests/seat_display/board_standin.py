"""Stand-ins for what MicroPython has and CPython lacks, so the seat display firmware runs
unchanged under CPython against a real broker: ``machine`` (Pin, I2C, SPI, unique_id) whose
buses keep what the drivers sent, ``network`` (a WLAN the test can drop), ``micropython``
(``const``) and a MicroPython-style ``socket`` (``read``/``write`` streams) over CPython's.

Frames are read back from the bus bytes the real drivers wrote (:func:`oled_frame`,
:func:`lcd_frame`): what a screen would show, not the framebuffer the firmware thinks it drew.
"""

from __future__ import annotations

import socket as _socket
import types
from typing import Any, ClassVar

# -- micropython -----------------------------------------------------------------------------
micropython = types.ModuleType("micropython")
micropython.const = lambda x: x  # type: ignore[attr-defined]


# -- machine -----------------------------------------------------------------------------------
class Pin:
    IN, OUT, PULL_UP = 0, 1, 1

    def __init__(self, id: int, mode: int = -1, pull: int = -1, value: int | None = None) -> None:
        self.id, self.mode = id, mode
        self.level = 0 if value is None else int(bool(value))

    def init(self, mode: int = -1, value: int | None = None) -> None:
        self.mode = mode
        if value is not None:
            self.level = int(bool(value))

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            return self.level
        self.level = int(bool(v))
        return None

    __call__ = value


class I2C:
    """Keeps every write; the SSD1306's frame is the last data write (control byte 0x40)."""

    def __init__(self, id: int, sda: Pin | None = None, scl: Pin | None = None, freq: int = 400_000) -> None:
        self.commands: list[int] = []
        self.frames: list[bytes] = []

    def writeto(self, addr: int, buf: bytes) -> None:
        if buf[0] == 0x80:
            self.commands.append(buf[1])

    def writevto(self, addr: int, bufs: list[bytes]) -> None:
        if bufs[0] == b"\x40":
            self.frames.append(bytes(bufs[1]))


class SPI:
    """Keeps what was written after each RAMWR (0x2C) command: the ST7789's pixels."""

    def __init__(self, id: int, baudrate: int = 0, polarity: int = 0, phase: int = 0, sck: Pin | None = None,
                 mosi: Pin | None = None, **_: Any) -> None:
        self.frames: list[bytearray] = []
        self._ramwr = False

    def write(self, data: bytes) -> None:
        if len(data) == 1 and data[0] in (0x2A, 0x2B, 0x2C, 0x01, 0x11, 0x3A, 0x36, 0x21, 0x13, 0x29):
            self._ramwr = data[0] == 0x2C
            if self._ramwr:
                self.frames.append(bytearray())
            return
        if self._ramwr:
            self.frames[-1] += data


machine = types.ModuleType("machine")
machine.Pin, machine.I2C, machine.SPI = Pin, I2C, SPI  # type: ignore[attr-defined]
machine.unique_id = lambda: b"\xe6\x61\x41\x04\x03\x2b\x00\x00"  # type: ignore[attr-defined]


# -- network -----------------------------------------------------------------------------------
class WLAN:
    """Connected while ``up`` is true; counts the firmware's connect calls."""

    up = True
    instances: ClassVar[list[WLAN]] = []

    def __init__(self, interface: int) -> None:
        self.connects = 0
        WLAN.instances.append(self)

    def active(self, on: bool | None = None) -> bool:
        return True

    def connect(self, ssid: str, password: str) -> None:
        self.connects += 1

    def isconnected(self) -> bool:
        return WLAN.up


network = types.ModuleType("network")
network.STA_IF = 0  # type: ignore[attr-defined]
network.WLAN = WLAN  # type: ignore[attr-defined]


# -- socket (MicroPython's stream API over a CPython socket) ---------------------------------
class Socket:
    def __init__(self) -> None:
        self._s = _socket.socket()
        self._blocking = True

    def settimeout(self, t: float | None) -> None:
        self._s.settimeout(t)
        self._blocking = t is None or t > 0

    def setblocking(self, flag: bool) -> None:
        self._s.setblocking(flag)
        self._blocking = flag

    def connect(self, addr: Any) -> None:
        self._s.connect(addr)

    def write(self, buf: Any, n: int | None = None) -> int:
        data = buf.encode() if isinstance(buf, str) else bytes(buf)
        data = data if n is None else data[:n]
        self._s.sendall(data)
        return len(data)

    def read(self, n: int) -> bytes | None:
        """Up to ``n`` bytes: all of them unless EOF (blocking), None if none yet (non-blocking)."""
        out = b""
        while len(out) < n:
            try:
                chunk = self._s.recv(n - len(out))
            except BlockingIOError:
                return out if out else None
            if not chunk:
                return out
            out += chunk
            if not self._blocking:
                break
        return out

    def close(self) -> None:
        self._s.close()


socket = types.ModuleType("socket")
socket.socket = Socket  # type: ignore[attr-defined]
socket.getaddrinfo = _socket.getaddrinfo  # type: ignore[attr-defined]


# -- frames from the bus --------------------------------------------------------------------------
def oled_frame(data: bytes, width: int = 128, height: int = 64) -> list[list[int]]:
    """The SSD1306's GDDRAM (pages of vertical bytes) as rows of 0/1."""
    return [[(data[(y // 8) * width + x] >> (y % 8)) & 1 for x in range(width)] for y in range(height)]


def lcd_frame(data: bytes, width: int = 240, height: int = 240) -> list[list[tuple[int, int, int]]]:
    """The ST7789's RAM (RGB565, big-endian) as rows of RGB."""
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            i = (y * width + x) * 2
            c = (data[i] << 8) | data[i + 1]
            row.append((((c >> 11) & 31) * 255 // 31, ((c >> 5) & 63) * 255 // 63, (c & 31) * 255 // 31))
        rows.append(row)
    return rows
