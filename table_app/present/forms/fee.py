"""The table fee's form (台费, issue 31): how the house charges — a mode (none, by the hour, the
hand, the round, the session), who pays, and four amounts (the rate, a minimum, a cap, each
seat's tea) — written once: what it offers (:data:`MODES`, :data:`PAYERS`, :data:`AMOUNTS`,
the steps of − and +, the bound), how each field is checked (:func:`check`: whole points, full-width
digits and thousands commas taken, an empty cap is no cap), what − and + do (:func:`step`, an
empty field or a decimal included) and the ``fee`` command it builds (:func:`command`). The
touchscreen's fee screen (``table_app/ui/screens/fee.py``) draws it; the phones offer no fee form.

>>> f = fields({"mode": "hour", "rate": 30, "min": 0, "cap": None, "payer": "aa", "tea": 5})
>>> f
{'mode': 'hour', 'payer': 'aa', 'texts': {'rate': '30', 'min': '', 'cap': '', 'tea': '5'}}
>>> check(f)
{'mode': 'hour', 'rate': 30, 'min': 0, 'cap': None, 'payer': 'aa', 'tea': 5}
>>> step(f, "tea", up=True), step(f, "cap", up=True), step(f, "min", up=False)
('6', '10', '0')
>>> check({"mode": "hand", "payer": "aa", "texts": {"rate": "2.5"}}).words("zh")
'单价要是 0 到 1,000,000 的整数：2.5'
>>> command({**fields(None), "mode": "hand"}, {"phase": "turn", "fee": {"mode": "hour", "rate": 30}})
{'type': 'fee', 'fee': {'mode': 'hand', 'rate': 30, 'min': 0, 'cap': None, 'payer': 'aa', 'tea': 0}}
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Final, TypedDict

from engine.errors import InvalidEventError
from engine.fees import FEE_MODES, FEE_PAYERS, FeeSetting
from engine.fields import MAX_AMOUNT
from engine.public import PublicState
from engine.table import accepts
from table_app.present.forms.refused import Refused
from table_app.present.forms.typed import clean
from table_app.present.words import Both, tr

MODES: Final = ("none", *FEE_MODES)  # "none": no fee
PAYERS: Final = FEE_PAYERS
AMOUNTS: Final = ("rate", "min", "cap", "tea")
STEPS: Final = {"rate": 5, "min": 10, "cap": 10, "tea": 1}
"""What − and + change each amount by (points)."""
LABELS: Final = {"rate": "fe_rate", "min": "fe_min_label", "cap": "fe_cap_label", "tea": "fe_tea_label"}
FIRST_RATE: Final = "30"  # the rate a form without a fee starts from

FeeJSON = Mapping[str, object]


class FeeForm(TypedDict):
    """The form's value: the mode, who pays, and each amount as typed."""

    mode: str
    payer: str
    texts: dict[str, str]


def fields(fee: FeeJSON | None) -> FeeForm:
    """The form filled from a setting (None: no fee; its rate starts at :data:`FIRST_RATE`); a
    minimum or tea of 0 and no cap are left empty."""
    texts: dict[str, str] = {}
    for key in AMOUNTS:
        value = None if fee is None else fee.get(key)
        texts[key] = "" if value is None or (key in ("min", "tea") and not value) else str(value)
    if fee is None:
        texts["rate"] = FIRST_RATE
    return {"mode": "none" if fee is None else str(fee["mode"]),
            "payer": "aa" if fee is None else str(fee.get("payer") or "aa"), "texts": texts}


def enabled(form: FeeForm) -> bool:
    """Whether who pays and the amounts may be set (a fee is chosen)."""
    return form["mode"] != "none"


def _number(text: str) -> Decimal | None:
    """A field's number, whole or not (None: empty, or not a plain number)."""
    t = clean(text)
    if not t or not t.isascii() or not t.replace(".", "", 1).isdigit():
        return None
    try:
        return Decimal(t)
    except InvalidOperation:
        return None


def _label(key: str) -> Both:
    """A field's name, without what its label adds in brackets."""
    return {"zh": tr(LABELS[key], "zh").split("（")[0], "en": tr(LABELS[key], "en").split(" (")[0]}


