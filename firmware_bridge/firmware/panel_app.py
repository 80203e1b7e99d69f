# The panel: buttons -> BTN/DICE frames, LED/BUZZ/ROLL frames -> lights, buzzer, dice.
#
# Start-up sends HELLO until the host answers; a frame the host never answers (host
# restarted, cable pulled) flashes that seat's LED and starts the handshake again. A press
# made while the link is down is not queued (it would arrive late and surprise the table):
# the seat's LED flashes and the player presses again.
from panel_dice import roll
from panel_keys import Keys
from panel_link import Link
from panel_out import Outputs
from panel_time import ticks_add, ticks_diff

FIRMWARE_VERSION = "1.0.0"
SEATS = 4
HELLO_RETRY_MS = 1000
BAUD = 115200

# Raspberry Pi Pico GPIO numbers (docs/panel.md has the wiring diagram).
UART_ID = 0
UART_TX = 0
UART_RX = 1
ROW_PINS = (2, 3, 4, 5)  # seats 0..3
COL_PINS = (6, 7, 8, 9, 10)  # TURN CHI PENG GANG HU
DICE_PIN = 11
LED_PINS = (12, 13, 14, 15)  # seats 0..3
BUZZER_PIN = 16


class Panel:
    def __init__(self, uart, rows, cols, dice, leds, buzzer, now, first_seq=0, dice_source=None):
        self.uart = uart
        self.keys = Keys(rows, cols, dice, now)
        self.out = Outputs(leds, buzzer, now)
        self.link = Link(first_seq, now)
        self.linked = False
        self.hello_pending = False
        self.next_hello = now
        self.dice_source = dice_source
        self.sent_presses = 0
        self.delivered = None  # tests set a list: the (seq, fields) of each BTN the host answered

    def _write(self, data):
        if data:
            self.uart.write(data)

    def _roll(self):
        return roll(self.dice_source) if self.dice_source is not None else roll()

    def step(self, now):
        """One pass of the main loop: read, react, scan, write."""
        n = self.uart.any()
        if n:
            data = self.uart.read(n)
            if data:
                self.link.receive(data, now)
        self._write(self.link.take_acks(now))
        for ev in self.link.events:
            self._event(ev, now)
        self.link.events = []
        if not self.linked and not self.hello_pending and ticks_diff(now, self.next_hello) >= 0:
            self.hello_pending = True
            self._write(self.link.send("HELLO", (FIRMWARE_VERSION, SEATS), now))
        for press in self.keys.step(now):
            self._press(press, now)
        self._write(self.link.tick(now))
        self.out.step(now)

    def _press(self, press, now):
        if press[0] == "DICE":
            a, b = self._roll()
            if self.linked:
                self._write(self.link.send("DICE", (a, b), now))
            return
        seat, button, long = press
        if not self.linked:
            self.out.flash(seat, now)
            return
        fields = (seat, button, "LONG") if long else (seat, button)
        self.sent_presses += 1
        self._write(self.link.send("BTN", fields, now))

    def _event(self, ev, now):
        kind = ev[0]
        if kind == "frame":
            typ, fields = ev[1], ev[2]
            if typ == "LED":
                self.out.set(int(fields[0]), fields[1])
            elif typ == "BUZZ":
                self.out.buzz(int(fields[0]), now)
            elif typ == "ROLL":
                a, b = self._roll()
                self._write(self.link.send("DICE", (a, b), now))
        elif kind == "delivered":
            if ev[2] == "BTN" and self.delivered is not None:
                self.delivered.append((ev[1], tuple(ev[3])))
            if ev[2] == "HELLO":
                self.linked = True
                self.hello_pending = False
        elif kind == "undeliverable":
            typ, fields = ev[2], ev[3]
            if typ == "BTN":
                self.out.flash(int(fields[0]), now)
            if typ == "HELLO":
                self.hello_pending = False
                self.next_hello = ticks_add(now, HELLO_RETRY_MS)
            elif self.linked:
                self.next_hello = now  # the host went away: handshake again at once
            self.linked = False


def build(machine, now, first_seq=0):
    """The panel on real pins (machine is MicroPython's machine module, or a stand-in)."""
    Pin = machine.Pin
    uart = machine.UART(UART_ID, baudrate=BAUD, tx=Pin(UART_TX), rx=Pin(UART_RX))
    rows = [Pin(n, Pin.OUT, value=1) for n in ROW_PINS]
    cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in COL_PINS]
    dice = Pin(DICE_PIN, Pin.IN, Pin.PULL_UP)
    leds = [Pin(n, Pin.OUT, value=0) for n in LED_PINS]
    buzzer = Pin(BUZZER_PIN, Pin.OUT, value=0)
    return Panel(uart, rows, cols, dice, leds, buzzer, now, first_seq)


def run(machine=None, loops=None):
    """The main loop; ``loops`` bounds it (tests), None runs forever (the Pico)."""
    import time

    from panel_time import ticks_ms

    if machine is None:
        import machine
    try:
        from os import urandom
    except ImportError:  # pragma: no cover
        from uos import urandom
    panel = build(machine, ticks_ms(), first_seq=urandom(1)[0])
    n = 0
    while loops is None or n < loops:
        panel.step(ticks_ms())
        n += 1
        if hasattr(time, "sleep_ms"):
            time.sleep_ms(1)
        else:
            time.sleep(0.001)
    return panel
