"""The table's default fee saved from the touchscreen (issue 31): the config's ``[fee]`` keys
(written with ``table_app.config.save_keys``, each checked as the config reads it) and the
service's default for the next sessions that name none. A problem comes back in words."""

from __future__ import annotations

from collections.abc import Mapping

from table_app.present.words import tr


def save_default(a: object, setting: Mapping[str, object] | None) -> str:
    """Save ``setting`` (None: no fee) as the table's default; "" when saved, else why not."""
    from table_app.config import ConfigError, save_keys

    lang = str(getattr(a, "lang", "zh"))
    path = getattr(a, "config_path", None)
    if path is None:
        return tr("save_failed", lang, error="no config file")
    values = {"fee.mode": "none"} if setting is None else \
        {f"fee.{k}": v for k, v in setting.items() if v is not None}
    try:
        save_keys(path, values)
    except (ConfigError, OSError) as e:
        return tr("save_failed", lang, error=e)
    service = getattr(a, "service", None)
    if service is not None and hasattr(service, "fee_default"):
        service.fee_default = None if setting is None else dict(setting)
    return ""
