"""Property tests: canonicalize, cse and arith-expand preserve what arith/func programs
compute.

For random well-typed programs (see arith_programs.py) run by the reference
interpreter `mlc.ir.interpreter` on random inputs:

* canonicalize, cse, `canonicalize,cse` and arith-expand (also with include-bf16)
  leave the results unchanged: integers
  equal, floats bit-exact (-0.0 is not 0.0) except that any NaN equals any NaN
  (folding may legally change a NaN's payload or sign);
* each pass is idempotent: a second run prints the same text as the first (for cse
  that is stricter than MLIR's, which leaves the producers of the dead ops it erases);
* the pass pipeline succeeds and its output verifies.

Inputs for which the original program hits undefined behaviour (division by zero,
`MIN / -1`, an out-of-range float to int conversion, `nsw`/`nuw` overflow...) are
skipped: a transformation may legally change those results. The transformed program
must not hit undefined behaviour where the original did not.

Known mlc bugs are kept out of the strategies (see the `# BUG:` comments in
arith_programs.py); each has a strict xfail test at the end of this file, which
starts failing once it is fixed. The bugs already fixed stay there as regression
tests. A last property checks the interpreter itself against MLIR's constant folding
(`mlir-opt-22 --canonicalize`), when that is installed.
"""

from __future__ import annotations

import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, note
from hypothesis import strategies as st

from mlc.ir import Context, parse_module, print_op, verify
from mlc.ir.interpreter import (
    InterpreterError,
    UndefinedBehavior,
    UnmodelledNaN,
    UnsupportedOperation,
    evaluate,
)
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline

sys.path.insert(0, str(Path(__file__).parent))
import arith_programs as P  # noqa: E402

INPUT_SETS = 4


# ============================================================================ helpers


def parse(text: str):
    module = parse_module(text, Context())
    verify(module)
    return module


def same_value(expected, actual) -> bool:
    """Integers equal; floats bit-exact, but every NaN equals every NaN."""
    if isinstance(expected, float) or isinstance(actual, float):
        if not (isinstance(expected, float) and isinstance(actual, float)):
            return False
        if math.isnan(expected) or math.isnan(actual):
            return math.isnan(expected) and math.isnan(actual)
        return expected == actual and math.copysign(1.0, expected) == math.copysign(1.0, actual)
    return type(expected) is type(actual) and expected == actual


def same_results(expected: list, actual: list) -> bool:
    return len(expected) == len(actual) and all(map(same_value, expected, actual))


def run(module, entry: str, inputs) -> list | None:
    """The results, or None on undefined behaviour."""
    try:
        return evaluate(module, entry, list(inputs))
    except UndefinedBehavior:
        return None


def run_passes(module, pipeline: str) -> None:
    with PassContext(opt_level=3):
        result = run_pipeline(module, pipeline)
    assert result.success, "\n".join(str(d) for d in result.diagnostics)
    verify(module)


def check_preserves(program: P.Program, inputs: list[tuple], pipeline: str,
                    reads_nan_bits: bool = False) -> None:
    """`pipeline` leaves `program`'s results on `inputs` unchanged. `reads_nan_bits`:
    the pipeline may bitcast a NaN (an expansion working on a float's bits), whose
    result the interpreter cannot tell (UnmodelledNaN): such inputs are skipped."""
    note(program.text)
    module = parse(program.text)
    expected = [run(module, program.entry, args) for args in inputs]
    assume(any(e is not None for e in expected))
    run_passes(module, pipeline)
    after = print_op(module)
    note(f"after {pipeline}:\n{after}")
    for args, before in zip(inputs, expected):
        if before is None:
            continue
        try:
            actual = evaluate(module, program.entry, list(args))
        except UnmodelledNaN:
            if reads_nan_bits:
                continue
            raise
        except UndefinedBehavior as ub:
            raise AssertionError(f"{pipeline} introduced undefined behaviour on inputs {args}: "
                                 f"{ub}") from None
        assert same_results(before, actual), (
            f"{pipeline} changed the results on inputs {args}: expected {before}, got {actual}")


