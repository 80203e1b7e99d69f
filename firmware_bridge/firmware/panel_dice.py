# Electronic dice: two fair rolls from the hardware random source.
try:
    from os import urandom  # MicroPython on rp2: the ring oscillator
except ImportError:  # pragma: no cover - every CPython has os.urandom
    from uos import urandom


def die(source=urandom):
    """1..6 with equal chances: bytes 252..255 are thrown away (252 = 42 * 6)."""
    while True:
        b = source(1)[0]
        if b < 252:
            return b % 6 + 1


def roll(source=urandom):
    return die(source), die(source)
