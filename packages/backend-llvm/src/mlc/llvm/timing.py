"""Timing a native function as TVM's `rt_mod.time_evaluator` does: `repeat`
measurements, each the mean time of `number` consecutive calls; with `flush_cache`,
of `number` calls each timed alone after its array arguments were flushed from every
cache level (TVM's `cache_flush_cpu_non_first_arg`): what a kernel costs inside a
network, whose weights come from memory, rather than called again and again on data
its caches already hold."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

try:
    from numpy.lib.array_utils import byte_bounds
except ImportError:  # numpy 1.x
    from numpy import byte_bounds

__all__ = ["ProfileResult", "flush_arrays", "time_evaluator"]

CACHE_LINE = 64

_CLFLUSH_IR = """
declare void @llvm.x86.sse2.clflush(ptr)

define void @mlc_flush_lines(ptr %start, i64 %bytes) {
entry:
  %empty = icmp sle i64 %bytes, 0
  br i1 %empty, label %done, label %loop
loop:
  %offset = phi i64 [0, %entry], [%next, %loop]
  %line = getelementptr i8, ptr %start, i64 %offset
  call void @llvm.x86.sse2.clflush(ptr %line)
  %next = add i64 %offset, 64
  %more = icmp slt i64 %next, %bytes
  br i1 %more, label %loop, label %done
done:
  fence seq_cst
  ret void
}
"""


@cache
def _flush_lines() -> Callable[[int, int], None] | None:
    """`flush(address, bytes)` evicting those bytes' cache lines (x86's clflush), or
    None on a target without it."""
    import ctypes

    from mlc.llvm.jit import compile_llvm_ir
    from mlc.llvm.target import Target

    if not Target().triple.startswith(("x86_64", "i686", "i386")):
        return None
    library = compile_llvm_ir(_CLFLUSH_IR, Target(), name="<cache flush>")
    function = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int64)(
        library.address("mlc_flush_lines"))
    function.library = library  # the code lives as long as the function
    return function


_EVICTION: list[np.ndarray] = []


def flush_arrays(arrays) -> None:
    """Evict the numpy arrays among `arrays` from every cache level: their lines
    flushed (x86), or elsewhere a buffer larger than the caches written over."""
    flush = _flush_lines()
    if flush is None:
        if not _EVICTION:
            _EVICTION.append(np.zeros(64 << 20, np.uint8))
        _EVICTION[0] += 1
        return
    for array in arrays:
        if isinstance(array, np.ndarray) and array.nbytes:
            start, end = byte_bounds(array)  # strided views: the span they cover
            aligned = start - start % CACHE_LINE
            flush(aligned, end - aligned)


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
                   warmup: int = 1, flush_cache: bool = False) -> Callable[..., ProfileResult]:
    """A callable that, given `function`'s arguments, calls it `warmup` times untimed,
    then makes `repeat` measurements of `number` calls each; with `flush_cache`, each
    call timed alone after the array arguments were flushed from the caches (module
    docstring)."""
    for label, value, least in (("number", number, 1), ("repeat", repeat, 1),
                                ("warmup", warmup, 0)):
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise ValueError(f"time_evaluator takes {label} >= {least}, not {value!r}")

    def evaluate(*args) -> ProfileResult:
        for _ in range(warmup):
            function(*args)
        results = []
        for _ in range(repeat):
            if not flush_cache:
                began = time.perf_counter()
                for _ in range(number):
                    function(*args)
                results.append((time.perf_counter() - began) / number)
                continue
            total = 0.0
            for _ in range(number):
                flush_arrays(args)
                began = time.perf_counter()
                function(*args)
                total += time.perf_counter() - began
            results.append(total / number)
        return ProfileResult(tuple(results))

    return evaluate
