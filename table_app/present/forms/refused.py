"""A form's refusal, named once: the word key it is said with (``present/words``), the code a
phone's answer carries, and what kind of no it is (``reason``): the input malformed (a phone's
400), not possible now (409), or not this seat's to decide (403) — the engine's invalid/illegal
split, for a form. ``rule`` keeps the
engine's own refusal when it is one (the touchscreen says those in its own words).

>>> r = Refused("dc_bad_bets", "decide.bad_bets", "malformed", fields={"max": "1,000,000"})
>>> r.words("en")
'The bets are four whole numbers, 0 to 1,000,000, one per seat'
>>> r.both()["zh"]
'下注是四家各一个0到1,000,000的整数'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from engine.errors import RuleError
from table_app.present.words import Both, tr

Reason = Literal["malformed", "not_now", "not_yours"]


@dataclass(frozen=True)
class Refused:
    """What a form refuses, and how it is said."""

    key: str  # the word key
    code: str  # the refusal's code (a phone's answer names it)
    reason: Reason = "not_now"
    fields: Mapping[str, object] = field(default_factory=dict)  # the words' fields (a Both: the language's)
    rule: RuleError | None = None  # the engine's refusal behind it, if any

    def words(self, lang: str) -> str:
        return tr(self.key, lang, **{k: _said(v, lang) for k, v in self.fields.items()})

    def both(self) -> Both:
        return {"zh": self.words("zh"), "en": self.words("en")}


def _said(value: object, lang: str) -> object:
    """A field's value in ``lang``: a word already said in both languages (a :class:`Both`) as
    the language's."""
    if isinstance(value, Mapping) and set(value) == {"zh", "en"}:
        return value[lang]
    return value


__all__ = ["Reason", "Refused"]
