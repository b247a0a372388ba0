"""Timing a native function as TVM's `rt_mod.time_evaluator` does: `repeat`
measurements, each the mean time of `number` consecutive calls."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["ProfileResult", "time_evaluator"]


@dataclass(frozen=True)
class ProfileResult:
    """What a time evaluator measured (TVM's `ProfileResult`): `results` holds one
    figure per measurement, each the mean seconds of one call over `number` calls."""

    results: tuple[float, ...]

    @property
    def mean(self) -> float:
        """The mean of the measurements, in seconds."""
        return statistics.fmean(self.results)

    @property
    def median(self) -> float:
        """The median of the measurements, in seconds."""
        return statistics.median(self.results)

    @property
    def min(self) -> float:
        """The fastest measurement, in seconds."""
        return min(self.results)

    @property
    def max(self) -> float:
        """The slowest measurement, in seconds."""
        return max(self.results)

    @property
    def std(self) -> float:
        """The standard deviation of the measurements (0 for one), in seconds."""
        return statistics.pstdev(self.results)


def time_evaluator(function: Callable[..., object], number: int = 10, repeat: int = 1,
                   warmup: int = 1) -> Callable[..., ProfileResult]:
    """A callable that, given `function`'s arguments, calls it `warmup` times untimed,
    then makes `repeat` measurements of `number` calls each."""
    for label, value, least in (("number", number, 1), ("repeat", repeat, 1),
                                ("warmup", warmup, 0)):
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise ValueError(f"time_evaluator takes {label} >= {least}, not {value!r}")

    def evaluate(*args) -> ProfileResult:
        for _ in range(warmup):
            function(*args)
        results = []
        for _ in range(repeat):
            began = time.perf_counter()
            for _ in range(number):
                function(*args)
            results.append((time.perf_counter() - began) / number)
        return ProfileResult(tuple(results))

    return evaluate
