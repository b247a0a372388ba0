"""The accuracy of math-polynomial-approximation, measured natively: each op's f32
approximation (a `vector<16xf32>` kernel through `compile_module`, which runs the pass)
on f32 inputs spread over the whole domain, against a double-precision reference
(numpy; torch's float64 erf, numpy has none). Prints, for each op, the largest error in
units in the last place of the f32 result, where it occurs, and how many special values
(NaN, infinities, zeros' signs, overflow and underflow) differ from the reference
rounded to f32; and the same of the C library (the pass disabled) for comparison.

    .venv/bin/python benchmarks/math_accuracy.py                 # every 17th f32
    .venv/bin/python benchmarks/math_accuracy.py --stride 1      # every f32 (slow)
    .venv/bin/python benchmarks/math_accuracy.py --ops exp,erf --no-libm

The error of a result y against the exact value v is |y - v| / ulp(v), where ulp(v) is
the spacing of f32 values at |v| (2^-149 below the smallest normal number): a
correctly rounded result errs by at most 0.5, a subnormal result is measured in
absolute units of 2^-149.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from mlc.ir import Context, parse_module
from mlc.ir.passes.context import PassContext
from mlc.llvm.build import compile_module

CHUNK = 1 << 20
"""Values per kernel call (the kernel's static memref size)."""
LANES = 16

KERNEL = """
func.func @kernel(%x: memref<{n}xf32>, %y: memref<{n}xf32>) {{
  %c0 = arith.constant 0 : index
  %n = arith.constant {n} : index
  %step = arith.constant {lanes} : index
  scf.for %i = %c0 to %n step %step {{
    %v = vector.load %x[%i] : memref<{n}xf32>, vector<{lanes}xf32>
    %r = math.{op} %v : vector<{lanes}xf32>
    vector.store %r, %y[%i] : memref<{n}xf32>, vector<{lanes}xf32>
  }}
  return
}}
"""


def compile_kernel(op: str, approximate: bool = True, n: int = CHUNK) -> Callable:
    """A native function `(x, y)` writing `math.<op>` of the f32 array x (n values) to
    y: the polynomial approximation, or with `approximate=False` the C library and
    LLVM's intrinsics (the pass disabled)."""
    module = parse_module(KERNEL.format(op=op, n=n, lanes=LANES), Context())
    disabled = () if approximate else ("math-polynomial-approximation",)
    with PassContext(disabled=disabled):
        return compile_module(module)["kernel"]


def _torch_erf(x: np.ndarray) -> np.ndarray:
    import torch

    return torch.special.erf(torch.from_numpy(x)).numpy()


REFERENCES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "exp": np.exp, "exp2": np.exp2, "expm1": np.expm1, "log": np.log, "log2": np.log2,
    "log1p": np.log1p, "tanh": np.tanh, "erf": _torch_erf, "sin": np.sin, "cos": np.cos,
}
"""Each op's double-precision reference."""


def reference(op: str, x: np.ndarray) -> np.ndarray:
    """`op` of the f32 values `x`, in double precision."""
    with np.errstate(all="ignore"):
        return REFERENCES[op](x.astype(np.float64))


def ulp_errors(y: np.ndarray, exact: np.ndarray) -> np.ndarray:
    """|y - exact| in units of the f32 spacing at |exact| (2^-149 below 2^-126), for
    finite `exact` rounding to a finite f32."""
    _, exponent = np.frexp(exact)  # exact = m 2^exponent, m in [0.5, 1)
    ulp = np.ldexp(1.0, np.maximum(exponent - 1, -126) - 23)
    return np.abs(y.astype(np.float64) - exact) / ulp


def special_mismatches(x: np.ndarray, y: np.ndarray, exact: np.ndarray) -> np.ndarray:
    """Where `y` is not the special value the exact result rounds to: a NaN, an
    infinity, or a zero whose sign differs."""
    with np.errstate(over="ignore"):
        rounded = exact.astype(np.float32)
    special = ~np.isfinite(rounded) | ~np.isfinite(y) | ((rounded == 0) & (y == 0))
    same = (np.isnan(rounded) & np.isnan(y)) | (
        (rounded == y) & (np.signbit(rounded) == np.signbit(y)))
    return special & ~same


