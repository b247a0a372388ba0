"""Every graph op's numbers against an independent reference.

For ops ONNX has, the oracle is `onnx.reference.ReferenceEvaluator` running a
one-node model built with `onnx.helper` on the same inputs; for the ops ONNX lacks,
or where it is itself inexact, values computed by hand (Python's `math` and
`fractions`, explicit loops). Inputs reach the edges: negatives, ±0, huge and tiny
magnitudes, ±inf and NaN for floats, INT_MIN/INT_MAX and values past 2^53 for
integers.

Tolerances, stated once: results that move or select elements, integer results and
IEEE-exact operations (+, -, *, /, comparisons, min/max, rounding functions) must be
identical, NaN where the reference has NaN. Transcendental functions may differ by 2
units in the last place of the result type (the graph computes them in float64 and
rounds once; ONNX computes in the input type). Sums of products (conv2d, dense,
matmul, pooling means, normalisations) may differ by rtol 1e-5 plus an absolute
term of 1e-6 times the sum of the magnitudes that went into each element.
"""

from __future__ import annotations

import math
import struct
import warnings
from fractions import Fraction

import numpy as np
import pytest
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

from mlc.graph import EvaluationError, GraphBuilder, evaluate
from mlc.graph.builder import element_type_of_dtype
from mlc.ir import IRError, bf16, verify

OPSET = 21
# Ops whose attributes or existence came later than OPSET (Swish is opset 24).
NEWER_OPSETS = {"Swish": 24, "CumProd": 26}
I64_MIN, I64_MAX = np.iinfo(np.int64).min, np.iinfo(np.int64).max
I32_MIN, I32_MAX = np.iinfo(np.int32).min, np.iinfo(np.int32).max

# Float inputs at the edges: the zeros, subnormals, values whose exponentials
# overflow or underflow f16 and f32, ±inf and NaN.
FLOAT_EDGES = [-np.inf, -1e30, -104.0, -89.0, -11.5, -3.5, -2.5, -1.0, -0.5, -1e-40, -0.0,
               0.0, 1e-40, 0.5, 1.0, 2.5, 3.5, 11.5, 89.0, 1e30, np.inf, np.nan]
INT64_EDGES = [I64_MIN, I64_MIN + 1, -(2**53) - 1, -7, -1, 0, 1, 7, 2**53 + 1, I64_MAX - 1,
               I64_MAX]
INT32_EDGES = [I32_MIN, I32_MIN + 1, -7, -1, 0, 1, 7, I32_MAX - 1, I32_MAX]
RNG = np.random.default_rng(7)


def floats(dtype=np.float32, shape=None) -> np.ndarray:
    """The float edge values in `dtype` (reshaped when asked)."""
    with np.errstate(over="ignore"):
        x = np.array(FLOAT_EDGES, np.float64).astype(dtype)
    return x if shape is None else x[:math.prod(shape)].reshape(shape)


def normal(*shape, dtype=np.float32) -> np.ndarray:
    return RNG.standard_normal(shape).astype(dtype)


# ------------------------------------------------------------------ running both sides


def graph_run(op: str, inputs: list, **attrs) -> list[np.ndarray]:
    """`graph.<op>` on parameters holding `inputs` (a list of arrays stands for a
    variadic operand), verified, then run by the interpreter."""
    b = GraphBuilder()
    operands, flat = [], []
    for i, spec in enumerate(inputs):
        group = spec if isinstance(spec, list) else [spec]
        params = [b.param(f"p{i}_{j}", a.shape, _element(a)) for j, a in enumerate(group)]
        flat += group
        operands.append(params if isinstance(spec, list) else params[0])
    out = b.op(op, *operands, **attrs)
    outs = out if isinstance(out, list) else [out]
    module = b.module(*outs)
    verify(module)
    return evaluate(module, flat)


def _element(array: np.ndarray):
    return array.dtype.name


def onnx_run(op_type: str, inputs: list, outputs: int = 1, **attrs) -> list[np.ndarray]:
    """ONNX's reference evaluator on a one-node model; None stands for an omitted
    optional input."""
    names = ["" if a is None else f"in{i}" for i, a in enumerate(inputs)]
    given = {n: a for n, a in zip(names, inputs) if a is not None}
    node = helper.make_node(op_type, names, [f"out{i}" for i in range(outputs)], **attrs)
    graph = helper.make_graph(
        [node], "one_node",
        [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
         for n, a in given.items()],
        [helper.make_tensor_value_info(f"out{i}", TensorProto.UNDEFINED, None)
         for i in range(outputs)])
    model = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", NEWER_OPSETS.get(op_type, OPSET))])
    # The oracle's own numpy warnings (exp overflowing, 0 * inf) are its business.
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return [np.asarray(v) for v in ReferenceEvaluator(model).run(None, given)]


def ulps_apart(ours: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """How many units in the last place of `theirs`' type the two differ by."""
    ours64, theirs64 = ours.astype(np.float64), theirs.astype(np.float64)
    spacing = np.spacing(np.abs(theirs)).astype(np.float64)
    with np.errstate(invalid="ignore"):
        return np.abs(ours64 - theirs64) / spacing


def assert_same(ours: np.ndarray, expected: np.ndarray, *, ulps: float = 0,
                scale: np.ndarray | None = None, signed_zeros: bool = True) -> None:
    """Equal shapes and dtypes; NaN exactly where expected has NaN, the same
    infinities; finite values identical (zeros of the same sign unless
    `signed_zeros` is off), within `ulps` units in the last place, or (with `scale`)
    within rtol 1e-5 + 1e-6 * scale."""
    ours, expected = np.asarray(ours), np.asarray(expected)
    assert ours.shape == expected.shape, f"shape {ours.shape}, expected {expected.shape}"
    assert ours.dtype == expected.dtype, f"dtype {ours.dtype}, expected {expected.dtype}"
    if ours.dtype.kind != "f":
        np.testing.assert_array_equal(ours, expected)
        return
    np.testing.assert_array_equal(np.isnan(ours), np.isnan(expected), err_msg="NaN positions")
    finite = np.isfinite(expected)
    np.testing.assert_array_equal(ours[~finite & ~np.isnan(expected)],
                                  expected[~finite & ~np.isnan(expected)], err_msg="infinities")
    got, want = ours[finite], expected[finite]
    if scale is not None:
        bound = 1e-5 * np.abs(want.astype(np.float64)) + 1e-6 * np.broadcast_to(scale, ours.shape)[finite]
        bad = np.abs(got.astype(np.float64) - want.astype(np.float64)) > bound
    elif ulps:
        bad = ulps_apart(got, want) > ulps
    else:
        bad = got != want
        if signed_zeros:
            bad |= (want == 0) & (np.signbit(got) != np.signbit(want))
    assert not np.any(bad), (f"differs at {np.argwhere(bad.reshape(-1))[:5].ravel().tolist()}: "
                             f"{got[bad][:5]} vs expected {want[bad][:5]}")


def check_against_onnx(op: str, inputs: list, onnx_op: str, onnx_inputs: list | None = None,
                       attrs: dict | None = None, onnx_attrs: dict | None = None,
                       outputs: int = 1, **tolerance) -> None:
    """`graph.<op>` and the ONNX op on the same inputs give the same results."""
    ours = graph_run(op, inputs, **(attrs or {}))
    theirs = onnx_run(onnx_op, inputs if onnx_inputs is None else onnx_inputs, outputs,
                      **(onnx_attrs or {}))
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert_same(a, b, **tolerance)


# ------------------------------------------------------------------ elementwise, unary

EXACT_UNARY = [("neg", "Neg"), ("abs", "Abs"), ("floor", "Floor"), ("ceil", "Ceil"),
               ("round", "Round"), ("sign", "Sign"), ("sqrt", "Sqrt"), ("reciprocal", "Reciprocal")]
# Ops taking a maximum or minimum: which zero max(-0, +0) gives is left open (IEEE
# does, and numpy's answer depends on the dtype).
ZERO_SIGN_OPEN = {"relu", "maximum", "minimum", "clip"}
TRANSCENDENTAL_UNARY = [("exp", "Exp"), ("log", "Log"), ("tanh", "Tanh"), ("sigmoid", "Sigmoid"),
                        ("erf", "Erf")]
# ONNX's reference computes erf in float32 whatever the input type: f64 erf is
# checked by hand only.
TRANSCENDENTAL_CASES = [(op, onnx_op, dtype) for op, onnx_op in TRANSCENDENTAL_UNARY
                        for dtype in (np.float16, np.float32, np.float64)
                        if (op, dtype) != ("erf", np.float64)]


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("op, onnx_op", EXACT_UNARY, ids=[c[0] for c in EXACT_UNARY])
def test_exact_unary_ops_match_onnx(op, onnx_op, dtype):
    check_against_onnx(op, [floats(dtype)], onnx_op)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_relu_matches_onnx(dtype):
    check_against_onnx("relu", [floats(dtype)], "Relu", signed_zeros=False)


@pytest.mark.parametrize("op, onnx_op, dtype", TRANSCENDENTAL_CASES,
                         ids=[f"{c[0]}-{c[2].__name__}" for c in TRANSCENDENTAL_CASES])
def test_transcendental_unary_ops_match_onnx(op, onnx_op, dtype):
    x = np.concatenate([floats(dtype), normal(64, dtype=dtype) * 4])
    check_against_onnx(op, [x], onnx_op, ulps=2)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_erf_by_hand(dtype):
    """Against Python's math.erf, within 1 ulp of the result type."""
    x = np.concatenate([floats(dtype), normal(64, dtype=dtype) * 3])
    [ours] = graph_run("erf", [x])
    expected = np.array([math.erf(v) if not math.isnan(v) else math.nan for v in x.astype(np.float64)])
    assert_same(ours, expected.astype(dtype), ulps=1)


@pytest.mark.parametrize("op, onnx_op", [("neg", "Neg"), ("abs", "Abs"), ("relu", "Relu"),
                                         ("sign", "Sign")])
@pytest.mark.parametrize("edges, dtype", [(INT64_EDGES, np.int64), (INT32_EDGES, np.int32),
                                          ([-128, -1, 0, 1, 127], np.int8)])
def test_integer_unary_ops_match_onnx(op, onnx_op, edges, dtype):
    """-INT_MIN and |INT_MIN| wrap to INT_MIN, as ONNX's reference computes too."""
    check_against_onnx(op, [np.array(edges, dtype)], onnx_op)


def test_sigmoid_keeps_tiny_values():
    """sigmoid(x) = e^x/(1+e^x) for x < 0, from Python's math: f32's subnormals at
    -89 and -100, f16's at -11.5 and -16 (1/(1+e^-x) in the input type gives 0)."""
    for dtype, xs in ((np.float32, [-89.0, -100.0, -103.0, -30.0, 30.0]),
                      (np.float16, [-11.5, -16.0, -17.0, -5.0, 8.0])):
        x = np.array(xs, dtype)
        [ours] = graph_run("sigmoid", [x])
        expected = np.array([math.exp(v) / (1 + math.exp(v)) if v < 0 else 1 / (1 + math.exp(-v))
                             for v in x.astype(np.float64)]).astype(dtype)
        assert np.all(expected[:2] > 0)  # the values a naive form flushes to zero
        assert_same(ours, expected, ulps=1)


def test_gelu_matches_onnx_and_erfc_by_hand():
    """ONNX's x/2·(1 + erf(x/√2)) in f32 cancels to 0 below about -5: compared with it
    within 2 ulp of 1 (absolute); against x/2·erfc(-x/√2) from Python's math within
    1 ulp of the result, also where it is tiny."""
    x = np.concatenate([floats(np.float32), normal(64) * 4])
    [ours] = graph_run("gelu", [x])
    [theirs] = onnx_run("Gelu", [x], approximate="none")
    near = np.isfinite(theirs)
    assert np.all(np.abs(ours[near].astype(np.float64) - theirs[near]) <= 2 * np.spacing(np.float32(1))
                  + 2 * np.spacing(np.abs(theirs[near])))
    # gelu(inf) = inf; gelu(-inf) = -inf · 0 = NaN, as ONNX computes it.
    by_hand = np.array([v / 2 * math.erfc(-v / math.sqrt(2)) if math.isfinite(v) else
                        (v if v > 0 else math.nan) for v in x.astype(np.float64)])
    with np.errstate(invalid="ignore"):
        assert_same(ours, by_hand.astype(np.float32), ulps=1)
    assert ours[x == np.float32(-11.5)][0] < 0  # not flushed to -0


def test_gelu_tanh_matches_onnx_and_the_tanh_form_by_hand():
    """approximate = "tanh": against x/2·(1 + tanh(u)) from Python's math (where that
    does not cancel, x > -5) within 1 ulp; below, the value stays negative and tiny
    instead of 0. ONNX's function body takes √(2/π) and 0.044715 as f32 constants,
    which moves its results by up to about 1e-7·|u| relatively, and computes 1 + tanh,
    which cancels below -5: compared with it above -5 at rtol 1e-5, NaN and the
    infinities exactly."""
    x = np.concatenate([floats(np.float32), normal(64) * 4])
    [ours] = graph_run("gelu", [x], approximate="tanh")
    [theirs] = onnx_run("Gelu", [x.astype(np.float64)], approximate="tanh")
    above = ~(x <= -5)
    assert_same(ours[above], theirs.astype(np.float32)[above], scale=np.zeros(above.sum()))
    by_hand = np.array([v / 2 * (1 + math.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v**3)))
                        for v in x.astype(np.float64) if -5 < v < 1e10])
    assert_same(ours[(x > -5) & (x < 1e10)], by_hand.astype(np.float32), ulps=1)
    deep = np.array([-6.0, -9.0], np.float32)  # tiny, yet above f32's smallest subnormal
    [tiny] = graph_run("gelu", [deep], approximate="tanh")
    u = [math.sqrt(2 / math.pi) * (v + 0.044715 * v**3) for v in deep.astype(np.float64)]
    expected = [v * math.exp(2 * w) / (1 + math.exp(2 * w)) for v, w in zip(deep.astype(np.float64), u)]
    assert np.all(tiny < 0)
    assert_same(tiny, np.array(expected).astype(np.float32), ulps=1)


