"""mlir-runner-22 as the oracle of the interpreter's `vector` semantics: a kernel using
contract, transpose, shuffle, create_mask/constant_mask, interleave, vector.mask
around a reduction, multi_reduction and outerproduct runs in mlc's interpreter, and
through mlir-opt-22's lowering to LLVM and mlir-runner-22 (its `vector.print` output,
parsed); both give the same values.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from mlc.ir import Context, parse_module
from mlc.ir.interpreter import evaluate

sys.path.insert(0, str(Path(__file__).parent))
from test_llvm_translate import _run, _tool  # noqa: E402

KERNEL = """
#mm = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>,
       affine_map<(i, j, k) -> (i, j)>]
func.func @kernel(%a: vector<2x3xf32>, %b: vector<3x2xf32>, %c: vector<2x2xf32>,
                  %x: vector<4xi32>, %y: vector<4xi32>, %n: index, %d: vector<2xf32>)
    -> (vector<2x2xf32>, vector<3x2xf32>, vector<6xi32>, vector<4x3xi1>, vector<8xi32>, i32,
        vector<2xf32>, vector<4x4xi32>, vector<2xi32>) {
  %0 = vector.contract {indexing_maps = #mm, iterator_types = ["parallel", "parallel", "reduction"],
                        kind = #vector.kind<add>} %a, %b, %c
       : vector<2x3xf32>, vector<3x2xf32> into vector<2x2xf32>
  %1 = vector.transpose %a, [1, 0] : vector<2x3xf32> to vector<3x2xf32>
  %2 = vector.shuffle %x, %y [7, 0, 5, 2, 3, 3] : vector<4xi32>, vector<4xi32>
  %3 = vector.create_mask %n, %n : vector<4x3xi1>
  %4 = vector.interleave %x, %y : vector<4xi32> -> vector<8xi32>
  %m = vector.constant_mask [3] : vector<4xi1>
  %5 = vector.mask %m { vector.reduction <add>, %x : vector<4xi32> into i32 } : vector<4xi1> -> i32
  %6 = vector.multi_reduction <maxnumf>, %a, %d [1] : vector<2x3xf32> to vector<2xf32>
  %7 = vector.outerproduct %x, %y : vector<4xi32>, vector<4xi32>
  %8 = vector.extract %x[%n] : i32 from vector<4xi32>
  %9 = vector.from_elements %8, %5 : vector<2xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %9 : vector<2x2xf32>, vector<3x2xf32>, vector<6xi32>,
         vector<4x3xi1>, vector<8xi32>, i32, vector<2xf32>, vector<4x4xi32>, vector<2xi32>
}
"""

ARGUMENTS = [(1.5, -2.0, 3.25, 0.5, 4.0, -1.0), (2.0, 1.0, -0.5, 3.0, 1.0, 0.25),
             (10.0, 20.0, 30.0, 40.0), (1, -2, 3, 4), (5, 6, -7, 8), 2, (2.0, -5.0)]
RESULT_TYPES = ["vector<2x2xf32>", "vector<3x2xf32>", "vector<6xi32>", "vector<4x3xi1>",
                "vector<8xi32>", "i32", "vector<2xf32>", "vector<4x4xi32>", "vector<2xi32>"]

MAIN = """
func.func @main() {
  %a = arith.constant dense<[[1.5, -2.0, 3.25], [0.5, 4.0, -1.0]]> : vector<2x3xf32>
  %b = arith.constant dense<[[2.0, 1.0], [-0.5, 3.0], [1.0, 0.25]]> : vector<3x2xf32>
  %c = arith.constant dense<[[10.0, 20.0], [30.0, 40.0]]> : vector<2x2xf32>
  %x = arith.constant dense<[1, -2, 3, 4]> : vector<4xi32>
  %y = arith.constant dense<[5, 6, -7, 8]> : vector<4xi32>
  %n = arith.constant 2 : index
  %d = arith.constant dense<[2.0, -5.0]> : vector<2xf32>
  %r:9 = func.call @kernel(%a, %b, %c, %x, %y, %n, %d)
       : (vector<2x3xf32>, vector<3x2xf32>, vector<2x2xf32>, vector<4xi32>, vector<4xi32>, index,
          vector<2xf32>) -> (TYPES)
PRINTS
  return
}
"""

MLIR_PIPELINE = ["--lower-vector-mask", "--lower-vector-multi-reduction",
                 "--convert-vector-to-scf", "--convert-vector-to-llvm", "--convert-scf-to-cf",
                 "--convert-to-llvm", "--reconcile-unrealized-casts"]
RUNTIME = Path("/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so.22.1")


def _printed_values(line: str) -> tuple:
    """`( ( 1, 2 ), ( 3, 4 ) )` flattened to (1, 2, 3, 4); a scalar to (x,)."""
    return tuple(float(v) for v in re.findall(r"-?[0-9][0-9.e+-]*|nan|-?inf", line))


def _flat(value) -> tuple:
    return tuple(float(v) for v in value) if isinstance(value, tuple) else (float(value),)


def test_interpreter_matches_mlir_runner():
    runner = _tool("mlir-runner")
    if not RUNTIME.exists():
        pytest.skip(f"{RUNTIME} is not installed")
    prints = "\n".join(f"  vector.print %r#{i} : {t}" for i, t in enumerate(RESULT_TYPES))
    main = MAIN.replace("TYPES", ", ".join(RESULT_TYPES)).replace("PRINTS", prints)
    lowered = _run([_tool("mlir-opt"), *MLIR_PIPELINE], KERNEL + main)
    printed = _run([runner, "-e", "main", "-entry-point-result=void",
                    f"-shared-libs={RUNTIME}"], lowered).strip().splitlines()
    ours = evaluate(parse_module(KERNEL, Context(["func", "vector", "arith"])), "kernel",
                    ARGUMENTS)
    assert len(printed) == len(ours) == len(RESULT_TYPES)
    for line, value in zip(printed, ours):
        assert _printed_values(line) == _flat(value), line
