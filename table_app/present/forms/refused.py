"""A form's refusal, named once: the word key it is said with (``present/words``), the code a
phone's answer carries, and whether the input was malformed (``bad``: a phone's 400) or only
not possible now (409) — the engine's invalid/illegal split, for a form. ``rule`` keeps the
engine's own refusal when it is one (the touchscreen says those in its own words).

>>> r = Refused("dc_bad_bets", "decide.bad_bets", bad=True, fields={"max": "1,000,000"})
>>> r.words("en")
'The bets are four whole numbers, 0 to 1,000,000, one per seat'
>>> r.both()["zh"]
'下注是四家各一个0到1,000,000的整数'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.errors import RuleError
from table_app.present.words import Both, both, tr


@dataclass(frozen=True)
class Refused:
    """What a form refuses, and how it is said."""

    key: str  # the word key
    code: str  # the refusal's code (a phone's answer names it)
    bad: bool = False  # malformed input (else: not now)
    fields: Mapping[str, object] = field(default_factory=dict)  # the words' fields
    rule: RuleError | None = None  # the engine's refusal behind it, if any

    def words(self, lang: str) -> str:
        return tr(self.key, lang, **self.fields)

    def both(self) -> Both:
        return both(self.key, **self.fields)


__all__ = ["Refused"]
