"""Dialect conversion at scale: how the time of a full conversion grows with the IR.

The workload is one function of N integer ops on i64,

    func.func @main(%arg0: i64, %arg1: i64) -> i64 {
      %0 = arith.addi %arg1, %arg0 : i64
      %1 = arith.muli %0, %arg1 : i64
      ...
      return %N-1 : i64
    }

(addi/subi/muli/xori, operands drawn from the last 20 values), converted in full to
i32: one pattern per op class builds the same op on its converted operands (typed
adaptors), and the library's function-signature conversion converts the signature,
the entry block and the return. A second run appends one op no pattern converts, so
the conversion fails at the very end and rolls everything back; the benchmark checks
that the module then prints exactly as before.

    .venv/bin/python benchmarks/conversion.py                  # 10k and 100k ops
    .venv/bin/python benchmarks/conversion.py --sizes 1000,10000 --repeat 3

Times are in process, best of `--repeat`, each on a freshly built module (building
and printing are not timed). Linear scaling gives a growth of 10x from 10k to 100k.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time

from mlc.ir.core.attributes import FunctionType, i32, i64
from mlc.ir.dialects.arith import AddIOp, MulIOp, SubIOp, XOrIOp
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.dialects.func import FuncOp, ReturnOp
from mlc.ir.dialects.func.conversion import (
    add_function_signature_legality,
    populate_function_signature_conversion,
)
from mlc.ir.rewrite.conversion import (
    ConversionPattern,
    ConversionTarget,
    TypeConverter,
    apply_full_conversion,
)
from mlc.ir.rewrite.pattern import PatternSet
from mlc.ir.testing.dialect import UnknownOp
from mlc.ir.text.printer import print_op

OPS = (AddIOp, SubIOp, MulIOp, XOrIOp)
WINDOW = 20
SEED = 20240601


def build(size: int, failing: bool = False) -> ModuleOp:
    """The workload of `size` ops (plus a final test.unknown when `failing`)."""
    rng = random.Random(SEED)
    module = ModuleOp.build()
    function = FuncOp.create_function("main", FunctionType((i64, i64), (i64,)))
    module.body.append(function)
    block = function.entry_block
    values = list(block.args)
    for _ in range(size):
        op = rng.choice(OPS).build(rng.choice(values[-WINDOW:]), rng.choice(values[-WINDOW:]))
        block.append(op)
        values.append(op.results[0])
    if failing:
        block.append(UnknownOp.build([values[-1]]))
    block.append(ReturnOp.build([values[-1]]))
    return module


def _i64_to_i32() -> TypeConverter:
    converter = TypeConverter()
    converter.add_conversion(lambda t: i32 if t == i64 else None)
    return converter


def _binary_pattern(op_class):
    class Convert(ConversionPattern):
        root = op_class

        def match_and_rewrite(self, op, adaptor, rewriter):
            rewriter.replace_op_with_new(op, op_class, adaptor.lhs, adaptor.rhs, loc=op.loc)
            return True

    Convert.__name__ = f"Convert{op_class.__name__}"
    return Convert


PATTERN_CLASSES = [_binary_pattern(op_class) for op_class in OPS]


def setup():
    """(target, patterns, converter) of the i64 -> i32 conversion."""
    converter = _i64_to_i32()
    target = ConversionTarget()
    target.add_legal_op(ModuleOp)
    target.add_dynamically_legal_op(OPS, converter.is_op_legal)
    add_function_signature_legality(target, converter)
    patterns = PatternSet(cls(converter) for cls in PATTERN_CLASSES)
    populate_function_signature_conversion(patterns, converter)
    return target, patterns, converter


def measure(size: int, failing: bool, repeat: int) -> float:
    """Best time of `repeat` full conversions of fresh workloads of `size` ops."""
    best = float("inf")
    for _ in range(repeat):
        module = build(size, failing)
        before = print_op(module) if failing else None
        target, patterns, converter = setup()
        gc.collect()
        began = time.perf_counter()
        result = apply_full_conversion(module, target, patterns, converter)
        elapsed = time.perf_counter() - began
        if result.success == failing:
            raise RuntimeError(f"the conversion of {size} ops {'succeeded' if failing else 'failed'}")
        if failing and print_op(module) != before:
            raise RuntimeError(f"the failed conversion of {size} ops changed the module")
        if not failing and "i64" in print_op(module):
            raise RuntimeError(f"the conversion of {size} ops left i64 values")
        best = min(best, elapsed)
    return best


def _format(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000",
                        help="comma-separated op counts (default: 10000,100000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per case (best is kept)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    measure(100, False, 1)  # warm-up: imports, caches
    print("| ops | full conversion | ops/s | failing at the end (rolled back) | ops/s |")
    print("|---:|---:|---:|---:|---:|")
    times: dict[int, tuple[float, float]] = {}
    for size in sizes:
        times[size] = (measure(size, False, args.repeat), measure(size, True, args.repeat))
        ok, failed = times[size]
        print(f"| {size:,} | {_format(ok)} | {size / ok / 1000:.1f} k | {_format(failed)} | "
              f"{size / failed / 1000:.1f} k |", flush=True)
    if len(sizes) >= 2:
        small, large = sizes[0], sizes[-1]
        linear = large / small
        for i, label in enumerate(("full conversion", "failing conversion")):
            ratio = times[large][i] / times[small][i]
            print(f"growth {label}: time({large:,}) / time({small:,}) = {ratio:.1f}x "
                  f"(linear: {linear:.0f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
