"""The compute rules of the elementwise and broadcasting graph ops: each op's kernel,
run by the interpreter, computes what the op's numpy reference computes, on random
inputs with the edge values the ops' docstrings name (NaN, ±inf, ±0, integer
extremes, broadcasting shapes, attribute values).

Tolerance: the kernels compute in the tensors' own type (float32 here), the reference
in float64 rounded once, so float results agree to a few float32 ulps: rtol 2e-6 and
atol 1e-7 (GELU's erf form, atol 1e-6: see `_gelu`). Integer and boolean results are
exact, and so is where NaN and ±inf appear."""

import numpy as np
import pytest

from mlc.graph import GraphBuilder
from mlc.graph.dialect import graph
from mlc.ir import TypeAttr, f16, f32, f64, i1, i8, i16, i32, i64
from mlc.loop.compute_rules import run_op_kernel

EDGES = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1e-30, 3.5,
                  -90.0, 90.0], np.float32)


def floats(shape, seed=0, scale=3.0):
    """Random float32 values with the edge values mixed in."""
    rng = np.random.default_rng(seed)
    values = np.asarray(rng.standard_normal(shape) * scale, np.float32)
    flat = values.reshape(-1)
    picks = rng.choice(len(EDGES), size=min(flat.size, len(EDGES)), replace=False)
    flat[:len(picks)] = EDGES[picks]
    return values


def ints(shape, dtype, seed=0):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(seed)
    values = rng.integers(-50, 50, shape).astype(dtype)
    flat = values.reshape(-1)
    edges = np.array([info.min, info.max, 0, -1, 1], dtype)[:flat.size]
    flat[:len(edges)] = edges
    return values


def single_op(name, operand_types, **attrs):
    """The op `graph.<name>` on parameters of `operand_types` ((shape, element type))."""
    b = GraphBuilder()
    params = [b.param(f"x{i}", shape, element) for i, (shape, element) in
              enumerate(operand_types)]
    result = getattr(b, name)(*params, **attrs)
    b.module(*(result if isinstance(result, list) else [result]))
    return result.defining_op if not isinstance(result, list) else result[0].defining_op


def check(op, arrays, rtol=2e-6, atol=1e-7, signed_zeros=False):
    expected = op.evaluate(arrays)
    got = run_op_kernel(op, arrays)
    for e, g in zip(expected, got):
        assert e.dtype == g.dtype and e.shape == g.shape
        if e.dtype.kind == "f":
            np.testing.assert_array_equal(np.isnan(g), np.isnan(e))
            np.testing.assert_allclose(g, e, rtol=rtol, atol=atol, equal_nan=True)
            if signed_zeros:
                np.testing.assert_array_equal(np.signbit(g[e == 0]), np.signbit(e[e == 0]))
        else:
            np.testing.assert_array_equal(g, e)


FLOAT_UNARY = ["neg", "abs", "exp", "log", "sqrt", "rsqrt", "reciprocal", "tanh", "sigmoid",
               "relu", "erf", "floor", "ceil", "sign", "sin", "cos", "softplus", "softsign",
               "mish", "hard_swish", "dropout", "isnan", "isinf", "round", "tan", "asin", "acos",
               "atan", "sinh", "cosh", "asinh", "acosh", "atanh"]


# Where the sign of a zero result is part of what the op does (-x, |x|, sign(±0) = +0,
# sqrt(-0) = -0, a copy).
SIGNED_ZEROS = {"neg", "abs", "sign", "floor", "ceil", "sqrt", "dropout", "relu", "round", "tan",
                "asin", "atan", "sinh", "asinh", "atanh"}


@pytest.mark.parametrize("name", FLOAT_UNARY)
def test_float_unary_rules(name):
    op = single_op(name, [((3, 5), f32)])
    check(op, [floats((3, 5), seed=len(name))], signed_zeros=name in SIGNED_ZEROS)


@pytest.mark.parametrize("name, attrs", [
    ("leaky_relu", {"alpha": 0.1}), ("elu", {"alpha": 0.5}), ("selu", {}),
    ("celu", {"alpha": 2.0}), ("thresholded_relu", {"alpha": 0.25}),
    ("hard_sigmoid", {"alpha": 0.3, "beta": 0.4}), ("swish", {"alpha": 1.5}),
    ("gelu", {}), ("gelu", {"approximate": "tanh"}), ("shrink", {"lambd": 1.5, "bias": 0.5}),
    ("shrink", {}), ("clip", {"min": -1.0, "max": 6.0}), ("clip", {"min": 2.0, "max": 1.0}),
    ("clip", {"min": -np.inf, "max": 0.0}), ("isinf", {"detect_negative": False}),
    ("isinf", {"detect_positive": False}),
    ("isinf", {"detect_positive": False, "detect_negative": False}),
])
def test_float_unary_rules_with_attributes(name, attrs):
    op = single_op(name, [((4, 6), f32)], **attrs)
    # GELU's erf form loses the relative precision of its tiny results below -5.
    check(op, [floats((4, 6), seed=7)], atol=1e-6 if name == "gelu" else 1e-7)