def test_rsqrt_by_hand():
    """ONNX has no Rsqrt: 1/√x from Python's math, and the IEEE edge values."""
    x = np.concatenate([floats(np.float32), np.abs(normal(32)) * 100])
    [ours] = graph_run("rsqrt", [x])
    expected = []
    for v in x.astype(np.float64):
        if math.isnan(v) or v < 0:
            expected.append(math.nan)
        elif v == 0:
            expected.append(math.copysign(math.inf, v))
        else:
            expected.append(1 / math.sqrt(v))
    assert_same(ours, np.array(expected).astype(np.float32), ulps=1)


@pytest.mark.parametrize("alpha", [0.01, 0.2])
def test_leaky_relu_matches_onnx(alpha):
    x = floats(np.float32)
    check_against_onnx("leaky_relu", [x], "LeakyRelu", attrs={"alpha": alpha},
                       onnx_attrs={"alpha": float(np.float32(alpha))})


@pytest.mark.parametrize("low, high", [(0.0, 6.0), (-1.5, 2.5), (-np.inf, 0.0), (1.0, 0.0),
                                       (np.inf, -np.inf)])
def test_clip_matches_onnx(low, high):
    x = floats(np.float32)
    check_against_onnx("clip", [x], "Clip", [x, np.array(low, np.float32), np.array(high, np.float32)],
                       attrs={"min": low, "max": high}, signed_zeros=False)


def test_integer_clip_matches_onnx_with_bounds_taken_inward():
    """For integers [-1.5, 6.5] is [-1, 6] (ONNX takes integer bounds); infinite bounds
    saturate to the type's range."""
    x = np.array(INT64_EDGES, np.int64)
    check_against_onnx("clip", [x], "Clip", [x, np.array(-1, np.int64), np.array(6, np.int64)],
                       attrs={"min": -1.5, "max": 6.5})
    check_against_onnx("clip", [x], "Clip", [x, np.array(I64_MIN, np.int64), np.array(0, np.int64)],
                       attrs={"min": -np.inf, "max": 0.0})


def test_clip_with_min_above_max_gives_max():
    """ONNX's test_clip_min_greater_than_max: every element becomes max (NaN stays)."""
    x = floats(np.float32)
    [ours] = graph_run("clip", [x], min=1.0, max=0.0)
    assert_same(ours, np.where(np.isnan(x), np.float32(np.nan), np.float32(0.0)))
    xi = np.array(INT64_EDGES, np.int64)
    check_against_onnx("clip", [xi], "Clip", [xi, np.array(6, np.int64), np.array(-1, np.int64)],
                       attrs={"min": 6.0, "max": -1.0})


def test_integer_clip_needs_an_integer_between_the_bounds():
    with pytest.raises(IRError, match=r"\[0.2\d*, 0.8\d*\] holds no integer"):
        graph_run("clip", [np.array([1], np.int32)], min=0.2, max=0.8)


def test_dropout_and_logical_not_match_onnx():
    x = floats(np.float32)
    [ours] = graph_run("dropout", [x], rate=0.3)
    [theirs, _] = onnx_run("Dropout", [x], outputs=2)  # inference: the identity
    assert_same(ours, theirs)
    check_against_onnx("logical_not", [np.array([True, False])], "Not")


