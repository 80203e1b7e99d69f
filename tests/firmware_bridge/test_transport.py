"""The serial transport and the host bridge: real threads, loop:// and real pty pairs that are
unplugged (closed) and plugged back (a new pty behind the same by-id style symlink)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from firmware_bridge.bridge import LinkState, PanelBridge
from firmware_bridge.protocol import PANEL, Button, Connection, Hello
from firmware_bridge.transport import SerialTransport
from tests.firmware_bridge.channels import open_pty


def wait_until(cond, timeout: float = 15.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or cond}")
        time.sleep(0.005)


def test_the_transport_moves_bytes_over_loop():
    got = bytearray()
    t = SerialTransport("loop://", got.extend).start()
    try:
        wait_until(lambda: t.is_open, what="open")
        assert t.write(b"0,HB*0000\n")
        wait_until(lambda: bytes(got) == b"0,HB*0000\n", what="the bytes back")
    finally:
        t.stop()
    assert not t.write(b"x")  # no port: dropped, not queued


class Plug:
    """A pty behind a stable symlink (as /dev/serial/by-id/… is), that can be pulled and put back."""

    def __init__(self, tmp_path: Path) -> None:
        self.link = tmp_path / "usb-xian-panel"
        self.master: int | None = None
        self.keep: int | None = None

    def plug(self) -> int:
        master, path = open_pty()
        self.keep = os.open(path, os.O_RDWR | os.O_NOCTTY)  # a master reads EIO while no slave is open
        tmp = self.link.with_suffix(".new")
        os.symlink(path, tmp)
        os.replace(tmp, self.link)
        self.master = master
        return master

    def unplug(self) -> None:
        assert self.master is not None and self.keep is not None
        self.link.unlink()
        os.close(self.master)
        os.close(self.keep)
        self.master = self.keep = None


def test_a_missing_device_is_reported_and_opened_when_it_appears(tmp_path):
    plug = Plug(tmp_path)
    states: list[str] = []
    got = bytearray()
    t = SerialTransport(str(plug.link), got.extend, on_open=lambda: states.append("open"),
                        on_close=states.append, retry_s=0.05).start()
    try:
        time.sleep(0.2)
        assert not t.is_open and states == []
        master = plug.plug()
        wait_until(lambda: t.is_open, what="open")
        os.write(master, b"hello\n")
        wait_until(lambda: bytes(got) == b"hello\n")
        plug.unplug()
        wait_until(lambda: not t.is_open, what="closed")
        master = plug.plug()
        wait_until(lambda: t.is_open, what="reopened")
        os.write(master, b"again\n")
        wait_until(lambda: bytes(got).endswith(b"again\n"))
        assert t.opened == 2 and states[0] == "open" and states[-1] == "open" and len(states) == 3
    finally:
        t.stop()
        plug.unplug()


class PanelThread:
    """The firmware's Panel (stand-in pins) stepping in real time in its own thread."""

    def __init__(self, fw, master: int) -> None:
        self.fw = fw
        self.board = fw.machine.Board(master)
        self.panel = fw.app.build(fw.machine, fw.time.ticks_ms(), first_seq=120)
        self.panel.delivered = []
        self.lock = threading.Lock()
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            with self.lock:
                self.panel.step(self.fw.time.ticks_ms())
            time.sleep(0.001)

    def replug(self, master: int) -> None:
        with self.lock:
            self.board.uart_fd = master
            self.panel.uart.fd = master

    def tap(self, seat: int, button: str) -> None:
        """A press and release, each held until the panel's own scans have settled it (its
        DEBOUNCE_MS of steady readings): on a machine busy enough to leave the panel's thread
        unscheduled for a while, a press held a fixed time could pass unseen."""
        self.hold(seat, button)
        self.release(seat, button)

    def hold(self, seat: int, button: str) -> None:
        """Press the key and wait until the panel has it down."""
        row, col, b = self._pins(seat, button)
        self.board.press(row, col)
        wait_until(lambda: self.panel.keys.keys[seat][b].stable, what=f"the panel sees seat {seat} {button} down")

    def release(self, seat: int, button: str) -> None:
        """Let the key go and wait until the panel has it up."""
        row, col, b = self._pins(seat, button)
        self.board.release(row, col)
        wait_until(lambda: not self.panel.keys.keys[seat][b].stable, what=f"the panel sees seat {seat} {button} up")

    def press_dice(self) -> None:
        """The dice button pressed and let go, each until the panel has settled it."""
        self.board.low_inputs.add(self.fw.app.DICE_PIN)
        wait_until(lambda: self.panel.keys.dice_key.stable, what="the panel sees the dice button down")
        self.board.low_inputs.discard(self.fw.app.DICE_PIN)
        wait_until(lambda: not self.panel.keys.dice_key.stable, what="the panel sees the dice button up")

    def _pins(self, seat: int, button: str) -> tuple[int, int, int]:
        b = self.fw.keys.BUTTONS.index(button)
        return self.fw.app.ROW_PINS[seat], self.fw.app.COL_PINS[b], b

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(5)


