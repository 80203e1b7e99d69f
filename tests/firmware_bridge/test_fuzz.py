"""The decoder under noise: random bytes, truncated frames, bit flips, overlong lines.

It never raises, never accepts a corrupted frame, accepts every intact frame that follows
the noise (after a newline), and a repeated frame acts once.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge.protocol import (
    HOST,
    PANEL,
    BadCrc,
    Button,
    Connection,
    Dice,
    Hello,
    Led,
    ProtocolError,
    decode,
    encode,
)
from tests.firmware_bridge import strategies as S


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def ready_host(clock: Clock) -> Connection:
    host = Connection(HOST, clock=clock, first_seq=0)
    host.receive_data(encode(0, Hello("1.0.0", 4)))
    assert host.events() == [Hello("1.0.0", 4)]
    host.data_to_send()
    return host


def feed(conn: Connection, data: bytes, cuts: list[int]) -> None:
    """Feed in pieces, as a serial port delivers bytes."""
    start = 0
    for c in sorted(set(cuts)):
        conn.receive_data(data[start:c])
        start = c
    conn.receive_data(data[start:])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000), st.lists(st.integers(0, 2000), max_size=20))
def test_random_bytes_never_raise_and_accept_only_frames_spelled_out_in_them(data, cuts):
    host = ready_host(Clock())
    feed(host, data, cuts)
    for ev in host.events():  # essentially never: a random line would need a right CRC
        assert any(encode(s, ev) in data for s in range(256))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(S.noise, max_size=8), st.lists(S.panel_frames, min_size=1, max_size=6),
       st.lists(st.integers(0, 3000), max_size=20))
def test_noise_then_intact_frames(noises, frames, cuts):
    clock = Clock()
    host = ready_host(clock)
    data = b"".join(noises) + b"\n" + b"".join(encode(i + 1, f) for i, f in enumerate(frames))
    feed(host, data, cuts)
    assert host.events() == frames


@settings(max_examples=500, deadline=None)
@given(S.flipped())
def test_a_frame_with_up_to_three_flipped_bits_is_never_accepted(line):
    conn = Connection(PANEL, clock=Clock(), first_seq=0)
    host = ready_host(Clock())
    conn.receive_data(line)
    host.receive_data(line)
    assert conn.events() == [] and host.events() == []


@settings(max_examples=300, deadline=None)
@given(S.truncated())
def test_a_truncated_frame_is_never_accepted(part):
    with pytest.raises(ProtocolError):
        decode(part)


def _flips(line: bytes, k: int):
    n = len(line) * 8
    for bits in itertools.combinations(range(n), k):
        b = bytearray(line)
        for x in bits:
            b[x // 8] ^= 1 << (x % 8)
        yield bytes(b)


SAMPLES = [(7, Hello("1.0.0", 4)), (255, Button(3, "TURN", True)), (12, Dice(4, 6)), (9, Led(1, "blink"))]


@pytest.mark.parametrize(("seq", "frame"), SAMPLES, ids=lambda x: repr(x))
def test_every_one_and_two_bit_error_is_caught(seq, frame):
    line = encode(seq, frame)[:-1]
    for k in (1, 2):
        for bad in _flips(line, k):
            with pytest.raises(ProtocolError):
                decode(bad)


@pytest.mark.soak
@pytest.mark.parametrize(("seq", "frame"), SAMPLES, ids=lambda x: repr(x))
def test_every_three_bit_error_is_caught(seq, frame):
    line = encode(seq, frame)[:-1]
    for bad in _flips(line, 3):
        if b"\n" not in bad:
            with pytest.raises(ProtocolError):
                decode(bad)


def test_a_bit_flip_that_keeps_the_shape_is_a_crc_error():
    line = encode(9, Button(1, "HU"))[:-1]
    with pytest.raises(BadCrc):
        decode(line.replace(b"HU", b"HV"))


def run_stream(size: int, seed: int) -> None:
    """A seeded stream of about ``size`` bytes: noise, a newline, an intact frame, repeated."""
    rng = random.Random(seed)
    clock = Clock()
    host = ready_host(clock)
    expected, got = [], []
    total = n = 0
    while total < size:
        n += 1
        frame = S.frame_for(rng, n)
        line = encode(n % 256, frame)
        chunk = b"".join(S.noise_for(rng, encode(rng.randrange(256), S.frame_for(rng, n + 1)))
                         for _ in range(rng.randrange(4)))
        chunk += b"\n" + line
        if rng.random() < 0.1:
            chunk += line  # a repeat: answered, not acted on
        expected.append(frame)
        total += len(chunk)
        i = 0
        while i < len(chunk):  # serial-sized reads
            step = rng.randrange(1, 64)
            host.receive_data(chunk[i:i + step])
            i += step
        got += host.events()
        clock.t += 2.0  # past the repeat window: the next use of a seq is a new frame
    assert got == expected
    stats = host.stats
    assert stats.bad_crc + stats.unparseable + stats.too_long > n // 2
    assert stats.duplicates > 0


def test_a_seeded_megabyte_of_noise_and_frames():
    run_stream(1 << 20, seed=20261201)


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(8))
def test_soak_sixteen_megabytes(seed):
    run_stream(16 << 20, seed=seed)


@settings(max_examples=200, deadline=None)
@given(st.lists(S.panel_frames, min_size=1, max_size=10), st.lists(st.integers(1, 4), min_size=10, max_size=10))
def test_repeated_frames_act_once(frames, copies):
    host = ready_host(Clock())
    wire = b"".join(encode(i + 1, f) * copies[i] for i, f in enumerate(frames))
    host.receive_data(wire)
    assert host.events() == frames
    acks = host.data_to_send()
    assert acks.count(b"\n") == sum(copies[: len(frames)])  # every copy is answered
