"""Math functions over 1M f32 values natively: `y = f(x)` written with mlc.loop.te and
vectorized by 16 (`sch.vectorize`), compiled with the polynomial approximations
(math-polynomial-approximation, what `compile_module` and `build` run) and without them
(the pass disabled: LLVM's intrinsics and the C library, one call per element), beside
numpy in the same run. Single thread, best of `--repeat` timed runs; the load average
is printed with the figures.

    .venv/bin/python benchmarks/native_math.py
    .venv/bin/python benchmarks/native_math.py --ops exp,erf --size 4194304 --repeat 20
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Callable

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from mlc.ir.dialects.builtin import ModuleOp  # noqa: E402
from mlc.ir.passes.context import PassContext  # noqa: E402
from mlc.ir.passes.manager import run_pipeline  # noqa: E402
from mlc.llvm.build import compile_module  # noqa: E402
from mlc.loop import te  # noqa: E402
from mlc.loop.schedule import Schedule  # noqa: E402

FUNCTIONS: dict[str, tuple[Callable, Callable]] = {
    "exp": (te.exp, np.exp), "log": (te.log, np.log), "tanh": (te.tanh, np.tanh),
    "erf": (te.erf, None), "sin": (te.sin, np.sin), "cos": (te.cos, np.cos),
}
"""Each op's te function and numpy's (numpy has no erf)."""


def math_kernel(op: str, n: int, approximate: bool = True, lanes: int = 16) -> Callable:
    """A native `(x, y)` computing y = op(x) on n f32 values, the loop vectorized by
    `lanes`; with or without the polynomial approximations."""
    X = te.placeholder((n,), "float32", name="X")
    Y = te.compute((n,), lambda i: FUNCTIONS[op][0](X[i]), name="Y")
    module = ModuleOp.build()
    module.body.append(te.create_prim_func([X, Y], name="main"))
    sch = Schedule(module)
    _, inner = sch.split(sch.get_loops(sch.get_block("Y"))[0], [None, lanes])
    sch.vectorize(inner)
    module = sch.mod
    result = run_pipeline(module, "loop-lower,canonicalize")
    if not result.success:
        raise SystemExit("\n".join(d.message for d in result.diagnostics))
    disabled = () if approximate else ("math-polynomial-approximation",)
    with PassContext(disabled=disabled):
        return compile_module(module)["main"]


def best_time(fn, args: tuple, repeat: int) -> float:
    """The best wall time of `fn(*args)` over `repeat` runs, after one warm-up."""
    fn(*args)
    best = math.inf
    for _ in range(repeat):
        began = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - began)
    return best


def inputs(op: str, n: int) -> np.ndarray:
    """n values where `op` is defined and varies: positive for log, [-10, 10] else."""
    rng = np.random.default_rng(0)
    if op == "log":
        return rng.uniform(1e-3, 1e3, n).astype(np.float32)
    return rng.uniform(-10, 10, n).astype(np.float32)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", default="exp,erf,tanh,log,sin,cos")
    parser.add_argument("--size", type=int, default=1 << 20)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args(argv)
    ops = args.ops.split(",")
    unknown = [op for op in ops if op not in FUNCTIONS]
    if unknown or args.size < 16 or args.size % 16:
        parser.error(f"unknown ops: {', '.join(unknown)} (known: {', '.join(FUNCTIONS)})"
                     if unknown else "--size: a positive multiple of 16")
    n = args.size
    print(f"y = f(x) on {n:,} f32 values, single thread, best of {args.repeat}; "
          f"load average {os.getloadavg()[0]:.2f} at the start")
    print(f"  {'op':<6} {'approximated':>14} {'C library':>14} {'numpy':>14} {'speed-up':>9}")
    for op in ops:
        x = inputs(op, n)
        y = np.empty_like(x)
        row = []
        for approximate in (True, False):
            kernel = math_kernel(op, n, approximate)
            row.append(best_time(kernel, (x, y), args.repeat))
        reference = FUNCTIONS[op][1]
        numpy_time = best_time(reference, (x,), args.repeat) if reference else math.nan
        cells = [f"{n / t / 1e6:>8.0f} M/s" if math.isfinite(t) else f"{'-':>12}"
                 for t in (*row, numpy_time)]
        print(f"  {op:<6} {cells[0]:>14} {cells[1]:>14} {cells[2]:>14} "
              f"{row[1] / row[0]:>8.1f}x", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