def test_unplugging_and_replugging_mid_hand_loses_no_acknowledged_press(tmp_path, fw):
    plug = Plug(tmp_path)
    master = plug.plug()
    panel = PanelThread(fw, master)
    acted: list[Button] = []
    states: list[LinkState] = []
    bridge = PanelBridge(str(plug.link), acted.append, retry_s=0.05)
    bridge.add_listener(lambda s, d: states.append(s))
    bridge.start()
    try:
        wait_until(lambda: bridge.state is LinkState.CONNECTED, what="connected")
        bridge.led(2, "on")
        wait_until(lambda: panel.board.output(fw.app.LED_PINS[2]) == 1, what="LED 2 on")
        presses = [(0, "TURN"), (1, "PENG"), (2, "CHI"), (3, "HU")]
        for seat, b in presses:
            panel.tap(seat, b)
        wait_until(lambda: len(panel.panel.delivered) == 4, what="4 presses answered")

        panel.replug(-1)  # the panel's UART now reaches nothing (and no reused fd number)
        plug.unplug()  # mid-hand: presses now go nowhere until the cable is back
        wait_until(lambda: bridge.state is LinkState.RECONNECTING, what="reconnecting shown")
        panel.tap(0, "GANG")
        panel.tap(1, "HU")
        time.sleep(0.3)
        panel.replug(plug.plug())  # back within the panel's retry span for some presses, not all
        wait_until(lambda: bridge.state is LinkState.CONNECTED, what="connected again")
        # a press given up while unplugged makes the panel handshake again before it sends more
        wait_until(lambda: panel.panel.linked and not panel.panel.link.pending, what="the panel linked")
        for seat, b in [(2, "TURN"), (3, "PENG")]:
            panel.tap(seat, b)
        wait_until(lambda: not panel.panel.link.pending, what="nothing left in flight")
        with panel.lock:
            delivered = [fields for _, fields in panel.panel.delivered]
        answered = [Button(int(f[0]), f[1]) for f in delivered]
        # every press the panel saw answered was acted on exactly once, in order
        assert acted == answered
        assert answered[:4] == [Button(s, b) for s, b in presses]
        # the two taps after the cable came back, in order; a press from the outage that the
        # panel still held may come between them (its retry), but no press twice
        later = answered[4:]
        assert [b for b in later if b.button in ("TURN", "PENG")] == [Button(2, "TURN"), Button(3, "PENG")]
        assert len(set(later)) == len(later) and set(later) <= {Button(0, "GANG"), Button(1, "HU"),
                                                                Button(2, "TURN"), Button(3, "PENG")}
        assert LinkState.RECONNECTING in states[states.index(LinkState.CONNECTED):]
        assert bridge.transport.opened == 2
        wait_until(lambda: panel.board.output(fw.app.LED_PINS[2]) == 1, what="LED 2 still on")
    finally:
        bridge.stop()
        panel.stop()
        plug.unplug()


def test_an_old_firmware_is_reported_as_a_version_mismatch(tmp_path):
    plug = Plug(tmp_path)
    master = plug.plug()
    acted: list = []
    bridge = PanelBridge(str(plug.link), acted.append, retry_s=0.05).start()
    old = Connection(PANEL, first_seq=0)
    try:
        wait_until(lambda: bridge.state is LinkState.WAITING, what="waiting")
        os.write(master, old.send(Hello("0.9", 4)))
        wait_until(lambda: bridge.state is LinkState.VERSION_MISMATCH, what="mismatch")
        assert "0.9" in bridge.detail
        os.write(master, old.send(Button(0, "HU")))
        time.sleep(0.2)
        assert acted == []
    finally:
        bridge.stop()
        plug.unplug()


@pytest.mark.parametrize("url", ["loop://"])
def test_the_bridge_waits_for_hello_on_a_silent_device(url):
    bridge = PanelBridge(url, lambda f: None).start()
    try:
        wait_until(lambda: bridge.state is LinkState.WAITING, what="waiting")
    finally:
        bridge.stop()
