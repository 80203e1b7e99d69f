"""The examples in the docstrings run (pytest's --doctest-modules covers tests/ and engine/ only)."""

from __future__ import annotations

import doctest

import pytest

import hardware.debounce
import hardware.pins


@pytest.mark.parametrize("module", [hardware.debounce, hardware.pins])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
