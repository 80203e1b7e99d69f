"""Settings, changed on the screen and saved to the config file (``table_app.config.file.save_keys``):
the language, where the screen stands (upright, or facing every seat from the middle), the
screen's size (every size is in mm from it), the claim window's seconds (0: no limit, said so),
the money a point is worth (points only by default) and the table's name — each by a name a
player reads, a refused value said in the screen's language, whole. Beside, how each link is
doing (buttons, panel, MQTT), the font and the journal."""

from __future__ import annotations

import os
from decimal import Decimal
from typing import Any

from kivy.core.window import Window

from table_app.present.money import Money
from table_app.present.words import known, tr
from table_app.ui import palette as P
from table_app.ui.screens import Base, app

DIAGONALS = (5.0, 7.0, 8.0, 10.1, 11.6, 13.3, 15.6, 21.5)
CLAIM_STEPS = (0.0, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)
MONEY_STEPS = ("", "0.1", "0.2", "0.5", "1", "2", "5", "10")
WANTS = {"table.id": "want_table_id", "money.per_point": "want_money"}
"""The words saying what a setting typed on the screen must be (the config's own are English)."""
LABELS = {"table.id": "set_table_id", "money.per_point": "set_money", "table.claim_window_s": "set_claim_window",
          "ui.diagonal_in": "set_diagonal", "ui.lang": "set_lang", "ui.layout": "set_layout"}


def step(values: tuple[float, ...], now: float, up: bool) -> float:
    """The next value up or down a list of steps (from wherever ``now`` is)."""
    if up:
        return next((v for v in values if v > now + 1e-9), values[-1])
    return next((v for v in reversed(values) if v < now - 1e-9), values[0])


def money_step(now: str, up: bool) -> str:
    """The next money value up or down :data:`MONEY_STEPS` (from wherever ``now`` is).

    >>> money_step("", True), money_step("0.5", False), money_step("0.3", True), money_step("10", True)
    ('0.1', '0.2', '0.5', '10')
    """
    values = [Decimal(v or "0") for v in MONEY_STEPS]
    at = Decimal(now or "0")
    if up:
        return next((MONEY_STEPS[i] for i, v in enumerate(values) if v > at), MONEY_STEPS[-1])
    return next((MONEY_STEPS[i] for i in reversed(range(len(values))) if values[i] < at), MONEY_STEPS[0])


class SettingsScreen(Base):
    note_error = ""  # the last value refused, until a save succeeds or the screen is left

    def on_leave(self, *_: object) -> None:
        self.note_error = ""

    def refresh(self) -> None:
        a = app()
        lang = a.lang
        ids = self.ids
        ids.lang_zh.state = "down" if lang == "zh" else "normal"
        ids.lang_en.state = "down" if lang == "en" else "normal"
        ids.upright.state = "down" if a.layout == "upright" else "normal"
        ids.facing.state = "down" if a.layout == "facing" else "normal"
        ids.diagonal.text = tr("inches_n", lang, n=a.diagonal_in)
        window = a.service.claim_window_s
        ids.claim.text = tr("seconds_n", lang, s=window) if window else tr("claim_no_limit", lang)
        money = Money.of(a.money_per_point)
        ids.money.text = tr("money_off", lang) if money is None else \
            tr("money_amount", lang, value=money.per_point(), unit=money.unit(lang))
        if not ids.table_id.focus:
            ids.table_id.text = a.links.get("table_id", "table")
        ids.save.disabled = a.config_path is None
        self.show_note()
        ids.links.text = "\n".join(f"{k}: {v}" if k else v for k, v in self.link_rows())

    def show_note(self) -> None:
        """A refused value (in the message colour), else what a claim window of 0 means."""
        a = app()
        ids = self.ids
        if self.note_error:
            ids.note.text, ids.note.color = self.note_error, P.MESSAGE
        else:
            ids.note.text = "" if a.service.claim_window_s else tr("claim_no_limit_why", a.lang)
            ids.note.color = P.DIM

    def link_rows(self) -> list[tuple[str, str]]:
        a = app()
        lang = a.lang
        rows = []
        for k in ("hardware", "panel", "mqtt"):
            v = a.links.get(k, "not_connected")
            head, _, rest = v.partition(" · ")
            if head == "off":  # (the config's key is in docs/config.md; the screen says it in words)
                rows.append((tr(k, lang), tr(f"link_{k}_off", lang) if known(f"link_{k}_off") else tr("off", lang)))
                continue
            rows.append((tr(k, lang), (tr(head, lang) if known(head) else head) + (f" · {rest}" if rest else "")))
        rows.append((tr("phones_link", lang), a.join_url.split("/join/")[0] if a.join_url else
                     tr("phones_not_set", lang)))
        # (file names, not paths: whole on a 7" screen; the paths are in the docs and `xian-table doctor`)
        rows.append((tr("font", lang), os.path.basename(a.font_path) if a.font_path else tr("no_font", lang)))
        rows.append((tr("journal", lang), os.path.basename(a.links.get("journal", ""))))
        rows.append((tr("window", lang), f"{Window.width}×{Window.height}"))
        if a.sim:
            rows.append(("", tr("keys_help", lang)))
        return rows

    def set_diagonal(self, up: bool) -> None:
        a = app()
        a.diagonal_in = step(DIAGONALS, a.diagonal_in, up)
        a.sizes()
        self.refresh()

    def set_claim(self, up: bool) -> None:
        a = app()
        a.service.claim_window_s = step(CLAIM_STEPS, float(a.service.claim_window_s), up)  # the next window
        self.refresh()

    def set_money(self, up: bool) -> None:
        a = app()
        a.money_per_point = money_step(a.money_per_point, up)
        self.refresh()

    def save(self) -> None:
        a = app()
        from table_app.config.file import ConfigError, check_value, save_keys

        values: dict[str, Any] = {"ui.lang": a.lang, "ui.layout": a.layout, "ui.diagonal_in": a.diagonal_in,
                                  "table.claim_window_s": float(a.service.claim_window_s),
                                  "money.per_point": a.money_per_point}
        table_id = self.ids.table_id.text.strip()
        if table_id:
            values["table.id"] = table_id
        for key, value in values.items():  # each refusal in the screen's language, whole
            try:
                check_value(key, value)
            except ConfigError:
                want = tr(WANTS.get(key, "want_any"), a.lang)
                self.note_error = tr("setting_bad", a.lang, label=tr(LABELS[key], a.lang), want=want)
                self.show_note()
                return
        try:
            path = save_keys(a.config_path, values)
        except (ConfigError, OSError) as e:
            self.note_error = tr("save_failed", a.lang, error=e)
            self.show_note()
            return
        self.note_error = ""
        self.show_note()
        a.links["table_id"] = values.get("table.id", a.links.get("table_id", "table"))
        a.say(tr("saved_to", a.lang, path=path))
