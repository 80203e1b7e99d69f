"""汉字 for typed pinyin, ranked for names: the touchscreen's name keyboard asks here (no Kivy).

``candidates(typed, start=...)`` answers what a player typed (toneless pinyin, ``v`` for ü)
with :class:`Candidate` s — the text and how many of the typed letters it stands for — best first:

1. compound surnames the typed letters spell (ouyang → 欧阳, zhuge → 诸葛), or begin to spell
   past their first syllable (zhug → 诸葛);
2. single characters for the first syllable (or, while it is still being typed, for every
   syllable it begins: zh → 张 赵 周 …): at the ``start`` of a name surnames first, then
   characters common in given names; later in a name given-name characters first; then the
   rest of GB 2312's common characters, then its second level;
3. the letters as typed, when they could be a Latin name (first when they begin with a capital:
   Max, Maximilianus).

Readings come from pypinyin's character dictionary (``pinyin_dict.json``, read once, on the
first question, and dropped after the index is built); the ranking from the lists in
:mod:`table_app.present.name_chars`. The index keeps only GB 2312's 6763 characters and the
listed name characters, each syllable's characters as two ready strings.

>>> [c.text for c in candidates("ouyang")[:3]]
['欧阳', '欧', '区']
>>> candidates("zhuge")[0]
Candidate(text='诸葛', used=5)
>>> [c.text for c in candidates("wang")[:2]], [c.text for c in candidates("wei", start=False)[:2]]
(['王', '汪'], ['伟', '薇'])
>>> candidates("Max")[0], candidates("max")[-1], candidates("???")
(Candidate(text='Max', used=3), Candidate(text='max', used=3), [])
"""

from __future__ import annotations

import importlib.util
import re
import threading
import unicodedata
from collections.abc import Iterator
from functools import cache, lru_cache
from pathlib import Path
from typing import Final, NamedTuple

from table_app.present.name_chars import COMPOUND_SURNAMES, GIVEN, SURNAME_READING, SURNAMES

MAX_TYPED: Final = 24  # letters looked at: four syllables of the longest kind, and more
MAX_LATIN: Final = 12  # the longest name (engine.fields.NAME_MAX) offered as letters
LIMIT: Final = 80  # candidates answered at most (the keyboard pages through them)


class Candidate(NamedTuple):
    """What a tap on the candidate bar adds (``text``) and how many typed letters it uses up."""

    text: str
    used: int


class _Index(NamedTuple):
    start: dict[str, str]  # syllable → its characters, best first at the start of a name
    later: dict[str, str]  # … and later in a name
    prefixes: frozenset[str]  # every beginning of a syllable ("z", "zh", "zha", …)


def _toneless(reading: str) -> str:
    """"lǜ" → "lv", "zhāng" → "zhang" (the letters a player types)."""
    plain = unicodedata.normalize("NFD", reading.lower()).replace("u\u0308", "v")
    return "".join(c for c in plain if "a" <= c <= "z")


def _level(ch: str) -> int:
    """GB 2312's level of ``ch``: 1 for its 3755 common characters, 2 for the next 3008, 3 outside."""
    if not "\u4e00" <= ch <= "\u9fa5":  # (where all of GB 2312's 汉字 are: most of the dictionary is not)
        return 3
    try:
        code = ch.encode("gb2312")
    except UnicodeEncodeError:
        return 3
    return 1 if code[0] <= 0xD7 else 2


_ENTRY: Final = re.compile(r'"(\d+)":\s*"([^"]*)"')


def _dictionary_path() -> Path:
    """pypinyin's character dictionary, found without importing pypinyin (whose import loads
    its phrase dictionary too: half a second and tens of MB for nothing here)."""
    spec = importlib.util.find_spec("pypinyin")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("pypinyin is not installed (pip install pypinyin)")
    return Path(next(iter(spec.submodule_search_locations))) / "pinyin_dict.json"


def _readings() -> Iterator[tuple[str, int, list[str]]]:
    """Each kept character with its GB 2312 level and toneless readings, the dictionary's first first."""
    listed = set(SURNAMES) | set(GIVEN)
    plain: dict[str, str] = {}  # a toned reading → its letters (some 1400 readings, each worked out once)
    # ("code": "readings" pairs read one by one: a dict of all 42 000 would leave its memory behind)
    for found in _ENTRY.finditer(_dictionary_path().read_text(encoding="utf-8")):
        key, value = found.groups()
        ch = chr(int(key))
        level = _level(ch)
        if level < 3 or ch in listed:
            readings = [r for r in dict.fromkeys(plain.get(v) or plain.setdefault(v, _toneless(v))
                                                 for v in value.split(",")) if _has_vowel(r)]
            if readings:
                yield ch, level, readings


def _has_vowel(syllable: str) -> bool:
    return any(v in syllable for v in "aeiouv")  # (嗯's "n", "ng" and 呣's "m" are not typed for a name)


_UNLISTED: Final = 9999


