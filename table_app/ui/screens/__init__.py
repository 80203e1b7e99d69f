"""The screens, one module each with its layout beside it (``<name>.py`` + ``<name>.kv``).

A screen is built the first time it is shown (:func:`make`): its module is imported and its
``.kv`` loaded then, so starting the app costs only the first screen. Every screen has
``refresh()`` (re-read ``app.pub`` and the language) and sends commands only through
``app.send``; nothing here decides a rule — the engine accepts or refuses.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Final

from kivy.app import App
from kivy.lang import Builder
from kivy.uix.screenmanager import Screen

HERE: Final = Path(__file__).parent
SCREENS: Final[dict[str, str]] = {
    "session": "SessionScreen",
    "rules": "RulesScreen",
    "seating": "SeatingScreen",
    "sithere": "SitHereScreen",
    "table": "TableScreen",
    "wall": "WallScreen",
    "win": "WinScreen",
    "settlement": "SettlementScreen",
    "scores": "ScoresScreen",
    "history": "HistoryScreen",
    "settings": "SettingsScreen",
    "final": "FinalScreen",
    "entry": "EntryScreen",
    "past": "PastScreen",  # (issue 29: past sessions, one session, a hand replayed, records)
    "past_session": "PastSessionScreen",
    "replay": "ReplayScreen",
    "records": "RecordsScreen",
    "fee": "FeeScreen",  # (issue 31: the table fee)
}
"""Each screen's name (its module and ``.kv`` file) and class."""
STEP_SCREENS: Final[dict[str, str]] = {"new_session": "session", "seating": "seating", "confirm_win": "win",
                                       "next_hand": "settlement", "final": "final", "score_hand": "entry"}
"""The screen of each of the table's own steps (``present.buttons.forward``: the engine's ``step``, the
results of an ended session, score-only entry): where the table goes for it, and its home screen then."""

_loaded: set[str] = set()


def app() -> Any:
    return App.get_running_app()


class Base(Screen):  # type: ignore[misc]  # Kivy is untyped
    title = ""

    def refresh(self) -> None:
        pass

    def refused(self, code: str, params: dict[str, Any]) -> None:
        """A command sent from here was refused (the reason is already in the top line)."""


def make(name: str) -> Base:
    """Build screen ``name``: import its module, load its ``.kv`` once, make it."""
    module = importlib.import_module(f"table_app.ui.screens.{name}")
    if name not in _loaded:
        path = str(HERE / f"{name}.kv")
        Builder.unload_file(path)
        Builder.load_file(path)
        _loaded.add(name)
    screen: Base = getattr(module, SCREENS[name])(name=name)
    return screen


def unload_all() -> None:
    """Forget the loaded rules (a second app in one process, as in the tests, loads them again)."""
    for name in list(_loaded):
        Builder.unload_file(str(HERE / f"{name}.kv"))
    _loaded.clear()
