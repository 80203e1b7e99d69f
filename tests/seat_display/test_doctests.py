"""The examples in the docstrings run (pytest's --doctest-modules covers tests/ and engine/ only)."""

from __future__ import annotations

import doctest

import pytest

import table_app.mqtt.names
import table_app.seat_display.flash


@pytest.mark.parametrize("module", [table_app.mqtt.names, table_app.seat_display.flash])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