@pytest.mark.parametrize("name, attrs", [
    ("neg", {}), ("abs", {}), ("relu", {}), ("sign", {}), ("bitwise_not", {}),
    ("clip", {"min": -3.5, "max": 7.2}), ("clip", {"min": -1e30, "max": 1e30}),
    ("shrink", {"lambd": 2.5, "bias": 3.0}), ("shrink", {"lambd": -1e20, "bias": 1.0}),
    ("isnan", {}), ("isinf", {}),
])
@pytest.mark.parametrize("element", [i8, i32])
def test_integer_unary_rules_wrap(name, attrs, element):
    dtype = np.int8 if element == i8 else np.int32
    op = single_op(name, [((10,), element)], **attrs)
    check(op, [ints((10,), dtype)])


def test_logical_not():
    op = single_op("logical_not", [((4,), i1)])
    check(op, [np.array([True, False, True, False])])


@pytest.mark.parametrize("target", [f64, f16, i1, i32, i8])
def test_casts_from_floats(target):
    op = single_op("cast", [((12,), f32)], dtype=TypeAttr(target))
    x = floats((12,), seed=3)
    if target not in (f64, f16, i1):  # float -> int is undefined for NaN, inf, out of range
        x = np.clip(np.nan_to_num(x, posinf=5.0, neginf=-5.0), -100, 100)
    check(op, [x])


@pytest.mark.parametrize("source, target", [(i32, i8), (i8, i32), (i32, i1), (i1, i32),
                                            (i1, f32), (i32, f32)])
def test_casts_between_integers_and_to_floats(source, target):
    op = single_op("cast", [((10,), source)], dtype=TypeAttr(target))
    x = ints((10,), np.int8 if source == i8 else np.int32) if source != i1 \
        else np.arange(10) % 3 == 0
    check(op, [x])


@pytest.mark.parametrize("source, target", [(f32, i32), (i32, f32), (f64, i64), (f16, i16),
                                            (i1, i8), (i8, i1)])
def test_bitcasts_keep_the_bits(source, target):
    op = single_op("bitcast", [((12,), source)], dtype=TypeAttr(target))
    if source == i1:
        x = np.arange(12) % 3 == 0
    elif source in (i32, i8):
        x = ints((12,), np.int32 if source == i32 else np.int8)
    else:  # infinities too (the IR interpreter does not model a NaN's payload)
        x = np.nan_to_num(floats((12,), seed=4), nan=1.5, posinf=np.inf, neginf=-np.inf)
        x = x.astype({f32: np.float32, f64: np.float64, f16: np.float16}[source])
    check(op, [x])


BINARY = ["add", "subtract", "multiply", "divide", "power", "maximum", "minimum", "less",
          "greater", "less_equal", "greater_equal", "equal", "not_equal"]
SHAPES = [((2, 3, 4), (2, 3, 4)), ((2, 3, 4), (4,)), ((3, 1), (1, 4)), ((), (2, 2)),
          ((2, 1, 4), (3, 1))]


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("shapes", SHAPES)
def test_float_binary_rules_broadcast(name, shapes):
    op = single_op(name, [(shapes[0], f32), (shapes[1], f32)])
    check(op, [floats(shapes[0], seed=1), floats(shapes[1], seed=2)])


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "maximum", "minimum",
                                  "less", "greater", "less_equal", "greater_equal", "equal",
                                  "not_equal", "mod"])
def test_integer_binary_rules(name):
    a = ints((12,), np.int8, seed=4)
    b = np.array([1, -1, 2, -3, 7, -7, 1, -1, 5, -5, 3, 127], np.int8)  # no zero divisor
    op = single_op(name, [((12,), i8), ((12,), i8)])
    check(op, [a, b])


def test_integer_mod_with_fmod_and_min_by_minus_one():
    a = np.array([-7, 7, -7, 7, -128, -128], np.int8)
    b = np.array([2, -2, -2, 2, -1, 3], np.int8)
    for fmod in (False, True):
        check(single_op("mod", [((6,), i8), ((6,), i8)], fmod=fmod), [a, b])
    check(single_op("divide", [((6,), i8), ((6,), i8)]), [a, b])  # -128 / -1 wraps


def test_float_mod_is_fmod():
    op = single_op("mod", [((3, 4), f32), ((4,), f32)], fmod=True)
    check(op, [floats((3, 4), seed=5), np.array([2.0, -0.75, np.inf, 3.0], np.float32)])


@pytest.mark.parametrize("name", ["maximum", "minimum", "less", "greater", "less_equal",
                                  "greater_equal", "equal", "not_equal", "logical_and",
                                  "logical_or", "logical_xor"])
def test_boolean_binary_rules(name):
    a = np.array([[False, True, False, True]])
    b = np.array([[False], [False], [True], [True]])
    check(single_op(name, [((1, 4), i1), ((4, 1), i1)]), [a, b])


