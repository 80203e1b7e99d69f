"""The sans-I/O codec: frames, CRC, ACK/retransmit, repeats, heartbeats, HELLO — and the same
conversation over memory, pyserial's loop:// and a real pty pair."""

from __future__ import annotations

import binascii

import pytest

from firmware_bridge.protocol import (
    ACTED_KEPT,
    HOST,
    MAX_LINE,
    MAX_RETRIES,
    PANEL,
    REPEAT_WINDOW_S,
    RETRY_S,
    Ack,
    BadCrc,
    Button,
    Buzz,
    Connection,
    Delivered,
    Dice,
    Heartbeat,
    Hello,
    Led,
    ProtocolError,
    Roll,
    Undeliverable,
    VersionMismatch,
    crc16,
    decode,
    encode,
)
from tests.firmware_bridge.channels import CHANNELS


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def pair(clock: FakeClock, host_seq: int = 0, panel_seq: int = 0) -> tuple[Connection, Connection]:
    return Connection(HOST, clock=clock, first_seq=host_seq), Connection(PANEL, clock=clock, first_seq=panel_seq)


def handshake(host: Connection, panel: Connection) -> None:
    host.receive_data(panel.send(Hello("1.0.0", 4)))
    assert host.next_event() == Hello("1.0.0", 4)
    panel.receive_data(host.data_to_send())
    assert isinstance(panel.next_event(), Delivered)


# --- frames ---------------------------------------------------------------------------------

ALL_FRAMES = [Hello("1.0", 1), Hello("12.3.456", 4), Button(0, "TURN"), Button(3, "TURN", long=True),
              Button(1, "HU"), Dice(1, 6), Heartbeat(), Ack(255), Led(2, "blink"), Buzz(10000), Roll()]


@pytest.mark.parametrize("frame", ALL_FRAMES, ids=repr)
@pytest.mark.parametrize("seq", [0, 9, 10, 255])
def test_every_frame_encodes_and_decodes_back(frame, seq):
    line = encode(seq, frame)
    assert line.endswith(b"\n") and len(line) <= MAX_LINE
    assert decode(line[:-1]) == (seq, frame)
    body, crc = line[:-1].split(b"*")
    assert crc == b"%04X" % binascii.crc_hqx(body, 0xFFFF)


def test_crc_is_ccitt_false_on_the_check_string():
    assert crc16(b"123456789") == 0x29B1


def test_the_example_frames_of_protocol_md_are_right():
    import pathlib
    import re

    doc = (pathlib.Path(__file__).parents[2] / "firmware_bridge" / "PROTOCOL.md").read_text()
    examples = re.findall(r"^    (\d{1,3},[A-Z]+[^\s*]*\*[0-9A-F]{4})$", doc, re.M)
    assert len(examples) >= 10
    for ex in examples:
        seq, frame = decode(ex.encode())
        assert encode(seq, frame) == ex.encode() + b"\n"


@pytest.mark.parametrize("build", [
    lambda: Hello("1", 4), lambda: Hello("01.0", 4), lambda: Hello("1.0", 5), lambda: Hello("1.0", True),
    lambda: Button(4, "TURN"), lambda: Button(0, "turn"), lambda: Button(0, "HU", long=True),
    lambda: Dice(0, 3), lambda: Dice(3, 7), lambda: Ack(256), lambda: Led(0, "dim"), lambda: Buzz(0),
    lambda: Buzz(10001), lambda: Led(-1, "on"),
])
def test_frames_check_themselves(build):
    with pytest.raises(ProtocolError):
        build()


@pytest.mark.parametrize("line", [
    b"01,HB*0000", b"1,BTN,0,TUR*abcd", b"256,HB", b"1,HB,*", b"1,NOPE", b"", b"*", b",HB",
    b"1,BTN,00,TURN", b"1,BTN,0,TURN,LONG,", b"1,BTN,0,CHI,LONG", b"+1,HB", b"1,DICE,1", b"1,HELLO,1.0.0",
    b"1,ACK,-1", b"1,LED,0,ON", b"1,BUZZ,1e3", b"1, HB",
])
def test_lines_that_do_not_parse_are_refused(line):
    body = line.split(b"*")[0]
    for candidate in (line, body + b"*%04X" % crc16(body)):  # with a wrong and with a right CRC
        with pytest.raises(ProtocolError):
            decode(candidate)


def test_a_wrong_crc_is_its_own_error():
    good = encode(5, Button(1, "CHI"))[:-1]
    with pytest.raises(BadCrc):
        decode(good[:-1] + (b"0" if good[-1:] != b"0" else b"1"))


def test_the_wrong_direction_cannot_be_sent():
    clock = FakeClock()
    host, panel = pair(clock)
    with pytest.raises(ProtocolError, match="host does not send BTN"):
        host.send(Button(0, "HU"))
    with pytest.raises(ProtocolError, match="panel does not send LED"):
        panel.send(Led(0, "on"))