@lru_cache(maxsize=1)
def _ranks() -> tuple[dict[str, int], dict[str, int]]:
    """Where each listed character stands: at the start of a name (surnames, then given-name
    characters) and later in one (the other way round)."""
    surnames, given = dict.fromkeys(SURNAMES), dict.fromkeys(GIVEN)
    start = {ch: i for i, ch in enumerate(dict.fromkeys([*surnames, *given]))}
    later = {ch: i for i, ch in enumerate(dict.fromkeys([*given, *surnames]))}
    return start, later


_built: list[_Index] = []
_building = threading.Lock()


def warm() -> None:
    """Build the index now (the keyboard calls it in a thread when it opens: the first letter
    then finds it ready)."""
    _index()


def ready() -> bool:
    """Whether the index is built (the first question then answers at once)."""
    return bool(_built)


def _index() -> _Index:
    with _building:
        if not _built:
            _built.append(_build())
        return _built[0]


def _build() -> _Index:
    surname_at = {ch: i for i, ch in enumerate(dict.fromkeys(SURNAMES))}
    given_at = {ch: i for i, ch in enumerate(dict.fromkeys(GIVEN))}
    rows: dict[str, list[tuple[int, int, int, bool, str]]] = {}  # syllable → (surname, given, level, other, ch)
    for ch, level, said in _readings():
        surname_reading = SURNAME_READING.get(ch, said[0])
        for n, syllable in enumerate(said):
            # a listed character ranks high only for the reading a name gives it
            surname = surname_at.get(ch, _UNLISTED) if syllable == surname_reading else _UNLISTED
            given = given_at.get(ch, _UNLISTED) if n == 0 else _UNLISTED
            rows.setdefault(syllable, []).append((surname, given, level, n > 0, ch))
    start = {s: "".join(c[-1] for c in sorted(chars)) for s, chars in rows.items()}
    later = {s: "".join(c[-1] for c in sorted(chars, key=lambda c: (c[1], c[0], *c[2:]))) for s, chars in rows.items()}
    prefixes = frozenset(s[:i] for s in rows for i in range(1, len(s) + 1))
    return _Index(start, later, prefixes)


def segment(typed: str) -> list[str]:
    """``typed`` (lower-case letters) cut into syllables, longest first, the last one possibly
    begun only; [] when it cannot be cut so.

    >>> segment("ouyangzhuge"), segment("xianzh"), segment("qqq")
    (['ou', 'yang', 'zhu', 'ge'], ['xian', 'zh'], [])
    """
    index = _index()

    @cache
    def rest(i: int) -> tuple[str, ...] | None:
        if i == len(typed):
            return ()
        for j in range(min(len(typed), i + 6), i, -1):
            if typed[i:j] in index.start and (after := rest(j)) is not None:
                return (typed[i:j], *after)
        return (typed[i:],) if typed[i:] in index.prefixes else None

    return list(rest(0) or ()) if typed.isascii() and typed.isalpha() else []


def _compounds(typed: str, first: str) -> list[Candidate]:
    whole, begun = [], []
    for text, said in COMPOUND_SURNAMES.items():
        spelt = said.replace(" ", "")
        if typed.startswith(spelt):
            whole.append(Candidate(text, len(spelt)))
        elif spelt.startswith(typed) and len(typed) > len(first):
            begun.append(Candidate(text, len(typed)))
    return whole + begun


def _singles(syllables: list[str], start: bool) -> list[Candidate]:
    index = _index()
    order = index.start if start else index.later
    first = syllables[0]
    if first in order:
        out = [Candidate(ch, len(first)) for ch in order[first]]
        if len(syllables) == 1:  # still typing it, perhaps: the longer syllables it begins follow
            out += [Candidate(ch, len(first)) for s in sorted(order) if s != first and s.startswith(first)
                    for ch in order[s][:8]]
        return out
    # a begun syllable: the best dozen of each syllable it may become, the listed name characters first
    rank = _ranks()[0 if start else 1]
    begun = sorted((rank.get(ch, _UNLISTED), k, ch) for s in order if s.startswith(first)
                   for k, ch in enumerate(order[s][:12]))
    return [Candidate(ch, len(first)) for _, _, ch in begun]


def candidates(typed: str, start: bool = True, limit: int = LIMIT) -> list[Candidate]:
    """What ``typed`` may stand for, best first (see the module's docstring); never raises."""
    if not typed or not typed.isascii() or not typed.isalpha():
        return []
    letters = typed[:MAX_TYPED]
    syllables = segment(letters.lower())
    out: list[Candidate] = []
    if syllables:
        out += _compounds(letters.lower(), syllables[0])
        out += _singles(syllables, start)
    if len(typed) <= MAX_LATIN:  # first when it begins with a capital: pinyin is typed without one
        out.insert(0 if typed[0].isupper() else len(out), Candidate(typed, len(typed)))
    unique = list({c.text: c for c in reversed(out)}.values())[::-1]  # each text once, where it came first
    return unique[:limit - 1] + unique[-1:] if len(unique) > limit else unique
