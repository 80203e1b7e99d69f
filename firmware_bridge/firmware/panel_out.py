# Seat LEDs (off / on / blink, plus a short error flash) and the buzzer.
from panel_time import ticks_add, ticks_diff

BLINK_MS = 250  # blink: 2 Hz
FLASH_MS = 80  # error flash: fast
FLASH_FOR_MS = 1200


class Outputs:
    def __init__(self, leds, buzzer, now):
        self.leds = leds
        self.buzzer = buzzer
        self.mode = ["off"] * len(leds)
        self.flash_until = [None] * len(leds)
        self.buzz_until = None
        self.step(now)

    def set(self, seat, mode):
        self.mode[seat] = mode

    def flash(self, seat, now):
        """A press that was not delivered or made no sense: flash that seat's LED."""
        self.flash_until[seat] = ticks_add(now, FLASH_FOR_MS)

    def buzz(self, ms, now):
        self.buzz_until = ticks_add(now, ms)

    def step(self, now):
        for seat, led in enumerate(self.leds):
            until = self.flash_until[seat]
            if until is not None and ticks_diff(until, now) > 0:
                on = (now // FLASH_MS) % 2 == 0
            else:
                self.flash_until[seat] = None
                mode = self.mode[seat]
                on = mode == "on" or (mode == "blink" and (now // BLINK_MS) % 2 == 0)
            led.value(1 if on else 0)
        if self.buzzer is not None:
            if self.buzz_until is not None and ticks_diff(self.buzz_until, now) > 0:
                self.buzzer.value(1)
            else:
                self.buzz_until = None
                self.buzzer.value(0)
