"""All the checks, one after the other, and the screen (or JSON) they make."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from table_app.config.file import Config

from engine.fields import printable
from table_app.doctor.broker import check_broker, check_mosquitto
from table_app.doctor.check import ERROR, LEVELS, Check, Probe
from table_app.doctor.machine import check_display, check_font, check_power, check_service
from table_app.doctor.panel import check_panel, installed_panel
from table_app.doctor.parlour import check_parlour
from table_app.doctor.storage import check_backups, check_disk, check_journal


def run_checks(cfg: Config, probe: Probe | None = None) -> list[Check]:
    probe = Probe() if probe is None else probe
    journal = cfg.journal_file()
    backup_dir = Path(getattr(cfg, "backup_dir", "") or journal.parent / "backups")
    checks: list[Callable[[], Check]] = [
        lambda: check_journal(journal),
        lambda: check_backups(backup_dir),
        lambda: check_disk(journal),
        lambda: check_power(probe),
        lambda: check_panel(probe, installed_panel(probe)),
        lambda: check_broker(probe, getattr(cfg, "mqtt_url", "") or "mqtt://localhost:1883"),
        lambda: check_mosquitto(probe),
        lambda: check_parlour(probe, getattr(cfg, "mqtt_url", "") or "mqtt://localhost:1883"),
        lambda: check_font(probe),
        lambda: check_display(probe),
        lambda: check_service(probe),
    ]
    names = ["journal", "backup", "disk", "power", "panel", "broker", "mosquitto", "parlour", "font", "display",
             "service"]
    out = []
    for name, fn in zip(names, checks, strict=True):
        try:
            out.append(fn())
        except Exception as e:  # a check that breaks is a finding, not a crash
            out.append(Check(name, ERROR, f"the check itself failed: {type(e).__name__}: {e}",
                             "please report this with the output of xian-table doctor"))
    return out


def render(checks: Sequence[Check], header: str = "") -> str:
    """The checks for a terminal; what they quote (a path, a journal's text) never acts on it."""
    width = max(len(c.name) for c in checks)
    lines = [header] if header else []
    for c in checks:
        lines.append(f"{c.level:<7}  {c.name:<{width}}  {printable(c.message)}")
        if c.fix:
            lines.append(f"{'':<7}  {'':<{width}}  → {printable(c.fix)}")
    return "\n".join(lines) + "\n"


def to_json(checks: Sequence[Check]) -> dict[str, Any]:
    worst = max((LEVELS.index(c.level) for c in checks), default=0)
    return {"status": LEVELS[worst], "checks": [asdict(c) for c in checks],
            "at": datetime.now(UTC).isoformat(timespec="seconds")}
