"""The pages' own labels served from the word table (issue 40 item 5): a page's HTML asks for a
word (``{{W:key}}``, ``{{ZH:key}}``, ``{{EN:key}}``) or labels an element by its key
(``data-word``), and its script gets the words it reads with ``{{WORDS}}``."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from table_app.present.buttons import PHONE_BUTTONS
from table_app.present.page_words import page_words
from table_app.present.words import pair
from table_app.web.routes import page_text

PAGES = sorted(p.name for p in resources.files("table_app.web").iterdir() if p.name.endswith(".html"))


@pytest.mark.parametrize("name", PAGES)
def test_every_word_a_page_asks_for_is_served_with_it(name: str) -> None:
    text = page_text(name, "den")
    assert not re.search(r"\{\{(W|ZH|EN|WORDS)\b", text), "a word left unfilled"
    keys = re.findall(r'data-word="(\w+)"', text)
    served = page_words(name)
    assert set(keys) <= served.keys(), f"{name}: labelled with words it is not served: {set(keys) - served.keys()}"
    for key in keys:
        assert served[key] == dict(zip(("zh", "en"), pair(key), strict=True))


def test_the_phone_buttons_are_labelled_by_the_word_table() -> None:
    """The six buttons before the first view: the keys of present.buttons' own six, served."""
    text = page_text("phone.html", "den")
    labelled = dict(re.findall(r'data-press="(\w+)" data-word="(\w+)"', text))
    assert labelled == dict(PHONE_BUTTONS)
    words = json.loads(re.search(r"let words = (\{.*?\});\n", text).group(1))  # type: ignore[union-attr]
    assert words["slot_win"] == {"zh": "胡", "en": "Win"} and words["slot_discard"] == {"zh": "出牌", "en": "Play"}


def test_a_page_s_html_words_are_filled_in_and_escaped() -> None:
    join = page_text("join.html", "<den>")
    assert "<title>入座 · Join — &lt;den&gt;</title>" in join
    assert "<h1>选座位、写名字 · Pick your seat, type your name</h1>" in join
    table = page_text("table.html", "den")
    assert "<title>麻将桌 den · Mahjong table</title>" in table
    old = page_text("join_old.html", "den")
    assert "<p>这个二维码已过期：请扫桌上的新码。</p>" in old
    assert "<p>This code is old: scan the one on the table again.</p>" in old


def test_an_unknown_word_is_a_bug_not_a_blank() -> None:
    from table_app.web import routes

    with pytest.raises(KeyError):
        routes._WORD.sub(routes._word, "<p>{{W:no_such_word}}</p>")
