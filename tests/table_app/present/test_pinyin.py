"""The name keyboard's 汉字 for typed pinyin (present/pinyin.py) and the name being typed
(present/name_entry.py): real pypinyin data, no window."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.fields import check_name
from table_app.present import pinyin
from table_app.present.name_entry import NameEntry
from table_app.present.pinyin import Candidate, candidates, segment


def texts(typed: str, start: bool = True, n: int = 5) -> list[str]:
    return [c.text for c in candidates(typed, start=start)[:n]]


@pytest.mark.parametrize(("typed", "first"), [("ouyang", "欧阳"), ("zhuge", "诸葛"), ("sima", "司马"),
                                              ("dongfang", "东方"), ("shangguan", "上官"), ("yuchi", "尉迟"),
                                              ("moqi", "万俟"), ("zhug", "诸葛")])
def test_compound_surnames_come_first(typed: str, first: str) -> None:
    assert candidates(typed)[0] == Candidate(first, len(typed))
    assert candidates(typed, start=False)[0].text == first  # (欧阳诸葛: a compound surname as a given name)


def test_a_compound_surname_uses_only_its_own_letters() -> None:
    assert candidates("ouyangzhuge")[0] == Candidate("欧阳", 6)
    assert segment("ouyangzhuge") == ["ou", "yang", "zhu", "ge"]


@pytest.mark.parametrize(("typed", "surname"), [("wang", "王"), ("li", "李"), ("zhang", "张"), ("chen", "陈"),
                                                ("zeng", "曾"), ("lv", "吕"), ("xie", "谢")])
def test_a_name_starts_with_a_surname(typed: str, surname: str) -> None:
    assert texts(typed, n=1) == [surname]


def test_later_in_a_name_given_name_characters_come_first() -> None:
    assert texts("wei", start=True, n=2) == ["魏", "韦"]  # surnames
    assert texts("wei", start=False, n=2) == ["伟", "薇"]  # given names
    assert texts("ming", start=False, n=1) == ["明"]
    assert "为" in texts("wei", n=12)  # (every character with the reading is there, after them)


def test_a_begun_syllable_offers_what_it_may_become() -> None:
    assert texts("zh", n=4) == ["张", "赵", "周", "朱"]
    assert {c.used for c in candidates("zh")} == {2}
    xian = texts("xian", n=80)
    assert "香" in xian and xian.index("先") < xian.index("香")  # xian's own first, then xiang's


def test_a_latin_name_passes_through() -> None:
    assert candidates("Maximilianus")[0] == Candidate("Maximilianus", 12)  # a capital: letters first
    assert candidates("bob")[-1] == Candidate("bob", 3)  # pinyin-looking: after the 汉字
    assert candidates("qqq") == [Candidate("qqq", 3)]  # not pinyin at all: only the letters
    assert all(c.text != "Maximilianuss" for c in candidates("Maximilianuss"))  # 13 letters: no name


@pytest.mark.parametrize("typed", ["", " ", "123", "!?", "欧阳", "ou yang", "\x00", "é", "ou\u202eyang", "\n"])
def test_what_is_not_letters_gives_nothing(typed: str) -> None:
    assert candidates(typed) == []


def test_long_input_is_bounded() -> None:
    began = time.perf_counter()
    found = candidates("a" * 100_000)
    assert time.perf_counter() - began < 0.5
    assert 0 < len(found) <= pinyin.LIMIT
    assert all(c.used <= pinyin.MAX_TYPED for c in found)
    assert len(candidates("zhuang" * 50, limit=10)) == 10


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_never_raises(typed: str) -> None:
    for c in candidates(typed) + candidates(typed, start=False):
        assert 0 < c.used <= len(typed) and c.text and len(c.text) <= 12


def test_every_candidate_is_a_name_the_engine_takes() -> None:
    for typed in ("ouyang", "x", "zh", "wei", "a", "lve"):
        for c in candidates(typed):
            assert check_name(c.text) == c.text


def test_entering_a_name_key_by_key() -> None:
    e = NameEntry("zh")
    for word in ("ouyang", "zhuge", "sima", "dongfang"):
        for k in word:
            e.letter(k)
        e.pick(0)
    assert (e.name, e.typed) == ("欧阳诸葛司马东方", "")
    assert e.finish() == ("欧阳诸葛司马东方", "")
    e.letter("a")
    assert e.finish() == ("", "先给“a”选字（空格选第一个）")
    e.backspace()
    e.backspace()
    assert e.name == "欧阳诸葛司马东"


def test_english_names_and_refusals_in_the_screens_language() -> None:
    e = NameEntry("en")
    assert e.mode == "en" and e.options() == []
    for k in "ann lee":
        e.space() if k == " " else e.letter(k)
    assert e.finish() == ("Ann Lee", "")
    assert NameEntry("en").finish() == ("", "A name cannot be empty")
    assert NameEntry("zh", initial="   ").finish() == ("", "名字不能是空的")
    assert NameEntry("zh", initial="阿\u202e明").finish() == ("", "名字里有不能用的字符")
    assert NameEntry("en", initial="欧阳诸葛司马东方上").finish() == ("", "A name has at most 8 Chinese characters "
                                                                       "or 12 letters")


def test_switching_to_letters_keeps_what_was_typed() -> None:
    e = NameEntry("zh", initial="阿")
    for k in "jo":
        e.letter(k)
    e.toggle()
    assert (e.name, e.typed, e.mode) == ("阿jo", "", "en")
    e.shift = True
    e.letter("x")
    assert e.name == "阿joX"
