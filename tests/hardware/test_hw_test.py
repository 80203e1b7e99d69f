"""``xian-table hw-test``: names each button as it is pressed and blinks each LED in turn."""

from __future__ import annotations

import io
import threading
import time

from table_app.cli.hw_test import check


def wait_for(buf: io.StringIO, text: str, timeout: float = 10) -> None:
    end = time.monotonic() + timeout
    while text not in buf.getvalue():
        assert time.monotonic() < end, f"{text!r} not in:\n{buf.getvalue()}"
        time.sleep(0.01)


def test_gpio_buttons_are_named_as_pressed_and_the_buzzer_takes_its_turn(mock_factory):
    out = io.StringIO()
    stop = threading.Event()
    t = threading.Thread(target=check, args=(stop,), kwargs=dict(gpio=True, panel=None, seconds=None, out=out,
                                                                 pin_factory=mock_factory, blink_s=0.05))
    t.start()
    try:
        wait_for(out, "press every button once")
        # each held until it is named (PENG and the dice once they settle, TURN once held long):
        # a press let go after a fixed time may pass unseen while a busy machine keeps the
        # buttons' polling thread waiting
        for pin, name in ((18, "seat 2 PENG"), (4, "seat 0 TURN (held)"), (26, "the dice button")):
            p = mock_factory.pin(pin)
            p.drive_low()
            wait_for(out, f"pressed: {name} (GPIO{pin})")
            p.drive_high()
        wait_for(out, "lit: buzzer (GPIO27)")
    finally:
        stop.set()
        t.join(10)
    assert not t.is_alive()
    assert out.getvalue().count("pressed:") == 3


def test_without_a_target_it_says_what_to_give(cli):
    proc = cli("hw-test")
    assert proc.returncode == 2 and "--gpio, --panel DEVICE" in proc.stderr
