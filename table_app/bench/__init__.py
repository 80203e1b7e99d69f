"""Benchmarks shipped with the product (``xian-table bench``).

Each suite module has ``NAME``, ``DESCRIPTION`` and ``run(runs, progress) -> list[Result]``.
Targets come from the issues; a result below its target is reported, not hidden.
"""

from __future__ import annotations

import importlib
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import TypeVar

T = TypeVar("T")

# Add suites here, one line each.

SUITES: tuple[str, ...] = ("hand", "service", "mqtt", "slowdisk", "flood", "web", "phones", "sim", "ui", "evening",
                           "startup", "history")
# Suites run only when named (``--only``): long runs, an hour or more.
EXPLICIT: tuple[str, ...] = ("parlour", "floor")


@dataclass(frozen=True)
class Result:
    suite: str
    name: str
    value: float  # the median over runs
    unit: str
    runs: list[float]
    target: float | None = None  # at least this much (higher is better) ...
    target_max: float | None = None  # ... or at most this much (lower is better)
    note: str = ""

    @property
    def meets_target(self) -> bool | None:
        if self.target is not None:
            return self.value >= self.target
        if self.target_max is not None:
            return self.value <= self.target_max
        return None

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        data["meets_target"] = self.meets_target
        return data


def rate(fn: Callable[[T], object], items: Iterable[T], runs: int) -> list[float]:
    """Calls per second of ``fn`` over ``items``, once per run."""
    data = list(items)
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        for x in data:
            fn(x)
        out.append(len(data) / (time.perf_counter() - start))
    return out


def result(suite: str, name: str, values: list[float], unit: str, **kw: object) -> Result:
    return Result(suite, name, statistics.median(values), unit, values, **kw)  # type: ignore[arg-type]


def load(name: str) -> object:
    return importlib.import_module(f"table_app.bench.{name}")
