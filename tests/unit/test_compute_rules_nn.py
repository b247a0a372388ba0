"""The compute rules of the nn, normalisation and reduction graph ops against their
ops' references: each op's loop kernel (built by `mlc.loop.compute_rules` from the
rule, run in the interpreter) on random inputs, over the ops' attributes.

Tolerances, stated once. Results that select or compare elements (max, min, the
pools' maxima, argmax/argmin, integer results) must be identical, NaN where the
reference has NaN. Rules accumulate in the op's own precision (float32 for float32
and float16 tensors, see `mlc.graph.ops.compute.accumulator`) where the references
take float64 and round once, so float results agree within rtol 1e-5 for float32
(1e-12 for float64, 1e-3 for float16), and an absolute tolerance of rtol times the
results' largest finite magnitude (at least 1, the inputs' scale): a sum that cancels
keeps the rounding errors of its terms, not of its small result.
"""

from __future__ import annotations

import numpy as np
import pytest

from mlc.graph import GraphBuilder
from mlc.graph.builder import element_type_of_dtype
from mlc.graph.dialect import graph
from mlc.graph.op_base import GraphOp
from mlc.graph.ops import nn, norm, reduce
from mlc.graph.storage import from_bf16_bits, to_bf16_bits
from mlc.ir import IndexType, bf16, parse_module, print_op, verify
from mlc.ir.dialects.builtin import ModuleOp
from mlc.loop.compute_rules import op_kernel, run_op_kernel

RNG = np.random.default_rng(10)
RTOL = {np.dtype(np.float32): 1e-5, np.dtype(np.float64): 1e-12, np.dtype(np.float16): 1e-3}


def assert_close(got: np.ndarray, want: np.ndarray) -> None:
    """`got` equals `want` within the module docstring's float tolerance."""
    rtol = RTOL[want.dtype]
    finite = np.abs(want[np.isfinite(want)].astype(np.float64))
    scale = max(1.0, float(finite.max())) if finite.size else 1.0
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * scale)


def graph_op(short_name: str, *arrays: np.ndarray, **attrs):
    """A detached-looking `graph.<short_name>` op on parameters shaped like `arrays`."""
    builder = GraphBuilder()
    params = [builder.param(f"p{i}", a.shape, element_type_of_dtype(a.dtype))
              for i, a in enumerate(arrays)]
    result = builder.op(short_name, *params, **attrs)
    return (result[0] if isinstance(result, list) else result).owner


def check(short_name: str, *arrays: np.ndarray, exact: bool = False, **attrs) -> np.ndarray:
    """Run the op's kernel and its reference on `arrays`; assert they agree (see the
    module docstring); the kernel's result."""
    op = graph_op(short_name, *arrays, **attrs)
    module = ModuleOp.build()
    module.body.append(op_kernel(op))
    verify(parse_module(print_op(module)))  # in bounds, and it prints and parses back
    got = run_op_kernel(op, arrays)
    want = op.evaluate(list(arrays))
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        if exact or w.dtype.kind != "f":
            np.testing.assert_array_equal(g, w)
        else:
            assert_close(g, w)
    return got[0]


def normal(*shape, dtype=np.float32) -> np.ndarray:
    return RNG.standard_normal(shape).astype(dtype)


def integers(*shape, dtype=np.int32, low=None, high=None) -> np.ndarray:
    info = np.iinfo(dtype)
    low = info.min if low is None else low
    high = info.max if high is None else high
    return RNG.integers(low, high, shape, dtype=dtype, endpoint=True)


