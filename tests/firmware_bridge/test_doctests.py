"""The examples in the docstrings run (pytest's --doctest-modules covers tests/ and engine/ only)."""

from __future__ import annotations

import doctest

import pytest

import firmware_bridge.frames
import firmware_bridge.protocol


@pytest.mark.parametrize("module", [firmware_bridge.frames, firmware_bridge.protocol])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
