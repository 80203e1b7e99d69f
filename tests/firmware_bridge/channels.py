"""Byte pipes between a host end and a panel end: in memory, pyserial loop://, a real pty.

Each channel has ``host`` and ``panel`` ends with ``write(bytes)`` and ``read() -> bytes``
(whatever has arrived, never blocking for long). The same test body runs over each.
"""

from __future__ import annotations

import os
import select
import tty

import serial


class MemoryEnd:
    def __init__(self, inbox: bytearray, outbox: bytearray) -> None:
        self._in, self._out = inbox, outbox

    def write(self, data: bytes) -> None:
        self._out += data

    def read(self) -> bytes:
        data = bytes(self._in)
        self._in.clear()
        return data


class MemoryChannel:
    name = "memory"

    def __init__(self) -> None:
        a, b = bytearray(), bytearray()
        self.host, self.panel = MemoryEnd(a, b), MemoryEnd(b, a)

    def close(self) -> None:
        pass


class SerialEnd:
    """Writes go into one loop:// port, reads come from the other direction's port."""

    def __init__(self, out_port: serial.SerialBase, in_port: serial.SerialBase) -> None:
        self._out, self._in = out_port, in_port

    def write(self, data: bytes) -> None:
        self._out.write(data)

    def read(self) -> bytes:
        out = b""
        while True:
            n = self._in.in_waiting
            if not n:
                return out
            out += self._in.read(n)


class LoopChannel:
    name = "loop"

    def __init__(self) -> None:
        self._to_panel = serial.serial_for_url("loop://", timeout=0)
        self._to_host = serial.serial_for_url("loop://", timeout=0)
        self.host = SerialEnd(self._to_panel, self._to_host)
        self.panel = SerialEnd(self._to_host, self._to_panel)

    def close(self) -> None:
        self._to_panel.close()
        self._to_host.close()


class FdEnd:
    def __init__(self, fd: int) -> None:
        self.fd = fd

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = os.write(self.fd, view)
            view = view[n:]

    def read(self) -> bytes:
        out = b""
        while select.select([self.fd], [], [], 0.02)[0]:
            chunk = os.read(self.fd, 4096)
            if not chunk:
                break
            out += chunk
        return out


class PortEnd:
    def __init__(self, port: serial.Serial) -> None:
        self.port = port

    def write(self, data: bytes) -> None:
        self.port.write(data)
        self.port.flush()

    def read(self) -> bytes:
        out = b""
        while True:
            # A short wait lets bytes written an instant ago by the other end arrive.
            chunk = self.port.read(max(1, self.port.in_waiting))
            if not chunk:
                return out
            out += chunk


def open_pty() -> tuple[int, str]:
    """A raw pty pair: the master fd (the 'panel' side) and the slave's path (the 'device')."""
    master, slave = os.openpty()
    tty.setraw(slave)
    tty.setraw(master)
    path = os.ttyname(slave)
    os.close(slave)  # the host opens it by path, as it would open /dev/ttyACM0
    return master, path


class PtyChannel:
    """The host opens the pty's device path with pyserial; the panel holds the master."""

    name = "pty"

    def __init__(self) -> None:
        self.master, self.path = open_pty()
        self.port = serial.Serial(self.path, 115200, timeout=0.02)
        self.host = PortEnd(self.port)
        self.panel = FdEnd(self.master)

    def close(self) -> None:
        self.port.close()
        os.close(self.master)


CHANNELS = (MemoryChannel, LoopChannel, PtyChannel)