def check_idempotent(program: P.Program, pipeline: str) -> None:
    """A second run of `pipeline` prints the same text as the first."""
    note(program.text)
    module = parse(program.text)
    run_passes(module, pipeline)
    once = print_op(module)
    run_passes(module, pipeline)
    twice = print_op(module)
    assert once == twice, f"second {pipeline} changed:\n{once}\n---\n{twice}"


def input_sets(program: P.Program):
    return st.lists(P.inputs_for(program.arg_types), min_size=1, max_size=INPUT_SETS)


# ============================================================================ properties


@given(P.programs(), st.data())
def test_canonicalize_preserves_results(program, data):
    check_preserves(program, data.draw(input_sets(program)), "canonicalize")


@given(P.programs(), st.data())
def test_cse_preserves_results(program, data):
    check_preserves(program, data.draw(input_sets(program)), "cse")


@given(P.programs(), st.data())
def test_canonicalize_then_cse_preserves_results(program, data):
    check_preserves(program, data.draw(input_sets(program)), "canonicalize,cse")


@given(P.programs(), st.data())
def test_arith_expand_preserves_results(program, data):
    check_preserves(program, data.draw(input_sets(program)), "arith-expand")


@given(P.programs(), st.data())
def test_arith_expand_bf16_preserves_results(program, data):
    # f32 -> bf16 and back on the bits: exact rounding to nearest even, infinities and
    # subnormals included (a NaN's bits are not modelled).
    check_preserves(program, data.draw(input_sets(program)), "arith-expand{include-bf16=true}",
                    reads_nan_bits=True)


@given(P.programs())
def test_canonicalize_is_idempotent(program):
    check_idempotent(program, "canonicalize")


@given(P.programs())
def test_cse_is_idempotent(program):
    check_idempotent(program, "cse")


# ============================================================================ the interpreter

ALL_OPS = """
module {
  func.func @main(%a: i8, %b: i8, %x: f32, %y: f32, %c: i1) -> (i8, i8, i8, i8, i8, i8, i8, i8,
      i8, i8, i1, i1, f32, f32, f32, f32, f32, f32, f32, f32, i1, f32) {
    %0 = arith.addi %a, %b : i8
    %1 = arith.subi %a, %b : i8
    %2 = arith.muli %a, %b : i8
    %3 = arith.divsi %a, %b : i8
    %4 = arith.divui %a, %b : i8
    %5 = arith.remsi %a, %b : i8
    %6 = arith.remui %a, %b : i8
    %7 = arith.andi %a, %b : i8
    %8 = arith.ori %a, %b : i8
    %9 = arith.xori %a, %b : i8
    %10 = arith.cmpi slt, %a, %b : i8
    %11 = arith.cmpi ult, %a, %b : i8
    %12 = arith.addf %x, %y : f32
    %13 = arith.subf %x, %y : f32
    %14 = arith.mulf %x, %y : f32
    %15 = arith.divf %x, %y : f32
    %16 = arith.remf %x, %y : f32
    %17 = arith.maximumf %x, %y : f32
    %18 = arith.minimumf %x, %y : f32
    %19 = arith.negf %x : f32
    %20 = arith.cmpf olt, %x, %y : f32
    %21 = arith.select %c, %x, %y : f32
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17,
        %18, %19, %20, %21 : i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i1, i1, f32, f32, f32, f32,
        f32, f32, f32, f32, i1, f32
  }
}
"""


def test_interpreter_scalar_semantics():
    module = parse(ALL_OPS)
    results = evaluate(module, "main", [-7, 2, 7.5, -2.0, True])
    assert results == [-5, -9, -14, -3, 124, -1, 1, 0, -5, -5, 1, 0, 5.5, 9.5, -15.0, -3.75,
                       1.5, 7.5, -2.0, -7.5, 0, 7.5]
    # Wrap-around and i8's signed range.
    assert evaluate(module, "main", [127, 1, 0.0, 0.0, False])[:3] == [-128, 126, 127]


