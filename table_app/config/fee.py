"""The config's ``[fee]`` keys (docs/config.md): the table's default fee setting, each key checked
as ``table_app.config.file`` checks its keys, and the setting they make together (``engine.fees``).

The keys are the setting's (docs/rules.md "Fees"), but TOML has no null: ``mode = ""`` is no
fee (the default), and ``cap = 0`` no cap.

>>> setting("hour", 30, 20, 0, "aa", 5)
FeeSetting(mode='hour', rate=30, min=20, cap=None, payer='aa', tea=5)
>>> setting("", 30, 20, 0, "aa", 5) is None
True
>>> setting("hour", 30, 200, 100, "aa", 0)
Traceback (most recent call last):
...
ValueError: [fee]: 'min' (200) must not be above 'cap' (100)
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import InvalidEventError
from engine.fees import FEE_MODES, FEE_PAYERS, FeeSetting
from engine.fields import MAX_AMOUNT


def check_mode(v: object) -> str:
    if v != "" and v not in FEE_MODES:
        raise ValueError(f"one of {', '.join(FEE_MODES)}, or \"\" for no fee")
    return str(v)


def check_amount(v: object) -> int:
    if type(v) is not int or not 0 <= v <= MAX_AMOUNT:
        raise ValueError(f"a whole number of points 0..{MAX_AMOUNT:,}")
    return v


def check_payer(v: object) -> str:
    if v not in FEE_PAYERS:
        raise ValueError(f"one of {', '.join(FEE_PAYERS)}")
    return str(v)


def setting(mode: str, rate: int, low: int, cap: int, payer: str, tea: int) -> FeeSetting | None:
    """The setting the ``[fee]`` keys make (None: ``mode`` is empty, no fee); ValueError if they
    do not go together."""
    if not mode:
        return None
    try:
        return FeeSetting.from_json({"mode": mode, "rate": rate, "min": low, "cap": cap or None, "payer": payer,
                                     "tea": tea})
    except InvalidEventError as e:
        raise ValueError("[fee]: " + str(e).removeprefix("fee: ").split(" in {")[0]) from None


@dataclass(frozen=True)
class FeeKeys:
    """The ``[fee]`` keys of ``table_app.config.file.Config`` (its base): they must make a setting
    together (ValueError when built, which ``parse_config`` reports as a ``ConfigError``)."""

    fee_mode: str = ""
    fee_rate: int = 0
    fee_min: int = 0
    fee_cap: int = 0
    fee_payer: str = "aa"
    fee_tea: int = 0

    def __post_init__(self) -> None:
        self.fee_setting()

    def fee_setting(self) -> FeeSetting | None:
        """The table's default fee (None: no fee); the parlour's, once sent, wins (``table_app/core/house_fee.py``)."""
        return setting(self.fee_mode, self.fee_rate, self.fee_min, self.fee_cap, self.fee_payer, self.fee_tea)