def test_a_frame_for_the_other_side_is_counted_and_dropped():
    clock = FakeClock()
    host, _ = pair(clock)
    host.receive_data(encode(1, Led(0, "on")))
    assert host.next_event() is None and host.stats.unexpected == 1 and host.data_to_send() == b""


# --- reading lines ----------------------------------------------------------------------------


def test_bad_lines_are_counted_and_the_reader_resyncs_at_the_next_newline():
    clock = FakeClock()
    host, panel = pair(clock)
    hello = panel.send(Hello("1.0.0", 4))
    btn = panel.send(Button(2, "GANG"))
    corrupt = bytearray(btn)
    corrupt[3] ^= 0x01
    noise = b"garbage without end " * 20  # longer than a line: dropped up to its newline
    host.receive_data(b"\x00\xffhalf a line\n" + hello + bytes(corrupt) + noise + b"\n" + btn)
    assert host.events() == [Hello("1.0.0", 4), Button(2, "GANG")]
    assert (host.stats.unparseable, host.stats.bad_crc, host.stats.too_long) == (1, 1, 1)


def test_a_line_of_exactly_128_bytes_is_read_and_129_is_too_long():
    clock = FakeClock()
    host, _ = pair(clock)
    body = b"1,HB"
    # a frame-shaped line padded to length: at 128 bytes its CRC is checked (and fails)
    for size, counter in ((128, "bad_crc"), (129, "too_long")):
        before = getattr(host.stats, counter)
        filler = b"x" * (size - len(body) - 6)
        line = body + filler + b"*0000\n"
        assert len(line) == size
        for i in range(0, len(line), 7):  # in pieces, as a serial port delivers it
            host.receive_data(line[i:i + 7])
        assert getattr(host.stats, counter) == before + 1


# --- ACK, retransmit, repeats -------------------------------------------------------------------


def test_an_unanswered_frame_is_sent_again_every_200_ms_five_times_then_given_up():
    clock = FakeClock()
    _, panel = pair(clock)
    first = panel.send(Hello("1.0.0", 4))
    assert panel.tick() == b""  # nothing due yet
    copies = []
    for _ in range(MAX_RETRIES):
        clock.t += RETRY_S / 2
        assert panel.tick() == b""
        clock.t += RETRY_S / 2
        copies.append(panel.tick())
    assert copies == [first] * MAX_RETRIES
    clock.t += RETRY_S
    assert panel.tick() == b""
    assert panel.next_event() == Undeliverable(0, Hello("1.0.0", 4))
    assert panel.stats.retransmits == MAX_RETRIES and panel.stats.given_up == 1


def test_a_lost_ack_makes_a_repeat_that_is_answered_but_acted_on_once():
    clock = FakeClock()
    host, panel = pair(clock)
    handshake(host, panel)
    wire = panel.send(Button(1, "PENG"))
    host.receive_data(wire)
    assert host.events() == [Button(1, "PENG")]
    host.data_to_send()  # the ACK is lost on the wire
    clock.t += RETRY_S
    again = panel.tick()
    assert again == wire
    host.receive_data(again + again)
    assert host.events() == [] and host.stats.duplicates == 2
    panel.receive_data(host.data_to_send())
    assert panel.events() == [Delivered(1, Button(1, "PENG"))]
    assert panel.unacknowledged == []


def test_a_repeat_read_late_is_still_a_repeat():
    """The host's thread may be busy (a slow commit) while the panel repeats a press: the
    repeats are read long after they were sent. A repeat is told by its seq and body, not by
    when it is read: one DICE press is one roll, however late its copies are read."""
    clock = FakeClock()
    host, panel = pair(clock)
    handshake(host, panel)
    line = encode(9, Dice(3, 4))
    host.receive_data(line)
    clock.t += 10 * REPEAT_WINDOW_S
    host.receive_data(line + line)
    assert host.events() == [Dice(3, 4)] and host.stats.duplicates == 2


def test_the_same_seq_is_a_new_frame_once_the_sender_has_moved_on_or_said_hello_again():
    clock = FakeClock()
    host, panel = pair(clock)
    handshake(host, panel)
    line = encode(9, Button(0, "CHI"))
    host.receive_data(line)
    host.receive_data(b"".join(encode(10 + i, Dice(1, 1)) for i in range(ACTED_KEPT)))  # the seqs went round
    host.receive_data(line)
    assert host.events() == [Button(0, "CHI"), *[Dice(1, 1)] * ACTED_KEPT, Button(0, "CHI")]
    handshake(host, panel)  # a new panel session: its old seqs mean nothing now
    host.receive_data(line)
    assert host.events()[-1:] == [Button(0, "CHI")]


def test_the_same_seq_with_another_body_is_a_new_frame():
    clock = FakeClock()
    host, panel = pair(clock)
    handshake(host, panel)
    host.receive_data(encode(9, Button(0, "CHI")) + encode(9, Button(0, "HU")))
    assert host.events() == [Button(0, "CHI"), Button(0, "HU")]