def with_specials(x: np.ndarray) -> np.ndarray:
    """`x` with a NaN, +inf and -inf at fixed places (in different slices)."""
    x = x.copy()
    flat = x.reshape(-1)
    flat[1], flat[-2], flat[len(flat) // 2] = np.nan, np.inf, -np.inf
    return x


# ------------------------------------------------------------------ reductions


@pytest.mark.parametrize("name", ["sum", "mean", "max", "min", "prod"])
@pytest.mark.parametrize("axes, keepdims", [((), False), ((1,), False), ((-1, 0), True),
                                             ((0, 2), False), ((-2,), True)])
def test_reductions_over_axes(name, axes, keepdims):
    check(name, normal(3, 4, 2), axes=axes, keepdims=keepdims)


@pytest.mark.parametrize("name", ["sum", "mean", "max", "min", "prod"])
@pytest.mark.parametrize("dtype", [np.int8, np.int64])
def test_integer_reductions_wrap_and_truncate_as_the_reference(name, dtype):
    # Extremes of the type: sums and products wrap, the integer mean divides the sum
    # taken in 64 bits and truncates toward zero.
    check(name, integers(4, 5, dtype=dtype), axes=(1,))


def test_integer_mean_is_taken_over_the_64_bit_sum():
    x = np.array([[100, 100, 100], [-128, -128, 1]], np.int8)
    assert check("mean", x, axes=(1,)).tolist() == [100, -85]


@pytest.mark.parametrize("name", ["sum", "mean", "max", "min", "prod"])
def test_reductions_of_nan_and_infinities(name):
    check(name, with_specials(normal(2, 5)), axes=(1,))


@pytest.mark.parametrize("name", ["max", "min"])
def test_boolean_max_is_any_and_min_is_all(name):
    x = np.array([[0, 0, 0], [0, 1, 0], [1, 1, 1]], np.bool_)
    got = check(name, x, axes=(1,))
    assert got.tolist() == ([False, True, True] if name == "max" else [False, False, True])


@pytest.mark.parametrize("name", ["sum", "max", "mean"])
def test_reductions_of_float64_and_float16(name):
    check(name, normal(3, 4, dtype=np.float64), axes=(0,))
    check(name, normal(3, 4, dtype=np.float16), axes=(1,))


@pytest.mark.parametrize("name", ["sum", "mean", "max", "min", "prod", "argmax"])
def test_reductions_of_index_elements(name):
    x = np.array([[1, -7, 3], [2**62, 2**62, 5]], np.int64)
    builder = GraphBuilder()
    op = builder.op(name, builder.param("x", x.shape, IndexType()),
                    **({"axis": 1} if name == "argmax" else {"axes": (1,)})).owner
    np.testing.assert_array_equal(run_op_kernel(op, [x])[0], op.evaluate([x])[0])


def test_rank_0_reduction_copies_the_element():
    check("sum", np.array(2.5, np.float32))
    check("prod", np.array(-3, np.int32), keepdims=True)


def test_a_reduction_accumulates_in_the_element_type_and_float16_in_float32():
    # 1 + 2^-25 rounds to 1 in float32 at every step (half an ulp of 1 is 2^-24): the
    # kernel's float32 sum stays 1, the reference's float64 sum does not, and the two
    # agree within the float32 tolerance.
    x = np.array([1.0] + [2.0 ** -25] * 16, np.float32)
    assert check("sum", x) == np.float32(1.0)
    assert graph_op("sum", x).evaluate([x])[0] == np.float32(1.0 + 16 * 2.0 ** -25)
    # In float16, 2^-12 is below half an ulp of 1 as well; accumulated in float32 the
    # sum 1 + 2^-8 is exact, and so is its float16.
    h = np.array([1.0] + [2.0 ** -12] * 16, np.float16)
    assert check("sum", h) == np.float16(1.0 + 2.0 ** -8)


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("axis, keepdims, last", [(0, False, False), (1, True, False),
                                                   (-1, False, True), (-3, True, True)])
def test_arg_reductions(name, axis, keepdims, last):
    # Few distinct values, so ties are common.
    x = RNG.integers(0, 3, (3, 4, 2)).astype(np.float32)
    check(name, x, axis=axis, keepdims=keepdims, select_last_index=last)
    check(name, x.astype(np.int8), axis=axis, keepdims=keepdims, select_last_index=last)


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("last", [False, True])
def test_arg_reductions_count_nan_as_the_winner(name, last):
    x = np.array([[1, np.nan, 3, np.nan], [np.inf, 1, -np.inf, np.inf],
                  [-0.0, 0.0, 0.0, -0.0]], np.float32)
    got = check(name, x, axis=1, select_last_index=last)
    assert got[0] == (3 if last else 1)


def test_boolean_argmax_takes_true_as_the_larger():
    x = np.array([[0, 1, 1], [0, 0, 0]], np.bool_)
    assert check("argmax", x, axis=1).tolist() == [1, 0]
    assert check("argmin", x, axis=1).tolist() == [0, 0]


def test_unsigned_tensors_lower_to_signless_buffers_and_unsigned_ops():
    text = print_op(op_kernel(graph_op("max", np.zeros((2, 2), np.uint8), axes=(1,))))
    assert "memref<2x2xi8>" in text and "arith.maxui" in text and "ui8" not in text


# ------------------------------------------------------------------ nn


CONV_CASES = [  # (data shape, weight shape, attributes)
    ((1, 2, 5, 5), (3, 2, 3, 3), {}),
    ((2, 2, 6, 5), (2, 2, 3, 2), {"padding": (1, 0, 2, 1), "strides": (2, 1)}),
    ((1, 2, 7, 7), (2, 2, 2, 3), {"dilation": (2, 1), "padding": 1, "strides": 2}),
    ((1, 4, 4, 4), (4, 1, 3, 3), {"groups": 4, "padding": 1}),  # depthwise
    ((1, 4, 4, 3), (6, 2, 1, 2), {"groups": 2, "strides": (1, 2)}),
]


@pytest.mark.parametrize("data, weight, attrs", CONV_CASES)
def test_conv2d_nchw(data, weight, attrs):
    check("conv2d", normal(*data), normal(*weight), **attrs)


@pytest.mark.parametrize("data, weight, blocks, attrs", [
    ((1, 2, 4, 4, 2), (2, 2, 3, 3, 2, 2), (2, 2), {"padding": 1}),
    ((1, 2, 5, 4, 2), (3, 2, 2, 2, 2, 2), (2, 2), {"strides": 2, "padding": (0, 1, 1, 0)}),
    ((1, 2, 4, 4, 2), (4, 1, 3, 3, 2, 1), (2, 1), {"groups": 2}),
])
def test_conv2d_channel_blocked(data, weight, blocks, attrs):
    layouts = {"data_layout": f"NCHW{data[-1]}c", "kernel_layout": f"OIHW{blocks[0]}i{blocks[1]}o"}
    check("conv2d", normal(*data), normal(*weight), **layouts, **attrs)


def test_conv2d_padding_times_inf_is_nan():
    weight = np.ones((1, 1, 3, 3), np.float32)
    weight[0, 0, 0, 0] = np.inf
    got = check("conv2d", normal(1, 1, 3, 3), weight, padding=1)
    # The inf tap meets the padding on the first row and column only.
    padded = np.zeros((3, 3), bool)
    padded[0, :] = padded[:, 0] = True
    np.testing.assert_array_equal(np.isnan(got[0, 0]), padded)


def test_conv2d_float64_and_float16():
    check("conv2d", normal(1, 2, 4, 4, dtype=np.float64), normal(2, 2, 3, 3, dtype=np.float64),
          padding=1)
    check("conv2d", normal(1, 2, 4, 4, dtype=np.float16), normal(2, 2, 3, 3, dtype=np.float16))


@pytest.mark.parametrize("data", [(5,), (3, 5), (2, 2, 5)])
def test_dense(data):
    check("dense", with_specials(normal(*data)) if len(data) == 3 else normal(*data),
          normal(4, 5))


@pytest.mark.parametrize("lhs, rhs", [((3, 4), (4, 2)), ((4,), (4, 2)), ((3, 4), (4,)),
                                      ((4,), (4,)), ((2, 1, 3, 4), (3, 4, 2)),
                                      ((1, 3, 4), (2, 4, 5))])
def test_matmul_broadcasts_batches_and_vectors(lhs, rhs):
    check("matmul", normal(*lhs), normal(*rhs))


@pytest.mark.parametrize("transpose_a", [False, True])
@pytest.mark.parametrize("transpose_b", [False, True])
@pytest.mark.parametrize("batches", [(2, 2), (1, 3), (2, 1)])
def test_batch_matmul(transpose_a, transpose_b, batches):
    lhs = (batches[0], 4, 3) if transpose_a else (batches[0], 3, 4)
    rhs = (batches[1], 2, 4) if transpose_b else (batches[1], 4, 2)
    check("batch_matmul", normal(*lhs), normal(*rhs), transpose_a=transpose_a,
          transpose_b=transpose_b)


@pytest.mark.parametrize("shape, axis", [((2, 3, 2, 2), 1), ((3, 4), -1), ((4,), 0),
                                         ((2, 3, 4), -2)])
def test_bias_add(shape, axis):
    n = shape[axis]
    check("bias_add", with_specials(normal(*shape)), normal(n), axis=axis, exact=True)
    check("bias_add", integers(*shape, dtype=np.int8), integers(n, dtype=np.int8), axis=axis)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("shape, axis", [((3, 5), -1), ((3, 4, 2), 1), ((4,), 0),
                                         ((2, 3), 0)])
def test_softmax(name, shape, axis):
    check(name, 10 * normal(*shape), axis=axis)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_of_nan_and_infinities(name):
    x = np.array([[1, np.nan, 2], [1, np.inf, 2], [1, -np.inf, 2],
                  [-np.inf, -np.inf, -np.inf]], np.float32)
    got = check(name, x, axis=1)
    assert np.isnan(got[:2]).all() and np.isnan(got[3]).all()
    assert got[2, 1] == (0.0 if name == "softmax" else -np.inf)


def test_softmax_float64():
    check("softmax", normal(3, 4, dtype=np.float64), axis=1)
    check("log_softmax", normal(3, 4, dtype=np.float16), axis=0)


POOL_CASES = [
    {"pool_size": 2, "strides": 2},
    {"pool_size": 3, "strides": 1, "padding": 1},
    {"pool_size": (3, 2), "strides": (2, 1), "padding": (1, 0, 0, 1), "dilation": (1, 2)},
    {"pool_size": 3, "strides": 2, "ceil_mode": True},  # the last window overhangs
    {"pool_size": 2, "strides": 2, "padding": (1, 1, 0, 1), "ceil_mode": True},
    {"pool_size": 1, "padding": 2},  # windows of padding alone
]


@pytest.mark.parametrize("attrs", POOL_CASES)
def test_max_pool2d(attrs):
    check("max_pool2d", with_specials(normal(2, 1, 6, 5)), exact=True, **attrs)


@pytest.mark.parametrize("count_include_pad", [False, True])
@pytest.mark.parametrize("attrs", POOL_CASES)
def test_avg_pool2d(attrs, count_include_pad):
    check("avg_pool2d", normal(1, 2, 6, 5), count_include_pad=count_include_pad, **attrs)


@pytest.mark.parametrize("name, extra", [("avg_pool2d", {"count_include_pad": False}),
                                         ("avg_pool2d", {"count_include_pad": True}),
                                         ("max_pool2d", {})])
def test_pools_of_channel_blocked_data(name, extra):
    # NCHW4c, as graph-alter-op-layout carries it through pools.
    check(name, normal(1, 2, 6, 5, 4), layout="NCHW4c", pool_size=3, strides=2, padding=1,
          **extra)


def test_avg_pool2d_of_nan_and_infinities():
    check("avg_pool2d", with_specials(normal(1, 1, 4, 4)), pool_size=2, padding=1)


@pytest.mark.parametrize("name", ["global_avg_pool2d", "global_max_pool2d"])
def test_global_pools(name):
    check(name, with_specials(normal(2, 3, 3, 2)), exact=name == "global_max_pool2d")
    check(name, normal(1, 2, 4, 3, dtype=np.float64))


# ------------------------------------------------------------------ normalisations


@pytest.mark.parametrize("shape, axis", [((2, 3, 2, 2), 1), ((4, 3), -1), ((3,), 0)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_batch_norm(shape, axis, dtype):
    c = shape[axis]
    variance = np.abs(normal(c, dtype=dtype))
    variance[0] = 0.0  # epsilon alone keeps the root positive
    check("batch_norm", with_specials(normal(*shape, dtype=dtype)), normal(c, dtype=dtype),
          normal(c, dtype=dtype), normal(c, dtype=dtype), variance, axis=axis, epsilon=1e-3)


@pytest.mark.parametrize("shape, axis", [((3, 4), -1), ((2, 3, 4), 1), ((4, 2), 0),
                                         ((2, 2, 3), -1)])
def test_layer_norm(shape, axis):
    trailing = shape[axis:]
    check("layer_norm", 3 * normal(*shape) + 1, normal(*trailing), normal(*trailing), axis=axis)


def test_layer_norm_of_nan_and_a_constant_slice():
    x = np.array([[1, np.nan, 3], [2, 2, 2], [np.inf, 0, 1]], np.float32)
    got = check("layer_norm", x, np.ones(3, np.float32), np.zeros(3, np.float32), epsilon=0.0)
    assert np.isnan(got[0]).all() and np.isnan(got[1]).all()  # 0/0 on the constant slice
    check("layer_norm", x.astype(np.float64), normal(3, dtype=np.float64),
          normal(3, dtype=np.float64), epsilon=1e-5)


def test_every_nn_normalisation_and_reduction_op_lowers_and_its_reference_says_so():
    modules = {nn.__name__, norm.__name__, reduce.__name__}
    ops = sorted(name for name, cls in graph.ops.items() if cls.__module__ in modules)
    assert len(ops) == 20
    assert [name for name in ops if graph.ops[name].compute is None] == []
    for cls in graph.ops.values():
        if not issubclass(cls, GraphOp):
            continue  # graph.call_tir and call_dps_packed call code, they compute nothing
        if cls.doc_facts.__func__ is not GraphOp.doc_facts.__func__:
            continue  # graph.constant states its own facts
        lowers = "yes (TE compute rule)" if cls.compute else "not yet (no compute rule)"
        assert f"Lowers to loops: {lowers}" in cls.doc_facts()


@pytest.mark.parametrize("short_name, shapes, attrs", [
    ("sum", [(2, 5)], {"axes": (1,)}), ("softmax", [(2, 5)], {}), ("dense", [(2, 5), (3, 5)], {}),
    ("avg_pool2d", [(1, 1, 4, 4)], {"pool_size": 2, "padding": 1}),
    ("layer_norm", [(2, 3), (3,), (3,)], {}),
])
def test_bfloat16_results_are_rounded_once(short_name, shapes, attrs):
    # The interpreter holds bf16 values in float32 arrays; the reference takes and
    # gives bf16 bit patterns.
    arrays = [from_bf16_bits(to_bf16_bits(normal(*shape))) for shape in shapes]
    builder = GraphBuilder()
    params = [builder.param(f"p{i}", a.shape, bf16) for i, a in enumerate(arrays)]
    op = builder.op(short_name, *params, **attrs).owner
    want = from_bf16_bits(op.evaluate([to_bf16_bits(a) for a in arrays])[0])
    np.testing.assert_array_equal(run_op_kernel(op, arrays)[0], want)
