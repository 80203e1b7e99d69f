"""The words each web page is served with (its ``{{WORDS}}``, issue 40 item 5): a page's own
labels — the phone's six buttons, the join page's refusals, the table page's header — come from
the one word table in zh and en, never written into the page (a page's HTML takes a word with
``{{W:key}}``: ``table_app.web.routes.page_text``). Each page gets the keys its script reads,
each as ``{"zh": …, "en": …}`` (``{n}``-style fields left for the page to fill).

>>> page_words("join.html")["jn_free"]
{'zh': '空', 'en': 'free'}
>>> page_words("phone.html")["slot_win"]
{'zh': '胡', 'en': 'Win'}
"""

from __future__ import annotations

from typing import Final

from table_app.present.buttons import PHONE_WORDS
from table_app.present.words import pair

JOIN_WORDS: Final = ("jn_has_phone", "jn_free", "jn_no_answer", "phone_old_code", "ph_refused")
"""The join page's script's: a seat taken or free, its refusals (its HTML's words: ``{{W:key}}``)."""

TABLE_PAGE_WORDS: Final = ("lk_table", "connecting", "offline", "nav_join", "ar_history", "ar_records",
                           "lang_button")
"""The table page's header until its first view (then the view's own words label it)."""

_KEYS: Final[dict[str, tuple[str, ...]]] = {"join.html": JOIN_WORDS, "table.html": TABLE_PAGE_WORDS}


def page_words(name: str) -> dict[str, dict[str, str]]:
    """The words the page ``name`` is served with (the phone's, :data:`PHONE_WORDS`, for the
    phone and seat pages), each in both languages."""
    return {key: dict(zip(("zh", "en"), pair(key), strict=True)) for key in _KEYS.get(name, PHONE_WORDS)}
