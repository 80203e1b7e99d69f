# Millisecond ticks: MicroPython's own on the Pico, a faithful copy under CPython (tests).
try:
    from time import sleep_us, ticks_add, ticks_diff, ticks_ms  # MicroPython

    def settle():
        """Let a matrix column follow its row (pull-up and wiring: a few microseconds)."""
        sleep_us(10)
except ImportError:  # CPython: same wrap-around arithmetic as the rp2 port (30-bit ticks)
    import time as _time

    _PERIOD = 1 << 30
    _HALF = _PERIOD >> 1

    def ticks_ms():
        return int(_time.monotonic() * 1000) & (_PERIOD - 1)

    def ticks_add(t, delta):
        return (t + delta) & (_PERIOD - 1)

    def ticks_diff(a, b):
        return ((a - b + _HALF) & (_PERIOD - 1)) - _HALF

    def settle():
        """A stand-in pin follows at once."""

__all__ = ["settle", "ticks_add", "ticks_diff", "ticks_ms"]
