"""Every word a player reads, in Chinese and English, once: the touchscreen, the table page,
the phones, MQTT's seat views, the terminal and the seat displays' names all take them from
here (no Kivy here).

``tr(key, lang, **fields)`` formats one string; an unknown key is a bug and raises;
``both(key, **fields)`` gives the zh and en of it together (what a seat view publishes). The
vocabularies live in ``vocab_table`` (the table and its seats), ``vocab_forms`` (the screens'
forms) and ``vocab_refusals`` (the history's sentences and the refusals), gathered here into
one table with no key twice. Tiles are named in Chinese (一万, 东风) in both languages'
sentences where a player reads them; mpsz text stays in the command line.

>>> tr("score", "en"), tr("score", "zh")
('score', '分')
>>> tr("turn_of", "en", name="Ann")
"Ann's turn"
>>> both("turn_of", name="阿华")
{'zh': '阿华 出牌', 'en': "阿华's turn"}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal, TypedDict, get_args

from engine.records import Wind
from engine.tiles import HONOURS, TileError, parse_tiles, tile_name
from table_app.present.vocab_claim import CLAIM
from table_app.present.vocab_cli import CLI
from table_app.present.vocab_decide import DECIDE
from table_app.present.vocab_fees import FEES
from table_app.present.vocab_floor import FLOOR
from table_app.present.vocab_forms import FORMS
from table_app.present.vocab_history import HISTORY
from table_app.present.vocab_history_page import HISTORY_PAGE
from table_app.present.vocab_home import HOME
from table_app.present.vocab_keyboard import KEYBOARD
from table_app.present.vocab_link import LINK
from table_app.present.vocab_page import PAGE
from table_app.present.vocab_past import PAST
from table_app.present.vocab_refusals import REFUSALS, SENTENCES
from table_app.present.vocab_roster import ROSTER
from table_app.present.vocab_score import SCORE
from table_app.present.vocab_seating import SEATING
from table_app.present.vocab_table import TABLE
from table_app.present.vocab_takings import TAKINGS
from table_app.present.vocab_undo import ENTRY, UNDO

Lang = Literal["zh", "en"]
LANGS: Final[tuple[Lang, ...]] = get_args(Lang)
DEFAULT_NAMES: Final = ("阿明", "阿华", "阿强", "阿芳")  # the new-session form's names until the players type theirs

WIND_ZH: Final[dict[Wind, str]] = {"E": "东", "S": "南", "W": "西", "N": "北"}
WIND_EN: Final[dict[Wind, str]] = {"E": "East", "S": "South", "W": "West", "N": "North"}


class Both(TypedDict):
    """One line in both languages (a seat view carries its words so)."""

    zh: str
    en: str


def _gather(*vocabularies: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for vocabulary in vocabularies:
        twice = out.keys() & vocabulary.keys()
        if twice:
            raise AssertionError(f"words defined twice: {sorted(twice)}")
        out.update(vocabulary)
    return out


_T: Final = _gather(TABLE, FORMS, SENTENCES, REFUSALS, PAGE, SCORE, DECIDE, LINK, KEYBOARD, SEATING, UNDO, ENTRY,
                    ROSTER, CLAIM, HISTORY, HISTORY_PAGE, PAST, FLOOR, TAKINGS, FEES, CLI,
                    HOME)


def tr(key: str, lang: str, **fields: object) -> str:
    zh, en = _T[key]
    text = zh if lang == "zh" else en
    return text.format(**fields) if fields else text


def tr_n(key: str, lang: str, n: int, **fields: object) -> str:
    """``tr`` of a count: ``key_1`` when ``n`` is 1 and there is one ("1 hand", not "1 hands").

    >>> tr_n("hands_played", "en", 1), tr_n("hands_played", "en", 2), tr_n("hands_played", "zh", 1)
    ('1 hand', '2 hands', '共 1 局')
    """
    return tr(f"{key}_1" if n == 1 and f"{key}_1" in _T else key, lang, n=n, **fields)


def known(key: str) -> bool:
    return key in _T


def pair(key: str) -> tuple[str, str]:
    """The word ``key`` as (zh, en), unformatted: for a command line that prints both."""
    return _T[key]


def zh_en(key: str, **fields: object) -> str:
    """The word ``key`` in Chinese, then English, as the command line prints both on one line.

    >>> zh_en("cli_seat"), zh_en("cli_round", n=2)
    ('座位 seat', '第 2 圈 round 2')
    """
    return f"{tr(key, 'zh', **fields)} {tr(key, 'en', **fields)}"


def en_zh(key: str, **fields: object) -> str:
    """The word ``key`` in English, then Chinese (the command line's lines that begin in English).

    >>> en_zh("cli_left", n=3)
    '3 left 剩3张'
    """
    return f"{tr(key, 'en', **fields)} {tr(key, 'zh', **fields)}"


def entity_name(key: str, **fields: object) -> str:
    """A Home Assistant device's or entity's name: English, then Chinese.

    >>> entity_name("ha_occupied"), entity_name("ha_table", table="t1")
    ('Occupied · 有人在打', 'Mahjong table t1 · 麻将桌')
    """
    return f"{tr(key, 'en', **fields)} · {tr(key, 'zh', **fields)}"


def both(key: str, **fields: object) -> Both:
    """The line ``key`` in both languages."""
    return {"zh": tr(key, "zh", **fields), "en": tr(key, "en", **fields)}


def wind(letter: Wind | None, lang: str) -> str:
    if letter is None:
        return ""
    return (WIND_ZH if lang == "zh" else WIND_EN)[letter]


def wind_mark(letter: Wind | None, lang: str) -> str:
    """The wind on a badge: 东 in Chinese, E in English."""
    return "" if letter is None else WIND_ZH[letter] if lang == "zh" else letter


def tile_word(text: str | None, lang: str = "zh") -> str:
    """Tiles named as players name them — 五筒, 东风 in Chinese, "5 Dots", "East" in English;
    mpsz text that is not a tile comes back as it was.

    >>> tile_word("5p"), tile_word("1z"), tile_word("6z"), tile_word("111m"), tile_word("5p", "en")
    ('五筒', '东风', '发财', '一万一万一万', '5 Dots')
    """
    if not text:
        return ""
    try:
        tiles = parse_tiles(text)
    except TileError:
        return text
    if lang == "zh":
        return "".join(_HONOUR_WORDS[t - HONOURS] if t >= HONOURS else tile_name(t, "zh") for t in tiles)
    return " ".join(tile_name(t, "en") for t in tiles)


_HONOUR_WORDS: Final = ("东风", "南风", "西风", "北风", "红中", "发财", "白板")


def tile_face(t: int) -> tuple[str, str]:
    """What a tile picture shows: the number (or honour) and the suit character.

    >>> from engine.tiles import parse_tile
    >>> tile_face(parse_tile("5p")), tile_face(parse_tile("5z"))
    (('五', '筒'), ('中', ''))
    """
    if t >= HONOURS:
        return "东南西北中发白"[t - HONOURS], ""
    return "一二三四五六七八九"[t % 9], "万筒条"[t // 9]


def names_list(names: Sequence[str], lang: str) -> str:
    return tr("list_sep", lang).join(names)
