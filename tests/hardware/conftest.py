from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory


@pytest.fixture
def mock_factory():
    """gpiozero's own MockFactory (never a home-made GPIO fake); closed after the test."""
    factory = MockFactory()
    yield factory
    factory.close()
    factory.reset()


class Clock:
    def __init__(self, t: float = 50.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock():
    return Clock()
