"""Hypothesis strategies and a seeded noise generator for the protocol fuzz tests."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from firmware_bridge.protocol import BUTTONS, LED_STATES, Button, Buzz, Dice, Frame, Hello, Led, Roll, encode

panel_frames = st.one_of(
    st.builds(Button, st.integers(0, 3), st.sampled_from(BUTTONS)),
    st.builds(Button, st.integers(0, 3), st.just("TURN"), st.just(True)),
    st.builds(Dice, st.integers(1, 6), st.integers(1, 6)),
)
host_frames = st.one_of(
    st.builds(Led, st.integers(0, 3), st.sampled_from(LED_STATES)),
    st.builds(Buzz, st.integers(1, 10000)),
    st.just(Roll()),
)
hellos = st.builds(Hello, st.from_regex(r"1\.(0|[1-9][0-9]{0,2})(\.(0|[1-9][0-9]{0,2}))?", fullmatch=True),
                   st.integers(1, 4))
lines = st.builds(lambda seq, f: encode(seq, f), st.integers(0, 255), st.one_of(panel_frames, host_frames, hellos))


@st.composite
def truncated(draw) -> bytes:
    line = draw(lines)
    return line[: draw(st.integers(0, len(line) - 2))]


@st.composite
def flipped(draw, max_flips: int = 3) -> bytes:
    """A frame with 1..max_flips bits flipped (never in its newline)."""
    line = bytearray(draw(lines))
    n = (len(line) - 1) * 8
    for bit in draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=max_flips, unique=True)):
        line[bit // 8] ^= 1 << (bit % 8)
    return bytes(line)


oversized = st.binary(min_size=129, max_size=400).filter(lambda b: b"\n" not in b)
noise = st.one_of(st.binary(max_size=200), truncated(), flipped(), oversized)


# --- a seeded stream for the 1 MB run ----------------------------------------------------------


def frame_for(rng: random.Random, n: int) -> Frame:
    kind = n % 3
    if kind == 0:
        return Button(rng.randrange(4), rng.choice(BUTTONS))
    if kind == 1:
        return Dice(rng.randint(1, 6), rng.randint(1, 6))
    return Button(rng.randrange(4), "TURN", True)


def noise_for(rng: random.Random, sample: bytes) -> bytes:
    kind = rng.randrange(5)
    if kind == 0:
        return rng.randbytes(rng.randrange(1, 300))
    if kind == 1:
        return sample[: rng.randrange(len(sample) - 1)]
    if kind == 2:
        b = bytearray(sample)
        for bit in rng.sample(range((len(b) - 1) * 8), rng.randint(1, 3)):  # distinct bits
            b[bit // 8] ^= 1 << (bit % 8)
        return bytes(b)
    if kind == 3:
        return bytes(rng.choice(b"abcdefXYZ0123456789,*") for _ in range(rng.randrange(129, 600)))
    return sample[: len(sample) // 2] + rng.randbytes(5) + sample[len(sample) // 2:]