def test_sequence_numbers_wrap_and_are_not_reused_too_soon():
    clock = FakeClock()
    host, panel = pair(clock, panel_seq=254)
    handshake(host, panel)  # seq 254
    sent = [panel.send(Dice(1, 1)) for _ in range(300)]
    got = [s for s in sent if s]
    assert got[0].startswith(b"255,") and got[1].startswith(b"0,")
    assert len(got) == 255  # 254 is still answered-but-recent, the queue waits for it
    host.receive_data(b"".join(got))
    panel.receive_data(host.data_to_send())
    assert len(panel.events()) == 255
    clock.t += 10
    rest = panel.tick()
    assert rest.count(b"\n") == 45 and rest.startswith(b"254,DICE")


def test_heartbeats_come_from_the_panel_when_it_is_quiet_and_are_never_answered():
    clock = FakeClock()
    host, panel = pair(clock)
    assert host.tick() == b""
    clock.t += 1.0
    hb = panel.tick()
    assert hb == encode(0, Heartbeat())
    assert panel.tick() == b""  # not again until another quiet second
    assert not host.peer_alive()
    host.receive_data(hb)
    assert host.events() == [] and host.data_to_send() == b"" and host.peer_alive()
    clock.t += 3.0
    assert not host.peer_alive()
    clock.t += 10
    assert host.tick() == b""


# --- HELLO ---------------------------------------------------------------------------------------


def test_frames_before_hello_are_not_answered_so_the_panel_handshakes_again():
    clock = FakeClock()
    host, panel = pair(clock)
    host.receive_data(panel.send(Button(0, "HU")))
    assert host.events() == [] and host.data_to_send() == b"" and host.stats.refused == 1


def test_an_incompatible_firmware_is_reported_and_its_presses_refused():
    clock = FakeClock()
    host, panel = pair(clock)
    host.receive_data(panel.send(Hello("2.0.0", 4)))
    assert host.events() == [VersionMismatch(Hello("2.0.0", 4), 1)]
    assert host.version_ok is False and host.data_to_send() != b""  # HELLO answered
    host.receive_data(panel.send(Button(0, "TURN")))
    assert host.events() == [] and host.data_to_send() == b""
    host.receive_data(panel.send(Hello("1.4", 2)))
    host.receive_data(panel.send(Button(0, "TURN")))
    assert host.events() == [Hello("1.4", 2), Button(0, "TURN")] and host.version_ok


def test_a_rebooted_panel_starting_again_at_the_same_seq_is_heard():
    clock = FakeClock()
    host, panel = pair(clock)
    handshake(host, panel)
    host.receive_data(panel.send(Button(3, "HU")))
    assert host.events() == [Button(3, "HU")]
    reborn = Connection(PANEL, clock=clock, first_seq=0)
    host.receive_data(reborn.send(Hello("1.0.0", 4)) + reborn.send(Button(3, "HU")))
    assert host.events() == [Hello("1.0.0", 4), Button(3, "HU")]


def test_host_frames_reach_the_panel():
    clock = FakeClock()
    host, panel = pair(clock)
    panel.receive_data(host.send(Led(0, "on")) + host.send(Buzz(300)) + host.send(Roll()))
    assert panel.events() == [Led(0, "on"), Buzz(300), Roll()]
    host.receive_data(panel.data_to_send())
    assert [type(e) for e in host.events()] == [Delivered] * 3


# --- the same conversation over each channel ---------------------------------------------------


@pytest.fixture(params=CHANNELS, ids=lambda c: c.name)
def channel(request):
    ch = request.param()
    yield ch
    ch.close()


def test_a_conversation_over_each_channel(channel):
    clock = FakeClock()
    host, panel = pair(clock, host_seq=200, panel_seq=250)

    def to_host(data: bytes) -> list:
        channel.panel.write(data)
        host.receive_data(channel.host.read())
        channel.host.write(host.data_to_send())
        panel.receive_data(channel.panel.read())
        return host.events()

    assert to_host(panel.send(Hello("1.0.0", 4))) == [Hello("1.0.0", 4)]
    presses = [Button(s, b) for s in range(4) for b in ("TURN", "CHI", "PENG", "GANG", "HU")]
    got = []
    for p in presses:
        got += to_host(panel.send(p))
    assert got == presses
    assert len(panel.events()) == 1 + len(presses) and panel.unacknowledged == []

    # a frame sent twice on the wire (a retransmit racing its ACK) acts once
    wire = panel.send(Dice(3, 5))
    assert to_host(wire + wire) == [Dice(3, 5)]
    assert host.stats.duplicates == 1

    # a frame lost on the wire comes again after 200 ms
    panel.send(Button(2, "TURN", long=True))
    clock.t += RETRY_S
    assert to_host(panel.tick()) == [Button(2, "TURN", long=True)]

    channel.host.write(host.send(Led(1, "blink")) + host.send(Roll()))
    panel.receive_data(channel.panel.read())
    assert panel.events()[-2:] == [Led(1, "blink"), Roll()]
    channel.panel.write(panel.data_to_send())
    host.receive_data(channel.host.read())
    assert host.unacknowledged == []
    assert host.stats.dropped == 0 and panel.stats.dropped == 0
