"""What a check finds (:class:`Check`, one of the :data:`LEVELS`) and where the doctor looks
(:class:`Probe`)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

OK, WARNING, ERROR = "ok", "warning", "error"
LEVELS = (OK, WARNING, ERROR)


@dataclass(frozen=True)
class Check:
    name: str
    level: str  # ok | warning | error
    message: str
    fix: str = ""  # what to do; empty when ok

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"level must be one of {LEVELS}, got {self.level!r}")


def run_command(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(list(argv), capture_output=True, text=True, timeout=10)
    except FileNotFoundError as e:
        return subprocess.CompletedProcess(list(argv), 127, "", str(e))
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(list(argv), 124, "", f"{argv[0]} did not answer in 10 s")


@dataclass
class Probe:
    """Where the doctor looks. ``mode``: "app", "headless", or None (from the installed unit)."""

    root: Path = Path("/")
    run: Callable[[Sequence[str]], subprocess.CompletedProcess[str]] = run_command
    which: Callable[[str], str | None] = shutil.which
    mode: str | None = None
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    timeout_s: float = 3.0  # the broker's answer
    listen_s: float = 2.5  # the panel's first frame (it sends HB after 1 s of silence)
    ask_systemd: bool | None = None  # run systemctl about the units (default: on the live system)

    @property
    def live(self) -> bool:
        return self.root.resolve() == Path("/")

    @property
    def systemd(self) -> bool:
        return self.live if self.ask_systemd is None else self.ask_systemd

    def path(self, rel: str) -> Path:
        return self.root / rel.lstrip("/")

    def installed_mode(self) -> str | None:
        if self.mode is not None:
            return self.mode
        units = self.path("etc/systemd/system")
        if (units / "xian-table.service").exists():
            return "app"
        if (units / "xian-table-headless.service").exists():
            return "headless"
        return None


def read_text(p: Path) -> str:
    """The file's text, "" when it cannot be read (a missing /sys or /proc entry is an answer)."""
    try:
        return p.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
