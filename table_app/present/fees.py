"""The table fee (台费) in words (issue 31), for the touchscreen, the table page and the phones:
the setting in one line, the house's lines beside the settle-up, and the fee so far while a
session is played. Amounts are points, shown as scores are (:mod:`table_app.present.money`:
the money beside them when a point has a value). The engine computes every number
(:mod:`engine.fees`); nothing here decides one.

>>> setting_line({"mode": "hour", "rate": 30, "payer": "aa", "tea": 5}, "zh")
'台费 每小时 30 · AA · 茶水 5/人'
>>> setting_line({"mode": "hour", "rate": 30, "payer": "aa", "tea": 5}, "en")
'Table fee 30 an hour · split evenly · tea 5 each'
>>> setting_line(None, "en")
'No table fee'
>>> setting = {"mode": "hand", "rate": 5, "min": 0, "cap": None, "payer": "aa", "tea": 0}
>>> house_lines(setting, {"mode": "hand", "units": 8, "fee": 40, "table": [10, 10, 10, 10],
...     "tea": [0, 0, 0, 0], "total": 40}, ["A", "B", "C", "D"], "en")
['Table fee 40 (8 hands × 5)', 'each pays the house 10']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from engine.fees import bill_so_far, next_hour_in
from engine.public import PublicState
from table_app.present.money import Money, points_text
from table_app.present.words import LANGS, Both, tr, tr_n

SEP: Final = " · "

FeeJSON = Mapping[str, object]
"""A fee setting as the public state, the events and the config carry it (``engine.fees.FeeSetting.to_json``)."""
BillJSON = Mapping[str, object]
"""A session's bill as the public state's ``house`` carries it (``engine.fees.Bill.to_json``)."""


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


def _ints(value: object) -> list[int]:
    return [_int(v) for v in value] if isinstance(value, list | tuple) else [0, 0, 0, 0]


def _pts(n: int, money: Money | None, lang: str) -> str:
    return points_text(n, money, lang)


def setting_line(fee: FeeJSON | None, lang: str, money: Money | None = None) -> str:
    """The setting in one line: "台费 每小时 30 · 最低 60 · AA · 茶水 5/人" (the parts not set left out).

    >>> setting_line({"mode": "round", "rate": 20, "min": 40, "cap": 100, "payer": "winners"}, "zh")
    '台费 每圈 20 · 最低 40 · 封顶 100 · 赢家按比例付'
    >>> setting_line({"mode": "session", "rate": 50, "payer": "big_winner", "tea": 0}, "en")
    'Table fee 50 a session · the big winner pays'
    """
    if fee is None:
        return tr("fe_none", lang)
    parts = [tr("fe_head", lang) + " " + tr(f"fe_rate_{fee['mode']}", lang, amount=_pts(_int(fee["rate"]), money,
                                                                                      lang))]
    if _int(fee.get("min")):
        parts.append(tr("fe_min", lang, amount=_pts(_int(fee.get("min")), money, lang)))
    if fee.get("cap") is not None:
        parts.append(tr("fe_cap", lang, amount=_pts(_int(fee.get("cap")), money, lang)))
    parts.append(tr(f"fe_payer_{fee.get('payer') or 'aa'}", lang))
    if _int(fee.get("tea")):
        parts.append(tr("fe_tea", lang, amount=_pts(_int(fee.get("tea")), money, lang)))
    return SEP.join(parts)


def setting_both(fee: FeeJSON | None, money: Money | None = None) -> Both:
    return {"zh": setting_line(fee, "zh", money), "en": setting_line(fee, "en", money)}


def _why(fee: FeeJSON, bill: BillJSON, lang: str, money: Money | None) -> str:
    """How the table fee came to be: "2 小时 × 30", or that the minimum or the cap made it."""
    amount, rate, units = _int(bill["fee"]), _int(fee["rate"]), _int(bill["units"])
    said = tr("fe_times", lang, units=tr_n(f"fe_units_{bill['mode']}", lang, units), rate=_pts(rate, money, lang))
    if amount != rate * units:  # (clamped: the minimum raised it or the cap lowered it)
        said += SEP + tr("fe_clamped_min" if amount > rate * units else "fe_clamped_cap", lang)
    return said


def _shares(amounts: Sequence[int], players: Sequence[str], each: str, seat: str, lang: str,
            money: Money | None) -> list[str]:
    """One line when every seat pays the same ("each pays the house 10"), else one per seat that pays."""
    if len(set(amounts)) == 1:
        return [tr(each, lang, amount=_pts(amounts[0], money, lang))] if amounts[0] else []
    return [tr(seat, lang, name=players[s] or f"#{s}", amount=_pts(a, money, lang))
            for s, a in enumerate(amounts) if a]


def house_lines(fee: FeeJSON | None, bill: BillJSON | None, players: Sequence[str], lang: str,
                money: Money | None = None) -> list[str]:
    """The house's lines beside the settle-up (the public state's ``house`` in phase ``ended``):
    the table fee and how it came to be, who pays it ("each pays the house 10", or per seat
    when the shares differ), the tea as a second line and the total when there is tea; [] when
    the session has no fee.

    >>> setting = {"mode": "hour", "rate": 30, "min": 0, "cap": None, "payer": "big_winner", "tea": 5}
    >>> for line in house_lines(setting, {"mode": "hour", "units": 3, "fee": 90, "table": [0, 90, 0, 0],
    ...         "tea": [5, 5, 5, 5], "total": 110}, ["阿明", "阿华", "阿强", "阿芳"], "zh"):
    ...     print(line)
    台费 90（3 小时 × 30）
    阿华 付台费 90
    每人付茶水 5
    共付店家 110（台费 90 + 茶水 20）
    """
    if fee is None or bill is None:
        return []
    table, tea = _ints(bill["table"]), _ints(bill["tea"])
    if not _int(bill["total"]):
        return [tr("fe_nothing", lang)] if not any(table) else []
    out = [tr("fe_bill_head", lang, amount=_pts(_int(bill["fee"]), money, lang), why=_why(fee, bill, lang, money))]
    out += _shares(table, players, "fe_each_pays", "fe_seat_pays", lang, money)
    out += _shares(tea, players, "fe_each_tea", "fe_seat_tea", lang, money)
    if any(tea):
        out.append(tr("fe_total", lang, amount=_pts(_int(bill["total"]), money, lang),
                      fee=_pts(_int(bill["fee"]), money, lang), tea=_pts(sum(tea), money, lang)))
    return out


def house_both(pub: PublicState, money: Money | None = None) -> list[Both]:
    """The ended session's house lines in both languages (:func:`house_lines`)."""
    fee, bill = pub.get("fee"), pub.get("house")
    by = {lang: house_lines(fee, bill, pub["players"], lang, money) for lang in LANGS}
    return [{"zh": zh, "en": en} for zh, en in zip(by["zh"], by["en"], strict=True)]


