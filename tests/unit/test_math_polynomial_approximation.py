"""math-polynomial-approximation: each op's f32 approximation compiled natively (scalars
and vectors, through compile_module, which runs the pass) against numpy's double
precision (Python's math.erf) within the error the pass states, exact at the special
values written out here by hand; the pass's output interpreted against the op
interpreted; f16 through f32; what the pass leaves alone."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlc.ir import Context, parse_module, print_op
from mlc.ir.interpreter import evaluate
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.math.polynomial_approximation import (
    MAX_ULP_ERROR,
    OP_NAMES,
)
from mlc.ir.passes.pipeline import PipelineError
from mlc.llvm.build import compile_module
from tests.benchmark_scripts import benchmark_script

N = 4096
INF, NAN = math.inf, math.nan
F32_MAX = float(np.finfo(np.float32).max)
TINY = 2.0 ** -149


@pytest.fixture(scope="module")
def harness():
    """benchmarks/math_accuracy.py: its kernels and its measure of errors."""
    with benchmark_script("math_accuracy") as module:
        yield module


@pytest.fixture(scope="module")
def kernels(harness):
    compiled = {}

    def kernel(op):
        if op not in compiled:
            compiled[op] = harness.compile_kernel(op, n=N)
        return compiled[op]
    return kernel


def run_vector(kernel, values) -> np.ndarray:
    x = np.zeros(N, np.float32)
    x[:len(values)] = values
    y = np.empty(N, np.float32)
    kernel(x, y)
    return y[:len(values)]


def same(actual: float, expected: float) -> bool:
    """Equal as f32 values, zeros by their sign, NaN to NaN."""
    if math.isnan(expected):
        return math.isnan(actual)
    return actual == expected and math.copysign(1, actual) == math.copysign(1, expected)


# Each op's special values: (x, the f32 result), written out by hand.
SPECIAL_VALUES = {
    "exp": [(-INF, 0.0), (INF, INF), (0.0, 1.0), (-0.0, 1.0), (89.0, INF), (1000.0, INF),
            (F32_MAX, INF), (-104.0, 0.0), (-F32_MAX, 0.0), (-103.2789, TINY),
            (88.7229, INF), (NAN, NAN)],
    "exp2": [(-INF, 0.0), (INF, INF), (0.0, 1.0), (128.0, INF), (127.0, 2.0 ** 127),
             (-126.0, 2.0 ** -126), (-149.0, TINY), (-140.0, 2.0 ** -140), (-151.0, 0.0),
             (3.0, 8.0), (-F32_MAX, 0.0), (NAN, NAN)],
    "expm1": [(-INF, -1.0), (INF, INF), (0.0, 0.0), (-0.0, -0.0), (-20.0, -1.0),
              (100.0, INF), (TINY, TINY), (-TINY, -TINY), (1e-30, 1e-30), (NAN, NAN)],
    "log": [(0.0, -INF), (-0.0, -INF), (-1.0, NAN), (-INF, NAN), (-TINY, NAN), (INF, INF),
            (1.0, 0.0), (NAN, NAN)],
    "log2": [(0.0, -INF), (-0.0, -INF), (-1.0, NAN), (INF, INF), (1.0, 0.0), (8.0, 3.0),
             (TINY, -149.0), (2.0 ** -126, -126.0), (2.0 ** 127, 127.0), (NAN, NAN)],
    "log1p": [(-1.0, -INF), (-2.0, NAN), (-INF, NAN), (INF, INF), (0.0, 0.0), (-0.0, -0.0),
              (TINY, TINY), (-TINY, -TINY), (1e-30, 1e-30), (NAN, NAN)],
    "tanh": [(INF, 1.0), (-INF, -1.0), (0.0, 0.0), (-0.0, -0.0), (20.0, 1.0), (-20.0, -1.0),
             (F32_MAX, 1.0), (TINY, TINY), (-1e-30, -1e-30), (NAN, NAN)],
    "erf": [(INF, 1.0), (-INF, -1.0), (0.0, 0.0), (-0.0, -0.0), (4.0, 1.0), (-5.0, -1.0),
            (F32_MAX, 1.0), (TINY, TINY), (2.0 ** -140, 2.0 ** -140 * 2 / math.sqrt(math.pi)),
            (NAN, NAN)],
    "sin": [(0.0, 0.0), (-0.0, -0.0), (INF, NAN), (-INF, NAN), (TINY, TINY), (-1e-30, -1e-30),
            (NAN, NAN)],
    "cos": [(0.0, 1.0), (-0.0, 1.0), (INF, NAN), (-INF, NAN), (TINY, 1.0), (NAN, NAN)],
}


def test_every_op_has_special_values_and_a_stated_error():
    assert set(SPECIAL_VALUES) == set(OP_NAMES) == set(MAX_ULP_ERROR)


@pytest.mark.parametrize("op", sorted(SPECIAL_VALUES))
def test_special_values_natively(op, kernels):
    x = np.array([v for v, _ in SPECIAL_VALUES[op]], np.float32)
    y = run_vector(kernels(op), x)
    scalar = compile_module(parse_module(
        f"func.func @f(%x: f32) -> f32 {{\n  %y = math.{op} %x : f32\n  return %y : f32\n}}",
        Context()))["f"]
    for (value, expected), vector_result in zip(SPECIAL_VALUES[op], y):
        expected = float(np.float32(expected))
        assert same(float(vector_result), expected), f"{op}({value}) = {vector_result}"
        scalar_result = float(scalar(np.float32(value)))
        assert same(scalar_result, expected), f"scalar {op}({value}) = {scalar_result}"


def sample(op: str) -> np.ndarray:
    """f32s spread over the whole domain (an odd stride through the bit patterns of
    each sign) and dense near the thresholds each function has."""
    bits = np.arange(0, 1 << 31, 65521, dtype=np.uint64)
    spread = np.concatenate([bits, bits | (1 << 31)]).astype(np.uint32).view(np.float32)
    rng = np.random.default_rng(sorted(OP_NAMES).index(op))
    dense = [rng.uniform(-1, 1, 4096), rng.uniform(-20, 20, 4096),
             rng.uniform(85, 89, 1024), rng.uniform(-104, -85, 1024),
             rng.uniform(125, 129, 1024), rng.uniform(-151, -120, 1024),
             rng.uniform(-1, -0.99, 1024), rng.uniform(0.7, 1.5, 2048),
             np.ldexp(rng.uniform(1, 2, 2048), rng.integers(-149, -120, 2048))]
    # sin and cos: the hardest cases of the reduction (closest to multiples of pi/2).
    hardest = [16367173 * 2.0 ** 72, 10741887 * 2.0 ** 11, 16367173 * 2.0 ** 73]
    return np.concatenate([spread, *[d.astype(np.float32) for d in dense],
                           np.array(hardest + [-v for v in hardest], np.float32)])


@pytest.mark.parametrize("op", sorted(MAX_ULP_ERROR))
def test_accuracy_natively_within_the_stated_error(op, harness, kernels):
    values = sample(op)
    accuracy = harness.Accuracy(op)
    for start in range(0, len(values), N):
        chunk = values[start:start + N]
        if op == "erf":  # not torch's erf (the harness's), Python's
            with np.errstate(invalid="ignore"):  # signalling NaNs made quiet
                exact = np.array([math.erf(v) for v in chunk.astype(np.float64)])
        else:
            exact = harness.reference(op, chunk)
        accuracy.add(chunk, run_vector(kernels(op), chunk), exact)
    assert accuracy.mismatches == 0, accuracy.mismatch_examples
    assert accuracy.max_ulp <= MAX_ULP_ERROR[op], (accuracy.max_ulp, accuracy.worst_input)


def test_ulp_errors_are_measured_in_the_f32_spacing(harness):
    exact = np.array([1.0, 1.0, 2.0 ** -140, 3.0, -1.0])
    y = np.array([1.0 + 2.0 ** -23, 1.0 - 2.0 ** -24, 2.0 ** -140 + 2.0 ** -149, 3.0, -1.0],
                 np.float32)
    np.testing.assert_array_equal(harness.ulp_errors(y, exact), [1.0, 0.5, 1.0, 0.0, 0.0])


def test_what_the_pass_leaves_alone():
    text = """
    func.func @f(%a: f64, %b: tensor<4xf32>, %c: vector<4xf64>, %d: f32) -> (f64, tensor<4xf32>, vector<4xf64>, f32) {
      %0 = math.exp %a : f64
      %1 = math.exp %b : tensor<4xf32>
      %2 = math.log %c : vector<4xf64>
      %3 = math.sqrt %d : f32
      return %0, %1, %2, %3 : f64, tensor<4xf32>, vector<4xf64>, f32
    }
    """
    module = parse_module(text, Context())
    before = print_op(module)
    assert run_pipeline(module, "math-polynomial-approximation").success
    assert print_op(module) == before


def test_the_ops_option_chooses_what_is_approximated():
    module = parse_module("""
    func.func @f(%x: f32) -> (f32, f32) {
      %0 = math.exp %x : f32
      %1 = math.tanh %x : f32
      return %0, %1 : f32, f32
    }
    """, Context())
    assert run_pipeline(module, "math-polynomial-approximation{ops=tanh}").success
    names = {op.name for op in module.walk()}
    assert "math.exp" in names and "math.tanh" not in names and "math.fma" in names


def test_an_unknown_op_in_the_option_is_a_diagnostic():
    module = parse_module("func.func @f() {\n  return\n}", Context())
    with pytest.raises(PipelineError, match="'sqrt' is not one of exp, exp2"):
        run_pipeline(module, "math-polynomial-approximation{ops=exp,sqrt}")


def test_f16_is_approximated_once_extended_to_f32():
    text = """
    func.func @kernel(%x: memref<64xf16>, %y: memref<64xf16>) {
      %c0 = arith.constant 0 : index
      %v = vector.load %x[%c0] : memref<64xf16>, vector<64xf16>
      %e = math.exp %v : vector<64xf16>
      vector.store %e, %y[%c0] : memref<64xf16>, vector<64xf16>
      return
    }
    """
    module = parse_module(text, Context())
    alone = module.clone()
    assert run_pipeline(alone, "math-polynomial-approximation").success
    assert "math.exp" in [op.name for op in alone.walk()]
    extended = module.clone()
    pipeline = "math-extend-to-supported-types,math-polynomial-approximation"
    assert run_pipeline(extended, pipeline).success
    names = [op.name for op in extended.walk()]
    assert "math.exp" not in names and "arith.extf" in names and "arith.truncf" in names
    x = np.linspace(-12, 11, 64).astype(np.float16)
    y = np.empty_like(x)
    compile_module(module)["kernel"](x, y)
    # One f32 rounding, then one to f16: within an f16 ulp of the exact value.
    exact = np.exp(x.astype(np.float64))
    assert np.all(np.abs(y - exact) <= np.spacing(np.abs(exact).astype(np.float16)))


def interpreted(module, values, lanes=8):
    """@f of `module` (on vectors of `lanes` f32s) of `values`, interpreted."""
    results = []
    for start in range(0, len(values), lanes):
        chunk = [float(v) for v in values[start:start + lanes]]
        padding = lanes - len(chunk)
        results.extend(evaluate(module, "f", [chunk + [0.0] * padding])[0][:len(chunk)])
    return np.array(results, np.float32)


@pytest.mark.parametrize("op", sorted(MAX_ULP_ERROR))
def test_the_interpreted_approximation_is_the_op_interpreted(op, harness):
    text = (f"func.func @f(%x: vector<8xf32>) -> vector<8xf32> {{\n"
            f"  %y = math.{op} %x : vector<8xf32>\n  return %y : vector<8xf32>\n}}")
    module = parse_module(text, Context())
    approximated = module.clone()
    assert run_pipeline(approximated, "math-polynomial-approximation").success
    assert not any(o.name == f"math.{op}" for o in approximated.walk())
    rng = np.random.default_rng(1)
    values = np.concatenate([[v for v, _ in SPECIAL_VALUES[op]], rng.uniform(-3, 3, 40),
                             rng.uniform(-90, 90, 16), rng.uniform(0, 1e-38, 8)])
    values = values.astype(np.float32)
    expected = interpreted(module, values)
    actual = interpreted(approximated, values)
    accuracy = harness.Accuracy(op)
    accuracy.add(values, actual, expected.astype(np.float64))
    assert accuracy.mismatches == 0, accuracy.mismatch_examples
    # The interpreter's op is the double-precision function rounded: half an ulp more.
    assert accuracy.max_ulp <= MAX_ULP_ERROR[op] + 0.5
