"""math-polynomial-approximation on random f32 vectors (any bit pattern: NaNs,
infinities, subnormals): the native approximation is within the pass's stated error of
numpy's double precision (Python's math.erf), with every special value exact, and the
interpreter computes the approximation as the native code does."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlc.ir import Context, parse_module
from mlc.ir.interpreter import evaluate
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.math.polynomial_approximation import MAX_ULP_ERROR
from mlc.llvm.build import compile_module
from tests.benchmark_scripts import benchmark_script

LANES = 16
OPS = sorted(MAX_ULP_ERROR)


@pytest.fixture(scope="module")
def harness():
    """benchmarks/math_accuracy.py: its measure of errors."""
    with benchmark_script("math_accuracy") as module:
        yield module


_COMPILED: dict[str, tuple] = {}


def compiled(op: str):
    """`op` on vector<16xf32>: the approximated module and its native function."""
    if op not in _COMPILED:
        text = (f"func.func @f(%x: memref<{LANES}xf32>, %y: memref<{LANES}xf32>) {{\n"
                f"  %c0 = arith.constant 0 : index\n"
                f"  %v = vector.load %x[%c0] : memref<{LANES}xf32>, vector<{LANES}xf32>\n"
                f"  %r = math.{op} %v : vector<{LANES}xf32>\n"
                f"  vector.store %r, %y[%c0] : memref<{LANES}xf32>, vector<{LANES}xf32>\n"
                f"  return\n}}\n")
        module = parse_module(text, Context())
        assert run_pipeline(module, "math-polynomial-approximation").success
        _COMPILED[op] = module, compile_module(module)["f"]
    return _COMPILED[op]


@st.composite
def cases(draw):
    """An op and 16 f32s of any bit pattern (uniform bits reach every exponent)."""
    op = draw(st.sampled_from(OPS))
    bits = draw(st.lists(st.integers(0, (1 << 32) - 1), min_size=LANES, max_size=LANES))
    return op, np.array(bits, np.uint32).view(np.float32)


@settings(max_examples=200)
@given(cases())
def test_native_approximation_is_within_the_stated_error(harness, case):
    op, x = case
    _, native = compiled(op)
    y = np.empty(LANES, np.float32)
    native(x, y)
    with np.errstate(invalid="ignore"):  # signalling NaNs made quiet
        wide = x.astype(np.float64)
    exact = np.array([math.erf(v) for v in wide]) if op == "erf" else harness.reference(op, x)
    accuracy = harness.Accuracy(op)
    accuracy.add(x, y, exact)
    assert accuracy.mismatches == 0, accuracy.mismatch_examples
    assert accuracy.max_ulp <= MAX_ULP_ERROR[op], (accuracy.max_ulp, accuracy.worst_input)


@settings(max_examples=30)
@given(cases())
def test_the_interpreter_computes_what_the_native_code_does(case):
    op, x = case
    module, native = compiled(op)
    y = np.empty(LANES, np.float32)
    native(x, y)
    buffer = x.copy()
    out = np.empty(LANES, np.float32)
    evaluate(module, "f", [buffer, out])
    # Bit for bit, NaNs by their being NaN (the interpreter does not keep payloads).
    assert np.array_equal(np.isnan(out), np.isnan(y))
    finite = ~np.isnan(y)
    assert np.array_equal(out[finite].view(np.uint32), y[finite].view(np.uint32)), (x, out, y)