def your_house(pub: PublicState, seat: int, money: Money | None = None) -> list[Both]:
    """What ``seat`` pays the house at the end of the session (a phone's own lines)."""
    bill = pub.get("house")
    if bill is None:
        return []
    out: list[Both] = []
    for key, amount in (("fe_you_pay", _ints(bill["table"])[seat]), ("fe_you_tea", _ints(bill["tea"])[seat])):
        if amount:
            out.append({"zh": tr(key, "zh", amount=_pts(amount, money, "zh")),
                        "en": tr(key, "en", amount=_pts(amount, money, "en"))})
    return out


def so_far_line(pub: PublicState, seconds: int | None, lang: str, money: Money | None = None) -> str:
    """The fee so far while a session is played ("台费至今 60（2 小时 × 30）"): the bill were the
    session to end now, ``seconds`` after it began (None: not known); "" without a fee or once
    the session has ended (its settle-up says the bill).

    >>> pub = {"phase": "turn", "fee": {"mode": "hour", "rate": 30, "payer": "aa"}, "session_hands": 2,
    ...        "session_rounds": 1, "scores": [5, -5, 0, 0], "house": None}
    >>> so_far_line(pub, 3700, "en"), so_far_line(pub, 3700, "zh")
    ('Fee so far 60 (2 h × 30)', '台费至今 60（2 小时 × 30）')
    """
    fee = pub.get("fee")
    if fee is None or pub["phase"] in ("ended", "idle") or (fee.get("mode") == "hour" and seconds is None):
        return ""
    bill = bill_so_far(pub, seconds)
    if bill is None:
        return ""
    if not bill.total:  # (no hand settled yet: nothing owed so far)
        return tr("fe_so_far", lang, amount=_pts(0, money, lang))
    why = _why(fee, bill.to_json(), lang, money)
    if any(bill.tea):
        return tr("fe_so_far_tea", lang, amount=_pts(bill.fee, money, lang), why=why,
                  tea=_pts(sum(bill.tea), money, lang))
    return tr("fe_so_far_why", lang, amount=_pts(bill.fee, money, lang), why=why)


def so_far_both(pub: PublicState, seconds: int | None, money: Money | None = None) -> Both | None:
    """:func:`so_far_line` in both languages; None when there is nothing to say."""
    zh = so_far_line(pub, seconds, "zh", money)
    return None if not zh else {"zh": zh, "en": so_far_line(pub, seconds, "en", money)}


def next_change(pub: PublicState, seconds: int | None) -> int | None:
    """In hour mode, the seconds until the fee so far moves on (the next started hour), so that
    a page may show the next line on time without a new view (an hour is started once a second
    of it has passed); None otherwise.

    >>> next_change({"phase": "turn", "fee": {"mode": "hour", "rate": 30}}, 3700)
    3501
    >>> next_change({"phase": "turn", "fee": {"mode": "hour", "rate": 30}}, 7200)
    1
    >>> next_change({"phase": "turn", "fee": {"mode": "hand", "rate": 5}}, 3700) is None
    True
    """
    fee = pub.get("fee")
    if fee is None or fee.get("mode") != "hour" or seconds is None or pub["phase"] in ("ended", "idle"):
        return None
    return next_hour_in(seconds)  # (when an hour counts: the engine's rule)
