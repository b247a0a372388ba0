"""The compute rules of the transform, indexing, scan and range graph ops against their
ops' references: each op's loop kernel (built by `mlc.loop.compute_rules` from the
rule, verified and round-tripped through text, run in the interpreter) on random
inputs, over the ops' attributes.

Tolerance: none where the ops move elements or compute as their references do (range,
integer scans and scatters, max/min scatters): every result identical to the
reference's, NaN where it has NaN, the sign of zero included. Float sums and products
(cumsum, cumprod, scatters that add or multiply) accumulate in the op's own precision
in the same order as the references, which take float64 and round once: those agree
within rtol 1e-5 for float32 (1e-12 for float64) and an absolute tolerance of rtol
times the results' largest finite magnitude (at least 1, the inputs' scale), NaN and
infinities where the reference has them (`accumulated=True`).
"""

from __future__ import annotations

import numpy as np
import pytest

from mlc.graph import GraphBuilder
from mlc.graph.builder import element_type_of_dtype
from mlc.graph.op_base import UndefinedResultError
from mlc.ir import f16, f32, f64, i8, i32, i64, parse_module, print_op, verify
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.interpreter import UndefinedBehavior
from mlc.loop.compute_rules import op_kernel, run_op_kernel

RNG = np.random.default_rng(11)


def graph_op(short_name: str, *arrays: np.ndarray, **attrs):
    """`graph.<short_name>` on parameters shaped like `arrays` (concat takes them as
    its one variadic operand group)."""
    builder = GraphBuilder()
    params = [builder.param(f"p{i}", a.shape, element_type_of_dtype(a.dtype))
              for i, a in enumerate(arrays)]
    operands = [params] if short_name == "concat" else params
    result = builder.op(short_name, *operands, **attrs)
    return (result[0] if isinstance(result, list) else result).owner


def kernel_text(op) -> str:
    module = ModuleOp.build()
    module.body.append(op_kernel(op))
    text = print_op(module)
    verify(parse_module(text))  # in bounds, and it prints and parses back
    return text


RTOL = {np.dtype(np.float32): 1e-5, np.dtype(np.float64): 1e-12}


def check(short_name: str, *arrays: np.ndarray, accumulated: bool = False,
          **attrs) -> list[np.ndarray]:
    """Run the op's kernel and its reference on `arrays`; assert they agree bit for
    bit, or with `accumulated` within the float tolerance (see the module
    docstring); the kernel's results."""
    op = graph_op(short_name, *arrays, **attrs)
    kernel_text(op)
    got = run_op_kernel(op, arrays)
    want = op.evaluate(list(arrays))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        if accumulated and w.dtype.kind == "f":
            rtol = RTOL[w.dtype]
            finite = np.abs(w[np.isfinite(w)].astype(np.float64))
            scale = max(1.0, float(finite.max())) if finite.size else 1.0
            np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol * scale)
            continue
        np.testing.assert_array_equal(g, w)
        if w.dtype.kind == "f":
            np.testing.assert_array_equal(np.signbit(g), np.signbit(w))
    return got


def normal(*shape, dtype=np.float32) -> np.ndarray:
    return RNG.standard_normal(shape).astype(dtype)


def with_specials(x: np.ndarray) -> np.ndarray:
    """`x` with a NaN, +inf, -inf and -0.0 at fixed places."""
    x = x.copy()
    flat = x.reshape(-1)
    flat[0], flat[1], flat[-2], flat[len(flat) // 2] = -0.0, np.nan, np.inf, -np.inf
    return x


def integers(*shape, dtype=np.int8) -> np.ndarray:
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)


# ------------------------------------------------------------------ reshapes


@pytest.mark.parametrize("shape", [(4, -1), (3, 8), (0, -1), (24,), (2, 3, 4), (1, 2, 1, 12), (6, 1, 4, 1), (2, 2, 6)])
def test_reshape_keeps_the_row_major_order(shape):
    check("reshape", with_specials(normal(2, 3, 4)), shape=shape)


def test_reshape_of_integers_and_rank_0():
    check("reshape", integers(6, 2, dtype=np.int64), shape=(3, 4))
    check("reshape", np.array(1.5, np.float32), shape=(1, 1))
    check("reshape", np.array([[7]], np.int32), shape=())


@pytest.mark.parametrize("axis", [0, 1, 2, 3, -1, -3])
def test_flatten_at_every_axis(axis):
    check("flatten", normal(2, 3, 2), axis=axis)


@pytest.mark.parametrize("axes", [(), (2, 0, 1), (-1, -3, -2), (0, 1, 2)])
def test_transpose(axes):
    check("transpose", with_specials(normal(2, 3, 4)), axes=axes)