def test_prelu_and_where_broadcast():
    check(single_op("prelu", [((2, 3, 4), f32), ((3, 1), f32)]),
          [floats((2, 3, 4), seed=8), floats((3, 1), seed=9)])
    check(single_op("prelu", [((6,), i32), ((1,), i32)]), [ints((6,), np.int32),
                                                           np.array([-3], np.int32)])
    check(single_op("where", [((3, 1), i1), ((1, 4), f32), ((4,), f32)]),
          [np.array([[True], [False], [True]]), floats((1, 4), seed=10), floats(4, seed=11)])


def test_round_is_to_nearest_even_and_the_inverse_functions_meet_their_domains():
    ties = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, 8388607.5, -0.0, np.inf,
                     np.nan, 1e30], np.float32)
    check(single_op("round", [((12,), f32)]), [ties], signed_zeros=True)
    edges = np.array([-1.0, 1.0, -1.0000001, 1.0000001, 0.9999999, 0.0, -0.0, np.inf, -np.inf,
                      np.nan, 100.0, -100.0], np.float32)
    for name in ("asin", "acos", "atanh", "acosh", "sinh", "cosh", "tan", "atan", "asinh"):
        check(single_op(name, [((12,), f32)]), [edges], signed_zeros=name != "acos")


@pytest.mark.parametrize("element, dtype", [(f64, np.float64), (f16, np.float16)])
def test_trigonometric_rules_in_other_float_types(element, dtype):
    x = floats((8,), seed=12).astype(dtype)
    tolerance = {"rtol": 1e-14, "atol": 1e-300} if dtype == np.float64 else \
        {"rtol": 1e-3, "atol": 1e-7}
    for name in ("tan", "atanh", "sinh", "round"):
        check(single_op(name, [((8,), element)]), [x], **tolerance)


@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor"])
@pytest.mark.parametrize("element, dtype", [(i8, np.int8), (i32, np.int32)])
def test_bitwise_rules(name, element, dtype):
    op = single_op(name, [((3, 4), element), ((4,), element)])
    check(op, [ints((3, 4), dtype, seed=13), ints((4,), dtype, seed=14)])


@pytest.mark.parametrize("name", ["left_shift", "right_shift"])
@pytest.mark.parametrize("element, dtype, bits", [(i8, np.int8, 8), (i32, np.int32, 32)])
def test_shift_rules_past_the_width_and_by_negative_amounts(name, element, dtype, bits):
    # Every amount against every value: the ones arith leaves undefined (negative, at
    # or past the width) shift every bit out.
    amounts = np.array([-(1 << (bits - 1)), -1, 0, 1, 3, bits - 1, bits, bits + 1,
                        (1 << (bits - 1)) - 1], dtype)
    values = ints((6,), dtype, seed=15)
    op = single_op(name, [((6, 1), element), ((9,), element)])
    check(op, [values.reshape(6, 1), amounts])


@pytest.mark.parametrize("element, dtype", [(i8, np.int8), (i32, np.int32)])
def test_integer_power_wraps_and_truncates_negative_powers(element, dtype):
    info = np.iinfo(dtype)
    bases = np.array([2, -2, 3, -1, 1, 0, 7, info.min, info.max, -3], dtype)
    exponents = np.array([0, 1, 2, 3, 5, 8, 31, 64, -1, -2, -7], dtype)
    exponents = exponents[exponents >= 0]  # 0 to a negative power is undefined: below
    op = single_op("power", [((10, 1), element), ((exponents.size,), element)])
    check(op, [bases.reshape(10, 1), exponents])
    nonzero = bases[bases != 0]
    negative = np.array([-1, -2, -3, info.min], dtype)
    op = single_op("power", [((nonzero.size, 1), element), ((4,), element)])
    check(op, [nonzero.reshape(-1, 1), negative])


def test_integer_power_of_zero_to_a_negative_power_is_reported():
    from mlc.ir.interpreter import UndefinedBehavior
    op = single_op("power", [((2,), i32), ((2,), i32)])
    arrays = [np.array([2, 0], np.int32), np.array([1, -1], np.int32)]
    with pytest.raises(Exception, match="no defined result"):
        op.evaluate(arrays)
    with pytest.raises(UndefinedBehavior, match="zero raised to the negative power -1"):
        run_op_kernel(op, arrays)


def test_every_elementwise_op_with_a_rule_is_tested():
    # A rule added without a test here fails this.
    tested = {*FLOAT_UNARY, *BINARY, "leaky_relu", "elu", "selu", "celu", "thresholded_relu",
              "hard_sigmoid", "swish", "gelu", "shrink", "clip", "bitwise_not", "logical_not",
              "cast", "bitcast", "mod", "logical_and", "logical_or", "logical_xor", "prelu", "where",
              "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"}
    from mlc.graph.ops import elementwise
    ruled = {cls.op_def.name.split(".")[1] for cls in graph.ops.values()
             if cls.__module__ == elementwise.__name__ and getattr(cls, "compute", None)}
    assert ruled <= tested, ruled - tested
