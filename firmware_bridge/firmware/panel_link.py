# The panel's end of the serial protocol (docs/design.md, firmware_bridge/PROTOCOL.md).
#
# A twin of firmware_bridge/protocol.py (and its frames.py) in the subset MicroPython has (no
# dataclasses, no binascii.crc_hqx, no re): the tests run both on the same bytes and require
# the same frames, the same drops and the same counts. Times are ticks_ms() values.
from panel_time import ticks_add, ticks_diff

MAX_LINE = 128
RETRY_MS = 200
MAX_RETRIES = 5
HEARTBEAT_MS = 1000
REPEAT_WINDOW_MS = 1500
SEQ_REUSE_MS = 2 * REPEAT_WINDOW_MS

BUTTONS = ("TURN", "CHI", "PENG", "GANG", "HU")
LED_STATES = ("off", "on", "blink")
PANEL_SENDS = ("HELLO", "BTN", "DICE", "HB", "ACK")
HOST_SENDS = ("LED", "BUZZ", "ROLL", "ACK")
NO_ACK = ("ACK", "HB")
_HEX = "0123456789ABCDEF"


def crc16(data):
    """CRC-16/CCITT-FALSE, bit by bit (binascii.crc_hqx(data, 0xFFFF) on CPython)."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def _hex4(n):
    return _HEX[(n >> 12) & 15] + _HEX[(n >> 8) & 15] + _HEX[(n >> 4) & 15] + _HEX[n & 15]


def encode(seq, typ, fields=()):
    body = ",".join([str(seq), typ] + [str(f) for f in fields])
    data = body.encode()
    return data + b"*" + _hex4(crc16(data)).encode() + b"\n"


def _num(text, lo, hi):
    """A canonical decimal in lo..hi, else None."""
    if not text or len(text) > 5:
        return None
    for ch in text:
        if ch < "0" or ch > "9":
            return None
    if len(text) > 1 and text[0] == "0":
        return None
    n = int(text)
    return n if lo <= n <= hi else None


def _version(text):
    parts = text.split(".")
    if len(parts) not in (2, 3):
        return False
    return all(len(p) <= 3 and _num(p, 0, 999) is not None for p in parts)


def _fields_ok(typ, f):
    n = len(f)
    if typ == "HELLO":
        return n == 2 and _version(f[0]) and _num(f[1], 1, 4) is not None
    if typ == "BTN":
        if n == 3:
            return f[2] == "LONG" and f[1] == "TURN" and _num(f[0], 0, 3) is not None
        return n == 2 and _num(f[0], 0, 3) is not None and f[1] in BUTTONS
    if typ == "DICE":
        return n == 2 and _num(f[0], 1, 6) is not None and _num(f[1], 1, 6) is not None
    if typ == "ACK":
        return n == 1 and _num(f[0], 0, 255) is not None
    if typ == "LED":
        return n == 2 and _num(f[0], 0, 3) is not None and f[1] in LED_STATES
    if typ == "BUZZ":
        return n == 1 and _num(f[0], 1, 10000) is not None
    if typ in ("HB", "ROLL"):
        return n == 0
    return False


def decode(line):
    """A line without its newline -> (seq, type, fields); ValueError("crc") or ValueError("parse")."""
    star = line.rfind(b"*")
    if star < 0 or len(line) - star - 1 != 4:
        raise ValueError("parse")
    for ch in line[star + 1:]:
        if not (48 <= ch <= 57 or 65 <= ch <= 70):
            raise ValueError("parse")
    body = line[:star]
    if crc16(body) != int(line[star + 1:].decode(), 16):
        raise ValueError("crc")
    for ch in body:
        if ch > 127:
            raise ValueError("parse")
    parts = body.decode().split(",")
    if len(parts) < 2:
        raise ValueError("parse")
    seq = _num(parts[0], 0, 255)
    if seq is None or not _fields_ok(parts[1], parts[2:]):
        raise ValueError("parse")
    return seq, parts[1], parts[2:]


class Link:
    """The panel's protocol state: sequence numbers, ACKs, retransmits, repeats, heartbeats.

    Events (in .events, oldest first) are tuples:
    ("frame", type, fields) a new frame from the host, already answered with ACK;
    ("delivered", seq, type, fields) and ("undeliverable", seq, type, fields) for ours.
    """

    def __init__(self, first_seq, now, heartbeat_ms=HEARTBEAT_MS, receives=HOST_SENDS):
        self.next = first_seq & 255
        self.heartbeat_ms = heartbeat_ms
        self.receives = receives
        self.buf = b""
        self.discarding = False
        self.events = []
        self.out = b""
        self.pending = {}  # seq -> [type, fields, data, last_sent, tries]
        self.held = []
        self.used = {}
        self.acted = {}  # seq -> (line, when)
        self.last_sent = ticks_add(now, -heartbeat_ms)
        self.last_heard = None
        self.stats = {"frames_in": 0, "bad_crc": 0, "too_long": 0, "unparseable": 0, "unexpected": 0,
                      "duplicates": 0, "retransmits": 0, "given_up": 0}

    # sending
    def send(self, typ, fields, now):
        if typ in NO_ACK:
            self.last_sent = now
            return encode(self.next, typ, fields)
        self.held.append((typ, [str(f) for f in fields]))
        return self._release(now)

    def _release(self, now):
        out = b""
        while self.held:
            seq = self.next
            used = self.used.get(seq)
            if seq in self.pending or (used is not None and ticks_diff(now, used) < SEQ_REUSE_MS):
                break
            typ, fields = self.held.pop(0)
            data = encode(seq, typ, fields)
            self.pending[seq] = [typ, fields, data, now, 0]
            self.used[seq] = now
            self.next = (seq + 1) & 255
            out += data
        if out:
            self.last_sent = now
        return out

    def tick(self, now):
        out = b""
        for seq in list(self.pending):
            p = self.pending[seq]
            if ticks_diff(now, p[3]) < RETRY_MS:
                continue
            if p[4] >= MAX_RETRIES:
                del self.pending[seq]
                self.stats["given_up"] += 1
                self.events.append(("undeliverable", seq, p[0], p[1]))
                continue
            p[4] += 1
            p[3] = now
            self.stats["retransmits"] += 1
            out += p[2]
        out += self._release(now)
        if out:
            self.last_sent = now
        elif self.heartbeat_ms and ticks_diff(now, self.last_sent) >= self.heartbeat_ms:
            out = encode(self.next, "HB")
            self.last_sent = now
        return out

    def take_acks(self, now):
        out = self.out
        self.out = b""
        if out:
            self.last_sent = now
        return out

    # receiving
    def receive(self, data, now):
        start = 0
        while True:
            nl = data.find(b"\n", start)
            if nl < 0:
                if self.discarding:
                    return
                self.buf += data[start:]
                if len(self.buf) > MAX_LINE - 1:
                    self.stats["too_long"] += 1
                    self.buf = b""
                    self.discarding = True
                return
            piece = data[start:nl]
            start = nl + 1
            if self.discarding:
                self.discarding = False
                continue
            line = self.buf + piece
            self.buf = b""
            if len(line) > MAX_LINE - 1:
                self.stats["too_long"] += 1
                continue
            if line:
                self._line(bytes(line), now)

    def _line(self, line, now):
        try:
            seq, typ, fields = decode(line)
        except ValueError as e:
            self.stats["bad_crc" if str(e) == "crc" else "unparseable"] += 1
            return
        if typ not in self.receives:
            self.stats["unexpected"] += 1
            return
        self.last_heard = now
        self.stats["frames_in"] += 1
        if typ == "ACK":
            p = self.pending.pop(int(fields[0]), None)
            if p is not None:
                self.events.append(("delivered", int(fields[0]), p[0], p[1]))
            return
        if typ in NO_ACK:
            return
        seen = self.acted.get(seq)
        if seen is not None and seen[0] == line and ticks_diff(now, seen[1]) < REPEAT_WINDOW_MS:
            self.stats["duplicates"] += 1
            self.out += encode(self.next, "ACK", (seq,))
            return
        self.acted[seq] = (line, now)
        self.out += encode(self.next, "ACK", (seq,))
        self.events.append(("frame", typ, fields))
