"""The table's default fee from the touchscreen (issue 31): the same default the parlour's
``fee`` command sets (``table_app.core.house_fee.HouseFee``: kept in the journal's file, the last one
set wins, a restart keeps it) — every session that names no fee gets it."""

from __future__ import annotations

from collections.abc import Mapping

from engine.errors import RuleError
from engine.fees import FeeSetting
from table_app.present.words import tr


def table_default(a: object) -> Mapping[str, object] | None:
    """The fee the next session gets when it names none (None: no fee, or no service)."""
    fees = getattr(getattr(a, "service", None), "fees", None)
    default = None if fees is None else fees.default
    return None if default is None else dict(default.to_json())


def save_default(a: object, setting: Mapping[str, object] | None) -> str:
    """Keep ``setting`` (None: no fee) as the table's default; "" when kept, else why not."""
    lang = str(getattr(a, "lang", "zh"))
    fees = getattr(getattr(a, "service", None), "fees", None)
    if fees is None:
        return tr("save_failed", lang, error="no journal")
    try:
        fees.remember(None if setting is None else FeeSetting.from_json(dict(setting)))
    except RuleError as e:
        return tr("save_failed", lang, error=e)
    return tr("save_failed", lang, error=fees.problem) if fees.problem else ""
