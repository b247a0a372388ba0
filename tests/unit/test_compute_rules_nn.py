"""The compute rules of the nn, normalisation and reduction graph ops against their
ops' references: each op's loop kernel (built by `mlc.loop.compute_rules` from the
rule, run in the interpreter) on random inputs, over the ops' attributes.

Tolerances, stated once. Results that select or compare elements (max, min, the
pools' maxima, argmax/argmin, integer results) must be identical, NaN where the
reference has NaN. Rules that accumulate do it in float64 and round once, as the
references, so float32 results differ at most by the summation order: rtol 1e-6 with
an absolute 1e-7 (float64 results: rtol 1e-12, absolute 1e-13).
"""

from __future__ import annotations

import numpy as np
import pytest

from mlc.graph import GraphBuilder
from mlc.graph.builder import element_type_of_dtype
from mlc.loop import te
from mlc.loop.compute_rules import op_kernel, run_op_kernel

RNG = np.random.default_rng(10)
TOLERANCE = {np.dtype(np.float32): (1e-6, 1e-7), np.dtype(np.float64): (1e-12, 1e-13),
             np.dtype(np.float16): (1e-3, 1e-4)}


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
    got = run_op_kernel(op, arrays)
    want = op.evaluate(list(arrays))
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        if exact or w.dtype.kind != "f":
            np.testing.assert_array_equal(g, w)
        else:
            rtol, atol = TOLERANCE[w.dtype]
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)
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


def test_rank_0_reduction_copies_the_element():
    check("sum", np.array(2.5, np.float32))
    check("prod", np.array(-3, np.int32), keepdims=True)


def test_a_reduction_accumulates_in_float64():
    # 1 + 2^-30 + ... rounds to 1 in float32 at every step; the sum in float64 does not.
    x = np.array([1.0] + [2.0 ** -25] * 16, np.float32)
    assert check("sum", x) == np.float32(1.0 + 16 * 2.0 ** -25)


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


def test_unsigned_tensors_do_not_lower_yet():
    op = graph_op("sum", np.zeros((2, 2), np.uint8))
    with pytest.raises(te.TEError, match="signless integers only"):
        op_kernel(op)
