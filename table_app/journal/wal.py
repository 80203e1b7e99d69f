"""Reading a journal's ``-wal`` as SQLite's recovery does, to tell an unfinished write from damage.

The format (https://www.sqlite.org/fileformat2.html#walformat): a 32-byte header — magic
(``0x377f0682``: checksums over little-endian words, ``0x377f0683``: big-endian), version,
page size, checkpoint count, two salts, a checksum of the first 24 bytes — then frames: a
24-byte header (page number; for the last frame of a transaction, its *commit frame*, the
database's size in pages after it, else 0; the header's two salts; a checksum) and the page.
Each frame's checksum runs on from the one before (the header's, for the first frame) over
the frame header's first 8 bytes and the page.

On opening, SQLite reads the frames in order and stops at the first whose salts or checksum
do not match: it takes that frame for the torn end of a write that never finished, and the
last sound commit frame before it for the end of the log. That is right after a power cut.
It is also what a flipped bit looks like — and then every commit after the flipped frame,
acknowledged and fsynced long ago, is dropped without a word (issue 26). So :func:`verify`
reads the log the same way and says which it is:

- a frame that is **one flipped bit** away from sound — in its header, its page, its salts or
  its stored checksum, or in the log's header — is damage if the commits SQLite would drop
  behind it include one (a write cut short is never one bit away from a matching 64-bit
  checksum: about 2⁻⁴⁹ odds per frame);
- any bad frame followed by a **commit frame and then a frame that runs on from it** is
  damage, however many bits changed: SQLite writes the next transaction only after the
  commit before it was fsynced, so that commit was acknowledged;
- anything else after the last sound commit frame — frames cut short or scrambled, of a
  transaction whose commit never reached the disk; frames of an older log; a log whose
  header never reached the disk — is a torn tail, as SQLite treats it.

What stays out of reach: several bits changed in the very last transaction, with no later
one behind it, look exactly like that transaction cut short by a power cut (docs/journal.md).

Checksums are linear (sums modulo 2³²), so each frame's is a dot product of its words with
fixed coefficients, and the frame a single flipped bit would restore is found by solving,
not by trying 33,000 variants.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import lru_cache
from operator import mul

MAGIC_LE = 0x377F0682
MAGIC_BE = 0x377F0683
VERSION = 3007000
HEADER = 32
FRAME_HEADER = 24
MASK = 0xFFFFFFFF


@dataclass(frozen=True)
class Damage:
    """Why a ``-wal`` must not be opened: SQLite would drop ``lost_commits`` commits."""

    frame: int  # the first damaged frame, from 1 (0: the log's header)
    frames: int  # frames in the log
    one_bit: bool  # the damage is one flipped bit (else: more, followed by later transactions)
    lost_commits: int  # commits SQLite would drop (at least; 1+ when only a later transaction proves it)

    def describe(self, name: str) -> str:
        where = f"{name} header" if self.frame == 0 else f"{name} frame {self.frame:,} of {self.frames:,}"
        what = "one flipped bit" if self.one_bit else "its checksum does not match"
        drop = (f"{self.lost_commits:,} committed write{'s' if self.lost_commits != 1 else ''}"
                if self.one_bit else "committed writes")
        return (f"{where}: {what}; SQLite would take it for an unfinished write and drop the {drop} "
                f"after it without a word")


@dataclass(frozen=True)
class _Header:
    big_endian: bool
    page_size: int
    salts: bytes
    seed: tuple[int, int]


def verify(wal: bytes) -> Damage | None:
    """None if SQLite reads every commit this ``-wal`` holds, else what it would drop.

    >>> verify(b"") is None and verify(bytes(100)) is None  # no log, and a log with no header
    True
    """
    if len(wal) < HEADER:
        return None
    header = _read_header(wal[:HEADER])
    if header is not None:
        return _check_frames(wal, header)
    for fixed in _one_bit_variants(wal[:HEADER]):  # SQLite ignores a log whose header is bad: all of it
        header = _read_header(fixed)
        if header is not None:
            walk = _Walk(wal, header)
            walk.run(repair=True)
            if walk.repaired_end:  # (two variants may pass: a bit of salt 2 and one of the checksum)
                return Damage(0, walk.count, True, walk.commits_after(0))
    return None


def _read_header(raw: bytes) -> _Header | None:
    """The header as SQLite accepts it, or None (then SQLite reads no frame of the log)."""
    magic, version, page_size = struct.unpack(">3I", raw[:12])
    if magic not in (MAGIC_LE, MAGIC_BE) or page_size & (page_size - 1) or not 512 <= page_size <= 65536:
        return None
    big = magic == MAGIC_BE
    seed = _loop_sum(struct.unpack(f"{'>' if big else '<'}6I", raw[:24]), 0, 0)
    if seed != struct.unpack(">2I", raw[24:32]) or version != VERSION:
        return None
    return _Header(big, page_size, raw[16:24], seed)


def _one_bit_variants(raw: bytes) -> list[bytes]:
    out = []
    for i in range(len(raw) * 8):
        b = bytearray(raw)
        b[i // 8] ^= 1 << (i % 8)
        out.append(bytes(b))
    return out


def _check_frames(wal: bytes, header: _Header) -> Damage | None:
    walk = _Walk(wal, header)
    walk.run(repair=True)
    if walk.repaired_end > walk.end:
        assert walk.first_repaired is not None
        return Damage(walk.first_repaired, walk.count, True, walk.commits_after(walk.end))
    if walk.stop is not None and walk.later_transaction():
        return Damage(walk.stop + 1, walk.count, False, 1)
    return None


class _Walk:
    """SQLite's recovery over the frames, and the same with one-bit repairs."""

    def __init__(self, wal: bytes, header: _Header) -> None:
        self.wal = wal
        self.h = header
        self.size = FRAME_HEADER + header.page_size
        self.count = (len(wal) - HEADER) // self.size
        self.coeffs = _coefficients(header.page_size // 4 + 2)
        self.order = ">" if header.big_endian else "<"
        self.end = 0  # frames up to the last sound commit frame: the log as SQLite reads it
        self.repaired_end = 0  # the same, with every one-bit flip undone
        self.first_repaired: int | None = None  # from 1
        self.stop: int | None = None  # the first frame (from 0) neither sound nor one bit from sound
        self.commit_frames: list[int] = []  # ends (from 1) of the commits read, repaired or not

    def frame(self, i: int) -> tuple[tuple[int, ...], int, bytes, tuple[int, int]]:
        """Frame ``i`` (from 0): its checksummed words, its commit field, its salts, its stored checksum."""
        at = HEADER + i * self.size
        head = self.wal[at:at + FRAME_HEADER]
        page = self.wal[at + FRAME_HEADER:at + self.size]
        words = struct.unpack(f"{self.order}{self.size // 4 - 4}I", head[:8] + page)
        commit = struct.unpack(">I", head[4:8])[0]
        stored = struct.unpack(">2I", head[16:24])
        return words, commit, head[8:16], (stored[0], stored[1])

    def run(self, *, repair: bool) -> None:
        seed = self.h.seed
        for i in range(self.count):
            words, commit, salts, stored = self.frame(i)
            computed = _sum(self.coeffs, words, seed)
            if salts == self.h.salts and computed == stored:
                seed = stored
            else:
                fixes = _one_bit_repairs(self.coeffs, words, salts, self.h.salts, computed, stored, self.order) \
                    if repair else []
                if not fixes:
                    self.stop = i
                    return
                if self.first_repaired is None:
                    self.first_repaired = i + 1
                seed, commit = next((f for f in fixes if self.runs_on(i + 1, f[0])), fixes[0])
            if commit:
                self.commit_frames.append(i + 1)
                self.repaired_end = i + 1
                if self.first_repaired is None:
                    self.end = i + 1

    def runs_on(self, i: int, seed: tuple[int, int]) -> bool:
        """Whether frame ``i`` is sound after a frame whose running checksum is ``seed``
        (which of two repairs of a frame is the true one: its stored checksum or its page)."""
        if i >= self.count:
            return False
        words, _, salts, stored = self.frame(i)
        return salts == self.h.salts and _sum(self.coeffs, words, seed) == stored

    def commits_after(self, end: int) -> int:
        return sum(1 for c in self.commit_frames if c > end)

    def later_transaction(self) -> bool:
        """After the frame that stopped the walk: a commit frame and, right after it, a frame with
        the log's salts whose checksum runs on from it (not a copy of it: SQLite may pad a
        commit to a sector with copies) — a transaction begun once that commit was durable."""
        assert self.stop is not None
        _, commit, salts, stored = self.frame(self.stop)
        prev = (commit if salts == self.h.salts else 0, stored, self.stop)
        for i in range(self.stop + 1, self.count):
            words, commit, salts, stored = self.frame(i)
            ours = salts == self.h.salts
            if ours and prev[0] and _sum(self.coeffs, words, prev[1]) == stored and not self._copy(i, prev[2]):
                return True
            if ours and prev[0] and commit == prev[0] and self._copy(i, prev[2]):
                prev = (prev[0], stored, i)  # a padding copy of the commit frame
                continue
            prev = (commit if ours else 0, stored, i)
        return False

    def _copy(self, i: int, j: int) -> bool:
        a, b = HEADER + i * self.size, HEADER + j * self.size
        return self.wal[a:a + 8] == self.wal[b:b + 8] and \
            self.wal[a + FRAME_HEADER:a + self.size] == self.wal[b + FRAME_HEADER:b + self.size]


def _loop_sum(words: tuple[int, ...], s0: int, s1: int) -> tuple[int, int]:
    """SQLite's ``walChecksumBytes``, word pair by word pair."""
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & MASK
        s1 = (s1 + words[i + 1] + s0) & MASK
    return s0, s1


@dataclass(frozen=True)
class _Coefficients:
    """The checksum of ``n`` words from seed ``(s0, s1)`` is, modulo 2³²,
    ``(a·s0 + b·s1 + Σ c0[i]·w[i], c·s0 + d·s1 + Σ c1[i]·w[i])``: each pair step is
    ``s ← M·s + (w₀, w₀ + w₁)`` with ``M = [[1, 1], [1, 2]]``."""

    seed: tuple[int, int, int, int]
    c0: tuple[int, ...]
    c1: tuple[int, ...]


@lru_cache(maxsize=4)
def _coefficients(n: int) -> _Coefficients:
    """
    >>> import random
    >>> words = tuple(random.Random(1).getrandbits(32) for _ in range(10))
    >>> _sum(_coefficients(10), words, (5, 7)) == _loop_sum(words, 5, 7)
    True
    """
    pairs = n // 2
    powers = [(1, 0, 0, 1)]  # M^0 … M^pairs
    for _ in range(pairs):
        a, b, c, d = powers[-1]
        powers.append(((a + c) & MASK, (b + d) & MASK, (a + 2 * c) & MASK, (b + 2 * d) & MASK))
    c0, c1 = [], []
    for j in range(pairs):
        a, b, c, d = powers[pairs - 1 - j]
        c0 += [(a + b) & MASK, b]
        c1 += [(c + d) & MASK, d]
    return _Coefficients(powers[pairs], tuple(c0), tuple(c1))


def _sum(k: _Coefficients, words: tuple[int, ...], seed: tuple[int, int]) -> tuple[int, int]:
    a, b, c, d = k.seed
    s0, s1 = seed
    return ((a * s0 + b * s1 + sum(map(mul, k.c0, words))) & MASK,
            (c * s0 + d * s1 + sum(map(mul, k.c1, words))) & MASK)


def _single_bit(x: int) -> bool:
    return x != 0 and x & (x - 1) == 0


Fix = tuple[tuple[int, int], int]  # a repaired frame's running checksum and commit field


def _one_bit_repairs(k: _Coefficients, words: tuple[int, ...], salts: bytes, want_salts: bytes,
                     computed: tuple[int, int], stored: tuple[int, int], order: str) -> list[Fix]:
    """The frame's running checksum and commit field once one flipped bit is undone: every
    way one bit could have done it (a bit of the page may change the checksum in one bit
    only, so a page bit and a bit of the stored checksum can both explain a frame)."""
    commit = struct.unpack(">I", struct.pack(f"{order}I", words[1]))[0]
    if salts != want_salts:  # a salt bit, the checksum sound
        diff = int.from_bytes(salts, "big") ^ int.from_bytes(want_salts, "big")
        return [(stored, commit)] if _single_bit(diff) and computed == stored else []
    out: list[Fix] = []
    d0, d1 = (stored[0] - computed[0]) & MASK, (stored[1] - computed[1]) & MASK
    for i, w in enumerate(words):  # a bit of word i: undoing it adds ±2^bit to the word
        k0, k1 = k.c0[i], k.c1[i]
        for bit in range(32):
            delta = -(1 << bit) if w >> bit & 1 else 1 << bit
            if (delta * k0 - d0) & MASK == 0 and (delta * k1 - d1) & MASK == 0:
                fixed_commit = struct.unpack(">I", struct.pack(f"{order}I", w ^ (1 << bit)))[0] if i == 1 else commit
                out.append((stored, fixed_commit))
    if _single_bit(((computed[0] ^ stored[0]) << 32) | (computed[1] ^ stored[1])):
        out.append((computed, commit))  # a bit of the stored checksum
    return out