def f32_sample(stride: int) -> Iterator[np.ndarray]:
    """Every `stride`-th f32 bit pattern of each sign (odd strides reach every low
    mantissa bit), then the special values, in chunks of CHUNK values."""
    for sign in (0, 1 << 31):
        for start in range(0, 1 << 31, CHUNK * stride):
            bits = np.arange(start, min(start + CHUNK * stride, 1 << 31), stride,
                             dtype=np.uint64)
            yield (bits | sign).astype(np.uint32).view(np.float32)
    yield np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.0,
                    np.finfo(np.float32).max, -np.finfo(np.float32).max,
                    np.finfo(np.float32).tiny, np.float32(2.0 ** -149)], np.float32)


@dataclass
class Accuracy:
    """What one op's measurement found."""

    op: str
    values: int = 0
    max_ulp: float = 0.0
    worst_input: float = math.nan
    mismatches: int = 0
    mismatch_examples: list[tuple[float, float, float]] = field(default_factory=list)

    def add(self, x: np.ndarray, y: np.ndarray, exact: np.ndarray) -> None:
        self.values += len(x)
        wrong = special_mismatches(x, y, exact)
        if wrong.any():
            self.mismatches += int(wrong.sum())
            for i in np.flatnonzero(wrong)[:3 - len(self.mismatch_examples)]:
                self.mismatch_examples.append((float(x[i]), float(y[i]), float(exact[i])))
        with np.errstate(over="ignore"):
            rounded = exact.astype(np.float32)
        measured = np.isfinite(rounded) & np.isfinite(y) & ~((rounded == 0) & (y == 0))
        if measured.any():
            errors = ulp_errors(y[measured], exact[measured])
            worst = int(np.argmax(errors))
            if errors[worst] > self.max_ulp:
                self.max_ulp = float(errors[worst])
                self.worst_input = float(x[measured][worst])


def measure(op: str, kernel: Callable, inputs: Iterator[np.ndarray]) -> Accuracy:
    """The accuracy of `kernel` (one of `compile_kernel`'s) as `op` on `inputs`."""
    accuracy = Accuracy(op)
    x = np.empty(CHUNK, np.float32)
    y = np.empty(CHUNK, np.float32)
    for chunk in inputs:
        x[:len(chunk)] = chunk
        x[len(chunk):] = 0.0
        kernel(x, y)
        accuracy.add(chunk, y[:len(chunk)].copy(), reference(op, chunk))
    return accuracy


def main(argv: list[str] | None = None) -> int:
    from mlc.ir.passes.math.polynomial_approximation import MAX_ULP_ERROR

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stride", type=int, default=17,
                        help="measure every STRIDE-th f32 bit pattern (1: all of them)")
    parser.add_argument("--ops", default=",".join(REFERENCES),
                        help="comma-separated ops (default: all)")
    parser.add_argument("--no-libm", action="store_true",
                        help="do not measure the C library for comparison")
    args = parser.parse_args(argv)
    ops = args.ops.split(",")
    unknown = [op for op in ops if op not in REFERENCES]
    if unknown or args.stride < 1:
        parser.error(f"unknown ops: {', '.join(unknown)}" if unknown else "--stride >= 1")
    print(f"every {args.stride}th f32 of each sign ({2 * (1 << 31) // args.stride:,} values "
          "per op) and the special values; errors in ulp of the f32 result")
    print(f"{'op':<7} {'stated':>7} {'measured':>9} {'at x =':>15} {'specials':>9}"
          + ("" if args.no_libm else f" {'C library':>10} {'specials':>9}"))
    failed = False
    for op in ops:
        result = measure(op, compile_kernel(op), f32_sample(args.stride))
        line = (f"{op:<7} {MAX_ULP_ERROR[op]:>7} {result.max_ulp:>9.3f} "
                f"{result.worst_input:>15.8g} {result.mismatches:>9}")
        if not args.no_libm:
            libm = measure(op, compile_kernel(op, approximate=False), f32_sample(args.stride))
            line += f" {libm.max_ulp:>10.3f} {libm.mismatches:>9}"
        print(line, flush=True)
        for x, y, exact in result.mismatch_examples:
            print(f"    {op}({x!r}) = {y!r}, exact {exact!r}")
        failed |= result.max_ulp > MAX_ULP_ERROR[op] or result.mismatches > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