def _single(op_text: str, arg_types: str, result_type: str, args: list):
    names = ", ".join(f"%a{i}: {t.strip()}" for i, t in enumerate(arg_types.split(",")))
    text = (f"func.func @main({names}) -> {result_type} {{\n"
            f"  %r = {op_text}\n  return %r : {result_type}\n}}")
    return evaluate(parse(text), "main", args)[0]


@pytest.mark.parametrize("op_text, arg_types, result_type, args, expected", [
    # i1: true is 1, but -1 when read as signed.
    ("arith.sitofp %a0 : i1 to f32", "i1", "f32", [1], -1.0),
    ("arith.uitofp %a0 : i1 to f32", "i1", "f32", [1], 1.0),
    ("arith.extsi %a0 : i1 to i8", "i1", "i8", [1], -1),
    ("arith.cmpi slt, %a0, %a1 : i1", "i1, i1", "i1", [1, 0], 1),
    ("arith.index_cast %a0 : i8 to index", "i8", "index", [-1], -1),
    ("arith.index_cast %a0 : index to i8", "index", "i8", [255], -1),
    ("arith.extui %a0 : i8 to i32", "i8", "i32", [-1], 255),
    ("arith.trunci %a0 : i32 to i8", "i32", "i8", [0x1FF], -1),
    # Correctly rounded conversions (no double rounding through f64 or f32).
    ("arith.sitofp %a0 : i64 to f32", "i64", "f32", [2**60 + 2**36 + 1], 2.0**60 + 2.0**37),
    ("arith.sitofp %a0 : i32 to bf16", "i32", "bf16", [2**30 + 2**22 + 1], 2.0**30 + 2.0**23),
    ("arith.truncf %a0 : f64 to bf16", "f64", "bf16", [1 + 2**-8 + 2**-40], 1 + 2**-7),
    ("arith.truncf %a0 : f64 to f16", "f64", "f16", [65520.0], math.inf),
    ("arith.uitofp %a0 : i8 to f16", "i8", "f16", [-1], 255.0),
    ("arith.fptosi %a0 : f32 to i8", "f32", "i8", [-128.9], -128),
    ("arith.fptoui %a0 : f32 to i8", "f32", "i8", [-0.5], 0),
    # IEEE-754 maximum/minimum order -0.0 below +0.0.
    ("arith.maximumf %a0, %a1 : f32", "f32, f32", "f32", [-0.0, 0.0], 0.0),
    ("arith.minimumf %a0, %a1 : f32", "f32, f32", "f32", [0.0, -0.0], -0.0),
    ("arith.divf %a0, %a1 : f32", "f32, f32", "f32", [1.0, -0.0], -math.inf),
    ("arith.remf %a0, %a1 : f32", "f32, f32", "f32", [-5.0, 3.0], -2.0),
    ("arith.mulf %a0, %a1 : f16", "f16, f16", "f16", [300.0, 300.0], math.inf),
    ("arith.addi %a0, %a1 overflow<nuw> : i8", "i8, i8", "i8", [-1, -2], UndefinedBehavior),
    ("arith.addi %a0, %a1 overflow<nsw> : i8", "i8, i8", "i8", [-1, -2], -3),
    ("arith.divsi %a0, %a1 : i8", "i8, i8", "i8", [-128, -1], UndefinedBehavior),
    ("arith.remsi %a0, %a1 : i8", "i8, i8", "i8", [-128, -1], UndefinedBehavior),
    ("arith.divui %a0, %a1 : i8", "i8, i8", "i8", [1, 0], UndefinedBehavior),
    ("arith.remf %a0, %a1 : f32", "f32, f32", "f32", [1.0, 0.0], math.nan),
    ("arith.fptosi %a0 : f32 to i8", "f32", "i8", [128.0], UndefinedBehavior),
    ("arith.fptoui %a0 : f16 to i8", "f16", "i8", [math.nan], UndefinedBehavior),
    ("arith.addf %a0, %a1 fastmath<nnan> : f32", "f32, f32", "f32", [math.inf, -math.inf],
     UndefinedBehavior),
    ("arith.cmpf oeq, %a0, %a1 fastmath<ninf> : f32", "f32, f32", "i1", [math.inf, 1.0],
     UndefinedBehavior),
    # Shifts: the amount is unsigned; by the bit width or more, or dropping bits under
    # exact, nsw or nuw, the result is poison.
    ("arith.shli %a0, %a1 : i8", "i8, i8", "i8", [3, 7], -128),
    ("arith.shli %a0, %a1 : i8", "i8, i8", "i8", [3, -1], UndefinedBehavior),
    ("arith.shli %a0, %a1 overflow<nsw> : i8", "i8, i8", "i8", [3, 6], UndefinedBehavior),
    ("arith.shli %a0, %a1 overflow<nsw> : i8", "i8, i8", "i8", [-1, 7], -128),
    ("arith.shli %a0, %a1 overflow<nuw> : i8", "i8, i8", "i8", [-1, 1], UndefinedBehavior),
    ("arith.shrui %a0, %a1 : i8", "i8, i8", "i8", [-128, 7], 1),
    ("arith.shrsi %a0, %a1 : i8", "i8, i8", "i8", [-128, 7], -1),
    ("arith.shrsi %a0, %a1 exact : i8", "i8, i8", "i8", [-127, 1], UndefinedBehavior),
    ("arith.shrui %a0, %a1 : i1", "i1, i1", "i1", [1, 1], UndefinedBehavior),
    ("arith.divui %a0, %a1 exact : i8", "i8, i8", "i8", [7, 2], UndefinedBehavior),
    ("arith.divsi %a0, %a1 exact : i8", "i8, i8", "i8", [-8, 2], -4),
    # Rounding divisions, and extrema read signed or not (i1's true is -1 signed).
    ("arith.ceildivsi %a0, %a1 : i8", "i8, i8", "i8", [7, -2], -3),
    ("arith.ceildivsi %a0, %a1 : i8", "i8, i8", "i8", [-7, -2], 4),
    ("arith.ceildivui %a0, %a1 : i8", "i8, i8", "i8", [-7, 2], 125),
    ("arith.floordivsi %a0, %a1 : i8", "i8, i8", "i8", [-7, 2], -4),
    ("arith.floordivsi %a0, %a1 : i8", "i8, i8", "i8", [-128, -1], UndefinedBehavior),
    ("arith.ceildivui %a0, %a1 : i8", "i8, i8", "i8", [1, 0], UndefinedBehavior),
    ("arith.maxsi %a0, %a1 : i1", "i1, i1", "i1", [1, 0], 0),
    ("arith.maxui %a0, %a1 : i8", "i8, i8", "i8", [-1, 1], -1),
    ("arith.minsi %a0, %a1 : i8", "i8, i8", "i8", [-1, 1], -1),
    # maxnumf/minnumf: -0.0 < +0.0; of one NaN, a result the interpreter cannot give.
    ("arith.maxnumf %a0, %a1 : f32", "f32, f32", "f32", [-0.0, 0.0], 0.0),
    ("arith.minnumf %a0, %a1 : f32", "f32, f32", "f32", [0.0, -0.0], -0.0),
    ("arith.minnumf %a0, %a1 : f32", "f32, f32", "f32", [math.nan, 1.0], UnmodelledNaN),
    ("arith.maxnumf %a0, %a1 : f32", "f32, f32", "f32", [math.nan, math.nan], math.nan),
    # Casts: index_castui zero-extends; bitcast keeps the bits (a NaN's are not kept).
    ("arith.index_castui %a0 : i8 to index", "i8", "index", [-1], 255),
    ("arith.index_castui %a0 : index to i8", "index", "i8", [511], -1),
    ("arith.bitcast %a0 : f32 to i32", "f32", "i32", [-2.5], -1071644672),
    ("arith.bitcast %a0 : i16 to bf16", "i16", "bf16", [0x3F80], 1.0),
    ("arith.bitcast %a0 : f16 to i16", "f16", "i16", [math.nan], UnmodelledNaN),
    # truncf's rounding modes, and what each does past the largest finite value.
    ("arith.truncf %a0 upward : f32 to f16", "f32", "f16", [1.1], 1.1005859375),
    ("arith.truncf %a0 downward : f32 to f16", "f32", "f16", [1.1], 1.099609375),
    ("arith.truncf %a0 toward_zero : f32 to f16", "f32", "f16", [-1.1], -1.099609375),
    ("arith.truncf %a0 to_nearest_away : f64 to f16", "f64", "f16", [1 + 2**-11], 1 + 2**-10),
    ("arith.truncf %a0 : f64 to f16", "f64", "f16", [1 + 2**-11], 1.0),
    ("arith.truncf %a0 downward : f32 to f16", "f32", "f16", [1e10], 65504.0),
    ("arith.truncf %a0 downward : f32 to f16", "f32", "f16", [-1e10], -math.inf),
    ("arith.truncf %a0 toward_zero : f32 to f16", "f32", "f16", [-1e10], -65504.0),
])
def test_interpreter_edge_cases(op_text, arg_types, result_type, args, expected):
    if expected in (UndefinedBehavior, UnmodelledNaN):
        with pytest.raises(expected):
            _single(op_text, arg_types, result_type, args)
    else:
        assert same_value(expected, _single(op_text, arg_types, result_type, args))