@pytest.mark.parametrize("axes", [(), (1,), (-1, 1), (4,)])
def test_squeeze(axes):
    check("squeeze", normal(2, 1, 3, 1, 1), axes=axes)


@pytest.mark.parametrize("axis, count", [(0, 1), (-1, 2), (2, 3), (-3, 1), (1, 0)])
def test_expand_dims(axis, count):
    check("expand_dims", integers(2, 3, dtype=np.int8), axis=axis, num_newaxis=count)


@pytest.mark.parametrize("source, shape", [((3, 1), (2, 3, 4)), ((1,), (5,)), ((), (2, 2)),
                                           ((2, 1, 4), (2, 3, 4)), ((1, 1), (1, 3))])
def test_broadcast_to(source, shape):
    check("broadcast_to", normal(*source), shape=shape)


@pytest.mark.parametrize("repeats", [(2, 3), (3,), (2, 1, 2), (1, 1)])
def test_tile_pads_repeats_or_adds_axes_as_numpy(repeats):
    check("tile", with_specials(normal(2, 3)), repeats=repeats)


@pytest.mark.parametrize("src, dst, shape", [
    ("NCHW", "NCHW4c", (1, 8, 2, 3)), ("NCHW4c", "NCHW", (2, 2, 2, 1, 4)),
    ("NCHW4c", "NCHW2c", (1, 2, 3, 2, 4)), ("NCHW", "NCHW", (1, 2, 2, 2)),
    ("OIHW", "OIHW2i4o", (8, 4, 1, 3)), ("OIHW2i4o", "OIHW", (2, 2, 1, 1, 2, 4)),
    ("OIHW4i2o", "OIHW2i4o", (2, 1, 1, 2, 4, 2))])
def test_layout_transform(src, dst, shape):
    check("layout_transform", normal(*shape), src_layout=src, dst_layout=dst)


# ------------------------------------------------------------------ padding and slicing


@pytest.mark.parametrize("pads, value", [((1, 0, 2, 0, 1, 1), 1.5), ((0,) * 6, 0.0),
                                         ((2, 2, 2, 1, 1, 1), float("nan")),
                                         ((0, 1, 0, 0, 0, 3), -np.inf)])
def test_pad(pads, value):
    check("pad", normal(2, 3, 2), pads=pads, value=value)


@pytest.mark.parametrize("mode", ["reflect", "edge", "wrap"])
@pytest.mark.parametrize("pads", [(1, 0, 2, 0, 2, 1), (0, 2, 0, 1, 0, 2), (2, 1, 1, 2, 2, 2)])
def test_pad_modes_read_mirrored_clamped_or_wrapped_elements_as_numpy(mode, pads):
    check("pad", normal(3, 4, 3), pads=pads, mode=mode)
    check("pad", integers(3, 4, 3, dtype=np.int32), pads=pads, mode=mode)


def test_pad_wraps_more_than_once_and_reflect_refuses_pads_past_the_edge():
    check("pad", normal(2, 3), pads=(5, 0, 7, 4), mode="wrap")
    with pytest.raises(Exception, match="reflect pads axis 0 of extent 2 by at most 1"):
        graph_op("pad", normal(2, 3), pads=(2, 0, 0, 0), mode="reflect")


def test_pad_value_is_rounded_to_the_element_type_or_exact_for_integers():
    check("pad", normal(3, dtype=np.float16), pads=(1, 2), value=0.1)
    check("pad", integers(2, 2, dtype=np.int64), pads=(1, 0, 0, 1), value=-12345.0)
    check("pad", np.array([True, False]), pads=(1, 1), value=1.0)


@pytest.mark.parametrize("attrs", [
    dict(starts=(1,), ends=(3,)),
    dict(starts=(-1, 0), ends=(-100, 3), axes=(2, 1), steps=(-2, 2)),
    dict(starts=(0, 10), ends=(2, -10), axes=(0, -1), steps=(1, -1)),
    dict(starts=(-3,), ends=(2 ** 62,), axes=(1,), steps=(2,)),
])
def test_slice_clamps_and_walks_both_ways(attrs):
    check("slice", with_specials(normal(3, 4, 5)), **attrs)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concat(axis):
    x = normal(2, 3, 2)
    parts = [np.take(x, [0], axis), with_specials(x), np.take(x, [1, 0], axis)]
    check("concat", *parts, axis=axis)


def test_concat_of_one_and_of_integers():
    check("concat", normal(2, 2), axis=1)
    check("concat", integers(3, dtype=np.int8), integers(1, dtype=np.int8), axis=0)


