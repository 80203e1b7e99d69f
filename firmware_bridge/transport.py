"""A pyserial transport thread: it moves bytes and nothing else.

It opens the device (a path such as ``/dev/serial/by-id/usb-…``, or any pyserial URL such
as ``loop://``), hands every byte read to ``on_data``, calls ``on_idle`` about every
``poll_s`` (the protocol's clock tick), and when the device goes away (a USB panel
unplugged: the read fails) it closes the port and tries again every ``retry_s`` until the
device comes back. ``on_open`` / ``on_close(reason)`` report the port's state. Writes come
from any thread. The protocol (firmware_bridge.protocol) never sees the port.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable

import serial

log = logging.getLogger(__name__)

BAUDRATE = 115200


def _nothing(*_: object) -> None:
    pass


class SerialTransport:
    def __init__(
        self,
        url: str,
        on_data: Callable[[bytes], None],
        *,
        on_open: Callable[[], None] = _nothing,
        on_close: Callable[[str], None] = _nothing,
        on_idle: Callable[[], None] = _nothing,
        baudrate: int = BAUDRATE,
        retry_s: float = 0.5,
        poll_s: float = 0.05,
        opener: Callable[..., serial.SerialBase] = serial.serial_for_url,
    ) -> None:
        self.url = url
        self.on_data, self.on_open, self.on_close, self.on_idle = on_data, on_open, on_close, on_idle
        self.baudrate, self.retry_s, self.poll_s = baudrate, retry_s, poll_s
        self._opener = opener
        self._port: serial.SerialBase | None = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.opened = 0  # how many times the port was opened (1 + reconnections)
        self.last_error = ""

    @property
    def is_open(self) -> bool:
        return self._port is not None

    def start(self) -> SerialTransport:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name=f"serial {self.url}", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._close("stopped")

    def write(self, data: bytes) -> bool:
        """Write bytes now; False if there is no port (the bytes are dropped, never queued)."""
        if not data:
            return True
        with self._write_lock:
            port = self._port
            if port is None:
                return False
            try:
                port.write(data)
                return True
            except (serial.SerialException, OSError) as e:
                self.last_error = str(e)
                return False  # the reader notices the dead port and reconnects

    # -- the thread ------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._port is None and not self._open():
                self.on_idle()
                self._stop.wait(self.retry_s)
                continue
            try:
                port = self._port
                assert port is not None
                data = port.read(max(1, port.in_waiting))
            except (serial.SerialException, OSError, TypeError) as e:  # TypeError: pyserial on a closed fd
                self._close(f"read failed: {e}")
                continue
            if data:
                self.on_data(data)
            self.on_idle()

    def _open(self) -> bool:
        try:
            port = self._opener(self.url, baudrate=self.baudrate, timeout=self.poll_s, write_timeout=1.0)
        except (serial.SerialException, OSError, ValueError) as e:
            if str(e) != self.last_error:
                log.info("panel device %s not available: %s", self.url, e)
            self.last_error = str(e)
            return False
        with self._write_lock:
            self._port = port
        self.opened += 1
        self.last_error = ""
        log.info("panel device %s open", self.url)
        self.on_open()
        return True

    def _close(self, reason: str) -> None:
        with self._write_lock:
            port, self._port = self._port, None
        if port is None:
            return
        with contextlib.suppress(Exception):  # closing a vanished device may fail too; it is gone anyway
            port.close()
        self.last_error = reason
        log.warning("panel device %s closed: %s", self.url, reason)
        self.on_close(reason)
