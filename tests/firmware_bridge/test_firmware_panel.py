"""The panel firmware's logic under CPython: the machine stand-in's pins, and a real pty pair
between it and the host codec (the same bytes a Pico would send)."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

import pytest
import serial

from firmware_bridge.protocol import HOST, Button, Buzz, Connection, Delivered, Dice, Hello, Led, Roll
from tests.firmware_bridge.channels import open_pty

ROOT = Path(__file__).resolve().parents[2]


class Rig:
    """A panel on stand-in pins, its UART on a pty master; the host codec on the pty's path."""

    def __init__(self, fw, first_seq: int = 40) -> None:
        self.fw = fw
        self.master, self.path = open_pty()
        self.board = fw.machine.Board(self.master)
        self.now = 1000
        self.panel = fw.app.build(fw.machine, self.now, first_seq=first_seq)
        self.port = serial.Serial(self.path, 115200, timeout=0.02)
        self.host = Connection(HOST, clock=lambda: self.now / 1000, first_seq=3)

    def close(self) -> None:
        self.port.close()
        os.close(self.master)

    def run(self, ms: int, answer: bool = True) -> list:
        """Step the panel ``ms`` milliseconds (1 ms a step); the host reads and (maybe) answers."""
        events = []
        for _ in range(ms):
            self.now += 1
            before = self.panel.uart.written
            self.panel.step(self.now)
            if self.panel.uart.written != before:
                # simulated time runs faster than the kernel moves pty bytes: wait for them
                select.select([self.port.fileno()], [], [], 2.0)
            if self.now % 10 == 0:
                events += self.pump(answer)
        return events + self.pump(answer)

    def pump(self, answer: bool = True) -> list:
        data = b""
        while self.port.in_waiting:  # the panel's os.write is in the kernel's buffer already
            data += self.port.read(self.port.in_waiting)
        self.host.receive_data(data)
        acks = self.host.data_to_send()
        if answer and acks:
            self._host_write(acks)
        return self.host.events()

    def send(self, frame) -> None:
        self._host_write(self.host.send(frame))

    def _host_write(self, data: bytes) -> None:
        self.port.write(data)
        self.port.flush()
        select.select([self.master], [], [], 2.0)

    def press(self, seat: int, button: str, bounce: int = 0) -> None:
        col = self.fw.app.COL_PINS[self.fw.keys.BUTTONS.index(button)]
        row = self.fw.app.ROW_PINS[seat]
        for i in range(bounce):  # a bouncing contact: closed and open by turns, 1 ms each
            (self.board.press if i % 2 == 0 else self.board.release)(row, col)
            self.run(1)
        self.board.press(row, col)

    def release(self, seat: int, button: str) -> None:
        self.board.release(self.fw.app.ROW_PINS[seat], self.fw.app.COL_PINS[self.fw.keys.BUTTONS.index(button)])

    def led(self, seat: int) -> int:
        return self.board.output(self.fw.app.LED_PINS[seat])


@pytest.fixture
def rig(fw):
    r = Rig(fw)
    yield r
    r.close()


def linked(rig: Rig) -> None:
    assert rig.run(20) == [Hello("1.0.0", 4)]
    rig.run(20)
    assert rig.panel.linked


def test_the_panel_says_hello_and_a_bouncing_press_arrives_once(rig):
    linked(rig)
    rig.press(2, "PENG", bounce=9)
    assert rig.run(60) == [Button(2, "PENG")]
    rig.release(2, "PENG")
    assert rig.run(60) == []


def test_every_button_of_every_seat(rig):
    linked(rig)
    got = []
    for seat in range(4):
        for b in ("CHI", "PENG", "GANG", "HU", "TURN"):
            rig.press(seat, b, bounce=4)
            got += rig.run(40)
            rig.release(seat, b)
            got += rig.run(40)
    assert got == [Button(s, b) for s in range(4) for b in ("CHI", "PENG", "GANG", "HU", "TURN")]
    assert rig.host.stats.duplicates == 0 and rig.host.stats.dropped == 0


def test_turn_held_a_second_is_a_long_press_and_its_release_is_not_another(rig):
    linked(rig)
    rig.press(1, "TURN")
    assert rig.run(900) == []
    assert rig.run(200) == [Button(1, "TURN", long=True)]
    rig.release(1, "TURN")
    assert rig.run(100) == []


