"""The examples in the UI's pure modules run (table_app/ui is not in pytest's doctest paths; table_app/present is)."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["sim"])
def test_module_examples(name: str) -> None:
    module = importlib.import_module(f"table_app.ui.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