# Activations ONNX has, with the attribute values its node tests use and others.
ACTIVATIONS = [
    ("elu", "Elu", {}), ("elu", "Elu", {"alpha": 2.0}),
    ("selu", "Selu", {}), ("selu", "Selu", {"alpha": 2.0, "gamma": 3.0}),
    ("celu", "Celu", {}), ("celu", "Celu", {"alpha": 2.0}),
    ("thresholded_relu", "ThresholdedRelu", {}), ("thresholded_relu", "ThresholdedRelu", {"alpha": 2.0}),
    ("softplus", "Softplus", {}), ("softsign", "Softsign", {}), ("mish", "Mish", {}),
    ("hard_sigmoid", "HardSigmoid", {}), ("hard_sigmoid", "HardSigmoid", {"alpha": 0.5, "beta": 0.6}),
    ("swish", "Swish", {}), ("swish", "Swish", {"alpha": 1.702}),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op, onnx_op, attrs", ACTIVATIONS,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(ACTIVATIONS)])
def test_activations_match_onnx(op, onnx_op, attrs, dtype):
    """The edge values and random ones, NaN and the infinities included (mish, swish
    and hard_swish of -inf are -inf · 0 = NaN on both sides; softsign of ±inf too).

    The oracle runs in float64 (in float32 it flushes tiny results to zero, which the
    graph, computing in float64 and rounding once, keeps): within 1 ulp of its
    result rounded to f32, within 4 ulp in f64."""
    x = np.concatenate([floats(dtype), normal(64, dtype=dtype) * 4])
    [ours] = graph_run(op, [x], **attrs)
    onnx_attrs = {k: float(np.float32(v)) for k, v in attrs.items()}
    [theirs] = onnx_run(onnx_op, [x.astype(np.float64)], **onnx_attrs)
    assert_same(ours, theirs.astype(dtype), ulps=1 if dtype == np.float32 else 4,
                signed_zeros=False)


def test_hard_swish_by_hand_and_against_onnx():
    """x·clip(x/6 + 1/2, 0, 1) with 1/6 exact, from Python's fractions: within 1 ulp.
    ONNX's function body takes alpha as the f32 0.16666667, 1e-8 more than 1/6: its
    results differ by that times x², no more."""
    x = np.concatenate([floats(np.float32), normal(64) * 4,
                        np.array([-3.0, -3.0000002, -2.9999998, 3.0, 2.9999998], np.float32)])
    [ours] = graph_run("hard_swish", [x])
    expected = []
    for v in x.astype(np.float64):
        if not math.isfinite(v):
            expected.append(math.nan if math.isnan(v) or v < 0 else v)
            continue
        gate = min(max(Fraction(v) / 6 + Fraction(1, 2), Fraction(0)), Fraction(1))
        expected.append(float(Fraction(v) * gate))
    assert_same(ours, np.array(expected).astype(np.float32), ulps=1, signed_zeros=False)
    [theirs] = onnx_run("HardSwish", [x.astype(np.float64)])
    finite = np.isfinite(x)
    assert np.all(np.abs(ours[finite] - theirs[finite]) <= 2e-8 * x[finite].astype(np.float64) ** 2
                  + 2 * np.spacing(np.abs(ours[finite])))


@pytest.mark.parametrize("op, fn", [
    ("softplus", lambda v: math.log1p(math.exp(v)) if v < 30 else v + math.log1p(math.exp(-v))),
    ("mish", lambda v: v * math.tanh(math.log1p(math.exp(v)) if v < 30 else v)),
    ("elu", lambda v: v if v > 0 else math.expm1(v)),
    ("swish", lambda v: v / (1 + math.exp(-v)) if v > -700 else v * math.exp(v)),
])
def test_activations_by_hand_where_f32_loses_them(op, fn):
    """Very negative x, where the value is tiny but not zero, and x near 0: from
    Python's math in double precision, within 1 ulp of f32 (ONNX's f32 reference
    flushes some of these)."""
    x = np.array([-100.0, -87.0, -40.0, -20.0, -1e-3, -1e-20, 1e-20, 1e-3, 20.0, 80.0], np.float32)
    [ours] = graph_run(op, [x])
    expected = np.array([fn(v) for v in x.astype(np.float64)]).astype(np.float32)
    assert_same(ours, expected, ulps=1)


def test_hard_sigmoid_and_thresholded_relu_at_their_corners():
    """hard_sigmoid reaches 0 and 1 exactly at x = -beta/alpha and (1-beta)/alpha;
    thresholded_relu keeps x only strictly above alpha, and NaN is not above it."""
    x = np.array([-2.5, -2.4999998, 2.5, 2.5000002, np.nan, -np.inf, np.inf], np.float32)
    [ours] = graph_run("hard_sigmoid", [x])
    assert ours[[0, 2]].tolist() == [0.0, 1.0]
    assert 0 < ours[1] < 1e-6 and ours[3] == 1.0
    assert np.isnan(ours[4]) and ours[5:].tolist() == [0.0, 1.0]
    [ours] = graph_run("thresholded_relu", [np.array([1.0, 1.0000001, np.nan, -5.0], np.float32)])
    assert ours.tolist() == [0.0, np.float32(1.0000001), 0.0, 0.0]


@pytest.mark.parametrize("x_shape, slope_shape", [((3, 4, 5), (3, 4, 5)), ((3, 4, 5), (5,)),
                                                  ((2, 3, 4, 4), (3, 1, 1)), ((2, 3), ())])
def test_prelu_matches_onnx(x_shape, slope_shape):
    """The slope broadcasts one way, to x (ONNX's test_prelu_broadcast is (3, 4, 5)
    with (5,)); at x = 0 the result is 0·slope."""
    x = np.concatenate([floats(np.float32), normal(math.prod(x_shape), dtype=np.float32)])
    x = x[:math.prod(x_shape)].reshape(x_shape)
    slope = normal(*slope_shape, dtype=np.float32) if slope_shape else np.float32(-0.25)
    check_against_onnx("prelu", [x, np.asarray(slope)], "PRelu")
    xi = np.array([[I64_MIN, -3, 0, 5]], np.int64)
    check_against_onnx("prelu", [xi, np.array([2], np.int64)], "PRelu")


TRIGONOMETRIC = [("sin", "Sin"), ("cos", "Cos"), ("tan", "Tan"), ("asin", "Asin"),
                 ("acos", "Acos"), ("atan", "Atan"), ("sinh", "Sinh"), ("cosh", "Cosh"),
                 ("asinh", "Asinh"), ("acosh", "Acosh"), ("atanh", "Atanh")]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op, onnx_op", TRIGONOMETRIC, ids=[c[0] for c in TRIGONOMETRIC])
def test_trigonometric_ops_match_onnx(op, onnx_op, dtype):
    """The edge values (outside the domains: NaN), values in [-1, 1] and beyond, within
    2 ulp of ONNX's reference run in float64 and rounded to the type."""
    x = np.concatenate([floats(dtype), np.linspace(-1, 1, 21, dtype=dtype), normal(32, dtype=dtype) * 3])
    [ours] = graph_run(op, [x])
    [theirs] = onnx_run(onnx_op, [x.astype(np.float64)])
    with np.errstate(over="ignore"):  # sinh and cosh overflow f32: inf on both sides
        theirs = theirs.astype(dtype)
    assert_same(ours, theirs, ulps=2)


def test_isnan_and_isinf_match_onnx():
    x = floats(np.float32)
    check_against_onnx("isnan", [x], "IsNaN")
    for positive, negative in ((True, True), (True, False), (False, True), (False, False)):
        check_against_onnx("isinf", [x], "IsInf", attrs={"detect_positive": positive,
                                                         "detect_negative": negative},
                           onnx_attrs={"detect_positive": int(positive),
                                       "detect_negative": int(negative)})
    [ours] = graph_run("isnan", [np.array(INT64_EDGES, np.int64)])
    assert not ours.any()


@pytest.mark.parametrize("lambd, bias", [(0.5, 0.0), (1.5, 1.0), (0.0, -2.0)])
def test_shrink_matches_onnx(lambd, bias):
    """Floats, NaN (neither side of the band: 0) included, and integers."""
    x = np.concatenate([floats(np.float32), normal(16) * 3])
    check_against_onnx("shrink", [x], "Shrink", attrs={"lambd": lambd, "bias": bias},
                       onnx_attrs={"lambd": lambd, "bias": bias}, signed_zeros=False)
    xi = np.arange(-4, 5, dtype=np.int32)
    check_against_onnx("shrink", [xi], "Shrink", attrs={"lambd": lambd, "bias": bias},
                       onnx_attrs={"lambd": lambd, "bias": bias})


def test_shrink_on_integers_needs_an_integral_bias():
    with pytest.raises(IRError, match="bias 0.5 must be an integer for i32 values"):
        graph_run("shrink", [np.arange(3, dtype=np.int32)], bias=0.5)


# ------------------------------------------------------------------ casts


def _bf16_values() -> np.ndarray:
    """Every finite non-negative bfloat16 value, from its bit pattern by `struct`."""
    values = {struct.unpack("<f", struct.pack("<I", bits << 16))[0] for bits in range(0x7F80)}
    return np.array(sorted(values))


BF16 = _bf16_values()
BF16_MAX = Fraction(float(BF16[-1]))


def bf16_by_hand(value) -> float:
    """`value` (a Python int or float) rounded to the nearest bfloat16, ties to the
    even bit pattern, in exact rational arithmetic; past the largest value by half a
    step it is ±inf."""
    if isinstance(value, float) and not math.isfinite(value):
        return value
    exact = Fraction(value)
    magnitude = abs(exact)
    if magnitude >= BF16_MAX + Fraction(2) ** (127 - 8):
        rounded = math.inf
    else:
        i = int(np.searchsorted(BF16, float(magnitude)))
        candidates = [Fraction(float(v)) for v in BF16[max(i - 2, 0):i + 2]]
        best = min(candidates, key=lambda c: abs(c - magnitude))
        ties = [c for c in candidates if abs(c - magnitude) == abs(best - magnitude)]
        if len(ties) > 1:  # the one whose bit pattern is even
            best = next(c for c in ties if (struct.unpack("<I", struct.pack("<f", float(c)))[0] >> 16) % 2 == 0)
        rounded = float(best)
    return -rounded if exact < 0 or (exact == 0 and math.copysign(1, value) < 0) else rounded


def test_cast_to_bf16_rounds_once():
    """From f64 and from integers beyond 2^24 the value is rounded once to bf16 (a
    detour through f32 rounds twice: 1 + 2^-8 + 2^-40 would become 1)."""
    f64 = np.array([1 + 2**-8 + 2**-40, 1 + 2**-8, 1 + 3 * 2**-8, -(1 + 2**-8 + 2**-40), 1e-40,
                    -3e38, 3.3961e38, 3.4e38, 1e-300, -0.0, 0.0, 2.0**-133 * 1.5]
                   + list(normal(64, dtype=np.float64) * 10.0 ** RNG.integers(-40, 38, 64)))
    i64 = np.array([2**24 + 2**16 + 1, 2**24 + 2**16, -(2**24 + 2**16 + 1), I64_MAX, I64_MIN,
                    2**53 + 1, 255, 257, 0], np.int64)
    u64 = np.array([2**64 - 1, 2**63 + 2**55, 3], np.uint64)
    for x in (f64, i64, u64, floats(np.float32)):
        b = GraphBuilder()
        p = b.param("x", x.shape, x.dtype.name)
        back = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
        y = b.cast(b.cast(p, dtype=bf16), dtype=element_type_of_dtype(back))
        [ours] = evaluate(b.module(y), [x])
        expected = [bf16_by_hand(int(v) if x.dtype.kind in "iu" else float(v)) for v in x]
        assert_same(ours.astype(np.float64), np.array(expected, np.float64))


@pytest.mark.parametrize("source, target", [
    (np.float32, np.float16), (np.float64, np.float32), (np.float16, np.float64),
    (np.int64, np.float32), (np.int64, np.float64), (np.int64, np.float16),
    (np.int64, np.int32), (np.int32, np.int8), (np.int32, np.uint8), (np.uint8, np.int8),
    (np.float32, np.bool_), (np.bool_, np.float32), (np.int64, np.bool_),
])
def test_casts_match_onnx(source, target):
    """Integers wrap to a narrower type (ONNX's reference, numpy); floats round once;
    to bool, anything non-zero (NaN too) is true."""
    if np.dtype(source).kind == "f":
        x = floats(source)
    elif source is np.bool_:
        x = np.array([True, False])
    else:
        info = np.iinfo(source)
        x = np.array([info.min, info.min + 1, -300, -129, -1, 0, 1, 127, 128, 255, 256, 65519,
                      65520, 2**24 + 1, info.max], np.int64)
        x = x[(x >= info.min) & (x <= info.max)].astype(source)
    b = GraphBuilder()
    y = b.cast(b.param("x", x.shape, np.dtype(source).name), dtype=element_type_of_dtype(target))
    [ours] = evaluate(b.module(y), [x])
    [theirs] = onnx_run("Cast", [x], to=helper.np_dtype_to_tensor_dtype(np.dtype(target)))
    assert_same(ours, theirs)


def test_float_to_integer_casts_truncate_and_refuse_what_does_not_fit():
    x = np.array([-2.9, -0.5, -0.0, 0.5, 2.9, -2147483648.9, 2147483647.9], np.float64)
    i32 = element_type_of_dtype(np.int32)
    check_against_onnx("cast", [x], "Cast", attrs={"dtype": i32},
                       onnx_attrs={"to": TensorProto.INT32})
    for bad in (np.nan, np.inf, 2147483648.0, -2147483649.0):
        with pytest.raises(EvaluationError, match="does not convert to i32"):
            graph_run("cast", [np.array([1.0, bad])], dtype=i32)


# ------------------------------------------------------------------ elementwise, binary

FLOAT_BINARY = [("add", "Add"), ("subtract", "Sub"), ("multiply", "Mul"), ("divide", "Div"),
                ("maximum", "Max"), ("minimum", "Min"), ("less", "Less"), ("greater", "Greater"),
                ("equal", "Equal")]


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("op, onnx_op", FLOAT_BINARY, ids=[c[0] for c in FLOAT_BINARY])
def test_float_binary_ops_match_onnx(op, onnx_op, dtype):
    """Every pair of edge values (22 x 22, by broadcasting a column against a row):
    inf - inf, 0 * inf, x / 0, NaN on either side."""
    a = floats(dtype).reshape(-1, 1)
    b = floats(dtype).reshape(1, -1)
    check_against_onnx(op, [a, b], onnx_op, signed_zeros=op not in ZERO_SIGN_OPEN)


COMPARISONS = [("greater_equal", "GreaterOrEqual"), ("less_equal", "LessOrEqual")]


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("op, onnx_op", COMPARISONS, ids=[c[0] for c in COMPARISONS])
def test_ordered_comparisons_match_onnx(op, onnx_op, dtype):
    """Every pair of edge values: NaN compares false, -0 >= +0 and -0 <= +0 hold."""
    a = floats(dtype).reshape(-1, 1)
    b = floats(dtype).reshape(1, -1)
    check_against_onnx(op, [a, b], onnx_op)


@pytest.mark.parametrize("op, onnx_op", COMPARISONS, ids=[c[0] for c in COMPARISONS])
@pytest.mark.parametrize("edges, dtype", [(INT64_EDGES, np.int64), (INT32_EDGES, np.int32)])
def test_integer_comparisons_match_onnx(op, onnx_op, edges, dtype):
    a = np.array(edges, dtype).reshape(-1, 1)
    check_against_onnx(op, [a, a.reshape(1, -1)], onnx_op)


def test_not_equal_is_not_equal_and_xor_is_onnx_xor():
    """ONNX has no NotEqual: Not(Equal), on every pair of float edges (NaN differs from
    itself) and of int64 edges."""
    for a in (floats(np.float32), np.array(INT64_EDGES, np.int64)):
        [ours] = graph_run("not_equal", [a.reshape(-1, 1), a.reshape(1, -1)])
        [equal] = onnx_run("Equal", [a.reshape(-1, 1), a.reshape(1, -1)])
        assert_same(ours, ~equal)
    check_against_onnx("logical_xor", [np.array([[True], [False]]), np.array([True, False])], "Xor")


@pytest.mark.parametrize("edges, dtype", [(INT64_EDGES, np.int64), (INT32_EDGES, np.int32),
                                          ([-128, -3, -1, 0, 1, 3, 127], np.int8),
                                          ([0, 1, 3, 200, 255], np.uint8)])
@pytest.mark.parametrize("fmod", [False, True])
def test_integer_mod_matches_onnx(edges, dtype, fmod):
    """Every pair but a zero divisor: the sign of rhs (Python's %) or, with fmod, of
    lhs (C's); INT_MIN % -1 is 0."""
    a = np.array(edges, dtype).reshape(-1, 1)
    b = np.array([v for v in edges if v != 0], dtype).reshape(1, -1)
    check_against_onnx("mod", [a, b], "Mod", attrs={"fmod": fmod}, onnx_attrs={"fmod": int(fmod)})


def test_integer_mod_by_zero_is_reported():
    with pytest.raises(EvaluationError, match="integer remainder by zero"):
        graph_run("mod", [np.array([3, 4], np.int32), np.array([1, 0], np.int32)])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_float_fmod_matches_onnx(dtype):
    """Every pair of edge values: fmod(inf, y) and fmod(x, 0) are NaN, fmod(x, inf) is
    x; the remainder is exact."""
    a = floats(dtype).reshape(-1, 1)
    b = floats(dtype).reshape(1, -1)
    check_against_onnx("mod", [a, b], "Mod", attrs={"fmod": True}, onnx_attrs={"fmod": 1})


def test_float_mod_needs_fmod():
    with pytest.raises(IRError, match="f32 remainders need fmod"):
        graph_run("mod", [np.ones(2, np.float32), np.ones(2, np.float32)])


SHIFT_CASES = [(np.uint8, 8), (np.uint16, 16), (np.uint32, 32), (np.uint64, 64), (np.int32, 32),
               (np.int8, 8)]


@pytest.mark.parametrize("dtype, bits", SHIFT_CASES, ids=[c[0].__name__ for c in SHIFT_CASES])
@pytest.mark.parametrize("op, direction", [("left_shift", "LEFT"), ("right_shift", "RIGHT")])
def test_shifts_match_onnx(op, direction, dtype, bits):
    """Shifts by 0 to bits + 1 of the type's edges (and by -1 for signed types): past
    the width every bit is gone (-1 remains of a negative signed value shifted
    right)."""
    info = np.iinfo(dtype)
    a = np.array(sorted({info.min, info.min + 1, 0, 1, 3, info.max // 2, info.max - 1, info.max}),
                 dtype).reshape(-1, 1)
    amounts = list(range(0, bits + 2, max(1, bits // 8))) + [bits - 1, bits]
    if info.min < 0:
        amounts.append(-1)
    b = np.array(amounts, dtype).reshape(1, -1)
    check_against_onnx(op, [a, b], "BitShift", onnx_attrs={"direction": direction})


@pytest.mark.parametrize("op, onnx_op", [("bitwise_and", "BitwiseAnd"), ("bitwise_or", "BitwiseOr"),
                                         ("bitwise_xor", "BitwiseXor")])
def test_bitwise_ops_match_onnx(op, onnx_op):
    for edges, dtype in ((INT64_EDGES, np.int64), (INT32_EDGES, np.int32), ([0, 1, 127, 128, 255], np.uint8)):
        a = np.array(edges, dtype)
        check_against_onnx(op, [a.reshape(-1, 1), a.reshape(1, -1)], onnx_op)
    for edges, dtype in ((INT64_EDGES, np.int64), ([0, 1, 127, 128, 255], np.uint8)):
        check_against_onnx("bitwise_not", [np.array(edges, dtype)], "BitwiseNot")


def test_float_power_matches_onnx():
    """C's pow: (-8)^(1/3) is NaN, 0^-1 inf, x^0 = 1 and 1^y = 1 even for NaN."""
    a = floats(np.float32).reshape(-1, 1)
    b = np.array([-np.inf, -2.0, -1.0, -0.5, -0.0, 0.0, 1 / 3, 0.5, 1.0, 2.0, 3.0, np.inf, np.nan],
                 np.float32).reshape(1, -1)
    check_against_onnx("power", [a, b], "Pow", ulps=2)


@pytest.mark.parametrize("op, onnx_op", [("add", "Add"), ("subtract", "Sub"), ("multiply", "Mul"),
                                         ("maximum", "Max"), ("minimum", "Min"), ("less", "Less"),
                                         ("greater", "Greater"), ("equal", "Equal")])
@pytest.mark.parametrize("edges, dtype", [(INT64_EDGES, np.int64), (INT32_EDGES, np.int32),
                                          ([0, 1, 127, 128, 255], np.uint8)])
def test_integer_binary_ops_match_onnx(op, onnx_op, edges, dtype):
    """Overflow wraps modulo 2^bits, as in ONNX's reference (numpy's integer ufuncs)."""
    a = np.array(edges, dtype).reshape(-1, 1)
    b = np.array(edges, dtype).reshape(1, -1)
    check_against_onnx(op, [a, b], onnx_op)


def _truncated_quotient(a: int, b: int, bits: int) -> int:
    q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
    return (q + 2 ** (bits - 1)) % 2**bits - 2 ** (bits - 1)  # wraps, as INT_MIN / -1


@pytest.mark.parametrize("edges, dtype", [(INT64_EDGES, np.int64), (INT32_EDGES, np.int32)])
def test_integer_divide_truncates_in_integers(edges, dtype):
    """Against Python's exact integers, and ONNX's reference (which also truncates in
    integers): (2^63-1)/1 and (2^53+1)/1 are themselves, INT_MIN/-1 wraps."""
    divisors = [v for v in edges if v != 0]
    a = np.array(edges, dtype).reshape(-1, 1)
    b = np.array(divisors, dtype).reshape(1, -1)
    [ours] = graph_run("divide", [a, b])
    bits = np.dtype(dtype).itemsize * 8
    expected = np.array([[_truncated_quotient(int(x), int(y), bits) for y in divisors]
                         for x in edges], dtype)
    assert_same(ours, expected)
    [theirs] = onnx_run("Div", [a, b])
    assert_same(ours, theirs)


def test_unsigned_divide():
    a = np.array([255, 254, 7, 0], np.uint8).reshape(-1, 1)
    b = np.array([1, 2, 255], np.uint8)
    check_against_onnx("divide", [a, b], "Div")


def test_integer_division_by_zero_is_reported():
    with pytest.raises(EvaluationError, match="'graph.divide': integer division by zero"):
        graph_run("divide", [np.array([1, 2], np.int32), np.array([1, 0], np.int32)])


def _power_by_hand(a: int, b: int, bits: int) -> int:
    if b >= 0:
        value = a**b
    else:  # 1/a^|b| truncated toward zero
        value = Fraction(1, a ** -b)
        value = math.trunc(value)
    return (value + 2 ** (bits - 1)) % 2**bits - 2 ** (bits - 1)


def test_integer_power_by_hand():
    """ONNX's reference has no answer for negative integer exponents (numpy raises):
    1/a^|b| truncated, from Python's exact integers; positive powers wrap."""
    bases = [-3, -2, -1, 1, 2, 3, 7, 0]
    exponents = [-3, -2, -1, 0, 1, 2, 5, 31, 40, 63]
    a = np.array(bases, np.int32).reshape(-1, 1)
    b = np.array(exponents, np.int32).reshape(1, -1)
    zero = a == 0
    [ours] = graph_run("power", [a[~zero[:, 0]], b])
    expected = np.array([[_power_by_hand(x, y, 32) for y in exponents] for x in bases if x], np.int32)
    assert_same(ours, expected)
    [ours] = graph_run("power", [np.array([0, 0, 5], np.int64), np.array([0, 3, 27], np.int64)])
    assert_same(ours, np.array([1, 0, _power_by_hand(5, 27, 64)], np.int64))
    with pytest.raises(EvaluationError, match="0 raised to a negative power"):
        graph_run("power", [np.array([0], np.int64), np.array([-1], np.int64)])


def test_logical_binary_and_where_match_onnx():
    a = np.array([[True], [False]])
    b = np.array([True, False])
    check_against_onnx("logical_and", [a, b], "And")
    check_against_onnx("logical_or", [a, b], "Or")
    c = np.array([[True, False, True]])
    x = floats(np.float32)[:6].reshape(2, 3)
    check_against_onnx("where", [c, x, np.float32(7) * np.ones((2, 1), np.float32)], "Where")
    check_against_onnx("where", [c, np.array([[I64_MIN], [I64_MAX]], np.int64),
                                 np.array([0, 1, 2], np.int64)], "Where")


# ------------------------------------------------------------------ nn


def _conv_scale(x: np.ndarray, w: np.ndarray, attrs: dict) -> np.ndarray:
    """The sum of |x|·|w| per output element: how large the rounding can get."""
    [scale] = graph_run("conv2d", [np.abs(x), np.abs(w)], **attrs)
    return scale


CONV_CASES = [
    # padding (top, left, bottom, right) all different, so reading it as (top, bottom,
    # left, right) or any other order changes the shape or the values
    dict(padding=(1, 0, 2, 3)),
    dict(padding=(0, 2, 1, 0), strides=(2, 1)),
    dict(padding=(2, 1, 0, 1), strides=(1, 3), dilation=(2, 1)),
    dict(padding=(1, 3, 2, 0), strides=(3, 2), dilation=(1, 2), groups=2),
    dict(padding=(1, 1, 1, 1), groups=4),  # depthwise
    # the larger stride and the dilation along W, top < bottom and left > right
    dict(padding=(0, 2, 3, 1), strides=(1, 2), dilation=(1, 3)),
]


@pytest.mark.parametrize("attrs", CONV_CASES, ids=[str(i) for i in range(len(CONV_CASES))])
def test_conv2d_matches_onnx(attrs):
    groups = attrs.get("groups", 1)
    x = normal(2, 4, 7, 9)
    x[0, 0, 0, :3] = [0.0, -0.0, 1e30]
    w = normal(4, 4 // groups, 3, 2)
    onnx_attrs = {"pads": list(attrs["padding"]), "strides": list(attrs.get("strides", (1, 1))),
                  "dilations": list(attrs.get("dilation", (1, 1))), "group": groups}
    check_against_onnx("conv2d", [x, w], "Conv", attrs=attrs, onnx_attrs=onnx_attrs,
                       scale=_conv_scale(x, w, attrs))


def test_conv2d_nan_and_inf_as_onnx():
    """A NaN reaches every window it is in; inf in the weights times a padding zero is
    NaN, as in ONNX's Conv."""
    x = normal(1, 1, 4, 4)
    x[0, 0, 3, 3] = np.nan
    w = np.full((1, 1, 2, 2), np.inf, np.float32)
    check_against_onnx("conv2d", [x, w], "Conv", attrs={"padding": (1, 0, 0, 1)},
                       onnx_attrs={"pads": [1, 0, 0, 1]})


@pytest.mark.parametrize("attrs", [
    {"padding": (1, 0, 2, 1), "strides": (2, 1)},
    {"padding": (2, 1, 0, 3), "strides": (1, 2), "dilation": (2, 1)},
], ids=["strided", "dilated"])
def test_conv2d_blocked_layouts_by_hand(attrs):
    """NCHW4c data and OIHW2i4o weights give the NCHW4c form of ONNX's NCHW result
    (the blocked layouts rearranged here with numpy, as TVM defines them)."""
    x = normal(1, 8, 6, 5)
    w = normal(8, 8, 3, 3)
    x_blocked = x.reshape(1, 2, 4, 6, 5).transpose(0, 1, 3, 4, 2)      # N C/4 H W 4c
    w_blocked = w.reshape(2, 4, 2, 4, 3, 3).transpose(0, 2, 4, 5, 3, 1)  # O/4 I/4 H W 4i 4o
    [ours] = graph_run("conv2d", [x_blocked, w_blocked], data_layout="NCHW4c",
                       kernel_layout="OIHW4i4o", **attrs)
    [theirs] = onnx_run("Conv", [x, w], pads=list(attrs["padding"]), strides=list(attrs["strides"]),
                        dilations=list(attrs.get("dilation", (1, 1))))
    n, c, h, wd = theirs.shape
    expected = theirs.reshape(n, c // 4, 4, h, wd).transpose(0, 1, 3, 4, 2)
    assert_same(ours, expected, scale=_conv_scale(x, w, attrs).reshape(n, c // 4, 4, h, wd)
                .transpose(0, 1, 3, 4, 2))


def test_dense_and_matmul_match_onnx():
    x = normal(2, 3, 5)
    x[0, 0] = [0.0, -0.0, 1e20, -1e20, np.nan]
    w = normal(4, 5)
    scale = np.abs(x).astype(np.float64) @ np.abs(w).T.astype(np.float64)
    check_against_onnx("dense", [x, w], "MatMul", onnx_inputs=[x, np.ascontiguousarray(w.T)],
                       scale=scale)
    check_against_onnx("dense", [x[0], w], "Gemm", attrs={}, onnx_attrs={"transB": 1},
                       scale=scale[0])
    for a, b in (((3,), (3, 4)), ((2, 3), (3,)), ((3,), (3,)), ((5, 1, 2, 3), (4, 3, 2)),
                 ((2, 3, 4), (4,))):
        lhs, rhs = normal(*a), normal(*b)
        scale = np.abs(np.matmul(np.abs(lhs).astype(np.float64), np.abs(rhs).astype(np.float64)))
        check_against_onnx("matmul", [lhs, rhs], "MatMul", scale=scale)


@pytest.mark.parametrize("transpose_a, transpose_b", [(False, False), (True, False), (False, True),
                                                      (True, True)])
def test_batch_matmul_matches_onnx(transpose_a, transpose_b):
    """ONNX MatMul on the operands with their last two axes swapped by hand."""
    a = normal(1, 4, 3) if transpose_a else normal(1, 3, 4)
    b = normal(2, 5, 4) if transpose_b else normal(2, 4, 5)
    plain_a = a.transpose(0, 2, 1) if transpose_a else a
    plain_b = b.transpose(0, 2, 1) if transpose_b else b
    scale = np.matmul(np.abs(plain_a).astype(np.float64), np.abs(plain_b).astype(np.float64))
    check_against_onnx("batch_matmul", [a, b], "MatMul", [plain_a, plain_b],
                       attrs={"transpose_a": transpose_a, "transpose_b": transpose_b}, scale=scale)


def test_bias_add_matches_onnx_add():
    """ONNX has no bias_add: Add with the bias unsqueezed to run along the axis."""
    x = floats(np.float32)[:18].reshape(1, 3, 2, 3)
    bias = np.array([1.0, -np.inf, np.nan], np.float32)
    check_against_onnx("bias_add", [x, bias], "Add", [x, bias.reshape(3, 1, 1)])
    xi = np.array(INT64_EDGES[:10], np.int64).reshape(5, 2)
    bias_i = np.array([I64_MAX, -1], np.int64)
    check_against_onnx("bias_add", [xi, bias_i], "Add", attrs={"axis": -1})


SOFTMAX_ROWS = np.array([[1e30, -1e30, 0.0, 3.0],            # no overflow
                         [-np.inf, 1.0, 2.0, -np.inf],        # -inf: probability 0
                         [np.inf, 1.0, 2.0, 3.0],             # +inf: the row is NaN
                         [np.nan, 1.0, 2.0, 3.0],             # NaN: the row is NaN
                         [-np.inf, -np.inf, -np.inf, -np.inf],  # only -inf: NaN
                         [-88.0, -89.0, 89.0, 0.0]], np.float32)


@pytest.mark.parametrize("axis", [-1, 0])
def test_softmax_matches_onnx(axis):
    x = SOFTMAX_ROWS if axis == -1 else SOFTMAX_ROWS.T.copy()
    check_against_onnx("softmax", [x], "Softmax", attrs={"axis": axis}, onnx_attrs={"axis": axis},
                       ulps=4)


def _log_softmax_by_hand(row: list[float]) -> list[float]:
    top = max(row)
    if any(math.isnan(v) for v in row) or math.isinf(top):
        return [math.nan] * len(row)
    log_total = math.log(math.fsum(math.exp(v - top) for v in row))
    return [v - top - log_total for v in row]


@pytest.mark.parametrize("axis", [-1, 0])
def test_log_softmax_by_hand_and_against_onnx(axis):
    """ONNX's reference takes log(softmax(x)), which underflows to -inf where the
    value is -2e30: it is the oracle on moderate rows, Python's math on the edges."""
    x = SOFTMAX_ROWS if axis == -1 else SOFTMAX_ROWS.T.copy()
    [ours] = graph_run("log_softmax", [x], axis=axis)
    rows = SOFTMAX_ROWS.astype(np.float64).tolist()
    expected = np.array([_log_softmax_by_hand(r) for r in rows], np.float32)
    assert_same(ours, expected if axis == -1 else expected.T.copy(), ulps=2)
    # log(softmax) in f32 loses the relative precision of values near 0: absolute.
    moderate = normal(5, 7) * 5
    check_against_onnx("log_softmax", [moderate], "LogSoftmax", attrs={"axis": axis},
                       onnx_attrs={"axis": axis}, scale=np.float32(1))


POOL_CASES = [
    dict(pool_size=(3, 2), strides=(2, 1), padding=(1, 0, 2, 1)),
    dict(pool_size=(2, 3), strides=(1, 2), padding=(0, 1, 1, 2), dilation=(2, 1)),
    dict(pool_size=(2, 2), strides=(2, 3), padding=(1, 1, 0, 0), ceil_mode=True),
    dict(pool_size=(3, 3), strides=(2, 2), padding=(1, 1, 1, 1), ceil_mode=True),
    dict(pool_size=(2, 2), strides=(3, 3), ceil_mode=True),
    # ceil_mode's last row of windows runs past the input, which is padded on the left
    # and right only: the overhang along H must not be taken from W's padding
    dict(pool_size=(2, 2), strides=(2, 2), padding=(0, 1, 0, 1), ceil_mode=True),
    dict(pool_size=(3, 3), strides=(3, 2), padding=(2, 0, 1, 2), dilation=(1, 2)),
    # ceil_mode's extra window along W would start in the right padding: dropped
    dict(pool_size=(2, 2), strides=(1, 4), padding=(1, 0, 0, 1), dilation=(1, 2), ceil_mode=True),
]


def _pool_onnx_attrs(attrs: dict) -> dict:
    return {"kernel_shape": list(attrs["pool_size"]), "strides": list(attrs["strides"]),
            "pads": list(attrs.get("padding", (0, 0, 0, 0))),
            "dilations": list(attrs.get("dilation", (1, 1))),
            "ceil_mode": int(attrs.get("ceil_mode", False))}


@pytest.mark.parametrize("attrs", POOL_CASES, ids=[str(i) for i in range(len(POOL_CASES))])
def test_max_pool2d_matches_onnx(attrs):
    x = normal(1, 2, 7, 8)
    x[0, 0, 0, 0] = np.nan
    x[0, 1, 3, 3] = -np.inf
    check_against_onnx("max_pool2d", [x], "MaxPool", attrs=attrs, onnx_attrs=_pool_onnx_attrs(attrs))


@pytest.mark.parametrize("count_include_pad", [False, True])
@pytest.mark.parametrize("attrs", POOL_CASES, ids=[str(i) for i in range(len(POOL_CASES))])
def test_avg_pool2d_matches_onnx(attrs, count_include_pad):
    x = normal(1, 2, 7, 8)
    x[0, 1, 6, 7] = -1e30
    check_against_onnx("avg_pool2d", [x], "AveragePool",
                       attrs={**attrs, "count_include_pad": count_include_pad},
                       onnx_attrs={**_pool_onnx_attrs(attrs), "count_include_pad": int(count_include_pad)},
                       scale=np.float32(10))


def test_avg_pool2d_nan_reaches_the_windows_holding_it():
    """By hand: ONNX's reference skips NaN inputs in AveragePool (it marks padding
    with NaN), so it is no oracle for them."""
    x = np.zeros((1, 1, 4, 4), np.float32)
    x[0, 0, 3, 3] = np.nan
    for count_include_pad in (False, True):
        [ours] = graph_run("avg_pool2d", [x], pool_size=(2, 2), strides=(2, 2), padding=(1, 1, 1, 1),
                           count_include_pad=count_include_pad)
        expected = np.zeros((1, 1, 3, 3), np.float32)
        expected[0, 0, 2, 2] = np.nan  # the window of rows 3..4, columns 3..4
        assert_same(ours, expected)


def test_global_pools_match_onnx():
    x = normal(2, 3, 4, 5)
    x[1, 2, 0, 0] = np.nan
    check_against_onnx("global_avg_pool2d", [x], "GlobalAveragePool", scale=np.float32(10))
    check_against_onnx("global_max_pool2d", [x], "GlobalMaxPool")


@pytest.mark.parametrize("axis", [1, -1, 0])
def test_batch_norm_matches_onnx(axis):
    """ONNX normalises axis 1: other axes are moved there for it and back."""
    x = normal(2, 3, 4) * 10
    x[0, 0, 0] = np.nan
    channels = x.shape[axis]
    gamma, beta, mean = normal(channels), normal(channels), normal(channels)
    var = np.abs(normal(channels)) + np.float32(0.1)
    ours = graph_run("batch_norm", [x, gamma, beta, mean, var], axis=axis, epsilon=1e-3)[0]
    moved = np.moveaxis(x, axis, 1)
    [theirs] = onnx_run("BatchNormalization", [moved, gamma, beta, mean, var], epsilon=1e-3)
    assert_same(ours, np.moveaxis(theirs, 1, axis), scale=np.float32(100))


@pytest.mark.parametrize("axis", [-1, 1, 0])
def test_layer_norm_matches_onnx(axis):
    x = normal(2, 3, 4) * 10 + 100
    x[1, 2, 3] = np.nan
    shape = x.shape[axis:]
    gamma, beta = normal(*shape), normal(*shape)
    check_against_onnx("layer_norm", [x, gamma, beta], "LayerNormalization",
                       attrs={"axis": axis, "epsilon": 1e-5}, onnx_attrs={"axis": axis, "epsilon": 1e-5},
                       scale=np.float32(10))


# ------------------------------------------------------------------ reductions

REDUCTIONS = [("sum", "ReduceSum"), ("mean", "ReduceMean"), ("max", "ReduceMax"),
              ("min", "ReduceMin"), ("prod", "ReduceProd")]


@pytest.mark.parametrize("axes, keepdims", [((), False), ((1,), False), ((0, -1), True), ((-2,), True)])
@pytest.mark.parametrize("op, onnx_op", REDUCTIONS, ids=[c[0] for c in REDUCTIONS])
def test_float_reductions_match_onnx(op, onnx_op, axes, keepdims):
    x = normal(3, 4, 5)
    x[0, 0, 0] = np.nan
    x[1, 1, :] = [np.inf, 1.0, 2.0, -0.0, 0.0]
    onnx_inputs = [x] + ([np.array(axes, np.int64)] if axes else [])
    check_against_onnx(op, [x], onnx_op, onnx_inputs, attrs={"axes": axes, "keepdims": keepdims},
                       onnx_attrs={"keepdims": int(keepdims)}, scale=np.float32(100))


@pytest.mark.parametrize("op, onnx_op", REDUCTIONS, ids=[c[0] for c in REDUCTIONS])
def test_integer_reductions_match_onnx(op, onnx_op):
    """Small values (ONNX's mean goes through float64): the same. Sums and products
    wrap, as numpy's in ONNX's reference."""
    x = np.array([[-7, 3, 5, 0], [1, -1, 2, 9], [I32_MAX, 1, 3, -2]], np.int32)
    check_against_onnx(op, [x[:2]], onnx_op, [x[:2], np.array([1], np.int64)], attrs={"axes": (1,)},
                       onnx_attrs={"keepdims": 0})
    if op != "mean":
        check_against_onnx(op, [x], onnx_op, [x, np.array([1], np.int64)], attrs={"axes": (1,)},
                           onnx_attrs={"keepdims": 0})


def test_integer_mean_by_hand():
    """Accumulated in 64 bits and truncated toward zero, exactly (ONNX's reference
    divides in float64, which rounds above 2^53)."""
    x = np.array([[I64_MAX, I64_MAX - 2], [-7, 2], [2**53 + 1, 2**53 + 3], [-3, -4]], np.int64)
    [ours] = graph_run("mean", [x], axes=(1,))
    sums = [(int(a) + int(b) + 2**63) % 2**64 - 2**63 for a, b in x]  # wraps beyond 64 bits
    expected = [abs(s) // 2 * (1 if s >= 0 else -1) for s in sums]
    assert_same(ours, np.array(expected, np.int64))
    assert ours[2] == 2**53 + 2  # exact above 2^53
    i8 = np.array([[127, 127, 127], [-128, -128, 1]], np.int8)
    [ours] = graph_run("mean", [i8], axes=(1,))
    assert_same(ours, np.array([127, -85], np.int8))  # 381 / 3, -255 / 3: no 8-bit wrap


def test_empty_reductions():
    """Over an axis of extent 0: sum 0, product 1, float mean NaN; the integer mean is
    undefined; max and min are refused by the verifier."""
    f = np.zeros((3, 0), np.float32)
    assert_same(graph_run("sum", [f], axes=(1,))[0], np.zeros(3, np.float32))
    assert_same(graph_run("prod", [f], axes=(1,))[0], np.ones(3, np.float32))
    assert_same(graph_run("mean", [f], axes=(1,))[0], np.full(3, np.nan, np.float32))
    with pytest.raises(EvaluationError, match="integer mean over an axis of extent 0"):
        graph_run("mean", [np.zeros((3, 0), np.int32)], axes=(1,))
    with pytest.raises(IRError, match="cannot reduce axis 1 of extent 0"):
        graph_run("max", [f], axes=(1,))


@pytest.mark.parametrize("axis, keepdims", [(0, False), (-1, True), (1, False)])
def test_argmax_matches_onnx(axis, keepdims):
    """Ties: the first index; a NaN counts as the largest (the first NaN's index)."""
    x = np.array([[[1.0, 5.0, 5.0], [np.nan, 2.0, np.nan]],
                  [[-np.inf, -np.inf, -1.0], [0.0, -0.0, 3.0]]], np.float32)
    check_against_onnx("argmax", [x], "ArgMax", attrs={"axis": axis, "keepdims": keepdims},
                       onnx_attrs={"axis": axis, "keepdims": int(keepdims)})
    xi = np.array([[I64_MIN, I64_MAX, I64_MAX], [0, -1, 0]], np.int64)
    check_against_onnx("argmax", [xi], "ArgMax", attrs={"axis": -1}, onnx_attrs={"axis": -1, "keepdims": 0})


@pytest.mark.parametrize("op, onnx_op", [("argmax", "ArgMax"), ("argmin", "ArgMin")])
@pytest.mark.parametrize("select_last_index", [False, True])
@pytest.mark.parametrize("axis, keepdims", [(0, True), (-1, False), (1, True), (-2, False)])
def test_arg_reductions_match_onnx(op, onnx_op, select_last_index, axis, keepdims):
    """Ties in every row, NaN first and last, ±inf and ±0; integers at their edges."""
    x = np.array([[[1.0, 5.0, 5.0], [np.nan, 2.0, np.nan]],
                  [[-np.inf, -np.inf, -1.0], [0.0, -0.0, 3.0]],
                  [[7.0, 7.0, 7.0], [np.inf, -3.0, np.inf]]], np.float32)
    xi = np.array([[I64_MIN, I64_MAX, I64_MAX, I64_MIN], [0, -1, 0, -1]], np.int64)
    for data in (x, xi):
        if axis >= data.ndim:
            continue
        attrs = {"axis": axis, "keepdims": keepdims, "select_last_index": select_last_index}
        check_against_onnx(op, [data], onnx_op, attrs=attrs,
                           onnx_attrs={k: int(v) for k, v in attrs.items()})


def test_select_last_index_by_hand():
    x = np.array([3, 1, 3, 1, 2], np.int32)
    assert graph_run("argmax", [x])[0] == 0
    assert graph_run("argmax", [x], select_last_index=True)[0] == 2
    assert graph_run("argmin", [x])[0] == 1
    assert graph_run("argmin", [x], select_last_index=True)[0] == 3


SCANS = [(axis, exclusive, reverse) for axis in (0, -1) for exclusive in (False, True)
         for reverse in (False, True)]


@pytest.mark.parametrize("axis, exclusive, reverse", SCANS)
@pytest.mark.parametrize("op, onnx_op", [("cumsum", "CumSum"), ("cumprod", "CumProd")])
def test_scans_match_onnx(op, onnx_op, axis, exclusive, reverse):
    """Floats (the graph sums in float64: within rtol 1e-5 of ONNX's float32 running
    sums) with a NaN and an inf in one column, and int64 exactly (wrapping)."""
    x = normal(4, 5)
    x[1, 2], x[2, 3] = np.nan, np.inf
    attrs = {"axis": axis, "exclusive": exclusive, "reverse": reverse}
    onnx_attrs = {"exclusive": int(exclusive), "reverse": int(reverse)}
    axis_input = np.array(axis, np.int64)
    [ours] = graph_run(op, [x], **attrs)
    [theirs] = onnx_run(onnx_op, [x.astype(np.float64), axis_input], **onnx_attrs)
    assert_same(ours, theirs.astype(np.float32), ulps=1)
    xi = np.array([[I64_MAX, 2, -3], [I64_MIN, -1, 7], [5, 3, 2]], np.int64)
    check_against_onnx(op, [xi], onnx_op, [xi, axis_input], attrs=attrs, onnx_attrs=onnx_attrs)


def test_cumsum_by_hand():
    x = np.array([1, 2, 3, 4], np.int32)
    assert graph_run("cumsum", [x])[0].tolist() == [1, 3, 6, 10]
    assert graph_run("cumsum", [x], exclusive=True)[0].tolist() == [0, 1, 3, 6]
    assert graph_run("cumsum", [x], reverse=True)[0].tolist() == [10, 9, 7, 4]
    assert graph_run("cumsum", [x], exclusive=True, reverse=True)[0].tolist() == [9, 7, 4, 0]
    assert graph_run("cumprod", [x], exclusive=True)[0].tolist() == [1, 1, 2, 6]


# ------------------------------------------------------------------ injective


def _ints(*values) -> np.ndarray:
    return np.array(values, np.int64)


def test_reshape_transpose_flatten_squeeze_expand_match_onnx():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x[0, 0, 0] = np.nan
    check_against_onnx("reshape", [x], "Reshape", [x, _ints(0, -1)], attrs={"shape": (0, -1)})
    check_against_onnx("reshape", [x], "Reshape", [x, _ints(4, 0, 2)], attrs={"shape": (4, 0, 2)})
    check_against_onnx("transpose", [x], "Transpose", attrs={"axes": (0, -1, 1)},
                       onnx_attrs={"perm": [0, 2, 1]})
    check_against_onnx("transpose", [x], "Transpose")  # no permutation: reversed
    for axis in (0, 1, -1, 3):
        check_against_onnx("flatten", [x], "Flatten", attrs={"axis": axis}, onnx_attrs={"axis": axis})
    y = x.reshape(1, 2, 1, 12)
    check_against_onnx("squeeze", [y], "Squeeze")
    check_against_onnx("squeeze", [y], "Squeeze", [y, _ints(-2)], attrs={"axes": (-2,)})
    check_against_onnx("expand_dims", [x], "Unsqueeze", [x, _ints(1, 2)],
                       attrs={"axis": 1, "num_newaxis": 2})
    check_against_onnx("expand_dims", [x], "Unsqueeze", [x, _ints(-1)], attrs={"axis": -1})
    check_against_onnx("expand_dims", [x], "Unsqueeze", [x, _ints(0)], attrs={"axis": -4})


def test_reshape_allowzero_matches_onnx():
    """ONNX's test_reshape_allowzero_reordered: (0, 3, 4) to (3, 4, 0), where the 0 is
    an extent (without allowzero it copies the operand's, 4, and is refused); with
    allowzero a 0 next to a -1 cannot be resolved."""
    x = np.zeros((0, 3, 4), np.float32)
    check_against_onnx("reshape", [x], "Reshape", [x, _ints(3, 4, 0)],
                       attrs={"shape": (3, 4, 0), "allowzero": True}, onnx_attrs={"allowzero": 1})
    y = np.arange(6, dtype=np.int64).reshape(2, 3)
    check_against_onnx("reshape", [y], "Reshape", [y, _ints(3, 2)],
                       attrs={"shape": (3, 2), "allowzero": True}, onnx_attrs={"allowzero": 1})
    with pytest.raises(IRError, match=r"cannot reshape \[0, 3, 4\] \(0 elements\) into \[3, 4, 0\]"):
        graph_run("reshape", [x], shape=(3, 4, 0))
    with pytest.raises(IRError, match="has both a 0 and a -1"):
        graph_run("reshape", [x], shape=(0, -1), allowzero=True)


def test_broadcast_to_and_tile_match_onnx():
    x = np.array([[1], [I64_MIN]], np.int64)
    check_against_onnx("broadcast_to", [x], "Expand", [x, _ints(3, 2, 4)], attrs={"shape": (3, 2, 4)})
    y = np.arange(6, dtype=np.float32).reshape(2, 3)
    check_against_onnx("tile", [y], "Tile", [y, _ints(2, 3)], attrs={"repeats": (2, 3)})
    check_against_onnx("tile", [y], "Tile", [y, _ints(1, 2)], attrs={"repeats": (2,)})
    check_against_onnx("tile", [y], "Tile", [y.reshape(1, 2, 3), _ints(3, 1, 2)],
                       attrs={"repeats": (3, 1, 2)})  # longer repeats add leading axes


def test_pad_matches_onnx():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    check_against_onnx("pad", [x], "Pad", [x, _ints(1, 0, 2, 3), np.array(-1.5, np.float32)],
                       attrs={"pads": (1, 0, 2, 3), "value": -1.5})
    check_against_onnx("pad", [x], "Pad", [x, _ints(0, 2, 1, 0), np.array(np.nan, np.float32)],
                       attrs={"pads": (0, 2, 1, 0), "value": np.nan})
    xi = np.array([[I64_MAX, I64_MIN]], np.int64)
    check_against_onnx("pad", [xi], "Pad", [xi, _ints(1, 1, 0, 2), np.array(-7, np.int64)],
                       attrs={"pads": (1, 1, 0, 2), "value": -7})


@pytest.mark.parametrize("value", [0.5, 300.0, np.nan])
def test_integer_pad_value_must_be_an_element(value):
    with pytest.raises(IRError, match="is not a i8 value"):
        graph_run("pad", [np.zeros((2,), np.int8)], pads=(1, 1), value=value)


SLICES = [
    dict(starts=(1,), ends=(4,)),
    dict(starts=(-1,), ends=(-10,), steps=(-1,)),
    dict(starts=(1, 0), ends=(2**63 - 1, -1), axes=(-1, 0), steps=(2, 1)),
    dict(starts=(10,), ends=(-(2**63),), axes=(1,), steps=(-2,)),
    dict(starts=(-100,), ends=(100,), axes=(0,)),
]


@pytest.mark.parametrize("attrs", SLICES, ids=[str(i) for i in range(len(SLICES))])
def test_slice_matches_onnx(attrs):
    x = np.arange(30, dtype=np.float32).reshape(5, 6)
    n = len(attrs["starts"])
    inputs = [x, _ints(*attrs["starts"]), _ints(*attrs["ends"]),
              _ints(*attrs.get("axes", range(n))), _ints(*attrs.get("steps", (1,) * n))]
    check_against_onnx("slice", [x], "Slice", inputs, attrs=attrs)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_gather_matches_onnx(axis):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    extent = x.shape[axis]
    indices = np.array([[0, extent - 1], [-1, -extent]], np.int64)
    check_against_onnx("gather", [x, indices], "Gather", attrs={"axis": axis}, onnx_attrs={"axis": axis})
    check_against_onnx("gather", [x, indices.astype(np.int32)], "Gather", attrs={"axis": axis},
                       onnx_attrs={"axis": axis})


@pytest.mark.parametrize("index", [3, -4, I64_MAX, I64_MIN])
def test_gather_out_of_range_is_reported(index):
    with pytest.raises(EvaluationError, match=f"gather index {index} is out of range"):
        graph_run("gather", [np.arange(3, dtype=np.float32), np.array([0, index], np.int64)])


@pytest.mark.parametrize("data_shape, indices_shape, axis", [
    ((2, 2), (2, 2), 1), ((3, 3), (2, 3), 0), ((3, 3), (2, 3), -2), ((2, 3, 4), (2, 3, 6), -1),
    ((2, 3, 4), (5, 3, 4), 0), ((4,), (7,), 0),
])
def test_gather_elements_matches_onnx(data_shape, indices_shape, axis):
    """Indices anywhere in [-n, n), negative ones counted from the end (ONNX's
    test_gather_elements_negative_indices); int32 and int64 indices."""
    data = np.arange(math.prod(data_shape), dtype=np.float32).reshape(data_shape)
    data.reshape(-1)[0] = np.nan
    extent = data_shape[axis]
    indices = RNG.integers(-extent, extent, indices_shape)
    for index_type in (np.int64, np.int32):
        # The oracle mishandles a negative axis: it gets the axis normalized.
        check_against_onnx("gather_elements", [data, indices.astype(index_type)], "GatherElements",
                           attrs={"axis": axis}, onnx_attrs={"axis": axis % data.ndim})


def test_gather_elements_with_indices_shorter_than_data_by_hand():
    """ONNX's reference needs equal extents off the axis; PyTorch's gather (and the
    graph op) reads the leading positions when indices are shorter."""
    data = np.arange(12, dtype=np.int64).reshape(3, 4)
    indices = np.array([[3, 0], [-1, 1]], np.int64)
    [ours] = graph_run("gather_elements", [data, indices], axis=1)
    expected = [[data[i, indices[i, j] % 4] for j in range(2)] for i in range(2)]
    assert ours.tolist() == expected


@pytest.mark.parametrize("index", [2, -3, I64_MAX])
def test_gather_elements_out_of_range_is_reported(index):
    with pytest.raises(EvaluationError, match=f"gather_elements index {index} is out of range"):
        graph_run("gather_elements", [np.zeros((2, 2), np.float32),
                                      np.array([[0, index], [1, 0]], np.int64)], axis=0)


RANGES = [
    (np.float32, 1.0, 5.0, 2.0), (np.float32, 10.0, 6.0, -3.0), (np.float32, 0.0, 1.0, 0.1),
    (np.float32, -1.0, 1.0, 0.3), (np.float64, 0.0, 1.0, 0.1), (np.float32, 3.0, 1.0, 1.0),
    (np.int32, 10, 6, -3), (np.int64, -5, 5, 4), (np.int64, 0, 0, 1),
    (np.int64, I64_MIN, I64_MAX, I64_MAX), (np.int16, 0, 30000, 7000),
]


@pytest.mark.parametrize("dtype, start, limit, delta", RANGES,
                         ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(RANGES)])
def test_range_matches_onnx(dtype, start, limit, delta):
    """The count is ceil((limit - start) / delta) (0 when negative); ONNX's test
    range_float_type_positive_delta is (1, 5, 2) in float32. Near i64's ends i·delta
    wraps, the elements do not."""
    from mlc.graph.builder import element_type_of_dtype

    element = element_type_of_dtype(np.dtype(dtype))
    [ours] = graph_run("range", [], start=start, limit=limit, delta=delta, dtype=element)
    scalars = [np.array(v, dtype) for v in (start, limit, delta)]
    if (start, limit) == (I64_MIN, I64_MAX):  # the oracle's arange overflows here
        expected = np.array([I64_MIN, -1, I64_MAX - 1], np.int64)
    else:
        [expected] = onnx_run("Range", scalars)
    assert_same(ours, expected)


GATHER_ND = [((2, 2), [[0, 0], [1, 1]], 0), ((2, 2), [[1], [0]], 0),
             ((2, 2, 2), [[0, 1], [1, 0]], 0), ((2, 2, 2), [[[0, 1]], [[1, 0]]], 0),
             ((2, 2, 2), [[1], [0]], 1), ((2, 3, 4), [[[-1, 0], [2, -4]], [[0, 3], [1, 1]]], 1),
             ((2, 3), [[-1]], 0)]


@pytest.mark.parametrize("data_shape, indices, batch_dims", GATHER_ND,
                         ids=[str(i) for i in range(len(GATHER_ND))])
def test_gather_nd_matches_onnx(data_shape, indices, batch_dims):
    """ONNX's gathernd examples (int32, float32, batch_dims 1) and negative indices."""
    data = np.arange(math.prod(data_shape), dtype=np.float32).reshape(data_shape)
    data.reshape(-1)[1] = np.nan
    check_against_onnx("gather_nd", [data, np.array(indices, np.int64)], "GatherND",
                       attrs={"batch_dims": batch_dims}, onnx_attrs={"batch_dims": batch_dims})


REDUCTIONS_OF_SCATTER = ["none", "add", "mul", "max", "min"]


@pytest.mark.parametrize("reduction", REDUCTIONS_OF_SCATTER)
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_scatter_elements_matches_onnx(reduction, axis):
    """Repeated and negative indices (applied in row-major order), indices shorter than
    data off the axis, floats and int64 at its edges. Repeated updates combine in
    float64, rounded once: within 1 ulp of ONNX's f32 steps. ONNX's reference takes
    max and min with Python's max/min, which drop a NaN update: NaN is checked
    against it for the other reductions only (max and min propagate it, as
    graph.maximum does: `test_scatter_max_propagates_nan`)."""
    data = normal(3, 4)
    extent = data.shape[axis]
    indices = np.array([[0, -1, 1], [1, 1, -extent]], np.int64)
    updates = normal(2, 3)
    if reduction not in ("max", "min"):
        updates[1, 2] = np.nan
    check_against_onnx("scatter_elements", [data, indices, updates], "ScatterElements",
                       attrs={"axis": axis, "reduction": reduction},
                       onnx_attrs={"axis": axis % 2, "reduction": reduction}, ulps=1)
    ints = np.array([[I64_MAX, 1, 2, 3], [I64_MIN, -1, 0, 7], [5, 6, 7, 8]], np.int64)
    check_against_onnx("scatter_elements", [ints, indices, np.full((2, 3), 3, np.int64)],
                       "ScatterElements", attrs={"axis": axis, "reduction": reduction},
                       onnx_attrs={"axis": axis % 2, "reduction": reduction})


def test_scatter_max_propagates_nan():
    data = np.array([1.0, 2.0, 3.0], np.float32)
    for op, indices in (("scatter_elements", np.array([0, 2], np.int64)),
                        ("scatter_nd", np.array([[0], [2]], np.int64))):
        for reduction in ("max", "min"):
            [ours] = graph_run(op, [data, indices, np.array([np.nan, 0.5], np.float32)],
                               reduction=reduction)
            assert np.isnan(ours[0]) and ours[1] == 2.0
            assert ours[2] == (3.0 if reduction == "max" else 0.5)


@pytest.mark.parametrize("reduction", REDUCTIONS_OF_SCATTER)
def test_scatter_nd_matches_onnx(reduction):
    """Slices (k = 1 of a 3-D data) and single elements (k = 3), a repeated index
    (combined in float64: within 1 ulp of ONNX's f32 steps)."""
    data = normal(4, 2, 3)
    indices = np.array([[0], [2], [0]], np.int64)
    check_against_onnx("scatter_nd", [data, indices, normal(3, 2, 3)], "ScatterND",
                       attrs={"reduction": reduction}, onnx_attrs={"reduction": reduction}, ulps=1)
    indices = np.array([[1, 0, 2], [3, 1, 0], [1, 0, 2]], np.int64)
    check_against_onnx("scatter_nd", [data, indices, normal(3)], "ScatterND",
                       attrs={"reduction": reduction}, onnx_attrs={"reduction": reduction}, ulps=1)


@pytest.mark.parametrize("op, inputs, message", [
    ("gather_nd", [np.zeros((2, 2), np.float32), np.array([[0, 2]], np.int64)],
     "gather_nd index 2 is out of range"),
    ("scatter_nd", [np.zeros((2, 2), np.float32), np.array([[-3]], np.int64),
                    np.zeros((1, 2), np.float32)], "scatter_nd index -3 is out of range"),
    ("scatter_elements", [np.zeros((2, 2), np.float32), np.array([[0, 5]], np.int64),
                          np.zeros((1, 2), np.float32)], "scatter_elements index 5 is out of range"),
])
def test_index_out_of_range_is_reported(op, inputs, message):
    with pytest.raises(EvaluationError, match=message):
        graph_run(op, inputs)


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("axis, k", [(-1, 3), (0, 2), (1, 0), (1, 5)])
def test_top_k_matches_onnx(largest, axis, k):
    """Ties (the lower index first), ±inf, ±0 and NaN (larger than everything), and
    int64 edges."""
    x = np.array([[3.0, 1.0, 3.0, np.nan, -np.inf], [0.0, -0.0, 2.0, 2.0, np.inf],
                  [5.0, 5.0, 5.0, 5.0, 5.0]], np.float32)
    onnx_attrs = {"axis": axis, "largest": int(largest)}
    check_against_onnx("top_k", [x], "TopK", [x, np.array([k], np.int64)],
                       attrs={"k": k, "axis": axis, "largest": largest}, onnx_attrs=onnx_attrs,
                       outputs=2)
    xi = np.array([[I64_MAX, 0, I64_MIN, 0, I64_MAX]] * 3, np.int64)
    check_against_onnx("top_k", [xi], "TopK", [xi, np.array([k], np.int64)],
                       attrs={"k": k, "axis": axis, "largest": largest}, onnx_attrs=onnx_attrs,
                       outputs=2)


@pytest.mark.parametrize("axis", [-1, 0, 1, -3])
@pytest.mark.parametrize("values", [np.array([0.0, 1.0], np.float32), np.array([-7, 3], np.int64),
                                    np.array([2.5, -1e300], np.float64)])
def test_one_hot_matches_onnx(axis, values):
    """Indices in range, negative ones (from the end) and ones outside [-depth, depth)
    (rows of off_value), int64 and int32. (ONNX's reference computes
    hit·(on - off) + off, so a NaN value spreads everywhere there; the graph places
    the values as they are: `test_one_hot_places_nan_only_where_it_belongs`.)"""
    from mlc.graph.builder import element_type_of_dtype

    indices = np.array([[0, 3, -1], [4, -5, 1]], np.int64)
    off, on = values.tolist()
    element = element_type_of_dtype(values.dtype)
    for index_type in (np.int64, np.int32):
        [ours] = graph_run("one_hot", [indices.astype(index_type)], depth=4, axis=axis,
                           on_value=on, off_value=off, dtype=element)
        [theirs] = onnx_run("OneHot", [indices.astype(index_type), np.array(4, np.int64), values],
                            axis=axis)
        assert_same(ours, theirs)


def test_one_hot_places_nan_only_where_it_belongs():
    [ours] = graph_run("one_hot", [np.array([1, 5], np.int64)], depth=3, on_value=math.nan,
                       off_value=0.5)
    assert np.isnan(ours[0, 1]) and ours[0, [0, 2]].tolist() == [0.5, 0.5]
    assert ours[1].tolist() == [0.5, 0.5, 0.5]


def test_concat_and_split_match_onnx():
    a, b = normal(2, 3), normal(2, 1)
    check_against_onnx("concat", [[a, b]], "Concat", [a, b], attrs={"axis": -1},
                       onnx_attrs={"axis": -1})
    x = np.arange(24, dtype=np.int64).reshape(6, 4)
    check_against_onnx("split", [x], "Split", [x, _ints(1, 5)], attrs={"sections": (1, 5)}, outputs=2)
    check_against_onnx("split", [x], "Split", [x, _ints(2, 2)], attrs={"sections": (2, 2), "axis": -1},
                       onnx_attrs={"axis": -1}, outputs=2)


def test_layout_transform_by_hand():
    """NCHW <-> NCHW4c and OIHW <-> OIHW2i4o as numpy rearrangements spelled here."""
    x = np.arange(2 * 8 * 3 * 2, dtype=np.float32).reshape(2, 8, 3, 2)
    [ours] = graph_run("layout_transform", [x], src_layout="NCHW", dst_layout="NCHW4c")
    assert_same(ours, x.reshape(2, 2, 4, 3, 2).transpose(0, 1, 3, 4, 2))
    [back] = graph_run("layout_transform", [ours], src_layout="NCHW4c", dst_layout="NCHW")
    assert_same(back, x)
    w = np.arange(8 * 4 * 3 * 3, dtype=np.float32).reshape(8, 4, 3, 3)
    [ours] = graph_run("layout_transform", [w], src_layout="OIHW", dst_layout="OIHW2i4o")
    assert_same(ours, w.reshape(2, 4, 2, 2, 3, 3).transpose(0, 2, 4, 5, 3, 1))


@pytest.mark.parametrize("values", [np.array([I64_MIN, -1, I64_MAX], np.int64),
                                    np.array([np.nan, -0.0, np.inf, -1e-45], np.float32)])
def test_constant_holds_its_elements(values):
    b = GraphBuilder()
    [out] = evaluate(b.module(b.const(values)), [])
    assert_same(out, values)


# ------------------------------------------------------------------ sliding-window shapes


def onnx_inferred_shape(op_type: str, shapes: list[tuple[int, ...]], **attrs) -> tuple[int, ...]:
    """The output shape ONNX's own shape inference gives a one-node model."""
    from onnx import shape_inference

    names = [f"in{i}" for i in range(len(shapes))]
    node = helper.make_node(op_type, names, ["out"], **attrs)
    graph = helper.make_graph(
        [node], "one_node",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in zip(names, shapes)],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    inferred = shape_inference.infer_shapes(model, strict_mode=True)
    dims = inferred.graph.output[0].type.tensor_type.shape.dim
    return tuple(d.dim_value for d in dims)


def _graph_shape(op: str, shapes: list[tuple[int, ...]], **attrs) -> tuple[int, ...]:
    b = GraphBuilder()
    return b.op(op, *[b.param(f"p{i}", s) for i, s in enumerate(shapes)], **attrs).type.shape


# Every side of the padding different, strides and dilations different along H and
# W, kernels not square: a shape rule that mixes up any two of them gets some wrong.
PADDINGS = [(0, 0, 0, 0), (1, 0, 2, 3), (3, 2, 1, 0), (0, 3, 0, 1)]
STRIDES = [(1, 1), (2, 3), (3, 1)]
DILATIONS = [(1, 1), (2, 1), (1, 3)]


@pytest.mark.parametrize("padding", PADDINGS)
@pytest.mark.parametrize("strides", STRIDES)
@pytest.mark.parametrize("dilation", DILATIONS)
def test_conv2d_shapes_match_onnx_shape_inference(padding, strides, dilation):
    data, weight = (1, 4, 11, 13), (6, 2, 3, 2)
    ours = _graph_shape("conv2d", [data, weight], padding=padding, strides=strides,
                        dilation=dilation, groups=2)
    theirs = onnx_inferred_shape("Conv", [data, weight], pads=list(padding), strides=list(strides),
                                 dilations=list(dilation), group=2)
    assert ours == theirs


# Pools: padding below the window's extent (ONNX requires it; its reference cannot
# pool a window of padding alone).
POOL_PADDINGS = [(0, 0, 0, 0), (1, 0, 2, 2), (2, 2, 1, 0), (0, 1, 3, 1)]


@pytest.mark.parametrize("op, onnx_op", [("max_pool2d", "MaxPool"), ("avg_pool2d", "AveragePool")])
@pytest.mark.parametrize("padding", POOL_PADDINGS)
@pytest.mark.parametrize("strides", STRIDES)
@pytest.mark.parametrize("dilation", DILATIONS)
@pytest.mark.parametrize("ceil_mode", [False, True])
def test_pool_shapes_match_onnx(op, onnx_op, padding, strides, dilation, ceil_mode):
    """The oracle is the shape ONNX's reference computes: its shape inference keeps
    ceil_mode's last window when that would start in the trailing padding, which its
    reference (like PyTorch) drops. But its MaxPool with unit strides and dilations
    reads the pads as (top, bottom, left, right) — its shape inference is the oracle
    there (and the values are checked by hand below)."""
    shape, window = (1, 2, 10, 13), (4, 3)
    attrs = dict(pool_size=window, padding=padding, strides=strides, dilation=dilation,
                 ceil_mode=ceil_mode)
    ours = _graph_shape(op, [shape], **attrs)
    if onnx_op == "MaxPool" and strides == dilation == (1, 1):
        assert ours == onnx_inferred_shape(onnx_op, [shape], **_pool_onnx_attrs(attrs))
        return
    [theirs] = onnx_run(onnx_op, [np.zeros(shape, np.float32)], **_pool_onnx_attrs(attrs))
    assert ours == theirs.shape


def test_max_pool2d_with_asymmetric_padding_by_hand():
    """Unit strides, padding (top 1, left 0, bottom 0, right 2), a 2x2 window: output
    (i, j) covers rows i-1..i and columns j..j+1 of x; column 3 covers padding alone
    (-inf, the maximum of nothing)."""
    x = np.array([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0], [7.0, -8.0, np.nan]], np.float32)
    [ours] = graph_run("max_pool2d", [x.reshape(1, 1, 3, 3)], pool_size=(2, 2), padding=(1, 0, 0, 2))
    expected = np.array([[max(1, -2), max(-2, 3), 3, -np.inf],
                         [max(1, -2, -4, 5), max(-2, 3, 5, -6), max(3, -6), -np.inf],
                         [max(-4, 5, 7, -8), np.nan, np.nan, -np.inf]], np.float32)
    assert_same(ours[0, 0], expected)


# ------------------------------------------------------------------ what the verifier refuses


@pytest.mark.parametrize("text, message", [
    # numpy would compute on f8's bit patterns and in i4's 8-bit storage
    ("graph.add %a, %a : (tensor<2xf8E4M3FN>, tensor<2xf8E4M3FN>) -> tensor<2xf8E4M3FN>",
     "must be ranked tensor of 8-64-bit integers, index, f16, bf16, f32 or f64"),
    ("graph.add %a, %a : (tensor<2xi4>, tensor<2xi4>) -> tensor<2xi4>",
     "must be ranked tensor of 8-64-bit integers, index, f16, bf16, f32 or f64"),
    ("graph.cast %a : tensor<2xf32> to f8E5M2", "cannot cast to f8E5M2"),
    # arithmetic on i1 (numpy's bool + is "or", its - an error)
    ("graph.subtract %a, %a : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>",
     "must be ranked tensor of 8-64-bit integers, index, f16, bf16, f32 or f64"),
    ("graph.sum %a : tensor<2xi1> -> tensor<i1>", "must be ranked tensor of 8-64-bit integers"),
])
def test_verifier_refuses_what_the_reference_cannot_compute(text, message):
    from mlc.ir import Context, DiagnosticError, parse_module

    operand_type = text.split(": ")[1].split("->")[0].strip(" ()").split(",")[0].split(" to ")[0]
    source = f"func.func @f(%a: {operand_type}) {{\n  %0 = {text}\n  return\n}}"
    with pytest.raises(DiagnosticError, match=message):
        verify(parse_module(source, Context()))
