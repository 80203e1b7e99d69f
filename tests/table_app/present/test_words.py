"""Every word of the screen: each refusal code of the engine and the service has words in both
languages, and no character the screen can show is missing from the font (no tofu boxes)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine.errors import CODES
from table_app.core.notices import Answer
from table_app.present import rules
from table_app.present import words as vocab
from table_app.present.fonts import find_cjk_font
from table_app.present.refusals import refusal

UI_DIR = Path(__file__).parents[3] / "table_app" / "ui"


def service_codes() -> list[str]:
    """The service's own codes, as ``Answer``'s docstring lists them."""
    doc = Answer.__doc__ or ""
    listed = doc[doc.index("the service's own"):]
    return re.findall(r"``([a-z_.]+)``", listed)


SAMPLE: dict[str, Any] = {"seat": 1, "turn": 0, "claimant": 3, "dealer": 0, "owner": 2, "next": 2, "call": "pong",
                          "action": "claim:chow", "button": "GANG", "phase": "claims", "event": "roll", "tile": "5p",
                          "held": 2, "need": 2, "tied": [1, 2], "wait": "closed", "reads": "single", "melds": 2,
                          "given": 1, "exposed": ["pong", "chow"], "shown": "555p", "kind": "concealed",
                          "options": ["34m", "46m"], "player": "Ann", "seats": [0, 2], "player_id": 7, "roller": 0}


def params_of(code: str) -> dict[str, Any]:
    """The params CODES lists for ``code`` (after its last colon), with sample values."""
    listed = CODES.get(code, "").rsplit(": ", 1)
    names = [n.strip() for n in listed[1].split(",")] if len(listed) == 2 else []
    names = [n for n in names if n.isidentifier()]
    return {"seat": 1, "phase": "claims", **{n: SAMPLE[n] for n in names}}


def test_the_service_lists_its_codes() -> None:
    assert service_codes() == ["invalid", "undo.nothing", "undo.bad_target", "undo.moved", "redo.nothing",
                               "redo.refused", "journal.failed", "service.stopped", "service.busy",
                               "service.internal"]


@pytest.mark.parametrize("code", sorted(set(CODES) | set(service_codes())))
def test_every_refusal_code_has_words_in_both_languages(code: str) -> None:
    players = ["Ann", "Bo", "Cy", "Di"]
    assert vocab.known(code), f"{code!r} has no words in present/vocab_refusals.py"
    zh = refusal(code, params_of(code), "ENGLISH FALLBACK", players, "zh")
    en = refusal(code, params_of(code), "ENGLISH FALLBACK", players, "en")
    for words in (zh, en):
        assert "FALLBACK" not in words and "{" not in words and "None" not in words and "'" not in words[:1]
    assert re.search(r"[\u4e00-\u9fff]", zh), zh
    assert not re.search(r"[\u4e00-\u9fff]", en), en


def test_an_unknown_code_keeps_the_engines_message() -> None:
    assert refusal("no.such", {}, "turn: seat 2 cannot", [], "en") == "Refused: turn: seat 2 cannot"


def every_shown_string() -> set[str]:
    """Every string the word table can put on a screen, and the literal texts of the .kv files."""
    strings = {s for pair in vocab._T.values() for s in pair}
    for name, what, values in rules.RULE_WORDS.values():
        strings |= {*name, *what, *(s for pair in values.values() for s in pair)}
    strings |= set(vocab.WIND_ZH.values()) | set(vocab.WIND_EN.values())
    strings |= {"一二三四五六七八九万筒条东南西北中发白", "东风南风西风北风红中发财白板", "↓→↑←", "0123456789+-−×:"}
    for kv in UI_DIR.rglob("*.kv"):
        strings |= set(re.findall(r'text: "([^"]*)"', kv.read_text(encoding="utf-8")))
    return strings


def test_no_character_shown_is_missing_from_the_font() -> None:
    """A glyph the font lacks draws as the font's .notdef box (the tofu that replaced ✗)."""
    from PIL import ImageFont

    path = find_cjk_font()
    assert path, "no CJK font on this machine (fonts-noto-cjk)"
    font = ImageFont.truetype(path, 24)
    notdef = bytes(font.getmask("\U000effff"))  # a private-use character no font has
    chars = {c for s in every_shown_string() for c in s if not c.isspace()}
    missing = sorted(c for c in chars if bytes(font.getmask(c)) == notdef)
    assert not missing, f"the font has no glyph for {missing}"
    assert bytes(font.getmask("✗")) == notdef  # the check sees a missing glyph
