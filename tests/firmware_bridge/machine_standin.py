"""A small stand-in for MicroPython's ``machine`` module (Pin, UART) wired to a test board.

The firmware's logic runs unchanged under CPython against it: a :class:`Board` decides what
input pins read (the button matrix: a column reads low while a pressed key's row is driven
low) and the UART moves real bytes through a file descriptor (a pty's master end).
Only what the firmware uses is here.
"""

from __future__ import annotations

import os
import select


class Board:
    """The pins the firmware created, the keys a test holds down, the UART's fd."""

    current: Board | None = None

    def __init__(self, uart_fd: int | None = None) -> None:
        self.pins: dict[int, Pin] = {}
        self.uart_fd = uart_fd
        self.closed_keys: set[tuple[int, int]] = set()  # (row pin, column pin) held down
        self.low_inputs: set[int] = set()  # direct buttons (to ground) held down
        Board.current = self

    def press(self, row: int, col: int) -> None:
        self.closed_keys.add((row, col))

    def release(self, row: int, col: int) -> None:
        self.closed_keys.discard((row, col))

    def level(self, pin: int) -> int:
        if pin in self.low_inputs:
            return 0
        for row, col in self.closed_keys:
            if col == pin and row in self.pins and self.pins[row].driven == 0:
                return 0
        return 1  # pulled up

    def output(self, pin: int) -> int:
        return self.pins[pin].driven


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id: int, mode: int = -1, pull: int = -1, value: int | None = None) -> None:
        assert Board.current is not None, "create a Board first"
        self.id, self.mode, self.pull = id, mode, pull
        self.driven = 0 if value is None else int(bool(value))
        if mode != -1:
            Board.current.pins[id] = self

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            return Board.current.level(self.id) if self.mode == Pin.IN else self.driven  # type: ignore[union-attr]
        self.driven = int(bool(v))
        return None

    def on(self) -> None:
        self.driven = 1

    def off(self) -> None:
        self.driven = 0


class UART:
    def __init__(self, id: int, baudrate: int = 115200, tx: Pin | None = None, rx: Pin | None = None,
                 **_: object) -> None:
        assert Board.current is not None and Board.current.uart_fd is not None, "the Board needs a uart_fd"
        self.fd = Board.current.uart_fd
        self._buf = b""
        self.written = 0  # bytes written so far (tests wait for them to cross the pty)

    def _fill(self) -> None:
        try:
            while select.select([self.fd], [], [], 0)[0]:
                chunk = os.read(self.fd, 4096)
                if not chunk:
                    return
                self._buf += chunk
        except (OSError, ValueError):  # no cable (a closed or absent fd): nothing arrives
            return

    def any(self) -> int:
        self._fill()
        return len(self._buf)

    def read(self, n: int = -1) -> bytes | None:
        self._fill()
        if not self._buf:
            return None  # MicroPython returns None when nothing arrived
        n = len(self._buf) if n < 0 else n
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def write(self, data: bytes) -> int:
        try:
            n = os.write(self.fd, data)
            self.written += n
            return n
        except OSError:  # no cable: the bytes go nowhere
            return 0