def test_two_seats_pressing_at_once_are_both_heard(rig):
    linked(rig)
    rig.press(0, "HU")
    rig.press(3, "PENG")
    assert sorted(rig.run(50), key=repr) == sorted([Button(0, "HU"), Button(3, "PENG")], key=repr)


def test_the_dice_button_rolls_two_fair_dice(rig, fw):
    linked(rig)
    rig.board.low_inputs.add(fw.app.DICE_PIN)
    (ev,) = rig.run(50)
    assert isinstance(ev, Dice) and 1 <= ev.a <= 6 and 1 <= ev.b <= 6


def test_fair_dice_throw_away_the_bytes_that_would_bias_them(fw):
    source = iter([bytes([255]), bytes([252]), bytes([0]), bytes([251]), bytes([5])])
    assert fw.dice.roll(lambda n: next(source)) == (1, 6)
    counts = [0] * 6
    for b in range(252):
        counts[fw.dice.die(lambda n, b=b: bytes([b])) - 1] += 1
    assert counts == [42] * 6


def test_the_host_drives_leds_buzzer_and_dice(rig, fw):
    linked(rig)
    rig.send(Led(1, "on"))
    rig.send(Led(2, "blink"))
    rig.run(30)
    assert rig.led(1) == 1 and rig.led(0) == 0
    seen = set()
    for _ in range(10):
        rig.run(100)
        seen.add(rig.led(2))
    assert seen == {0, 1}
    rig.send(Buzz(200))
    rig.run(30)
    assert rig.board.output(fw.app.BUZZER_PIN) == 1
    rig.run(250)
    assert rig.board.output(fw.app.BUZZER_PIN) == 0
    rig.send(Roll())
    events = rig.run(30)
    assert [type(e) for e in events if not isinstance(e, Delivered)] == [Dice]
    assert rig.host.unacknowledged == []


def test_an_unanswered_press_flashes_the_seat_and_the_panel_handshakes_again(rig):
    linked(rig)
    rig.host = Connection(HOST, clock=lambda: rig.now / 1000, first_seq=90)  # the host restarted
    rig.press(0, "GANG")
    assert rig.run(300) == []  # refused: no HELLO yet on this host
    flashes, events = set(), []
    for _ in range(40):
        events += rig.run(25)
        flashes.add(rig.led(0))
    assert flashes == {0, 1}  # the error flash
    events += rig.run(1500)
    assert Hello("1.0.0", 4) in events and rig.panel.linked
    rig.release(0, "GANG")
    rig.run(50)
    rig.press(0, "GANG")
    assert rig.run(50) == [Button(0, "GANG")]


def test_a_press_while_the_link_is_down_is_not_queued(rig):
    assert rig.run(5, answer=False) == [Hello("1.0.0", 4)]  # HELLO sent, its ACK is lost
    rig.press(3, "HU")
    assert rig.run(40, answer=False) == []
    rig.release(3, "HU")
    events = rig.run(2500)
    assert Button(3, "HU") not in events


def test_main_py_boots_on_the_stand_in_and_talks_over_a_pty(tmp_path):
    """main.py as the Pico runs it: a separate process, its UART on a real pty."""
    master, path = open_pty()
    keep = os.open(path, os.O_RDWR | os.O_NOCTTY)  # a pty master reads EIO while no slave is open
    runner = tmp_path / "boot.py"
    runner.write_text(
        "import os, sys, runpy\n"
        f"sys.path[:0] = [{str(ROOT)!r}, {str(ROOT / 'firmware_bridge' / 'firmware')!r}]\n"
        "from tests.firmware_bridge import machine_standin\n"
        "sys.modules['machine'] = machine_standin\n"
        f"machine_standin.Board(os.open({path!r}, os.O_RDWR | os.O_NOCTTY))\n"
        f"runpy.run_path({str(ROOT / 'firmware_bridge' / 'firmware' / 'main.py')!r}, run_name='__main__')\n"
    )
    proc = subprocess.Popen([sys.executable, str(runner)], stderr=subprocess.PIPE)
    try:
        host = Connection(HOST, first_seq=0)
        got = []
        while not got:
            assert select.select([master], [], [], 30)[0], "no bytes from the firmware"
            host.receive_data(os.read(master, 4096))
            got = host.events()
        assert got == [Hello("1.0.0", 4)]
    finally:
        proc.kill()
        proc.wait()
        os.close(master)
        os.close(keep)