def test_interpreter_extended_ops():
    module = parse("""
      func.func @main(%a: i8, %b: i8) -> (i8, i1, i8, i8, i8, i8) {
        %s:2 = arith.addui_extended %a, %b : i8, i1
        %p:2 = arith.mulsi_extended %a, %b : i8
        %q:2 = arith.mului_extended %a, %b : i8
        return %s#0, %s#1, %p#0, %p#1, %q#0, %q#1 : i8, i1, i8, i8, i8, i8
      }""")
    # 255 + 100 carries; 100 * -100 = -10000 = 0xD8F0 signed, 100 * 156 = 0x3CF0.
    assert evaluate(module, "main", [-1, 100]) == [99, 1, -100, -1, -100, 99]
    assert evaluate(module, "main", [100, -100]) == [0, 1, -16, -40, -16, 60]
    assert evaluate(module, "main", [1, 2]) == [3, 0, 2, 0, 2, 0]


def test_interpreter_calls_and_errors():
    module = parse("""
      func.func @twice(%x: i32) -> i32 {
        %r = arith.addi %x, %x : i32
        return %r : i32
      }
      func.func @main(%x: i32) -> (i32, i32) {
        %a = func.call @twice(%x) : (i32) -> i32
        %b = func.call @twice(%a) : (i32) -> i32
        return %a, %b : i32, i32
      }
      func.func @loop(%x: i32) -> i32 {
        %r = func.call @loop(%x) : (i32) -> i32
        return %r : i32
      }
    """)
    assert evaluate(module, "main", [2**31 - 1]) == [-2, -4]
    with pytest.raises(InterpreterError, match="deeper than"):
        evaluate(module, "loop", [1])
    with pytest.raises(InterpreterError, match="no function named @nope"):
        evaluate(module, "nope", [])
    unknown = parse_module('func.func @main() -> () {\n  "test.op"() : () -> ()\n  return\n}',
                           Context(allow_unregistered=True))
    with pytest.raises(UnsupportedOperation, match="no interpreter handler for 'test.op'"):
        evaluate(unknown, "main", [])


