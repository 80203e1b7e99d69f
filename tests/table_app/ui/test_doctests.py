"""The touchscreen's docstring examples run: every module of ``table_app/ui`` that has one,
once the test window has configured Kivy (pytest's own ``--doctest-modules`` leaves
``table_app/ui`` out, so that no worker imports Kivy before its window is set up)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.kivy

UI = Path(__file__).resolve().parents[3] / "table_app" / "ui"
WITH_EXAMPLES = sorted(".".join(p.relative_to(UI.parents[1]).with_suffix("").parts)
                       for p in UI.rglob("*.py") if ">>> " in p.read_text(encoding="utf-8"))


def test_the_touchscreen_has_examples() -> None:
    # (6: the score-only form's and the seating form's examples moved with them to
    # table_app.present.forms.result and .seating, run by pytest)
    assert "table_app.ui.units" in WITH_EXAMPLES and len(WITH_EXAMPLES) >= 6


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_docstring_examples(window: Any, name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