@pytest.mark.parametrize("sections, axis", [((1, 3), -1), ((2, 1, 1), 2), ((1, 1), 0)])
def test_split_gives_one_kernel_output_per_piece(sections, axis):
    pieces = check("split", with_specials(normal(2, 3, 4)), sections=sections, axis=axis)
    assert len(pieces) == len(sections)


# ------------------------------------------------------------------ data-dependent indices


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_gather_with_negative_indices(axis, dtype):
    x = with_specials(normal(3, 4, 2))
    extent = x.shape[axis]
    indices = RNG.integers(-extent, extent, (2, 3)).astype(dtype)
    check("gather", x, indices, axis=axis)


def test_gather_of_a_rank_0_index():
    check("gather", normal(4, 3), np.array(-2, np.int64), axis=0)


def test_gather_reads_through_a_data_dependent_load():
    op = graph_op("gather", normal(5, 3), np.zeros(4, np.int32), axis=0)
    text = kernel_text(op)
    assert "reads(%p1[%vi0], %p0[?, %vi1])" in text
    assert "arith.index_cast" in text


@pytest.mark.parametrize("name", ["gather", "gather_elements", "gather_nd"])
def test_an_index_out_of_range_is_reported_by_kernel_and_reference(name):
    x = normal(3, 3)
    indices = {"gather": np.array([0, 3], np.int64),
               "gather_elements": np.array([[0, -4, 1]], np.int64),
               "gather_nd": np.array([[1, -4]], np.int64)}[name]
    op = graph_op(name, x, indices)
    with pytest.raises(UndefinedResultError):
        op.evaluate([x, indices])
    with pytest.raises(UndefinedBehavior, match="out of the bounds"):
        run_op_kernel(op, [x, indices])


@pytest.mark.parametrize("axis, shape", [(0, (2, 3, 2)), (1, (2, 5, 2)), (-1, (1, 2, 3))])
def test_gather_elements(axis, shape):
    x = with_specials(normal(3, 4, 3))
    extent = x.shape[axis]
    check("gather_elements", x, RNG.integers(-extent, extent, shape).astype(np.int32),
          axis=axis)


@pytest.mark.parametrize("batch_dims, indices_shape", [(0, (2, 1)), (0, (3, 2)), (0, (2, 2, 3)),
                                                        (1, (3, 1)), (1, (3, 2, 2)),
                                                        (2, (3, 4, 1))])
def test_gather_nd(batch_dims, indices_shape):
    x = normal(3, 4, 2)
    k = indices_shape[-1]
    extents = np.array(x.shape[batch_dims:batch_dims + k])
    indices = (RNG.integers(0, 2 ** 30, indices_shape) % (2 * extents) - extents).astype(np.int64)
    check("gather_nd", x, indices, batch_dims=batch_dims)


@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_one_hot_counts_negative_indices_from_the_end_and_ignores_outside_ones(axis):
    indices = np.array([[0, -1, 4, 5], [-5, 2, -4, 3]], np.int64)
    got = check("one_hot", indices, depth=4, axis=axis, on_value=3.0, off_value=-0.0)[0]
    assert np.count_nonzero(got == 3.0) == 5  # 4, 5 and -5 match nothing


def test_one_hot_of_typed_values():
    indices = np.array([0, -1, 9, 2], np.int32)
    check("one_hot", indices, depth=3, on_value=7, off_value=-128, dtype=i8)
    check("one_hot", indices, depth=3, on_value=1, off_value=0, dtype=i64)
    check("one_hot", indices, depth=2, on_value=0.5, off_value=float("nan"), dtype=f16)


# ------------------------------------------------------------------ range and scans


@pytest.mark.parametrize("start, limit, delta, dtype", [
    (-3, 10, 3, i32), (5, -6, -2, i64), (-100, 100, 1, i8), (0.5, 2.0, 0.1, f32),
    (1.0, -1.0, -0.3, f64), (0.0, 1.0, 0.125, f16)])
def test_range_computes_start_plus_i_times_delta_as_the_reference(start, limit, delta, dtype):
    # i8 from -100 to 100: the products i·delta leave i8 and wrap back, as the
    # reference's 64-bit ones do in their low bits.
    op = GraphBuilder().range(start=start, limit=limit, delta=delta, dtype=dtype).owner
    kernel_text(op)
    [got], [want] = run_op_kernel(op, []), op.evaluate([])
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_scans(name, exclusive, reverse):
    check(name, normal(2, 5, 3), axis=1, exclusive=exclusive, reverse=reverse,
          accumulated=True)
    check(name, normal(4, 3, dtype=np.float64), axis=-1, exclusive=exclusive, reverse=reverse,
          accumulated=True)
    check(name, integers(3, 6, dtype=np.int8), axis=1, exclusive=exclusive, reverse=reverse)


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_scans_of_nan_infinities_and_signed_zeros(name):
    check(name, with_specials(normal(3, 4)), axis=1, accumulated=True)
    check(name, with_specials(normal(3, 4)), axis=0, reverse=True, accumulated=True)