# ============================================================================ against MLIR

MLIR_OPT = shutil.which("mlir-opt-22") or shutil.which("mlir-opt")


@pytest.mark.skipif(MLIR_OPT is None, reason="needs mlir-opt")
@given(P.programs(max_steps=8, max_args=0))
def test_interpreter_agrees_with_mlir_folding(program):
    """On programs without arguments, MLIR's canonicalize folds (nearly) everything to
    constants: the interpreter must compute the same values (a check of the oracle)."""
    note(program.text)
    expected = run(parse(program.text), program.entry, ())
    assume(expected is not None)
    folded = subprocess.run([MLIR_OPT, "--canonicalize"], input=program.text, text=True,
                            capture_output=True, check=True).stdout
    note(f"mlir-opt --canonicalize:\n{folded}")
    actual = evaluate(parse(folded), program.entry, [])
    assert same_results(expected, actual), f"interpreter: {expected}, MLIR: {actual}"


# ============================================================================ bugs

# Minimal reproducers of the bugs these properties found: (MLIR text, inputs of
# @main). The fixed ones stay as regression tests.
FIXED_BUGS = {
    # `wrap_int` gave 0/1 for i1, which the folders used as the signed value of `true`
    # (MLIR: -1).
    "i1-cmpi-signed": ("""
      func.func @main() -> i1 {
        %false = arith.constant false
        %true = arith.constant true
        %r = arith.cmpi slt, %false, %true : i1
        return %r : i1
      }""", []),  # expected false (0 < -1 is false), folded to true
    "i1-sitofp": ("""
      func.func @main() -> f32 {
        %true = arith.constant true
        %r = arith.sitofp %true : i1 to f32
        return %r : f32
      }""", []),  # expected -1.0, folded to 1.0
    "i1-extsi": ("""
      func.func @main() -> i8 {
        %true = arith.constant true
        %r = arith.extsi %true : i1 to i8
        return %r : i8
      }""", []),  # expected -1, folded to 1
    "i1-index-cast": ("""
      func.func @main() -> index {
        %true = arith.constant true
        %r = arith.index_cast %true : i1 to index
        return %r : index
      }""", []),  # expected -1, folded to 1
    # Folding converted through Python's float first, so rounded twice.
    "sitofp-double-rounding": ("""
      func.func @main() -> f32 {
        %c = arith.constant 1152921573326323713 : i64
        %r = arith.sitofp %c : i64 to f32
        return %r : f32
      }""", []),  # 2**60 + 2**36 + 1: expected 2**60 + 2**37, folded to 2**60
    "uitofp-double-rounding": ("""
      func.func @main() -> f32 {
        %c = arith.constant 1152921573326323713 : i64
        %r = arith.uitofp %c : i64 to f32
        return %r : f32
      }""", []),  # same
    # IndexCastOfIndexCast dropped a truncation (llvm/llvm-project#90296, fixed
    # upstream by #189042; mlir-opt-22 still has it).
    "index-cast-round-trip": ("""
      func.func @main(%x: index) -> index {
        %t = arith.index_cast %x : index to i8
        %r = arith.index_cast %t : i8 to index
        return %r : index
      }""", [256]),  # expected 0, rewritten to %x = 256
    # IndexCastOfIndexCast also needs the source to fit in index's 64 bits.
    "index-cast-round-trip-wide": ("""
      func.func @main(%x: i128) -> i128 {
        %t = arith.index_cast %x : i128 to index
        %r = arith.index_cast %t : index to i128
        return %r : i128
      }""", [2**64 + 5]),  # expected 5, rewritten to %x = 2**64 + 5
}

# Open bugs would be listed here, kept out of arith_programs.py (`# BUG:` there), each
# with a strict xfail test; none are open.
KNOWN_BUGS: dict[str, tuple[str, list]] = {}


def _check_canonicalize(text: str, inputs: list) -> None:
    module = parse(text)
    expected = evaluate(module, "main", inputs)
    run_passes(module, "canonicalize")
    assert same_results(expected, evaluate(module, "main", inputs))


@pytest.mark.parametrize("name", sorted(FIXED_BUGS))
def test_fixed_bug(name):
    _check_canonicalize(*FIXED_BUGS[name])


@pytest.mark.parametrize("name", sorted(KNOWN_BUGS))
@pytest.mark.xfail(strict=True, reason="mlc bug, see KNOWN_BUGS")
def test_known_bug(name):  # collects nothing while KNOWN_BUGS is empty
    _check_canonicalize(*KNOWN_BUGS[name])
