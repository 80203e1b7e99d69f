"""Settings, changed on the screen and saved to the config file (``table_app.config.save_keys``):
the language, where the screen stands (upright, or facing every seat from the middle), the
screen's size (every size is in mm from it), the claim window's seconds and the table's name.
Below, how each link is doing (buttons, panel, MQTT), the font and the journal."""

from __future__ import annotations

import os
from typing import Any

from kivy.core.window import Window

from table_app.present.words import known, tr
from table_app.ui.screens import Base, app

DIAGONALS = (5.0, 7.0, 8.0, 10.1, 11.6, 13.3, 15.6, 21.5)
CLAIM_STEPS = (0.0, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)


def step(values: tuple[float, ...], now: float, up: bool) -> float:
    """The next value up or down a list of steps (from wherever ``now`` is)."""
    if up:
        return next((v for v in values if v > now + 1e-9), values[-1])
    return next((v for v in reversed(values) if v < now - 1e-9), values[0])


class SettingsScreen(Base):
    def refresh(self) -> None:
        a = app()
        lang = a.lang
        ids = self.ids
        ids.lang_zh.state = "down" if lang == "zh" else "normal"
        ids.lang_en.state = "down" if lang == "en" else "normal"
        ids.upright.state = "down" if a.layout == "upright" else "normal"
        ids.facing.state = "down" if a.layout == "facing" else "normal"
        ids.diagonal.text = tr("inches_n", lang, n=a.diagonal_in)
        ids.claim.text = tr("seconds_n", lang, s=a.service.claim_window_s)
        if not ids.table_id.focus:
            ids.table_id.text = a.links.get("table_id", "table")
        ids.save.disabled = a.config_path is None
        rows = []
        for k in ("hardware", "panel", "mqtt"):
            v = a.links.get(k, "not_connected")
            head, _, rest = v.partition(" · ")
            rows.append((tr(k, lang), (tr(head, lang) if known(head) else head) + (f" · {rest}" if rest else "")))
        rows.append((tr("phones_link", lang), a.join_url.split("/join/")[0] if a.join_url else tr("phones_off", lang)))
        # (file names, not paths: whole on a 7" screen; the paths are in the docs and `xian-table doctor`)
        rows.append((tr("font", lang), os.path.basename(a.font_path) if a.font_path else tr("no_font", lang)))
        rows.append((tr("journal", lang), os.path.basename(a.links.get("journal", ""))))
        rows.append((tr("window", lang), f"{Window.width}×{Window.height}"))
        if a.sim:
            rows.append(("", tr("keys_help", lang)))
        ids.links.text = "\n".join(f"{k}: {v}" if k else v for k, v in rows)

    def set_diagonal(self, up: bool) -> None:
        a = app()
        a.diagonal_in = step(DIAGONALS, a.diagonal_in, up)
        a.sizes()
        self.refresh()

    def set_claim(self, up: bool) -> None:
        a = app()
        a.service.claim_window_s = step(CLAIM_STEPS, float(a.service.claim_window_s), up)  # the next window
        self.refresh()

    def save(self) -> None:
        a = app()
        from table_app.config import ConfigError, save_keys

        values: dict[str, Any] = {"ui.lang": a.lang, "ui.layout": a.layout, "ui.diagonal_in": a.diagonal_in,
                                  "table.claim_window_s": float(a.service.claim_window_s)}
        table_id = self.ids.table_id.text.strip()
        if table_id:
            values["table.id"] = table_id
        try:
            path = save_keys(a.config_path, values)
        except (ConfigError, OSError) as e:
            a.say(tr("save_failed", a.lang, error=e))
            return
        a.links["table_id"] = values.get("table.id", a.links.get("table_id", "table"))
        a.say(tr("saved_to", a.lang, path=path))
