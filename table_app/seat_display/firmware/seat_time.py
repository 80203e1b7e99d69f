# Millisecond ticks: MicroPython's own on the board, a faithful copy under CPython (tests).
try:
    from time import sleep_ms, ticks_add, ticks_diff, ticks_ms  # MicroPython
except ImportError:  # CPython: the same wrap-around arithmetic as the rp2 port (30-bit ticks)
    # (the type check runs against MicroPython's stubs, where this branch cannot happen)
    import time as _time

    _PERIOD = 1 << 30
    _HALF = _PERIOD >> 1

    def ticks_ms():
        return int(_time.monotonic() * 1000) & (_PERIOD - 1)  # type: ignore[attr-defined]

    def ticks_add(t, delta):  # type: ignore[misc]
        return (t + delta) & (_PERIOD - 1)

    def ticks_diff(a, b):  # type: ignore[no-redef]
        return ((a - b + _HALF) & (_PERIOD - 1)) - _HALF

    def sleep_ms(ms):  # type: ignore[misc]
        _time.sleep(ms / 1000)

__all__ = ["sleep_ms", "ticks_add", "ticks_diff", "ticks_ms"]
