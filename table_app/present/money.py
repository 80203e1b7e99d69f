"""Money beside points (每分 = 0.5 元): the optional value of a point, from the config
(``money.per_point``, ``money.unit_zh``, ``money.unit_en``; docs/config.md), worded once for
every settle-up — the touchscreen's, the phones', the table page's and the command line's.

Off by default: without a value (``None``) every line shows points only, as before. An amount
is joined to its unit by no-break spaces (``\xa0``): a wrapped line never parts them.

>>> m = Money.of("0.5")
>>> money_text(7, m, "zh"), money_text(-3, m, "en")
('3.50\xa0元', '-1.50\xa0yuan')
>>> money_text(12, m, "zh")
'6\xa0元'
>>> points_text(12, m, "zh"), points_text(12, None, "zh")
('12\xa0分（6\xa0元）', '12')
>>> Money.of("") is None, Money.of("0") is None
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Final

from table_app.present.words import pair, tr

CURRENCY: Final = pair("money_unit")
"""The currency's word in zh and en where the config names none (元, yuan): the one place it is written."""


@dataclass(frozen=True)
class Money:
    """A point's worth in hundredths of the currency, and the currency's word in each language."""

    cents: int
    unit_zh: str = CURRENCY[0]
    unit_en: str = CURRENCY[1]

    @classmethod
    def of(cls, per_point: str, unit_zh: str = "", unit_en: str = "") -> Money | None:
        """The value of ``per_point`` (config text like "0.5"); None for points only ("" or 0).
        A unit left empty (the config's default) is the word table's, :data:`CURRENCY`."""
        try:
            cents = Decimal(per_point or "0") * 100
        except InvalidOperation:
            raise ValueError(f"money per point must be a number like 0.5, got {per_point!r}") from None
        if cents < 0 or cents != cents.to_integral_value():
            raise ValueError(f"money per point is ≥ 0 with at most 2 decimals, got {per_point!r}")
        return cls(int(cents), unit_zh or CURRENCY[0], unit_en or CURRENCY[1]) if cents else None

    def unit(self, lang: str) -> str:
        return self.unit_zh if lang == "zh" else self.unit_en

    def per_point(self) -> str:
        """The value of a point as it is written: "0.5", "2"."""
        return str(Decimal(self.cents) / 100).rstrip("0").rstrip(".") if self.cents % 100 else str(self.cents // 100)


def _amount(cents: int) -> str:
    """Hundredths as money: whole amounts without decimals, others with two."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}" if not part else f"{sign}{whole}.{part:02d}"


def money_amount(points: int, money: Money) -> str:
    """``points`` in money without the currency's word (a column headed by it): "3.50"."""
    return _amount(points * money.cents)


def money_text(points: int, money: Money, lang: str) -> str:
    """``points`` in money: "3.50 元"."""
    return tr("money_amount", lang, value=_amount(points * money.cents), unit=money.unit(lang))


def points_text(points: int | str, money: Money | None, lang: str, signed: bool = False) -> str:
    """Points as a settle-up shows them: the points, and the money beside them when a point has
    a value ("12（6 元）"); ``signed``: +12, -3 (a ranking's or a hand's result)."""
    n = int(points)
    shown = (f"{n:+d}" if n else "0") if signed else str(points)
    if money is None:
        return shown
    value = money_text(n, money, lang)
    return tr("points_money", lang, points=shown, money=("+" + value) if signed and n > 0 else value)


def money_each(money: Money, lang: str) -> str:
    """What a point is worth, as a settle-up's heading says it: "每分 0.5 元".

    >>> money_each(Money(50), "zh"), money_each(Money(200, unit_en="dollars"), "en")
    ('每分 0.5 元', '2 dollars a point')
    """
    return tr("money_each", lang, value=money.per_point(), unit=money.unit(lang))
