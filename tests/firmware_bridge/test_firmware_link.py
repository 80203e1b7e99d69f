"""The firmware's protocol twin (panel_link.py) against the host codec, byte for byte."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.protocol import (
    FIRMWARE_VERSION,
    PANEL,
    BadCrc,
    Button,
    Connection,
    Dice,
    Hello,
    ProtocolError,
    crc16,
    decode,
    encode,
)
from tests.firmware_bridge import strategies as S


def host_view(line: bytes):
    try:
        seq, frame = decode(line)
    except BadCrc:
        return "crc"
    except ProtocolError:
        return "parse"
    return seq, frame.TYPE, list(frame.fields())


def twin_view(fw, line: bytes):
    try:
        return fw.link.decode(line)
    except ValueError as e:
        return str(e)


def test_the_firmware_version_is_the_one_the_host_knows(fw):
    assert fw.app.FIRMWARE_VERSION == FIRMWARE_VERSION


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 255), st.one_of(S.panel_frames, S.host_frames, S.hellos), st.binary(max_size=64))
def test_encode_and_crc_agree(fw, seq, frame, data):
    assert fw.link.encode(seq, frame.TYPE, frame.fields()) == encode(seq, frame)
    assert fw.link.crc16(data) == crc16(data)


line_like = st.one_of(S.lines.map(lambda b: b[:-1]), S.truncated(), S.flipped().map(lambda b: b[:-1]),
                      st.binary(max_size=60),
                      st.lists(st.sampled_from(["0", "1", "255", "01", "BTN", "HB", "ACK", "LED", "DICE", "HELLO",
                                                "TURN", "LONG", "on", "1.0", "1.0.0", "4", "6", "7", "", " "]),
                               max_size=5).map(lambda parts: ",".join(parts).encode()))


@settings(max_examples=1000, deadline=None)
@given(line_like, st.booleans())
def test_decode_agrees_on_every_line(fw, line, fix_crc):
    if fix_crc and b"*" in line:  # give grammar errors a right CRC so the parsers are tested
        body = line.rpartition(b"*")[0]
        line = body + b"*%04X" % crc16(body)
    elif fix_crc:
        line = line + b"*%04X" % crc16(line)
    assert twin_view(fw, line) == host_view(line)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(S.noise, S.lines, S.lines.map(lambda x: x * 2)), max_size=12),
       st.lists(st.integers(1, 80), min_size=1, max_size=10))
def test_streams_give_the_same_frames_and_counts(fw, pieces, sizes):
    data = b"".join(pieces)
    host = Connection(PANEL, clock=lambda: 5.0, first_seq=0)
    twin = fw.link.Link(0, 5000)
    i = k = 0
    while i < len(data):
        step = sizes[k % len(sizes)]
        host.receive_data(data[i:i + step])
        twin.receive(data[i:i + step], 5000)
        i, k = i + step, k + 1
    assert [(e.TYPE, list(e.fields())) for e in host.events()] == [(e[1], e[2]) for e in twin.events]
    s = host.stats
    assert twin.stats == {"frames_in": s.frames_in, "bad_crc": s.bad_crc, "too_long": s.too_long,
                          "unparseable": s.unparseable, "unexpected": s.unexpected, "duplicates": s.duplicates,
                          "retransmits": 0, "given_up": 0}
    assert twin.take_acks(5000) == host.data_to_send()


def test_retransmits_and_heartbeats_follow_the_same_schedule(fw):
    rng = random.Random(8)
    now_ms = 10_000
    host_side = Connection(PANEL, clock=lambda: now_ms / 1000, first_seq=250)
    twin = fw.link.Link(250, now_ms)
    frames = [Hello("1.0.0", 4)] + [Button(rng.randrange(4), "CHI") for _ in range(10)] + [Dice(2, 2)]
    for step in range(400):
        now_ms += rng.choice((10, 50, 100, 200, 333))
        if frames and rng.random() < 0.2:
            f = frames.pop(0)
            assert twin.send(f.TYPE, f.fields(), now_ms) == host_side.send(f), step
        assert twin.tick(now_ms) == host_side.tick(now_ms / 1000), step
        if rng.random() < 0.1:  # the host answers the oldest frame
            pending = host_side.unacknowledged
            if pending:
                ack = encode(7, __import__("firmware_bridge.protocol").protocol.Ack(pending[0][0]))
                host_side.receive_data(ack)
                twin.receive(ack, now_ms)
    assert [(e.seq, e.frame.TYPE) for e in host_side.events()] == [(e[1], e[2]) for e in twin.events]
    assert twin.stats["retransmits"] == host_side.stats.retransmits > 0
    assert twin.stats["given_up"] == host_side.stats.given_up > 0


def test_ticks_wrap_like_micropython(fw):
    t = fw.time
    top = (1 << 30) - 5
    assert t.ticks_diff(t.ticks_add(top, 10), top) == 10
    assert t.ticks_add(top, 10) == 5
    assert t.ticks_diff(5, top) == 10 and t.ticks_diff(top, 5) == -10
