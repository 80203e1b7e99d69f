# The button matrix (rows = seats, columns = TURN CHI PENG GANG HU) and the dice button.
#
# A key changes state only after its raw reading has held still for DEBOUNCE_MS, so a
# bouncing contact gives exactly one press. TURN is reported on release (short) or once it
# has been held LONG_MS (long, "undo"); the other keys are reported as soon as they close.
from panel_time import settle, ticks_diff

DEBOUNCE_MS = 20
LONG_MS = 1000
BUTTONS = ("TURN", "CHI", "PENG", "GANG", "HU")


class Debounced:
    """One contact: raw samples in, stable state changes out."""

    def __init__(self, now):
        self.raw = False
        self.stable = False
        self.since = now

    def sample(self, pressed, now):
        """Return True/False when the stable state changes to that, else None."""
        if pressed != self.raw:
            self.raw = pressed
            self.since = now
            return None
        if pressed != self.stable and ticks_diff(now, self.since) >= DEBOUNCE_MS:
            self.stable = pressed
            return pressed
        return None


class Keys:
    """Scan the matrix and the dice pin; step() returns a list of presses.

    A press is (seat, button, long) or ("DICE",).
    rows: output pins, one per seat, idle high, driven low to scan that seat.
    cols: input pins with pull-ups, one per button (low = pressed, through a diode).
    """

    def __init__(self, rows, cols, dice, now):
        self.rows = rows
        self.cols = cols
        self.dice = dice
        for r in rows:
            r.value(1)
        self.keys = [[Debounced(now) for _ in cols] for _ in rows]
        self.dice_key = Debounced(now)
        self.turn_down = [None] * len(rows)  # when TURN went down, None: up or long sent

    def step(self, now):
        presses = []
        for seat, row in enumerate(self.rows):
            row.value(0)
            settle()
            readings = [c.value() == 0 for c in self.cols]
            row.value(1)
            for b, pressed in enumerate(readings):
                change = self.keys[seat][b].sample(pressed, now)
                name = BUTTONS[b]
                if name == "TURN":
                    self._turn(seat, change, now, presses)
                elif change is True:
                    presses.append((seat, name, False))
        if self.dice is not None and self.dice_key.sample(self.dice.value() == 0, now) is True:
            presses.append(("DICE",))
        return presses

    def _turn(self, seat, change, now, presses):
        if change is True:
            self.turn_down[seat] = now
        elif change is False:
            if self.turn_down[seat] is not None:
                presses.append((seat, "TURN", False))
            self.turn_down[seat] = None
        elif self.turn_down[seat] is not None and ticks_diff(now, self.turn_down[seat]) >= LONG_MS:
            presses.append((seat, "TURN", True))
            self.turn_down[seat] = None  # the release that follows is not a short press
