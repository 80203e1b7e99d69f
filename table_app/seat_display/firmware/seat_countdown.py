# The claim countdown: how long this seat has left to claim the discarded tile.
#
# The seat view carries ``claim_left``: the seconds until the table's service closes the
# claim window, as the table published it (each new view restarts the count from it). A
# view without it (an older table) counts the configured default (the table's
# ``claim_window_s``, 3 s) from when the display saw ``can_claim`` turn true.
from seat_time import ticks_add, ticks_diff

FIELD = "claim_left"


class ClaimCountdown:
    def __init__(self, default_s):
        self.default_ms = int(default_s * 1000)
        self.window_ms = self.default_ms  # the length of the current window (for the bar)
        self.ends = None  # ticks when the window closes; None: this seat may not claim

    def update(self, view, now):
        """A new seat view arrived at ``now``."""
        if not view.get("can_claim"):
            self.ends = None
            return
        left = view.get(FIELD)
        if left is not None:
            ms = int(left * 1000)
            if self.ends is None:
                self.window_ms = ms
            self.ends = ticks_add(now, ms)
        elif self.ends is None:
            self.window_ms = self.default_ms
            self.ends = ticks_add(now, self.default_ms)

    def left_ms(self, now):
        """Milliseconds left (0 once the window has run out), or None when this seat may not claim."""
        if self.ends is None:
            return None
        return max(0, ticks_diff(self.ends, now))