def test_a_sum_of_negative_zeros_stays_negative():
    got = check("cumsum", np.array([-0.0, -0.0, 0.0, -0.0], np.float32))[0]
    assert np.signbit(got).tolist() == [True, True, False, False]


def test_a_float_scan_accumulates_in_the_element_type():
    # Each 2^-25 is below half an ulp of 1 in float32: the kernel's running sum stays
    # 1, the reference's float64 one does not (within the tolerance).
    x = np.array([1.0] + [2.0 ** -25] * 8, np.float32)
    assert check("cumsum", x, accumulated=True)[0][-1] == np.float32(1.0)
    assert graph_op("cumsum", x).evaluate([x])[0][-1] == np.float32(1.0 + 8 * 2.0 ** -25)


# ------------------------------------------------------------------ scatters


REDUCTIONS = ["none", "add", "mul", "max", "min"]


def signed_indices(shape, extent, dtype=np.int64) -> np.ndarray:
    """Indices in [-extent, extent): every position, from either end, with repeats."""
    return RNG.integers(-extent, extent, shape).astype(dtype)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("axis, shape", [(0, (4, 2)), (1, (2, 5)), (-1, (3, 3)), (0, (1, 1))])
def test_scatter_elements(reduction, axis, shape):
    # Repeated targets: applied in row-major order, the last wins without a reduction.
    data = with_specials(normal(3, 4))
    indices = signed_indices(shape, data.shape[axis], np.int32)
    check("scatter_elements", data, indices, normal(*shape), axis=axis, reduction=reduction,
          accumulated=reduction in ("add", "mul"))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("indices_shape", [(5, 1), (2, 3, 2), (2,), (1, 1, 1)])
def test_scatter_nd(reduction, indices_shape):
    data = normal(3, 4)
    k = indices_shape[-1]
    indices = np.stack([signed_indices(indices_shape[:-1], n) for n in data.shape[:k]], -1)
    updates = normal(*indices_shape[:-1], *data.shape[k:])
    check("scatter_nd", data, indices, updates, reduction=reduction,
          accumulated=reduction in ("add", "mul"))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_integer_scatters_wrap(reduction):
    data = integers(3, 4, dtype=np.int8)
    indices = np.array([[1], [1], [0], [1]], np.int64)
    check("scatter_nd", data, indices, integers(4, 4, dtype=np.int8), reduction=reduction)


@pytest.mark.parametrize("reduction", ["none", "max", "min"])
def test_boolean_scatters(reduction):
    data = RNG.integers(0, 2, (3, 4)).astype(bool)
    updates = RNG.integers(0, 2, (2, 4)).astype(bool)
    check("scatter_elements", data, signed_indices((2, 4), 3), updates, reduction=reduction)


def test_a_float_scatter_add_accumulates_in_the_element_type_in_order():
    # In order: 1 + 2^-25 stays 1 in float32 at every step; 0 + -0.0 stays +0.
    data = np.array([1.0, 0.0], np.float32)
    updates = np.array([2.0 ** -25] * 6 + [-0.0], np.float32)
    indices = np.array([0] * 6 + [1], np.int64)
    got = check("scatter_elements", data, indices, updates, reduction="add",
                accumulated=True)[0]
    assert got[0] == np.float32(1.0) and got[1] == 0.0 and not np.signbit(got[1])


# ------------------------------------------------------------------ top_k


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("k, axis", [(1, 1), (3, 1), (5, -1), (2, 0)])
def test_top_k_orders_ties_by_index_and_nan_as_the_largest(largest, k, axis):
    x = normal(3, 5)
    x[0, 1] = x[0, 4] = x[2, 0] = np.nan
    x[1, 2] = x[1, 3] = 0.5
    x[2, 1:] = -0.0
    values, indices = check("top_k", x, k=k, axis=axis, largest=largest)
    assert indices.dtype == np.int64


def test_top_k_of_integers_and_booleans():
    check("top_k", integers(2, 6, dtype=np.int8), k=4)
    check("top_k", RNG.integers(0, 2, (2, 6)).astype(bool), k=4, largest=False)
    check("top_k", RNG.integers(0, 2, (7,)).astype(bool), k=7)