def check(form: FeeForm) -> FeeJSON | Refused | None:
    """The setting the form makes (None: no fee), or why not: an amount not whole points
    0..MAX_AMOUNT, the rate empty, the minimum above the cap (an empty minimum or tea is 0, an
    empty cap no cap).

    >>> check({"mode": "round", "payer": "winners", "texts": {"rate": "20", "min": "90", "cap": "60"}}).words("en")
    'The minimum cannot be above the cap'
    >>> check({"mode": "hand", "payer": "aa", "texts": {"rate": ""}}).words("en")
    'Rate is not filled in'
    >>> check({"mode": "hand", "payer": "aa", "texts": {"rate": "３０"}})["rate"]
    30
    >>> check({"mode": "none", "payer": "aa", "texts": {}}) is None
    True
    """
    if form["mode"] == "none":
        return None
    values: dict[str, int | None] = {}
    for key in AMOUNTS:
        text = clean(form["texts"].get(key, ""))
        if not text and key != "rate":
            values[key] = None if key == "cap" else 0
            continue
        if not text:
            return Refused("fe_empty", "fee.empty", "malformed", {"label": _label(key)})
        if not text.isascii() or not text.isdigit() or int(text) > MAX_AMOUNT:
            return Refused("fe_bad_number", "fee.bad_number", "malformed",
                           {"label": _label(key), "max": f"{MAX_AMOUNT:,}", "text": text[:20]})
        values[key] = int(text)
    cap, least = values["cap"], values["min"] or 0
    if cap is not None and least > cap:
        return Refused("fe_min_over_cap", "fee.min_over_cap", "malformed")
    try:
        return FeeSetting.from_json({"mode": form["mode"], "payer": form["payer"], **values}).to_json()
    except InvalidEventError as e:  # (the engine's own check: a mode or payer the form does not offer)
        return Refused("refused", "fee.refused", "malformed", {"error": str(e)}, rule=e)


def step(form: FeeForm, key: str, up: bool) -> str:
    """The field ``key`` after − or + (:data:`STEPS`), never below 0: an empty field counts as 0
    (an empty cap is no cap: + gives the minimum's value or one step, − keeps it empty; − below
    0 takes the cap away); a decimal goes to the whole number one step on (1.5 + 1 → 2, − 1 → 1);
    what is not a number stays (:func:`check` says why).

    >>> f = {"mode": "hand", "payer": "aa", "texts": {"rate": "", "min": "40", "cap": "", "tea": "1.5"}}
    >>> step(f, "rate", True), step(f, "rate", False), step(f, "tea", True), step(f, "tea", False)
    ('5', '0', '2', '1')
    >>> step(f, "cap", True), step(f, "cap", False), step({**f, "texts": {"cap": "5"}}, "cap", False)
    ('40', '', '')
    >>> step({**f, "texts": {"rate": "2元"}}, "rate", True)
    '2元'
    """
    text = form["texts"].get(key, "")
    by = STEPS[key]
    if not clean(text):
        if key == "cap":
            least = _number(form["texts"].get("min", ""))
            return str(max(by, int(least or 0))) if up else ""
        return str(by) if up else "0"
    value = _number(text)
    if value is None:
        return text
    moved = math.floor(value) + by if up else math.ceil(value) - by
    if moved < 0:
        return "" if key == "cap" else "0"
    return str(min(moved, MAX_AMOUNT))


def playing(public: PublicState) -> bool:
    """Whether a session is played, whose fee the ``fee`` event sets (the engine's phase says)."""
    return "fee" in accepts(public["phase"])


def command(form: FeeForm, public: PublicState) -> dict[str, object] | Refused:
    """The ``fee`` event for the session being played, or why not: the form's refusal, no session
    played, or the fee it already has."""
    setting = check(form)
    if isinstance(setting, Refused):
        return setting
    if not playing(public):
        return Refused("fe_ended", "fee.ended")
    if setting == public.get("fee"):
        return Refused("fe_already", "fee.already")
    return {"type": "fee", "fee": setting}


__all__ = ["AMOUNTS", "LABELS", "MODES", "PAYERS", "STEPS", "FeeForm", "check", "command", "enabled", "fields",
           "playing", "step"]
